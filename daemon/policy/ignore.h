/* Ignore files (.sbxignore, .cursorignore): gitignore patterns, compiled and matched. */
#ifndef SBX_IGNORE_H
#define SBX_IGNORE_H

#include <stdbool.h>
#include <stddef.h>

/*
 * Limits. git has none of these; they bound what a hostile workspace can
 * make the daemon allocate or compute. A file over a limit is rejected as a
 * whole, with the line that crossed it.
 */
#define IGNORE_FILE_MAX		(1024 * 1024)	/* bytes in one file */
#define IGNORE_LINE_MAX		4096	/* bytes in one pattern line */
#define IGNORE_PATTERNS_MAX	10000	/* patterns in one file */
#define IGNORE_PATH_MAX		4096	/* bytes in a path or a directory */

/*
 * A compiled glob is a flat list of tokens, matched left to right against
 * the whole text (the path relative to the file's directory, or only its
 * last component: see IGNORE_ANCHORED). Each token is one regular
 * expression, so a regex generator (the Seatbelt backend) emits them in
 * order and anchors the result:
 *
 *	LIT		the bytes lit.s[0..lit.len), never containing '/'
 *	SLASH		"/"
 *	ANY		"[^/]"		gitignore '?'
 *	CLASS		one byte whose bit is set in class[32] ('/' and NUL
 *			never are; negation is already applied)
 *	STAR		"[^/]*"		'*', and '**' where git treats it as '*'
 *	STARSTAR	".*"		"**" ending the pattern after a '/',
 *					or "**" before an escaped '/'
 *	DIRS		"(.*\/)?"	"**" before a '/', the '/' included
 *
 * Path segments are the runs between SLASH tokens; a DIRS token stands for
 * any number (zero included) of whole leading segments.
 */
enum ignore_tok_kind {
	IGNORE_TOK_LIT = 1,
	IGNORE_TOK_SLASH,
	IGNORE_TOK_ANY,
	IGNORE_TOK_CLASS,
	IGNORE_TOK_STAR,
	IGNORE_TOK_STARSTAR,
	IGNORE_TOK_DIRS,
};

struct ignore_tok {
	enum ignore_tok_kind	 kind;
	union {
		struct {
			const char	*s;	/* not NUL-terminated */
			size_t		 len;
		} lit;
		const unsigned char	*class;	/* bit (c & 7) of class[c >> 3] */
	};
};

/* Pattern flags. */
#define IGNORE_NEGATE	0x01	/* "!pattern": re-includes what matches */
#define IGNORE_DIRONLY	0x02	/* "pattern/": matches directories only */
#define IGNORE_ANCHORED	0x04	/* had a '/' before its end: tokens match
				   the path relative to the file's
				   directory; otherwise they match the last
				   component, at any depth below it */
#define IGNORE_NEVER	0x08	/* can never match (warn says why); kept so
				   line numbers and explanations stay whole */

struct ignore_file;

struct ignore_pattern {
	const struct ignore_file *file;	/* the file this line came from */
	unsigned		 line;	/* 1-based line number in it */
	unsigned		 flags;	/* IGNORE_* above */
	const char		*text;	/* the line as git reads it (after CR and
					   trailing-space trimming), for
					   explanations */
	const char		*warn;	/* static reason when IGNORE_NEVER */
	size_t			 ntok;
	const struct ignore_tok	*tok;	/* tok, text, literals and classes are
					   one block owned by the pattern */
};

/*
 * One parsed ignore file. dir is the workspace-relative directory holding
 * it: "" for the workspace root, else like "a/b" (no leading, trailing or
 * doubled '/', no "." or ".." component). name is its file name, e.g.
 * ".sbxignore". All memory is owned by the file.
 */
struct ignore_file {
	char			*dir;
	char			*name;
	size_t			 npat;
	struct ignore_pattern	*pat;
};

/* Where and why a file was rejected. */
struct ignore_error {
	unsigned	 line;		/* 1-based; 0: not about one line */
	const char	*reason;	/* static string */
};

