/* Unit tests for daemon/policy/gitconfig-change.c: what git config
 * user.email, git remote add and git push -u change in an existing config
 * passes whatever else the user's config holds; any change to a key that
 * runs a program, or a file git would parse otherwise, does not; and a
 * differential run against `git config --list`: for every change the
 * check accepts, the keys git lists differ only in allowed ones. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>

#include "daemon/policy/gitconfig.h"
#include "git-list.h"
#include "unit.h"

static int
change(const char *old, const char *new_, struct gitconfig_error *e)
{
	return gitconfig_change_check(old, strlen(old), new_, strlen(new_), e);
}

/* A config a user wrote by hand: every syntax git reads, and keys that
 * run programs, which the sandbox must leave as they are. */
static const char user_config[] =
	"\xef\xbb\xbf# mine\n"
	"[core]\r\n"
	"\trepositoryformatversion = 0\n"
	"\thooksPath = \"/home/u/hooks\" ; shared hooks\n"
	"\teditor = vim \\\n"
	"   -u NONE\n"
	"[alias] st = status -sb\n"
	"[includeIf \"gitdir:~/work/\"]\n"
	"\tpath = ~/.gitconfig-work\n"
	"[Remote.Origin]\n"
	"\turl = https://example.com/a.git\n"
	"[branch \"main\"]\n"
	"\trebase\n";

static void
test_accepts(void)
{
	static const char init[] = "[core]\n\tbare = false\n";

	CHECK_INT(change(init, init, NULL), 0);
	CHECK_INT(change(init, "[core]\n\tbare = false\n[user]\n\temail = "
			       "a@b\n", NULL), 0);
	CHECK_INT(change(init, "[core]\n\tbare = false\n[remote \"origin\"]\n"
			       "\turl = /srv/r.git\n\tfetch = +refs/heads/*:"
			       "refs/remotes/origin/*\n[branch \"main\"]\n"
			       "\tremote = origin\n\tmerge = refs/heads/main\n",
			 NULL), 0);
	/* The user's config kept as it was, git's additions at the end. */
	char buf[2048];

	snprintf(buf, sizeof(buf), "%s[user]\n\temail = a@b\n", user_config);
	CHECK_INT(change(user_config, buf, NULL), 0);
	/* An allowed key changed in the old-style header's section. */
	snprintf(buf, sizeof(buf), "%s", user_config);
	memcpy(strstr(buf, "https://example.com/a.git"),
	       "https://example.com/b.git", 25);
	CHECK_INT(change(user_config, buf, NULL), 0);
	/* Removed: a remote (git remote remove). */
	CHECK_INT(change("[core]\n\tbare = false\n[remote \"o\"]\n\turl = x\n",
			 init, NULL), 0);
	CHECK_INT(change(init, "[pull]\n\trebase = false\n[core]\n\tbare = "
			       "false\n", NULL), 0);
}

