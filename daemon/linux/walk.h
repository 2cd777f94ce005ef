/* The workspace walk of a template: which existing paths under the writable
 * trees the policy's globs and the ignore files mask or protect, first in
 * full, then again for each directory that changes (inotify), so files
 * that appear later are masked too. */
#ifndef SBX_LINUX_WALK_H
#define SBX_LINUX_WALK_H

#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/stat.h>

#include "daemon/policy/fsplan.h"

/* Bounds on one walk: a workspace beyond them fails the build visibly
 * rather than leaving part of it unmasked. */
#define WALK_MAX_ENTRIES 1000000
#define WALK_MAX_DEPTH 256

struct walk_result {
	struct fsplan_list deny;   /* to make unreadable: files */
	struct fsplan_list deny_dirs; /* ... and directories */
	struct fsplan_list ro;     /* to make read-only */
	struct fsplan_list ro_links; /* read-only: files with links outside */
};

struct walk_state;

/* fn is told of each directory the walk opened (dfd), before it reads
 * it: a watch put on it then misses nothing made in it after the read.
 * mask, when set, takes the first walk's masks as they are decided
 * (instead of the result's deny lists), so they can be mounted while the
 * walk goes on. */
struct walk_watch {
	int (*fn)(int dfd, const char *abs, void *arg);
	void *arg;
	int (*mask)(const char *abs, bool dir, void *arg);
	void *mask_arg;
};

/* Walks every writable tree of fs. Other hard links of a masked file are
 * masked too (a mask is by file, not by name). The state remembers what
 * was decided, for linux_walk_rescan, and watch->fn (NULL: none), for
 * every walk of it. */
int linux_walk(const struct fsplan *fs, const struct walk_watch *watch,
	       struct walk_state **st, struct walk_result *out);
/* Directory abs changed: entry name appeared (or, when name is an ignore
 * file or NULL, the directory is walked again in full); reports only what
 * is new to mask or protect (new directories are watched as walked). */
int linux_walk_rescan(struct walk_state *st, const char *abs,
		      const char *name, struct walk_result *out);
/* Entry name of directory dir was removed or renamed away: its path (and,
 * for a directory, those below it) no longer counts as a link seen; with
 * check, reports the links left of a file that now has more elsewhere,
 * to be made read-only (without: it comes back under another name). */
int linux_walk_gone(struct walk_state *st, const char *dir,
		    const char *name, bool is_dir, bool check,
		    struct walk_result *out);
/* Events were lost: the link counts start again from what the walks
 * until linux_walk_recounted see, which then reports the files they saw
 * with links elsewhere (none is decided from half the counts). */
void linux_walk_recount(struct walk_state *st);
int linux_walk_recounted(struct walk_state *st, struct walk_result *out);
/* While a drain of the watch's events is handled, files seen with other
 * links are decided only once it is over (linux_walk_links_settle): a
 * file seen with two links (git's link of a temporary object to its
 * name) has its other link's event queued already, counted by then. */
void linux_walk_defer_links(struct walk_state *st);
int linux_walk_links_settle(struct walk_state *st, struct walk_result *out);
bool linux_walk_is_ignore_file(const struct walk_state *st, const char *name);
/* The last ignore file a walk of this process refused (not a regular
 * file, a link, too large), "path: reason", or NULL. */
const char *linux_walk_refused(void);
/* Calls fn for every directory walked so far (to watch them). */
int linux_walk_each_dir(const struct walk_state *st,
			int (*fn)(const char *dir, void *arg), void *arg);
void linux_walk_result_free(struct walk_result *r);
void linux_walk_state_free(struct walk_state *st);

/* Link counts of the files under the writable trees (linux/links.c). */
struct ilink;
struct linux_links_tab {
	struct ilink *v;
	size_t cap, n;
};
struct linux_links {
	struct linux_links_tab inodes, pairs, paths;
};
/* A regular file st seen at a path whose hash is ph (again: no change). */
int linux_links_see(struct linux_links *l, const struct stat *st,
		    uint64_t ph);
/* The path whose hash is ph was removed (or renamed away); true when its
 * inode, (*dev, *ino), has paths left here and may have a link outside. */
bool linux_links_gone(struct linux_links *l, uint64_t ph, dev_t *dev,
		      ino_t *ino);
/* The inode has links the walk did not see under the writable trees. */
bool linux_links_outside(struct linux_links *l, dev_t dev, ino_t ino);
void linux_links_free(struct linux_links *l);

/* The repositories git reaches from the .git at abs (linux/gitrepo.c):
 * the one it names and its common directory, canonical, into out[];
 * how many (0-2). */
int linux_git_repos(const char *abs, char out[2][PATH_MAX]);

#endif
