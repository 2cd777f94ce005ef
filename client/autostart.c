/* Autostart, as tmux does: sbxctl forks a detached sbxd and waits on a pipe
 * until the daemon says READY (or exits, whose stderr we then show). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "client/autostart.h"
#include "client/client.h"

/* sbxd next to this sbxctl wins (a build tree or an install prefix), then
 * $SBXD, then $PATH. */
static void
find_daemon(char *buf, size_t len)
{
	char self[PATH_MAX];
	const char *env = getenv("SBXD");
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);

	if (env && *env) {
		snprintf(buf, len, "%s", env);
		return;
	}
	if (n > 0) {
		self[n] = '\0';
		snprintf(buf, len, "%s/sbxd", dirname(self));
		if (access(buf, X_OK) == 0)
			return;
	}
	snprintf(buf, len, "sbxd");
}

static void __attribute__((noreturn))
exec_daemon(const char *socket, int wfd)
{
	char daemon[PATH_MAX], fdarg[16];
	int null = open("/dev/null", O_RDWR | O_CLOEXEC);

	if (setsid() < 0)
		_exit(1);
	if (fork() != 0)
		_exit(0); /* the daemon is not our child: no zombie for us */
	find_daemon(daemon, sizeof(daemon));
	/* stderr goes to the pipe until the daemon is ready, so start-up
	 * errors reach the user; fd 3 carries READY. */
	if (null < 0 || dup2(null, 0) < 0 || dup2(null, 1) < 0 ||
	    dup2(wfd, 2) < 0 || dup2(wfd, 3) < 0)
		_exit(1);
	snprintf(fdarg, sizeof(fdarg), "%d", 3);
	execlp(daemon, daemon, "--socket", socket, "--ready-fd", fdarg,
	       "--log-stderr-after-ready", (char *)NULL);
	fprintf(stderr, "cannot execute %s: %s\n", daemon, strerror(errno));
	_exit(127);
}

int
autostart_daemon(const char *socket, char *err, size_t errlen)
{
	char buf[2048];
	size_t off = 0;
	ssize_t n;
	int p[2], st;
	pid_t pid;

	if (pipe2(p, O_CLOEXEC) < 0 || (pid = fork()) < 0) {
		snprintf(err, errlen, "could not start sbxd: %s",
			 strerror(errno));
		return -errno;
	}
	if (pid == 0) {
		close(p[0]);
		exec_daemon(socket, p[1]);
	}
	close(p[1]);
	waitpid(pid, &st, 0);
	while (off < sizeof(buf) - 1 &&
	       (n = read(p[0], buf + off, sizeof(buf) - 1 - off)) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			break;
		off += (size_t)n;
		buf[off] = '\0';
		if (strstr(buf, "READY\n"))
			break;
	}
	close(p[0]);
	buf[off] = '\0';
	if (strstr(buf, "READY\n"))
		return 0;
	/* Lost a start race to another sbxctl: the caller simply retries
	 * the connection, so only report real failures. */
	if (strstr(buf, "another sbxd is running"))
		return 0;
	snprintf(err, errlen, "could not start sbxd:\n%s",
		 off ? buf : "(no output)\n");
	return -ECHILD;
}
