/* A template's spawner: the process its sandboxes are forked from. The
 * template itself grows with its workspace (the walk's paths and watches:
 * 2.7 MB more for 10,000 masked files), and every page of it would be
 * copied at each sandbox's two forks and freed at their exits; that made
 * a spawn in a workspace with 10,000 masks ~20% slower than in an empty
 * one. The spawner is forked from the template before the build, so it
 * holds the plan and nothing of the walk. It is in the template's
 * namespaces: the mounts the build makes are the ones its sandboxes see.
 * It serves the template's 'n' (a new sandbox) and 'r' (a network
 * namespace given back) requests, only once the build is done, and reaps
 * what it forked. The network namespace pool (linux/netns.c) lives here.
 * Also the reaping poll loop of both. */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "daemon/linux/cgroup.h"
#include "daemon/linux/linux.h"
#include "proto/fdpass.h"

int
linux_chld_fd(void)
{
	sigset_t chld;

	sigemptyset(&chld);
	sigaddset(&chld, SIGCHLD);
	sigprocmask(SIG_BLOCK, &chld, NULL);
	return signalfd(-1, &chld, SFD_CLOEXEC | SFD_NONBLOCK);
}

int
linux_poll_reaping(struct pollfd *pfd, nfds_t n, int timeout_ms)
{
	struct signalfd_siginfo si;
	int r;

	linux_mntns_reap();
	if ((r = poll(pfd, n, timeout_ms)) > 0 && pfd[n - 1].revents) {
		ssize_t k = read(pfd[n - 1].fd, &si, sizeof(si));

		(void)k; /* just a wake-up: the next call reaps */
	}
	return r;
}

static void __attribute__((noreturn))
spawner_main(const struct sandbox_plan *p, int fd)
{
	int keep[2] = { fd, p->lock_fd }, fds[FDPASS_SEND_MAX], nfds;
	char msg[1 + LCG_JOIN_MSG];
	struct lcg_join join;
	struct pollfd pfd[2];
	ssize_t n;

	linux_close_fds_except(keep, p->lock_fd >= 0 ? 2 : 1);
	prctl(PR_SET_NAME, "sbx-spawner");
	/* The root: nothing is mounted on it, and a mount made later over
	 * another cwd would not be seen through that cwd. */
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0 || chdir("/") < 0)
		_exit(1);
	/* What it forks keeps none (nothing here execs): a sandbox's init
	 * and supervisor then have none to drop, one credential copy each
	 * (linux_drop_bounding). It keeps the capabilities it has. */
	linux_drop_bounding();
	pfd[0].fd = fd;
	pfd[1].fd = linux_chld_fd();
	pfd[0].events = pfd[1].events = POLLIN;
	for (;;) {
		if (linux_poll_reaping(pfd, 2, -1) <= 0 || !pfd[0].revents)
			continue;
		nfds = 0;
		n = fdpass_recv(fd, msg, sizeof(msg), fds, &nfds,
				FDPASS_SEND_MAX);
		if (n == 0 || (n < 0 && n != -EAGAIN && n != -EINTR))
			_exit(0); /* the template is gone */
		if (n == (ssize_t)sizeof(msg) && msg[0] == 'n' && nfds >= 2) {
			/* The cgroups it joins (linux/cgroup.h). */
			lcg_join_unpack(msg + 1, LCG_JOIN_MSG, fds + 2,
					nfds - 2, &join);
			linux_spawn_session(p, fds[0], fds[1], &join);
			lcg_join_close(&join);
		} else if (n == 1 && msg[0] == 'r' && nfds == 1)
			linux_netns_return(fds[0]);
		else
			while (nfds > 0)
				close(fds[--nfds]);
	}
}

int
linux_spawner_start(const struct sandbox_plan *p, int *fd)
{
	int sv[2];
	pid_t pid;

	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) < 0)
		return -errno;
	/* Not fork(): no atfork handler (linux/lean.c). */
	pid = _Fork();
	if (pid == 0) {
		close(sv[0]);
		spawner_main(p, sv[1]);
	}
	close(sv[1]);
	if (pid < 0) {
		close(sv[0]);
		return -errno;
	}
	*fd = sv[0];
	return 0;
}
