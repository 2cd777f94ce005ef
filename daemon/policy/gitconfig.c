/* A whitelist check of git config files, line by line: section headers
 * `[name]` or `[name "sub"]`, `key = value` lines, comments. No quoting,
 * escapes, continuations, includes or keys outside the table. */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "daemon/policy/gitconfig.h"
#include "daemon/policy/gitfile.h"
#include "daemon/policy/path.h"

/* Keys whose values cannot run a program, name a hook, another file or a
 * filter, nor change which program git runs: what git init and git clone
 * write, and what ordinary work sets (git config user.email, git remote
 * add, git push -u, pull.rebase). Not extensions.worktreeConfig, which
 * would make git read config.worktree files, which are not protected;
 * not remote.*.uploadpack, receivepack or vcs (programs), nor proxy. */
static const struct {
	const char *section;
	bool sub;               /* needs a subsection ("origin") */
	const char *key;
} allowed[] = {
	{ "core", false, "repositoryformatversion" },
	{ "core", false, "filemode" },
	{ "core", false, "bare" },
	{ "core", false, "logallrefupdates" },
	{ "core", false, "symlinks" },
	{ "core", false, "ignorecase" },
	{ "core", false, "precomposeunicode" },
	{ "core", false, "sparsecheckout" },
	{ "core", false, "sparsecheckoutcone" },
	{ "core", false, "autocrlf" },
	{ "core", false, "eol" },
	{ "extensions", false, "objectformat" },
	{ "extensions", false, "refstorage" },
	{ "extensions", false, "partialclone" },
	{ "remote", true, "url" },
	{ "remote", true, "pushurl" },
	{ "remote", true, "fetch" },
	{ "remote", true, "push" },
	{ "remote", true, "tagopt" },
	{ "remote", true, "prune" },
	{ "remote", true, "promisor" },
	{ "remote", true, "partialclonefilter" },
	{ "branch", true, "remote" },
	{ "branch", true, "pushremote" },
	{ "branch", true, "merge" },
	{ "branch", true, "rebase" },
	{ "branch", true, "description" },
	{ "submodule", true, "url" },
	{ "submodule", true, "active" },
	/* git clone --recurse-submodules: a pathspec of the active ones
	 * (not submodule.NAME.update, which may be "!command") */
	{ "submodule", false, "active" },
	{ "user", false, "name" },
	{ "user", false, "email" },
	{ "pull", false, "rebase" },
	{ "pull", false, "ff" },
	{ "push", false, "default" },
	{ "push", false, "autosetupremote" },
	{ "fetch", false, "prune" },
	{ "init", false, "defaultbranch" },
	{ "advice", false, NULL }, /* any advice.* */
};

bool
gitconfig_key_allowed(const char *section, const char *sub, const char *key,
		      size_t keylen)
{
	size_t i;

	for (i = 0; i < sizeof(allowed) / sizeof(allowed[0]); i++)
		if (!strcasecmp(allowed[i].section, section) &&
		    allowed[i].sub == (sub != NULL) &&
		    (!allowed[i].key ||
		     (strlen(allowed[i].key) == keylen &&
		      !strncasecmp(allowed[i].key, key, keylen))))
			return true;
	return false;
}

static bool url_ok(const char *v, size_t n);

bool
gitconfig_value_ok(const char *section, const char *key, size_t keylen,
		   const char *v, size_t vn)
{
	(void)section;
	if ((keylen == 3 && !strncasecmp(key, "url", 3)) ||
	    (keylen == 7 && !strncasecmp(key, "pushurl", 7)))
		return url_ok(v, vn);
	return true;
}

struct state {
	/* A submodule's config: its directory, and the superproject's
	 * .git (NULL for any other). */
	const char *gitdir, *git;
	char section[32];
	bool has_sub, in_section;
	struct gitconfig_error *err;
	unsigned line;
};

static int
refuse(struct state *s, const char *key, const char *why)
{
	if (s->err) {
		s->err->line = s->line;
		snprintf(s->err->key, sizeof(s->err->key), "%s", key ? key : "");
		s->err->why = why;
	}
	return -EINVAL;
}

static bool
is_name_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '-';
}

static bool
is_blank(char c)
{
	return c == ' ' || c == '\t';
}

/* [name] or [name "sub"]; p..end is the line without leading blanks. */
static int
section(struct state *s, const char *p, const char *end)
{
	const char *q = ++p;
	size_t n;

	while (q < end && is_name_char(*q))
		q++;
	n = (size_t)(q - p);
	if (n == 0 || n >= sizeof(s->section))
		return refuse(s, NULL, "bad section name");
	memcpy(s->section, p, n);
	s->section[n] = '\0';
	s->has_sub = false;
	if (q < end && is_blank(*q)) {
		while (q < end && is_blank(*q))
			q++;
		if (q >= end || *q != '"')
			return refuse(s, NULL, "bad section header");
		for (q++; q < end && *q != '"'; q++)
			if (*q == '\\')
				return refuse(s, NULL, "escape in subsection");
		if (q >= end)
			return refuse(s, NULL, "unterminated subsection");
		q++;
		s->has_sub = true;
	}
	if (q >= end || *q != ']')
		return refuse(s, NULL, "bad section header");
	for (q++; q < end; q++)
		if (!is_blank(*q))
			return refuse(s, NULL, "text after section header");
	s->in_section = true;
	return 0;
}