/*
 * Is path[0..len) a workspace-relative path in the form described above
 * ("" only when empty_ok), at most IGNORE_PATH_MAX bytes?
 */
bool	ignore_path_valid(const char *path, size_t len, bool empty_ok);

/*
 * Parse text[0..len) (need not be NUL-terminated) as gitignore lines: a
 * UTF-8 BOM, comments, blank lines, CRLF and trailing spaces are handled as
 * git does. Malformed globs are kept as IGNORE_NEVER patterns, as git
 * silently never matches them. Returns 0 and *out, or -EINVAL (bad dir or
 * name, a NUL byte, a line over IGNORE_LINE_MAX), -EFBIG (len over
 * IGNORE_FILE_MAX), -E2BIG (over IGNORE_PATTERNS_MAX) with *err filled, or
 * -ENOMEM.
 */
int	ignore_parse(const char *dir, const char *name, const char *text,
	    size_t len, struct ignore_file **out, struct ignore_error *err);
void	ignore_file_free(struct ignore_file *f);

/*
 * Does p match the path rel[0..len), relative to p->file->dir? Only the
 * pattern itself: negation, other patterns and parent directories are the
 * set's business. is_dir means a directory, not a symlink to one (git uses
 * lstat).
 */
bool	ignore_pattern_match(const struct ignore_pattern *p, const char *rel,
	    size_t len, bool is_dir);

/*
 * Compile the glob body s[0..len) (the pattern without '!', trailing '/'
 * and, when anchored, leading '/') into p->tok and p->text (a copy of
 * line[0..linelen)). anchored selects path matching, where "**" has its
 * special meanings; without it text is one component and '*' == '**'.
 * Sets IGNORE_NEVER and p->warn for a glob git would never match.
 * Returns 0 or -ENOMEM.
 */
int	ignore_glob_compile(struct ignore_pattern *p, const char *s, size_t len,
	    bool anchored, const char *line, size_t linelen);

/*
 * A set of ignore files at many depths: the matcher for one workspace.
 * git's rules: for a path, only files in its ancestor directories count;
 * the deepest file with a matching line decides, and within a file the
 * last matching line; a path below an excluded directory is excluded, and
 * no line can re-include it (nor are files inside it read).
 */
struct ignore_set;

int	ignore_set_new(struct ignore_set **out);
void	ignore_set_free(struct ignore_set *set);

/*
 * Add a parsed file; on success the set owns it. Several files may share a
 * directory (.cursorignore and .sbxignore): the one added later acts as if
 * its lines followed the earlier one's. Returns 0, -EEXIST (same dir and
 * name already there) or -ENOMEM.
 */
int	ignore_set_add(struct ignore_set *set, struct ignore_file *f);
/* Remove and free the file dir/name; -ENOENT if there is none. */
int	ignore_set_remove(struct ignore_set *set, const char *dir,
	    const char *name);
/* Files in directory order (then order added), for generators. */
size_t	ignore_set_count(const struct ignore_set *set);
const struct ignore_file *ignore_set_file(const struct ignore_set *set,
	    size_t i);

/*
 * Is the workspace-relative path (same form as ignore_file.dir, not "")
 * excluded? Returns 1 (excluded) or 0, and sets *why (when why is not
 * NULL) to the deciding pattern: the last matching line, which is negated
 * when it re-included the path, or the line that excluded a parent
 * directory; NULL when no line matched. Returns -EINVAL for a malformed
 * path and -ENAMETOOLONG past IGNORE_PATH_MAX.
 */
int	ignore_set_match(const struct ignore_set *set, const char *path,
	    bool is_dir, const struct ignore_pattern **why);
/*
 * The same for a directory walk: the caller promises that no parent
 * directory of path is excluded (it pruned those), so only path itself is
 * tested, against the files of its ancestors. A walk entering directory D
 * first adds D's ignore files, then matches each entry D/E with this,
 * masks what is excluded and descends only into directories that are not
 * (git reads no ignore file inside an excluded directory either).
 */
int	ignore_set_match_child(const struct ignore_set *set, const char *path,
	    bool is_dir, const struct ignore_pattern **why);

#endif
