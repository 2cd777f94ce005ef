/* Unit tests for daemon/policy/gitconfig.c: what git init and clone write
 * passes, anything that runs a program or reads another file does not, and a
 * differential run against `git config --list` on generated files: for
 * every file the check accepts, git must see only allowed keys. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <unistd.h>

#include "daemon/policy/gitconfig.h"
#include "git-list.h"
#include "unit.h"

static int
check(const char *text)
{
	return gitconfig_check(text, strlen(text), NULL);
}

static const char init_config[] =
	"[core]\n"
	"\trepositoryformatversion = 0\n"
	"\tfilemode = true\n"
	"\tbare = false\n"
	"\tlogallrefupdates = true\n";

static const char clone_config[] =
	"[core]\n"
	"\trepositoryformatversion = 0\n"
	"\tfilemode = true\n"
	"\tbare = false\n"
	"\tlogallrefupdates = true\n"
	"[remote \"origin\"]\n"
	"\turl = https://example.com/x/y.git\n"
	"\tfetch = +refs/heads/*:refs/remotes/origin/*\n"
	"[branch \"main\"]\n"
	"\tremote = origin\n"
	"\tmerge = refs/heads/main\n";

static void
test_accepts(void)
{
	CHECK_INT(check(""), 0);
	CHECK_INT(check(init_config), 0);
	CHECK_INT(check(clone_config), 0);
	CHECK_INT(check("[core]\n\trepositoryformatversion = 1\n"
			"[extensions]\n\tobjectformat = sha256\n"), 0);
	CHECK_INT(check("# comment\n; other\n[CORE]\n  Bare=false  \n"), 0);
	CHECK_INT(check("[remote \"o\"]\n\turl = git@host:x/y.git\n"
			"\ttagOpt = --no-tags\n"), 0);
	CHECK_INT(check("[user]\n\tname = A B\n\temail = a@b.c\n"), 0);
	CHECK_INT(check("[core]\nbare = false"), 0); /* no final newline */
}

static void
test_refuses(void)
{
	struct gitconfig_error e;
	static const char *const bad[] = {
		"[core]\n\tfsmonitor = touch /tmp/pwned\n",
		"[core]\n\thooksPath = /tmp/h\n",
		"[core]\n\tpager = sh -c x\n",
		"[core]\n\tsshCommand = x\n",
		"[core]\n\teditor = x\n",
		"[core]\n\tworktree = /home/u/.ssh\n",
		"[extensions]\n\tworktreeConfig = true\n",
		"[include]\n\tpath = /tmp/evil\n",
		"[includeIf \"gitdir:/\"]\n\tpath = /tmp/evil\n",
		"[alias]\n\tst = !sh\n",
		"[filter \"x\"]\n\tclean = sh\n",
		"[diff]\n\texternal = sh\n",
		"[remote \"o\"]\n\tuploadpack = sh\n",
		"[remote \"o\"]\n\tvcs = x\n",
		"[remote \"o\"]\n\turl = ext::sh -c x\n",
		"[remote \"o\"]\n\turl = fd::3\n",
		"[remote \"o\"]\n\turl = -oProxyCommand=x\n",
		"[remote \"o\"]\n\turl = ssh://-oProxyCommand=x/y\n",
		"[submodule \"s\"]\n\tupdate = !sh\n",
		"[core]\n\tbare = \"false\"\n",
		"[core]\n\tbare = false \\\n\tfsmonitor = x\n",
		"[core]\n\tbare = false ; x\n",
		"[core] fsmonitor = x\n",
		"[core] bare = false\n",
		"[remote.origin]\n\turl = x\n",
		"[remote \"o\\\"x\"]\n\turl = x\n",
		"bare = false\n",
		"[core]\n\tbare\n",
		"[core]\r\n\tbare = false\r\n",
		"\xef\xbb\xbf[core]\n\tbare = false\n",
		"[core]\n\tbare = false\n\x01",
		"[remote]\n\turl = x\n",
		"[user \"x\"]\n\tname = a\n",
		"[core\n",
		"[]\n",
		"[core]\n\t0bad = 1\n",
	};
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		int r = check(bad[i]);

		if (r != -EINVAL)
			fprintf(stderr, "accepted: %s\n", bad[i]);
		CHECK_INT(r, -EINVAL);
	}
	CHECK_INT(gitconfig_check("x", 1, NULL), -EINVAL);
	CHECK_INT(gitconfig_check("[core]\n\tbare = 1\0", 17, NULL), -EINVAL);
	CHECK_INT(gitconfig_check(init_config, GITCONFIG_MAX + 1, NULL),
		  -EINVAL);
	memset(&e, 0, sizeof(e));
	CHECK_INT(gitconfig_check(bad[0], strlen(bad[0]), &e), -EINVAL);
	CHECK_INT(e.line, 2);
	CHECK_STR(e.key, "core.fsmonitor");
	CHECK(e.why != NULL);
}

/* A submodule's config: what git clone and git submodule write, with
 * core.worktree only inside the superproject's work tree. */
static int
module(const char *text)
{
	return gitconfig_check_module(text, strlen(text),
				      "/w/app/.git/modules/lib", "/w/app/.git",
				      NULL);
}