static void
test_refuses(void)
{
	static const char init[] = "[core]\n\tbare = false\n";
	static const char *const added[] = {
		"[core]\n\thooksPath = x\n",
		"[core]\n\tfsmonitor = x\n",
		"[core]\n\tsshCommand = x\n",
		"[core]\n\tpager = x\n",
		"[core]\n\teditor = x\n",
		"[alias]\n\tx = !sh\n",
		"[include]\n\tpath = /tmp/x\n",
		"[includeIf \"onbranch:m\"]\n\tpath = /tmp/x\n",
		"[filter \"f\"]\n\tclean = sh\n",
		"[diff \"d\"]\n\ttextconv = sh\n",
		"[merge \"m\"]\n\tdriver = sh\n",
		"[gpg]\n\tprogram = sh\n",
		"[credential]\n\thelper = x\n",
		"[remote \"o\"]\n\tuploadpack = sh\n",
		"[remote \"o\"]\n\treceivepack = sh\n",
		"[remote \"o\"]\n\tvcs = x\n",
		"[remote \"o\"]\n\turl = ext::sh -c x\n",
		"[remote \"o\"]\n\tpushurl = x::y\n",
		"[remote \"o\"]\n\turl = -oProxyCommand=x\n",
		"[submodule \"s\"]\n\tupdate = !sh\n",
		"[extensions]\n\tworktreeConfig = true\n",
		"[core] fsmonitor = x\n",
		"[core.x]\n\tfsmonitor = y\n",
		"[user]\n\tname = a\n[core]\n\tfsmonitor\n",
	};
	struct gitconfig_error e;
	char buf[1024];
	size_t i;

	for (i = 0; i < sizeof(added) / sizeof(added[0]); i++) {
		snprintf(buf, sizeof(buf), "%s%s", init, added[i]);
		if (change(init, buf, NULL) != -EINVAL)
			fprintf(stderr, "accepted: %s\n", added[i]);
		CHECK_INT(change(init, buf, NULL), -EINVAL);
	}
	memset(&e, 0, sizeof(e));
	CHECK_INT(change(init, "[core]\n\tbare = false\n\thooksPath = x\n", &e),
		  -EINVAL);
	CHECK_STR(e.key, "core.hookspath");
	CHECK_INT(e.line, 3);
	CHECK(e.why && strstr(e.why, "hooks"));
	/* The user's keys: changed, removed, moved past an include. */
	CHECK_INT(change("[alias]\n\tst = status\n", "[alias]\n\tst = !sh\n",
			 &e), -EINVAL);
	CHECK_STR(e.key, "alias.st");
	/* git's whitespace is not C's: \v and \f are part of the value. */
	CHECK_INT(change("[core]\n\thooksPath = /h\n",
			 "[core]\n\thooksPath = \v/h\n", &e), -EINVAL);
	CHECK_STR(e.key, "core.hookspath");
	CHECK_INT(change("[alias]\n\tst = status -s\n",
			 "[alias]\n\tst = status\f-s\n", &e), -EINVAL);
	CHECK_INT(change("[core]\n\tbare = false\n",
			 "[core]\n\tbare = false\n\v", &e), -EINVAL);
	CHECK_INT(change("[alias]\n\tst = status -s\n",
			 "[alias]\n\tst = status\t-s\n", &e), -EINVAL);
	CHECK_INT(change("[alias]\n\tst = status -s\n",
			 "[alias]\n\tst =  status -s \t# c\n", &e), 0);
	CHECK_INT(change("[include]\n\tpath = a\n", "", &e), -EINVAL);
	CHECK_STR(e.key, "include.path");
	CHECK_INT(e.line, 0);
	CHECK_INT(change("[core]\n\teditor = a\n[include]\n\tpath = b\n",
			 "[include]\n\tpath = b\n[core]\n\teditor = a\n", NULL),
		  -EINVAL);
	/* Hidden by syntax: a continuation, a quote, a header's line. */
	CHECK_INT(change("[core]\n\teditor = a\n",
			 "[core]\n\teditor = a \\\n;x\n", NULL), -EINVAL);
	CHECK_INT(change("[core]\n\teditor = \"a\"\n",
			 "[core]\n\teditor = \"a;b\"\n", NULL), -EINVAL);
	/* A file git would refuse, either side. */
	CHECK_INT(change(init, "[core]\n\tbare = \"x\n", NULL), -EINVAL);
	CHECK_INT(change("[core\n", init, NULL), -EINVAL);
	CHECK_INT(change(init, "[core]\n\tbare = \\q\n", NULL), -EINVAL);
	CHECK_INT(change(init, "x = 1\n", NULL), -EINVAL);
	CHECK_INT(gitconfig_change_check(init, strlen(init), "[core]\0", 7,
					 NULL), -EINVAL);
	/* A remote URL that decides an include. */
	CHECK_INT(change("[includeIf \"hasconfig:remote.*.url:https://w/**\"]"
			 "\n\tpath = w\n",
			 "[includeIf \"hasconfig:remote.*.url:https://w/**\"]"
			 "\n\tpath = w\n[remote \"o\"]\n\turl = https://w/x\n",
			 NULL), -EINVAL);
	CHECK_INT(gitconfig_change_check(init, GITCONFIG_MAX + 1, init,
					 strlen(init), NULL), -EINVAL);
}

/* --- differential run against git ------------------------------------- */

static const char *const pieces[] = {
	"[core]", "[alias]", "[remote \"o\"]", "[branch \"m\"]", "[include]",
	"[user]", "[Remote.O]", "[core] editor = e", "\tbare = false",
	"\tfsmonitor = x", "\thooksPath = \"y\" # c", "\turl = https://h/p",
	"\tpath = /tmp/x", "\tfetch = +refs/*:refs/*", "\tname = n", "# c",
	"; c", "", "\tlogallrefupdates", "\tmerge = refs/heads/m",
	"\tst = !sh", "\teditor = a \\", "\temail = \"a;b\"", "\tx = \\t",
	"\tsshCommand = s", "\tfsmonitor = \vx", "\teditor = e\f",
};
static const char *const additions[] = {
	"[user]", "\temail = e@x", "\tname = n", "[remote \"p\"]",
	"\turl = /r", "\tfetch = +refs/heads/*:refs/remotes/p/*",
	"[branch \"m\"]", "\tremote = p", "\tmerge = refs/heads/m",
	"\teditor = z", "\tfsmonitor = z", "[alias]", "\tst = x", "\\",
	"\"", "[core]", "\tfsmonitor =\vx", "\tfsmonitor = x\f",
};

