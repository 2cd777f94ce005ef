/* Reading a run's file and command credentials as the served user; the values are never logged. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "daemon/log.h"
#include "daemon/proxy/cred.h"
#include "daemon/session-int.h"
#include "daemon/usercred.h"

/* How long a credential's command may take: the run's start (and the
 * daemon's loop) waits for it, and clients give up on an answer after
 * 5 s by default, so well under that. */
#define CRED_COMMAND_MS 3000

extern char **environ;

/* A credential's file, read with the user's rights (the first
 * size - 1 bytes, NUL-ended): its length, or -errno. */
static int
cred_file(const char *path, char *buf, size_t size)
{
	struct stat st;
	ssize_t n = -1;
	int fd, e;

	usercred_enter();
	fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	e = errno;
	usercred_leave();
	if (fd < 0)
		return -e;
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode))
		n = read(fd, buf, size - 1);
	close(fd);
	if (n < 0)
		return -EINVAL;
	buf[n] = '\0';
	return (int)n;
}

static const char *
env_value(char *const *env, size_t nenv, const char *name)
{
	size_t i, k = strlen(name);

	for (i = 0; i < nenv; i++)
		if (!strncmp(env[i], name, k) && env[i][k] == '=')
			return env[i] + k + 1;
	return NULL;
}

/* The child: stdin and stderr /dev/null, stdout the pipe, its own process
 * group (killed whole on timeout), the user for real, a clean environment. */
static void __attribute__((noreturn))
command_child(char *const *argv, char **cenv, int out, int null)
{
	sigset_t none;

	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	signal(SIGPIPE, SIG_DFL);
	setpgid(0, 0);
	if (dup2(null, 0) < 0 || dup2(out, 1) < 0 || dup2(null, 2) < 0 ||
	    usercred_become() < 0)
		_exit(126);
	/* execvp looks the program up in the PATH of environ. */
	environ = cenv;
	execvp(argv[0], argv);
	_exit(127);
}

static long
ms_left(const struct timespec *end)
{
	struct timespec now;

	clock_gettime(CLOCK_MONOTONIC, &now);
	return (end->tv_sec - now.tv_sec) * 1000 +
	    (end->tv_nsec - now.tv_nsec) / 1000000;
}

/*
 * What pc's command prints (the first size - 1 bytes), run outside the
 * sandbox as the user with only PATH and HOME from the run's client
 * environment. Synchronous but bounded: after CRED_COMMAND_MS its process
 * group is killed. Its length, -ETIMEDOUT, -ENOEXEC (could not run),
 * -EIO (failed) or -ENODATA (an empty first line).
 */
static int
cred_command(const struct policy_cred *pc, char *const *env, size_t nenv,
    char *buf, size_t size)
{
	const char *path = env_value(env, nenv, "PATH");
	const char *home = env_value(env, nenv, "HOME");
	char *cenv[3] = { NULL, NULL, NULL };
	struct pollfd pf[2];
	struct timespec end;
	size_t len = 0;
	ssize_t n;
	int p[2], null, pidfd, st = 0, r = -ENOMEM, exited = 0, eof = 0;
	long left;
	pid_t pid;

	if (asprintf(&cenv[0], "PATH=%s", path ? path :
	    "/usr/local/bin:/usr/bin:/bin") < 0 ||
	    (home && asprintf(&cenv[1], "HOME=%s", home) < 0))
		goto out;
	if (pipe2(p, O_CLOEXEC) < 0) {
		r = -errno;
		goto out;
	}
	if ((null = open("/dev/null", O_RDWR | O_CLOEXEC)) < 0) {
		r = -errno;
		close(p[0]);
		close(p[1]);
		goto out;
	}
	pid = fork();
	if (pid == 0)
		command_child(pc->command, cenv, p[1], null);
	close(p[1]);
	close(null);
	if (pid < 0) {
		r = -errno;
		close(p[0]);
		goto out;
	}
	pf[0] = (struct pollfd){ .fd = p[0], .events = POLLIN };
	pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
	pf[1] = (struct pollfd){ .fd = pidfd, .events = POLLIN };
	clock_gettime(CLOCK_MONOTONIC, &end);
	end.tv_sec += CRED_COMMAND_MS / 1000;
	while (!(eof && (exited || pidfd < 0)) &&
	    (left = ms_left(&end)) > 0) {
		pf[0].fd = eof ? -1 : p[0];
		if (poll(pf, 2, (int)left) < 0 && errno != EINTR)
			break;
		if (pf[1].revents)
			exited = 1, pf[1].fd = -1;
		if (!eof && pf[0].revents) {
			n = read(p[0], buf + len, size - 1 - len);
			if (n > 0)
				len += (size_t)n;
			else if (n == 0 || errno != EINTR)
				eof = 1;
			/* Enough: the rest is not read. */
			if (len == size - 1 || memchr(buf, '\n', len))
				eof = 1;
		}
	}
	if (pidfd >= 0)
		close(pidfd);
	/* Still running, or children left behind: the group is killed. */
	kill(-pid, SIGKILL);
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	close(p[0]);
	buf[len] = '\0';
	if (!eof)
		r = -ETIMEDOUT;
	else if (WIFEXITED(st) && WEXITSTATUS(st) >= 126)
		r = -ENOEXEC;
	else if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
		r = -EIO;
	else if (strcspn(buf, "\r\n") == 0)
		r = -ENODATA;
	else
		r = (int)len;
	if (r < 0)
		explicit_bzero(buf, size);
out:
	free(cenv[0]);
	free(cenv[1]);
	return r;
}

/* Said in the daemon's log and on the run's stderr (arg: its fd). */
static void __attribute__((format(printf, 3, 4)))
skipped(const struct policy_cred *pc, int fd, const char *fmt, ...)
{
	char why[256], line[512];
	va_list ap;
	int n;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	log_warn("credential %s skipped: %s", pc->id, why);
	n = snprintf(line, sizeof(line), "sbx: credential %s skipped: %s\n",
	    pc->id, why);
	if (fd >= 0 && n > 0)
		(void)!write(fd, line, (size_t)n < sizeof(line) ? (size_t)n :
		    sizeof(line) - 1);
}

int
session_cred_read(const struct policy_cred *pc, char *const *env,
    size_t nenv, char *buf, size_t size, void *arg)
{
	int fd = arg ? *(int *)arg : -1, r;

	if (pc->file) {
		if ((r = cred_file(pc->file, buf, size)) < 0)
			skipped(pc, fd, "cannot read %s: %s", pc->file,
			    strerror(-r));
		return r;
	}
	r = cred_command(pc, env, nenv, buf, size);
	if (r == -ETIMEDOUT)
		skipped(pc, fd, "its command %s did not finish in %d s: killed",
		    pc->command[0], CRED_COMMAND_MS / 1000);
	else if (r == -ENOEXEC)
		skipped(pc, fd, "its command %s could not be run",
		    pc->command[0]);
	else if (r == -ENODATA)
		skipped(pc, fd, "its command %s printed nothing",
		    pc->command[0]);
	else if (r < 0)
		skipped(pc, fd, "its command %s failed", pc->command[0]);
	return r;
}