static void
submodule_config(void)
{
	static const char git_writes[] =
		"[core]\n\trepositoryformatversion = 0\n\tfilemode = true\n"
		"\tbare = false\n\tlogallrefupdates = true\n"
		"\tworktree = ../../../lib\n[remote \"origin\"]\n"
		"\turl = file:///src/lib\n"
		"\tfetch = +refs/heads/*:refs/remotes/origin/*\n"
		"[branch \"main\"]\n\tremote = origin\n"
		"\tmerge = refs/heads/main\n";

	CHECK_INT(module(git_writes), 0);
	CHECK_INT(check(git_writes), -EINVAL); /* not in a repository's own */
	CHECK_INT(module("[core]\n\tworktree = ../../../a/b\n"), 0);
	CHECK_INT(module("[core]\n\tworktree = ../../..\n"), -EINVAL);
	CHECK_INT(module("[core]\n\tworktree = ../../../..\n"), -EINVAL);
	CHECK_INT(module("[core]\n\tworktree = /w/app/lib\n"), -EINVAL);
	CHECK_INT(module("[core]\n\tworktree = ..\n"), -EINVAL);
	CHECK_INT(module("[core]\n\tworktree = ../../../lib/../..\n"),
		  -EINVAL);
	CHECK_INT(module("[core]\n\tworktree = ../../../.git/x\n"), -EINVAL);
	CHECK_INT(module("[core]\n\tworktree =\n"), -EINVAL);
	CHECK_INT(module("[core \"x\"]\n\tworktree = ../../../lib\n"),
		  -EINVAL);
	CHECK_INT(module("[core]\n\thooksPath = /tmp\n"), -EINVAL);
	CHECK_INT(module("[core]\n\tfsmonitor = x\n"), -EINVAL);
	CHECK_INT(module("[submodule \"s\"]\n\tupdate = !sh\n"), -EINVAL);
	/* A superproject's: submodule.active, a pathspec. */
	CHECK_INT(check("[submodule]\n\tactive = .\n"), 0);
}

/* --- differential run against git ------------------------------------- */

static const char *const pieces[] = {
	"[core]", "[CORE]", "[remote \"o\"]", "[branch \"m\"]", "[include]",
	"[core \"x\"]", "[remote \"o.x\"]", "[extensions]", "[user]",
	"\trepositoryformatversion = 0", "\tbare = false", "bare=true",
	"\tfsmonitor = x", "\thooksPath = y", "\turl = https://h/p",
	"\turl = a::b", "\tpath = /tmp/x", "\tfetch = +refs/*:refs/*",
	"\tobjectformat = sha256", "\tname = n", "# c", "; c", "",
	"\tlogallrefupdates", "\tmerge = refs/heads/m",
};
static const char noise[] = "\"\\;#[] \t=.\n-aZ";

static uint64_t rng = 88172645463325252ull;

static unsigned
rnd(unsigned n)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return (unsigned)(rng % n);
}

static size_t
generate(char *buf, size_t cap)
{
	size_t n = 0, k, i, len;
	unsigned lines = 1 + rnd(8);

	for (i = 0; i < lines; i++) {
		const char *p = pieces[rnd(sizeof(pieces) / sizeof(pieces[0]))];

		len = strlen(p);
		if (n + len + 4 >= cap)
			break;
		memcpy(buf + n, p, len);
		/* a mutation: one byte replaced or inserted */
		if (len && rnd(3) == 0)
			buf[n + rnd((unsigned)len)] = noise[rnd(sizeof(noise) - 1)];
		else if (rnd(4) == 0)
			buf[n + len++] = noise[rnd(sizeof(noise) - 1)];
		n += len;
		buf[n++] = '\n';
	}
	for (k = 0; k < n; k++)
		if (buf[k] == '\0')
			buf[k] = ' ';
	return n;
}

/* Every key git lists must be one the checker allows; returns the number
 * of accepted files checked, -1 when git is unavailable. */
static int
differential(unsigned rounds)
{
	char path[] = "/tmp/sbx-gitconfig.XXXXXX", buf[1024], out[65536];
	int fd, accepted = 0;
	unsigned i;

	if ((fd = mkstemp(path)) < 0)
		return -1;
	close(fd);
	for (i = 0; i < rounds; i++) {
		size_t n = generate(buf, sizeof(buf)), got = 0;
		int k;
		char *p;

		if (gitconfig_check(buf, n, NULL) != 0)
			continue;
		got = 0;
		if ((k = git_list(path, buf, n, out, sizeof(out))) == -2) {
			unlink(path);
			return -1;
		}
		if (k > 0)
			got = (size_t)k;
		accepted++;
		/* git refusing to parse a file we accept is no risk; a key we
		 * would refuse, listed by git, is. */
		for (p = out; p < out + got; p += strlen(p) + 1) {
			char one[256], doc[768], *nl = strchr(p, '\n');
			char *dot1, *dot2;

			if (!nl)
				nl = p + strlen(p);
			snprintf(one, sizeof(one), "%.*s", (int)(nl - p), p);
			dot1 = strchr(one, '.');
			dot2 = strrchr(one, '.');
			if (!dot1)
				continue;
			if (dot1 == dot2)
				snprintf(doc, sizeof(doc), "[%.*s]\n%s = %s\n",
					 (int)(dot1 - one), one, dot2 + 1,
					 *nl ? nl + 1 : "");
			else
				snprintf(doc, sizeof(doc), "[%.*s \"%.*s\"]\n"
					 "%s = %s\n", (int)(dot1 - one), one,
					 (int)(dot2 - dot1 - 1), dot1 + 1,
					 dot2 + 1, *nl ? nl + 1 : "");
			if (gitconfig_check(doc, strlen(doc), NULL) != 0) {
				fprintf(stderr, "git sees %s in:\n%.*s\n", one,
					(int)n, buf);
				CHECK(0);
			}
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
	submodule_config();
	n = differential(3000);
	if (n < 0)
		printf("test-gitconfig: git not available, differential "
		       "run skipped\n");
	else
		CHECK(n > 50);
	printf("test-gitconfig: %d generated files accepted, each "
	       "listed by git\n", n > 0 ? n : 0);
	UNIT_DONE();
}
