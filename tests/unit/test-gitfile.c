/* Unit tests for daemon/policy/gitfile.c: the formats, and a differential run
 * against git itself: for .git files written in a scratch directory, the
 * repository `git rev-parse --absolute-git-dir` names is the one
 * gitfile_path leads to, and a file it refuses, git refuses too. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <spawn.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "daemon/policy/gitfile.h"
#include "unit.h"

extern char **environ;

static int
parse(const char *text, const char *prefix, char *out)
{
	return gitfile_path(text, strlen(text), prefix, "/w/sub", out,
			    PATH_MAX);
}

static void
formats(void)
{
	char out[PATH_MAX], small[8];

	CHECK_INT(parse("gitdir: ../r.git\n", "gitdir: ", out), 0);
	CHECK_STR(out, "/w/sub/../r.git");
	CHECK_INT(parse("gitdir: /abs/r\r\n\r\n", "gitdir: ", out), 0);
	CHECK_STR(out, "/abs/r");
	CHECK_INT(parse("gitdir: a b \n", "gitdir: ", out), 0);
	CHECK_STR(out, "/w/sub/a b ");
	/* Only the end is trimmed, as git does. */
	CHECK_INT(parse("gitdir: x\ny\n", "gitdir: ", out), 0);
	CHECK_STR(out, "/w/sub/x\ny");
	CHECK_INT(gitfile_path("gitdir: x\0y", 11, "gitdir: ", "/d", out,
			       sizeof(out)), 0);
	CHECK_STR(out, "/d/x");
	CHECK_INT(parse("gitdir:x\n", "gitdir: ", out), -EINVAL);
	CHECK_INT(parse("Gitdir: x\n", "gitdir: ", out), -EINVAL);
	CHECK_INT(parse("gitdir: \n", "gitdir: ", out), -EINVAL);
	CHECK_INT(parse("gitdir: ", "gitdir: ", out), -EINVAL);
	CHECK_INT(parse("", "gitdir: ", out), -EINVAL);
	CHECK_INT(gitfile_path("gitdir: \0x", 10, "gitdir: ", "/d", out,
			       sizeof(out)), -EINVAL);
	{
		/* Padded past any small read: still the path. */
		static char padded[8 + 16 + 100000];
		size_t n = (size_t)snprintf(padded, 32, "gitdir: ../r.git");

		memset(padded + n, '\n', sizeof(padded) - n);
		CHECK_INT(gitfile_path(padded, sizeof(padded), "gitdir: ",
				       "/d", out, sizeof(out)), 0);
		CHECK_STR(out, "/d/../r.git");
	}
	CHECK_INT(parse("../..\n", "", out), 0);
	CHECK_STR(out, "/w/sub/../..");
	CHECK_INT(parse("\n", "", out), -EINVAL);
	CHECK_INT(gitfile_path("gitdir: abcdefgh", 16, "gitdir: ", "/d",
			       small, sizeof(small)), -ENAMETOOLONG);
	CHECK_INT(gitfile_path("gitdir: /x", GITFILE_MAX + 1, "gitdir: ", "/d",
			       out, sizeof(out)), -EINVAL);
}

/* A submodule's .git file, as the supervisor reads it. */
static int
sub(const char *text, char *gitdir, char *git)
{
	return gitfile_submodule(text, strlen(text), "/w/app/lib", gitdir,
				 git, PATH_MAX);
}

static void
submodules(void)
{
	char gitdir[PATH_MAX], git[PATH_MAX], small[24];

	/* What git writes: clone --separate-git-dir's absolute path, git
	 * submodule's relative one, nested names. */
	CHECK_INT(sub("gitdir: /w/app/.git/modules/lib\n", gitdir, git), 0);
	CHECK_STR(gitdir, "/w/app/.git/modules/lib");
	CHECK_STR(git, "/w/app/.git");
	CHECK_INT(sub("gitdir: ../.git/modules/lib\n", gitdir, git), 0);
	CHECK_STR(gitdir, "/w/app/.git/modules/lib");
	CHECK_STR(git, "/w/app/.git");
	CHECK_INT(sub("gitdir: ../../../w/app/.git/modules/a/modules/b\n",
		      gitdir, git), 0);
	CHECK_STR(gitdir, "/w/app/.git/modules/a/modules/b");
	CHECK_STR(git, "/w/app/.git");
	CHECK_INT(sub("gitdir: ../../../../../x/.git/modules/y\n", gitdir,
		      git), 0);
	CHECK_STR(gitdir, "/x/.git/modules/y");
	/* Anything else. */
	static const char *const bad[] = {
		"gitdir: ../.git/modules/lib",       /* unfinished */
		"gitdir: ../.git/modules/lib\r\n",
		"gitdir: ../.git/modules/lib\n\n",
		"gitdir: ../.git/modules/lib\nx\n",
		"gitdir: ../.git/modules/\n",
		"gitdir: ../.git/modules\n",
		"gitdir: ../.git\n",
		"gitdir: /tmp/evil\n",
		"gitdir: ../.git/modules/lib/\n",
		"gitdir: ../.git/modules//lib\n",
		"gitdir: ./../.git/modules/lib\n",
		"gitdir: x/../../.git/modules/lib\n",
		"gitdir: ../.git/modules/lib/../../../../etc\n",
		"gitdir: /w/app/.git/modules/../x\n",
		"gitdir: /w/app/./.git/modules/x\n",
		"gitdir: ..\n",
		"gitdir: \n",
		"gitdir:../.git/modules/lib\n",
		"../.git/modules/lib\n",
	};
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		CHECK_INT(sub(bad[i], gitdir, git), -EINVAL);
	CHECK_INT(gitfile_submodule("gitdir: a\0.git/modules/x\n", 24,
				    "/w", gitdir, git, PATH_MAX), -EINVAL);
	CHECK_INT(gitfile_submodule("gitdir: ../.git/modules/lib\n", 28,
				    "/w/app/lib", small, git, sizeof(small)),
		  -EINVAL);
	CHECK_INT(gitfile_submodule("gitdir: x/.git/modules/y\n", 25, "/",
				    gitdir, git, PATH_MAX), 0);
	CHECK_STR(gitdir, "/x/.git/modules/y");
}

