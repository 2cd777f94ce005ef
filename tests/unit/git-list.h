/* For the differential tests of the .git/config checks: git's own view of
 * a config file, `git config --file PATH --list -z`. */
#ifndef SBX_UNIT_GIT_LIST_H
#define SBX_UNIT_GIT_LIST_H

#include <fcntl.h>
#include <spawn.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

/* Writes n bytes of buf to path and reads git's listing into out (NUL
 * terminated, entries NUL-separated): its length, -1 when git refuses the
 * file, -2 when git cannot be run. */
static int
git_list(const char *path, const char *buf, size_t n, char *out, size_t cap)
{
	char *argv[] = { (char *)"git", (char *)"config", (char *)"--file",
			 (char *)path, (char *)"--list", (char *)"-z", NULL };
	posix_spawn_file_actions_t fa;
	int fd, pipefd[2], st;
	size_t got = 0;
	ssize_t k;
	pid_t pid;

	fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC);
	if (fd < 0 || write(fd, buf, n) != (ssize_t)n) {
		if (fd >= 0)
			close(fd);
		return -2;
	}
	close(fd);
	if (pipe2(pipefd, O_CLOEXEC) < 0)
		return -2;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, pipefd[1], 1);
	posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
	if (posix_spawnp(&pid, "git", &fa, NULL, argv, environ) != 0) {
		posix_spawn_file_actions_destroy(&fa);
		close(pipefd[0]);
		close(pipefd[1]);
		return -2;
	}
	posix_spawn_file_actions_destroy(&fa);
	close(pipefd[1]);
	while ((k = read(pipefd[0], out + got, cap - 1 - got)) > 0)
		got += (size_t)k;
	close(pipefd[0]);
	waitpid(pid, &st, 0);
	out[got] = '\0';
	return WIFEXITED(st) && WEXITSTATUS(st) == 0 ? (int)got : -1;
}

#endif
