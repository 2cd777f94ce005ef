/* connect() made by the daemon for sandboxes that share the host's network
 * (SANDBOX_NET_HOST_PORTS): the command's calls arrive as seccomp user
 * notifications; the session's proxy on 127.0.0.1 is connected, the rest
 * refused. */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <event2/event.h>
#include <fcntl.h>
#include <linux/seccomp.h>
#include <netinet/in.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include "daemon/daemon.h"
#include "daemon/linux/linux.h"
#include "daemon/log.h"

/*
 * Landlock's TCP rule names ports, not addresses: alone, it would let the
 * command reach a server anywhere that listens on one of its session's
 * proxy ports, a channel around the proxy for anyone who listens on every
 * port. So the filter hands every connect() to the daemon, which
 *  - reads the address once, from the command's memory (process_vm_readv),
 *    after making sure the notification still stands for the same task
 *    (a pidfd, then SECCOMP_IOCTL_NOTIF_ID_VALID);
 *  - takes the command's socket (pidfd_getfd) and, if the copy names
 *    127.0.0.1 (or its v4-mapped form) at one of the session's two ports,
 *    connects that socket itself, to that copy: what the command changes
 *    in its memory afterwards changes nothing (letting the kernel redo the
 *    call, SECCOMP_USER_NOTIF_FLAG_CONTINUE, would read it again);
 *  - answers everything else EACCES, as Landlock would, and says so (a
 *    network violation naming the address).
 * The connect is made non-blocking whatever the socket's flags, so the
 * daemon's loop never waits: for a blocking socket the answer is sent
 * once the connection is made (or failed, or after CONNECT_TIMEOUT_MS).
 * Taking another process's fd and reading its memory need ptrace access
 * (PTRACE_MODE_ATTACH): the daemon has it over the sandboxes it made,
 * its descendants in user namespaces it owns, unless a security module
 * says otherwise; linux_connect_probe() finds out at start-up.
 */

#define CONNECT_TIMEOUT_MS 10000

/* A connect in progress for a blocking socket: the answer waits. */
struct sandbox_connect {
	int listener;           /* a dup: the session may close its own */
	uint64_t id;
	int sock;
	struct event *ev;
	struct sandbox_connect *next, **pprev;
};

static int
open_pidfd(pid_t pid)
{
	return linux_pidfd_open_tid(pid);
}

/* Another process's fd, as a new fd of ours (same open file). */
static int
take_fd(int pidfd, int fd)
{
	return (int)syscall(SYS_pidfd_getfd, pidfd, fd, 0);
}

/* err 0: the call returns 0; else it fails with err. A caller that went
 * away meanwhile (ENOENT) needs no answer. */
static void
respond(int listener, uint64_t id, int err)
{
	struct seccomp_notif_resp resp = { .id = id, .error = -err };

	if (ioctl(listener, SECCOMP_IOCTL_NOTIF_SEND, &resp) < 0 &&
	    errno != ENOENT)
		log_debug("seccomp answer: %s", strerror(errno));
}

static bool
id_valid(int listener, uint64_t id)
{
	return ioctl(listener, SECCOMP_IOCTL_NOTIF_ID_VALID, &id) == 0;
}

/* The address argument, as the kernel would take it. */
static int
read_addr(pid_t pid, uint64_t ptr, uint64_t arg, struct sockaddr_storage *ss,
	  socklen_t *len)
{
	int n = (int)arg; /* an int in the kernel: the upper bits go */
	struct iovec local = { ss, 0 }, remote = { (void *)(uintptr_t)ptr, 0 };
	ssize_t got;

	if (n < (int)sizeof(sa_family_t) || (size_t)n > sizeof(*ss))
		return -EINVAL;
	memset(ss, 0, sizeof(*ss));
	local.iov_len = remote.iov_len = (size_t)n;
	got = process_vm_readv(pid, &local, 1, &remote, 1, 0);
	if (got != n)
		return got < 0 && errno != EFAULT ? -errno : -EFAULT;
	*len = (socklen_t)n;
	return 0;
}

