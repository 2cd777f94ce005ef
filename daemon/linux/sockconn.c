/* connect() in a sandbox with a network namespace, made by its supervisor:
 * the filter hands it every call, so a Unix socket reaches only what is
 * the sandbox's own or a rule names (docs/security.md, Unix sockets). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/un.h>
#include <unistd.h>

#include "daemon/linux/linux.h"
#include "daemon/linux/supervise.h"
#include "daemon/policy/fsplan.h"
#include "daemon/policy/path.h"

/* Where a sandbox's own sockets live besides its writable trees: its
 * private temp dirs and shared memory. */
static const char *const private_dirs[] = { "/tmp", "/var/tmp", "/dev/shm" };

/* The command's address argument, read once, as the kernel takes it. */
static int
read_addr(struct sreq *r, struct sockaddr_storage *ss, socklen_t *len)
{
	int n = (int)r->n->data.args[2]; /* an int in the kernel */
	struct iovec local = { ss, 0 };
	struct iovec remote = { (void *)(uintptr_t)r->n->data.args[1], 0 };

	if (n < 0 || (size_t)n > sizeof(*ss))
		return -EINVAL;
	memset(ss, 0, sizeof(*ss));
	local.iov_len = remote.iov_len = (size_t)n;
	if (n > 0 && process_vm_readv(r->tid, &local, 1, &remote, 1, 0) != n)
		return -EFAULT;
	*len = (socklen_t)n;
	return 0;
}

/* The command's socket, as an fd of ours (the same open file). The
 * notification still standing after the pidfd is made means the thread
 * id named the caller. */
static int
take_socket(struct sup *s, struct sreq *r)
{
	int pidfd = linux_pidfd_open_tid(r->tid), fd;

	if (pidfd < 0)
		return -ESRCH;
	if (ioctl(s->listener, SECCOMP_IOCTL_NOTIF_ID_VALID, &r->n->id) < 0) {
		close(pidfd);
		return -ESRCH;
	}
	fd = (int)syscall(SYS_pidfd_getfd, pidfd,
			  (int)r->n->data.args[0], 0);
	close(pidfd);
	return fd < 0 ? -errno : fd;
}

static bool
allowed(const struct sup *s, const char *path)
{
	const struct fsplan_list *l;
	size_t i;

	for (i = 0; i < sizeof(private_dirs) / sizeof(private_dirs[0]); i++)
		if (policy_path_covers(private_dirs[i], path))
			return true;
	l = &s->fs->l[FSPLAN_WRITE];
	for (i = 0; i < l->n; i++)
		if (policy_path_covers(l->v[i], path))
			return true;
	l = &s->fs->l[FSPLAN_UNIX_SOCKETS];
	for (i = 0; i < l->n; i++)
		if (policy_path_covers(l->v[i], path))
			return true;
	return false;
}

/* The named socket the address gives, resolved once from the command's
 * cwd and root as the kernel would, checked, and given back as an address
 * that names exactly that inode (our /proc/self/fd of its O_PATH fd),
 * whatever is renamed or re-linked afterwards. *obj: that fd. */
static int
check_path(struct sup *s, struct sreq *r, struct sockaddr_un *su,
	   socklen_t *len, int *obj)
{
	size_t max = *len - offsetof(struct sockaddr_un, sun_path);
	char path[sizeof(su->sun_path) + 1];
	struct rpath p;
	int base, e;

	if (*len > sizeof(*su))
		return -EINVAL; /* as unix_validate_addr says */
	memcpy(path, su->sun_path, max);
	path[max] = '\0';
	if ((base = res_base(s, r, AT_FDCWD, path)) < 0)
		return base;
	if ((e = res_walk(s, r, base, path, true, &p)) < 0)
		return e;
	if (p.obj < 0)
		e = -ENOENT;
	else if (!S_ISSOCK(p.st.st_mode))
		e = -ECONNREFUSED; /* as the kernel says */
	else if (!allowed(s, p.abs)) {
		sup_report_unix(s, r, p.abs);
		e = -EACCES;
	}
	if (e == 0) {
		*obj = p.obj;
		p.obj = -1;
		snprintf(su->sun_path, sizeof(su->sun_path),
			 "/proc/self/fd/%d", *obj);
		*len = (socklen_t)(offsetof(struct sockaddr_un, sun_path) +
				   strlen(su->sun_path) + 1);
	}
	res_close(&p);
	return e;
}

