/* Sockets in a sandbox's network namespace, made for the daemon: a
 * published port's connections are dialled from them into the sandbox;
 * and the TCP listeners of host services and published ports.
 *
 * A socket belongs to the network namespace it was made in, whoever holds
 * it later, so the daemon needs only the socket() call made there. A
 * short-lived child does it: it shares our memory and fd table (the
 * socket lands in ours) and waits us out (CLONE_VFORK), enters the
 * namespace's owning user namespace (where the daemon's user, who owns
 * it or an ancestor, has every capability; a root daemon is already in
 * it) and then the network namespace, and leaves. The daemon's own
 * namespaces never change. Nothing of the sandbox runs in the child, and
 * the sandbox cannot see it (it is in none of the sandbox's pid
 * namespaces). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <sched.h>
#include <stdbool.h>
#include <string.h>
#include <signal.h>
#include <stdio.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>
#include <linux/nsfs.h>

#include "daemon/linux/linux.h"
#include "daemon/sandbox.h"
#include "proto/fdpass.h"

#define CHILD_STACK (64 * 1024)

struct netsock {
	int userns, netns, family;
	int fd, err;
};

/* On our static stack, which ASan does not know. */
static int __attribute__((no_sanitize("address")))
child(void *arg)
{
	struct netsock *n = arg;

	if ((n->userns >= 0 &&
	     syscall(SYS_setns, n->userns, CLONE_NEWUSER) < 0) ||
	    syscall(SYS_setns, n->netns, CLONE_NEWNET) < 0) {
		n->err = errno;
		_exit(0);
	}
	n->fd = (int)syscall(SYS_socket, n->family, SOCK_STREAM |
			     SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (n->fd < 0)
		n->err = errno;
	_exit(0);
}

static bool
same_ns(int a, int b)
{
	struct stat sa, sb;

	return fstat(a, &sa) == 0 && fstat(b, &sb) == 0 &&
	       sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

int
sandbox_net_open(const struct sandbox_proc *p, int fds[2])
{
	char path[64];
	int net, user = -1, self, e;

	if (p->pidfd < 0 || p->pid <= 0 || p->exec_job)
		return -ESRCH;
	snprintf(path, sizeof(path), "/proc/%d/ns/net", (int)p->pid);
	if ((net = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return -errno;
	/* The pid still names the init the pidfd does. */
	if (syscall(SYS_pidfd_send_signal, p->pidfd, 0, NULL, 0) < 0) {
		e = -errno;
		close(net);
		return e;
	}
	if ((user = ioctl(net, NS_GET_USERNS)) < 0 ||
	    (self = open("/proc/self/ns/user", O_RDONLY | O_CLOEXEC)) < 0) {
		e = -errno;
		close(net);
		if (user >= 0)
			close(user);
		return e;
	}
	if (same_ns(user, self)) {
		close(user);
		user = -1;
	}
	close(self);
	fds[0] = net;
	fds[1] = user;
	return 0;
}

int
sandbox_net_socket(const int fds[2], int family)
{
	static char stack[CHILD_STACK] __attribute__((aligned(16)));
	struct netsock n = { fds[1], fds[0], family, -1, 0 };
	sigset_t all, old;
	pid_t pid;

	/* No handler of ours may run in the child, on our memory. */
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	pid = clone(child, stack + sizeof(stack),
		    CLONE_VM | CLONE_VFORK | CLONE_FILES, &n);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (pid < 0)
		return -errno;
	/* It has exited (VFORK), with no signal to us: reaped here. */
	while (waitpid(pid, NULL, __WALL) < 0 && errno == EINTR)
		;
	return n.fd >= 0 ? n.fd : -(n.err ? n.err : EIO);
}

/* Also on a sandbox's command stack (linux/init.c): not instrumented. */
int __attribute__((no_sanitize("address")))
sandbox_listen_tcp(const struct sandbox_listen *l)
{
	struct sockaddr_in6 s6 = { .sin6_family = AF_INET6,
				   .sin6_port = htons(l->port) };
	struct sockaddr_in s4 = { .sin_family = AF_INET,
				  .sin_port = htons(l->port) };
	bool v6 = l->family == AF_INET6;
	int one = 1, fd, e;

	memcpy(v6 ? (void *)&s6.sin6_addr : (void *)&s4.sin_addr, l->addr,
	       v6 ? 16 : 4);
	fd = socket(v6 ? AF_INET6 : AF_INET, SOCK_STREAM | SOCK_CLOEXEC |
		    SOCK_NONBLOCK, 0);
	if (fd < 0)
		return -errno;
	/* [::] is IPv6's only: 0.0.0.0 is asked for on its own. */
	if ((v6 && setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &one,
			      sizeof(one)) < 0) ||
	    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) < 0 ||
	    bind(fd, v6 ? (struct sockaddr *)&s6 : (struct sockaddr *)&s4,
		 v6 ? sizeof(s6) : sizeof(s4)) < 0 ||
	    listen(fd, 128) < 0) {
		e = -errno;
		close(fd);
		return e;
	}
	return fd;
}

int
sandbox_unprivileged_port_start(void)
{
	char buf[16] = "";
	int fd = open("/proc/sys/net/ipv4/ip_unprivileged_port_start",
		      O_RDONLY | O_CLOEXEC), v = 1024;
	ssize_t n;

	if (fd < 0)
		return v;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	/* Unreadable: the kernel's default, so never lower than it. */
	if (n > 0 && sscanf(buf, "%d", &v) != 1)
		v = 1024;
	return v;
}

/* The host services' addresses (network.hostServices), listened on by the
 * command process in the sandbox's network namespace before anything of
 * the job runs, so a connection the command makes at once waits in the
 * backlog until the daemon serves it; the daemon relays each to the same
 * address on the host. SO_REUSEADDR: the namespace may be one an earlier
 * session used (linux/netns.c), with TIME_WAIT left on that port. */
int __attribute__((no_sanitize("address")))
linux_host_listeners(const struct linux_job *j, int sfd)
{
	struct sandbox_status rec = { .kind = SANDBOX_STATUS_HOST_LISTENERS };
	int fds[SANDBOX_LISTEN_MAX], n = 0, e = 0, fd, i;
	unsigned k;

	for (k = 0; k < j->nlisten && k < SANDBOX_LISTEN_MAX && e == 0; k++) {
		fd = sandbox_listen_tcp(&j->listen[k]);
		/* "localhost" is ::1 too, where the namespace has IPv6. */
		if (fd == -EADDRNOTAVAIL || fd == -EAFNOSUPPORT)
			continue;
		if (fd < 0)
			e = fd;
		else
			fds[n++] = fd;
	}
	if (e == 0 && n > 0)
		e = (int)fdpass_send(sfd, &rec, sizeof(rec), fds, n);
	for (i = 0; i < n; i++)
		close(fds[i]);
	return e < 0 ? e : 0;
}