static uint64_t rng = 0x2545f4914f6cdd1dull;

static unsigned
rnd(unsigned n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (unsigned)(rng % n);
}

/* old: random lines; new: old with a few lines added or removed. */
static void
generate(char *old, char *new_, size_t size)
{
	size_t no = 0, nn = 0;
	unsigned i, lines = 1 + rnd(10);
	const char *l;

	old[0] = new_[0] = '\0';
	for (i = 0; i < lines; i++) {
		l = pieces[rnd(sizeof(pieces) / sizeof(pieces[0]))];
		if (rnd(6) == 0)
			nn += (size_t)snprintf(new_ + nn, size - nn, "%s\n",
				additions[rnd(sizeof(additions) /
					      sizeof(additions[0]))]);
		no += (size_t)snprintf(old + no, size - no, "%s\n", l);
		if (rnd(10) != 0)
			nn += (size_t)snprintf(new_ + nn, size - nn, "%s\n", l);
		if (no >= size - 100 || nn >= size - 100)
			break;
	}
	if (rnd(2))
		snprintf(new_ + nn, size - nn, "%s\n",
			 additions[rnd(sizeof(additions) /
				       sizeof(additions[0]))]);
}

/* git's entries of keys the check may not let change, one a line. */
static void
fixed(const char *list, int n, char *out, size_t cap)
{
	const char *p, *dot1, *dot2, *nl;
	size_t o = 0;

	out[0] = '\0';
	for (p = list; p < list + n; p += strlen(p) + 1) {
		nl = strchr(p, '\n');
		if (!nl)
			nl = p + strlen(p);
		dot1 = memchr(p, '.', (size_t)(nl - p));
		dot2 = dot1;
		while (dot2 && memchr(dot2 + 1, '.', (size_t)(nl - dot2 - 1)))
			dot2 = memchr(dot2 + 1, '.', (size_t)(nl - dot2 - 1));
		if (dot1) {
			char sec[64], sub[256];

			snprintf(sec, sizeof(sec), "%.*s", (int)(dot1 - p), p);
			snprintf(sub, sizeof(sub), "%.*s",
				 (int)(dot2 - dot1 - 1), dot1 + 1);
			if (gitconfig_key_allowed(sec, dot1 == dot2 ? NULL :
						  sub, dot2 + 1,
						  (size_t)(nl - dot2 - 1)))
				continue;
		}
		o += (size_t)snprintf(out + o, cap - o, "%s|", p);
		if (o >= cap)
			break;
	}
}

static int
differential(unsigned rounds)
{
	char path[] = "/tmp/sbx-gitconfig-change.XXXXXX";
	static char old[2048], new_[2048], lo[65536], ln[65536];
	static char fo[65536], fn[65536];
	int fd, accepted = 0, a, b;
	unsigned i;

	if ((fd = mkstemp(path)) < 0)
		return -1;
	close(fd);
	for (i = 0; i < rounds; i++) {
		generate(old, new_, sizeof(old));
		if (gitconfig_change_check(old, strlen(old), new_,
					   strlen(new_), NULL) != 0)
			continue;
		if ((a = git_list(path, old, strlen(old), lo, sizeof(lo))) == -2 ||
		    (b = git_list(path, new_, strlen(new_), ln, sizeof(ln))) == -2) {
			unlink(path);
			return -1;
		}
		/* We accepted what git refuses: git would then read
		 * nothing of it; no risk, but our parser is not git's. */
		CHECK(a >= 0 && b >= 0);
		if (a < 0 || b < 0)
			continue;
		accepted++;
		fixed(lo, a, fo, sizeof(fo));
		fixed(ln, b, fn, sizeof(fn));
		if (strcmp(fo, fn)) {
			fprintf(stderr, "git sees a change:\n--- old\n%s--- new\n"
				"%s--- %s\n--- %s\n", old, new_, fo, fn);
			CHECK(0);
		}
	}
	unlink(path);
	return accepted;
}

int
main(void)
{
	int n;

	test_accepts();
	test_refuses();
	n = differential(1500);
	if (n < 0)
		printf("test-gitconfig-change: git not available, "
		       "differential run skipped\n");
	else
		CHECK(n > 50);
	printf("test-gitconfig-change: %d accepted changes checked against "
	       "git\n", n > 0 ? n : 0);
	UNIT_DONE();
}