/* The session's proxy: 127.0.0.1 at one of ports, or its v4-mapped form. */
static bool
to_proxy(const struct sockaddr_storage *ss, socklen_t len,
	 const uint16_t ports[2])
{
	static const uint8_t mapped[16] = { [10] = 0xff, [11] = 0xff,
					    [12] = 127, [15] = 1 };
	uint16_t port;

	if (ss->ss_family == AF_INET && len >= sizeof(struct sockaddr_in)) {
		const struct sockaddr_in *in = (const void *)ss;

		if (in->sin_addr.s_addr != htonl(INADDR_LOOPBACK))
			return false;
		port = ntohs(in->sin_port);
	} else if (ss->ss_family == AF_INET6 &&
		   len >= sizeof(struct sockaddr_in6)) {
		const struct sockaddr_in6 *in6 = (const void *)ss;

		if (memcmp(&in6->sin6_addr, mapped, 16))
			return false;
		port = ntohs(in6->sin6_port);
	} else
		return false;
	return port && (port == ports[0] || port == ports[1]);
}

/* What the command asked for, for the violation: "host:port". */
static void
describe(const struct sockaddr_storage *ss, socklen_t len, char *buf,
	 size_t size)
{
	char a[INET6_ADDRSTRLEN] = "?";

	if (ss->ss_family == AF_INET && len >= sizeof(struct sockaddr_in)) {
		const struct sockaddr_in *in = (const void *)ss;

		inet_ntop(AF_INET, &in->sin_addr, a, sizeof(a));
		snprintf(buf, size, "%s:%u", a, ntohs(in->sin_port));
	} else if (ss->ss_family == AF_INET6 &&
		   len >= sizeof(struct sockaddr_in6)) {
		const struct sockaddr_in6 *in6 = (const void *)ss;

		inet_ntop(AF_INET6, &in6->sin6_addr, a, sizeof(a));
		snprintf(buf, size, "[%s]:%u", a, ntohs(in6->sin6_port));
	} else if (ss->ss_family == AF_UNIX) {
		const struct sockaddr_un *un = (const void *)ss;

		snprintf(buf, size, "unix:%.*s",
			 (int)strnlen(un->sun_path, sizeof(un->sun_path)),
			 un->sun_path);
	} else
		snprintf(buf, size, "address family %u",
			 (unsigned)ss->ss_family);
}

static void
pending_free(struct sandbox_connect *pd)
{
	*pd->pprev = pd->next;
	if (pd->next)
		pd->next->pprev = pd->pprev;
	event_free(pd->ev);
	close(pd->sock);
	close(pd->listener);
	free(pd);
}

static void
pending_cb(evutil_socket_t fd, short what, void *arg)
{
	struct sandbox_connect *pd = arg;
	socklen_t n = sizeof(int);
	int e = ETIMEDOUT;

	if ((what & EV_WRITE) &&
	    getsockopt(pd->sock, SOL_SOCKET, SO_ERROR, &e, &n) < 0)
		e = errno;
	respond(pd->listener, pd->id, e);
	pending_free(pd);
}

/* A blocking socket's connect is under way: answer when it is done. */
static int
pend(struct sandbox_proc *p, int listener, uint64_t id, int sock)
{
	struct timeval tv = { CONNECT_TIMEOUT_MS / 1000,
			      CONNECT_TIMEOUT_MS % 1000 * 1000 };
	struct sandbox_connect *pd = calloc(1, sizeof(*pd));

	if (!pd)
		return -ENOMEM;
	pd->id = id;
	pd->sock = sock;
	pd->listener = fcntl(listener, F_DUPFD_CLOEXEC, 3);
	pd->ev = event_new(sbxd.base, sock, EV_WRITE, pending_cb, pd);
	if (pd->listener < 0 || !pd->ev || event_add(pd->ev, &tv) < 0) {
		if (pd->ev)
			event_free(pd->ev);
		if (pd->listener >= 0)
			close(pd->listener);
		free(pd);
		return -ENOMEM;
	}
	pd->next = p->connects;
	if (pd->next)
		pd->next->pprev = &pd->next;
	pd->pprev = &p->connects;
	p->connects = pd;
	return 0;
}

/* Connects sock to the copy, never waiting; answers now or later. */
static void
connect_for(struct sandbox_proc *p, int listener, uint64_t id, int sock,
	    const struct sockaddr_storage *ss, socklen_t len)
{
	int flags = fcntl(sock, F_GETFL), e = 0;
	bool blocking = flags >= 0 && !(flags & O_NONBLOCK);

	if (blocking)
		fcntl(sock, F_SETFL, flags | O_NONBLOCK);
	if (connect(sock, (const struct sockaddr *)ss, len) < 0)
		e = errno;
	if (blocking)
		fcntl(sock, F_SETFL, flags);
	if (blocking && e == EINPROGRESS) {
		if ((e = -pend(p, listener, id, sock)) == 0)
			return; /* the socket is the pending one's now */
	}
	respond(listener, id, e);
	close(sock);
}

