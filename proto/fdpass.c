/* SCM_RIGHTS send and receive shared by sbxd and sbxctl. */
#include <errno.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "proto/fdpass.h"

ssize_t
fdpass_send(int sock, const void *buf, size_t len, const int *fds, int nfds)
{
	union {
		char buf[CMSG_SPACE(sizeof(int) * FDPASS_SEND_MAX)];
		struct cmsghdr align;
	} u;
	struct iovec iov = { .iov_base = (void *)buf, .iov_len = len };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1 };
	ssize_t n;

	if (nfds < 0 || nfds > FDPASS_SEND_MAX)
		return -EINVAL;
	if (nfds > 0) {
		struct cmsghdr *c;

		memset(&u, 0, sizeof(u));
		msg.msg_control = u.buf;
		msg.msg_controllen = CMSG_SPACE(sizeof(int) * (size_t)nfds);
		c = CMSG_FIRSTHDR(&msg);
		c->cmsg_level = SOL_SOCKET;
		c->cmsg_type = SCM_RIGHTS;
		c->cmsg_len = CMSG_LEN(sizeof(int) * (size_t)nfds);
		memcpy(CMSG_DATA(c), fds, sizeof(int) * (size_t)nfds);
	}
	do
		n = sendmsg(sock, &msg, MSG_NOSIGNAL);
	while (n < 0 && errno == EINTR);
	return n < 0 ? -errno : n;
}

static int
collect_fds(struct msghdr *msg, int *fds, int *nfds, int maxfds)
{
	struct cmsghdr *c;
	int r = 0;

	for (c = CMSG_FIRSTHDR(msg); c; c = CMSG_NXTHDR(msg, c)) {
		size_t i, n;
		int fd;

		if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS)
			continue;
		n = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
		for (i = 0; i < n; i++) {
			memcpy(&fd, CMSG_DATA(c) + i * sizeof(int), sizeof(int));
			if (*nfds < maxfds)
				fds[(*nfds)++] = fd;
			else {
				close(fd);
				r = -ETOOMANYREFS;
			}
		}
	}
	return r;
}

ssize_t
fdpass_recv(int sock, void *buf, size_t len, int *fds, int *nfds, int maxfds)
{
	union {
		char buf[CMSG_SPACE(sizeof(int) * FDPASS_SEND_MAX)];
		struct cmsghdr align;
	} u;
	struct iovec iov = { .iov_base = buf, .iov_len = len };
	struct msghdr msg = {
		.msg_iov = &iov,
		.msg_iovlen = 1,
		.msg_control = u.buf,
		.msg_controllen = sizeof(u.buf),
	};
	ssize_t n;
	int r;

	*nfds = 0;
	do
		n = recvmsg(sock, &msg, MSG_CMSG_CLOEXEC);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return -errno;
	r = collect_fds(&msg, fds, nfds, maxfds);
	if (msg.msg_flags & MSG_CTRUNC)
		r = -ETOOMANYREFS;
	return r < 0 ? r : n;
}