/* A worker for a connect of a blocking socket that would wait: a
 * child answers once it is made (in_progress: a TCP connect started
 * already, waited for; else a Unix listener's full backlog, connected
 * again, blocking), so the supervisor keeps serving. */
static int
connect_later(struct sup *s, struct sreq *r, int sock, const void *addr,
	      socklen_t len, bool in_progress)
{
	struct sup_answer a = { 0 };
	struct pollfd pfd = { .fd = sock, .events = POLLOUT };
	socklen_t elen = sizeof(int);
	int e = 0;
	/* Not fork(): no atfork handler (linux/lean.c). */
	pid_t pid = _Fork();

	if (pid < 0)
		return -errno;
	if (pid > 0) {
		s->workers++;
		return -EINPROGRESS;
	}
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	if (!in_progress)
		e = connect(sock, addr, len) < 0 ? errno : 0;
	else if (poll(&pfd, 1, -1) < 0 ||
		 getsockopt(sock, SOL_SOCKET, SO_ERROR, &e, &elen) < 0)
		e = errno;
	sup_answer_send(s, r->n->id, -e, &a);
	_exit(0);
}

#define HANDSHAKE_WAIT_MS 10

/* Whether a TCP connect in progress finished within HANDSHAKE_WAIT_MS;
 * then *e is its result. */
static bool
handshake_done(int sock, int *e)
{
	struct pollfd pfd = { .fd = sock, .events = POLLOUT };
	socklen_t elen = sizeof(int);

	if (poll(&pfd, 1, HANDSHAKE_WAIT_MS) <= 0)
		return false;
	if (getsockopt(sock, SOL_SOCKET, SO_ERROR, e, &elen) < 0)
		*e = errno;
	return true;
}

/* Connects and answers (-EINPROGRESS: answered, whatever the connect
 * said; a non-blocking socket's own EINPROGRESS included). A blocking
 * socket is tried non-blocking first (its file's flags are the
 * command's, whose thread waits for us: put back at once), so that a
 * connect that completes at once (the usual case) costs no process. */
static int
connect_as(struct sup *s, struct sreq *r, int sock, const void *addr,
	   socklen_t len)
{
	struct sup_answer a = { 0 };
	int fl = fcntl(sock, F_GETFL), e;
	bool blocking = fl >= 0 && !(fl & O_NONBLOCK);

	if (blocking && fcntl(sock, F_SETFL, fl | O_NONBLOCK) < 0)
		return connect_later(s, r, sock, addr, len, false);
	e = connect(sock, addr, len) < 0 ? errno : 0;
	if (blocking) {
		fcntl(sock, F_SETFL, fl);
		/* The sandbox's network is its loopback: a TCP handshake
		 * there is over in microseconds, unless the listener's
		 * backlog is full. */
		if (e == EINPROGRESS && handshake_done(sock, &e))
			;
		else if (e == EINPROGRESS || e == EAGAIN)
			return connect_later(s, r, sock, addr, len,
					     e == EINPROGRESS);
	}
	sup_answer_send(s, r->n->id, -e, &a);
	return -EINPROGRESS;
}

int
sockconn_run(struct sup *s, struct sreq *r)
{
	union {
		struct sockaddr_storage ss;
		struct sockaddr_un su;
	} u;
	socklen_t len, olen = sizeof(int);
	int sock, dom = 0, obj = -1, e;

	if ((e = read_addr(r, &u.ss, &len)) < 0)
		return e;
	if ((sock = take_socket(s, r)) < 0)
		return sock;
	if (getsockopt(sock, SOL_SOCKET, SO_DOMAIN, &dom, &olen) < 0)
		e = -errno; /* ENOTSOCK */
	/* An abstract name is the sandbox's own network namespace's (and
	 * Landlock scopes it, ABI >= 6); too short or another family: the
	 * kernel's answer. */
	else if (dom == AF_UNIX && u.su.sun_family == AF_UNIX &&
		 len > offsetof(struct sockaddr_un, sun_path) &&
		 u.su.sun_path[0] != '\0')
		e = check_path(s, r, &u.su, &len, &obj);
	if (e == 0)
		e = connect_as(s, r, sock, &u.ss, len);
	if (obj >= 0)
		close(obj);
	close(sock);
	return e;
}