int
linux_connect_mediate(struct sandbox_proc *p, int listener,
		      const struct seccomp_notif *req,
		      struct sandbox_denial *out)
{
	const __u64 *args = req->data.args;
	struct sockaddr_storage ss;
	socklen_t len = 0, n = sizeof(int);
	int pidfd, sock = -1, dom = 0, type = 0, r;

	memset(out, 0, sizeof(*out));
	out->pid = (pid_t)req->pid;
	snprintf(out->syscall, sizeof(out->syscall), "connect");
	memcpy(out->args, args, sizeof(out->args));
	/* The task behind the notification, and still that one. */
	pidfd = req->pid ? open_pidfd((pid_t)req->pid) : -1;
	if (pidfd < 0 || !id_valid(listener, req->id)) {
		respond(listener, req->id, EACCES);
		if (pidfd >= 0)
			close(pidfd);
		return 1;
	}
	if ((r = read_addr((pid_t)req->pid, args[1], args[2], &ss, &len)) < 0 ||
	    !id_valid(listener, req->id)) {
		/* A bad address or length is the command's (the kernel's
		 * errno); not being let to read it is ours to refuse. */
		respond(listener, req->id, r == -EFAULT || r == -EINVAL ? -r :
			EACCES);
		close(pidfd);
		return 1;
	}
	sock = take_fd(pidfd, (int)args[0]);
	r = sock < 0 ? errno : 0;
	close(pidfd);
	if (sock < 0) {
		/* EBADF is the command's; anything else is ours to refuse. */
		if (r != EBADF)
			log_warn("connect() of pid %u: cannot take its socket: "
				 "%s", (unsigned)req->pid, strerror(r));
		respond(listener, req->id, r == EBADF ? EBADF : EACCES);
		return 1;
	}
	if (getsockopt(sock, SOL_SOCKET, SO_DOMAIN, &dom, &n) < 0 ||
	    getsockopt(sock, SOL_SOCKET, SO_TYPE, &type, &n) < 0) {
		respond(listener, req->id, errno);
		close(sock);
		return 1;
	}
	/* AF_UNSPEC dissolves an association: harmless on any socket. */
	if (ss.ss_family == AF_UNSPEC ||
	    ((dom == AF_INET || dom == AF_INET6) && type == SOCK_STREAM &&
	     to_proxy(&ss, len, p->proxy_ports))) {
		connect_for(p, listener, req->id, sock, &ss, len);
		return 1;
	}
	close(sock);
	respond(listener, req->id, EACCES);
	describe(&ss, len, out->addr, sizeof(out->addr));
	return 0;
}

void
linux_connect_release(struct sandbox_proc *p)
{
	while (p->connects)
		pending_free(p->connects);
}

int
linux_connect_probe(void)
{
	static volatile int word = 42;
	struct iovec local, remote;
	int pipefd[2], pidfd, fd, got = 0, e = 0;
	pid_t pid;

	if (pipe2(pipefd, O_CLOEXEC) < 0)
		return -errno;
	if ((pid = fork()) < 0) {
		e = errno;
		close(pipefd[0]);
		close(pipefd[1]);
		return -e;
	}
	if (pid == 0) {
		char c;

		close(pipefd[1]);
		_exit(read(pipefd[0], &c, 1) < 0);
	}
	pidfd = open_pidfd(pid);
	fd = pidfd < 0 ? -1 : take_fd(pidfd, pipefd[0]);
	if (fd < 0)
		e = errno;
	local = (struct iovec){ &got, sizeof(got) };
	remote = (struct iovec){ (void *)&word, sizeof(word) };
	if (!e && process_vm_readv(pid, &local, 1, &remote, 1, 0) !=
		  (ssize_t)sizeof(got))
		e = errno;
	if (fd >= 0)
		close(fd);
	if (pidfd >= 0)
		close(pidfd);
	close(pipefd[0]);
	close(pipefd[1]); /* the child reads EOF and exits */
	waitpid(pid, NULL, 0);
	return e ? -e : got == 42 ? 0 : -EIO;
}