/* git's answer in dir: the absolute git dir, or "" when it refuses. */
static void
git_dir(const char *dir, char *out, size_t len)
{
	char git[] = "git", c[] = "-C", rp[] = "rev-parse",
	     abs[] = "--absolute-git-dir";
	char *argv[] = { git, c, (char *)dir, rp, abs, NULL };
	posix_spawn_file_actions_t fa;
	int p[2], st;
	ssize_t n = 0, k;
	pid_t pid;

	out[0] = '\0';
	if (pipe2(p, O_CLOEXEC) < 0)
		return;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, p[1], 1);
	posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
	if (posix_spawnp(&pid, "git", &fa, NULL, argv, environ) != 0) {
		close(p[0]);
		close(p[1]);
		return;
	}
	close(p[1]);
	while ((k = read(p[0], out + n, len - 1 - (size_t)n)) > 0)
		n += k;
	close(p[0]);
	waitpid(pid, &st, 0);
	out[n] = '\0';
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
		out[0] = '\0';
	if (n > 0 && out[n - 1] == '\n')
		out[n - 1] = '\0';
	posix_spawn_file_actions_destroy(&fa);
}

static void
versus_git(void)
{
	static const char *const texts[] = {
		"gitdir: ../repo.git\n", "gitdir: ../repo.git", 
		"gitdir: ../repo.git\r\n", "gitdir: ../repo.git\n\n\n",
		"gitdir: REPO\n", "gitdir:../repo.git\n", "gitdir:  ../repo.git\n",
		"gitdir: ../repo.git/\n", "gitdir: ../other\n", "../repo.git\n",
		"gitdir: ../repo.git \n", "PADDED",
	};
	static char padded[20000];
	char top[] = "/tmp/sbx-gitfile.XXXXXX", path[PATH_MAX], sub[PATH_MAX];
	char want[PATH_MAX], got[PATH_MAX + 16], real[PATH_MAX];
	char cmd[PATH_MAX + 64];
	int compared = 0;
	size_t i;
	int fd;

	if (!mkdtemp(top) || access("/usr/bin/git", X_OK) != 0) {
		printf("versus git: skipped (no git or no scratch dir)\n");
		return;
	}
	snprintf(cmd, sizeof(cmd), "git init -q --bare %s/repo.git", top);
	CHECK_INT(system(cmd), 0);
	snprintf(sub, sizeof(sub), "%s/sub", top);
	CHECK_INT(mkdir(sub, 0755), 0);
	for (i = 0; i < sizeof(texts) / sizeof(texts[0]); i++) {
		const char *t = texts[i];

		if (!strcmp(t, "gitdir: REPO\n")) {
			snprintf(path, sizeof(path), "gitdir: %s/repo.git\n", top);
			t = path;
		} else if (!strcmp(t, "PADDED")) {
			size_t n = (size_t)snprintf(padded, 32,
						    "gitdir: ../repo.git");

			memset(padded + n, '\n', sizeof(padded) - n - 1);
			t = padded;
		}
		snprintf(got, sizeof(got), "%s/.git", sub);
		fd = open(got, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
		CHECK(fd >= 0);
		CHECK(write(fd, t, strlen(t)) == (ssize_t)strlen(t));
		close(fd);
		git_dir(sub, want, sizeof(want));
		if (gitfile_path(t, strlen(t), "gitdir: ", sub, got,
				 sizeof(got)) == 0 && realpath(got, real)) {
			CHECK_STR(real, want);
			compared++;
		}
		else if (want[0])
			/* git found a repository where we found none: it
			 * must be one above the scratch dir, not ours. */
			CHECK(strncmp(want, top, strlen(top)) != 0);
	}
	/* Most of them name the repository; git agreed on each. */
	CHECK(compared >= 6);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", top);
	CHECK_INT(system(cmd), 0);
}

int
main(void)
{
	formats();
	submodules();
	versus_git();
	UNIT_DONE();
}