/* Values git would read as a remote helper (`x::...`), an option, or an
 * ext/fd transport are refused whatever the key. */
static bool
url_ok(const char *v, size_t n)
{
	size_t i;

	if (n > 0 && v[0] == '-')
		return false;
	for (i = 0; i + 1 < n; i++)
		if (v[i] == ':' && v[i + 1] == ':')
			return false;
	for (i = 0; i + 3 < n; i++)
		if (!memcmp(v + i, "://-", 4))
			return false;
	return true;
}

/* A submodule's core.worktree (git submodule sets it, relative, to the
 * submodule's directory): only a relative path inside the superproject's
 * work tree, and not into its .git, so that the host's git never takes a
 * tree elsewhere for the submodule's and checks files out there. */
static bool
worktree_ok(const struct state *s, const char *v, size_t vn)
{
	char path[POLICY_PATH_MAX], top[POLICY_PATH_MAX];
	const char *slash = strrchr(s->git, '/');

	if (vn == 0 || v[0] == '/' || !slash ||
	    gitfile_join(v, vn, s->gitdir, path, sizeof(path)) < 0)
		return false;
	snprintf(top, sizeof(top), "%.*s", (int)(slash - s->git), s->git);
	return top[0] && strcmp(path, top) &&
	       policy_path_covers(top, path) &&
	       !policy_path_covers(s->git, path);
}

static int
keyval(struct state *s, const char *p, const char *end)
{
	char full[sizeof(s->section) + 48];
	const char *k = p, *v;
	size_t kn, vn, i;

	while (p < end && is_name_char(*p))
		p++;
	kn = (size_t)(p - k);
	if (kn == 0 || kn >= 40 || !((k[0] >= 'a' && k[0] <= 'z') ||
				     (k[0] >= 'A' && k[0] <= 'Z')))
		return refuse(s, NULL, "bad key");
	snprintf(full, sizeof(full), "%s.%.*s", s->section, (int)kn, k);
	if (!s->in_section)
		return refuse(s, full, "key outside a section");
	while (p < end && is_blank(*p))
		p++;
	if (p >= end || *p != '=')
		return refuse(s, full, "key without '= value'");
	for (p++; p < end && is_blank(*p); p++)
		;
	v = p;
	while (end > v && is_blank(end[-1]))
		end--;
	vn = (size_t)(end - v);
	for (i = 0; i < vn; i++)
		if (v[i] == '"' || v[i] == '\\' || v[i] == '#' || v[i] == ';')
			return refuse(s, full, "quoting, escape or comment in "
				      "value");
	if (s->gitdir && !s->has_sub && !strcasecmp(s->section, "core") &&
	    kn == 8 && !strncasecmp(k, "worktree", 8)) {
		if (!worktree_ok(s, v, vn))
			return refuse(s, full, "a submodule's work tree "
				      "outside the superproject's");
		return 0;
	}
	if (!gitconfig_key_allowed(s->section, s->has_sub ? "" : NULL, k, kn))
		return refuse(s, full, "key not allowed in a config the "
			      "sandbox writes");
	if (!gitconfig_value_ok(s->section, k, kn, v, vn))
		return refuse(s, full, "remote helper, option or ext "
			      "transport in url");
	return 0;
}

static int
check(struct state s, const char *buf, size_t len)
{
	const char *p = buf, *end = buf + len, *eol;
	size_t i;
	int r;

	if (len > GITCONFIG_MAX)
		return refuse(&s, NULL, "file too large");
	/* Bytes that hide text or that git reads as escapes, even in a
	 * comment: refused. */
	for (i = 0; i < len; i++) {
		unsigned char c = (unsigned char)buf[i];

		if ((c < 0x20 && c != '\t' && c != '\n') || c == 0x7f ||
		    c == '\\') {
			s.line = 1;
			for (p = buf; p < buf + i; p++)
				s.line += *p == '\n';
			return refuse(&s, NULL, "control character or "
				      "backslash");
		}
	}
	for (p = buf; p < end; p = eol + 1) {
		s.line++;
		eol = memchr(p, '\n', (size_t)(end - p));
		if (!eol)
			eol = end;
		while (p < eol && is_blank(*p))
			p++;
		if (p == eol || *p == '#' || *p == ';')
			continue;
		r = *p == '[' ? section(&s, p, eol) : keyval(&s, p, eol);
		if (r < 0)
			return r;
		if (eol == end)
			break;
	}
	return 0;
}

int
gitconfig_check(const char *buf, size_t len, struct gitconfig_error *err)
{
	return check((struct state){ .err = err }, buf, len);
}

int
gitconfig_check_module(const char *buf, size_t len, const char *gitdir,
		       const char *git, struct gitconfig_error *err)
{
	return check((struct state){ .err = err, .gitdir = gitdir,
				     .git = git }, buf, len);
}
