/* The sockets a sandbox makes in its network namespace for the daemon's
 * proxy to serve (proxy/proxy.h, PROXY_FD_*): made by the session init,
 * which still has the capabilities to bind port 53, and handed over in
 * one LISTENERS record. */
#define _GNU_SOURCE
#include <errno.h>
#include <netinet/in.h>
#include <stdbool.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "daemon/linux/linux.h"
#include "daemon/sandbox.h"
#include "proto/fdpass.h"

/* A socket of the sandbox's namespace bound to addr (family's loopback, or
 * for IPv6 with any set the dual-stack wildcard), listening if a stream. */
static int
bound(int family, int type, uint16_t port, bool any)
{
	union {
		struct sockaddr_in in;
		struct sockaddr_in6 in6;
	} a;
	int fd, one = 1, v6only = !any;

	memset(&a, 0, sizeof(a));
	if (family == AF_INET) {
		a.in.sin_family = AF_INET;
		a.in.sin_port = htons(port);
		a.in.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	} else {
		a.in6.sin6_family = AF_INET6;
		a.in6.sin6_port = htons(port);
		a.in6.sin6_addr = any ? in6addr_any : in6addr_loopback;
	}
	fd = socket(family, type | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (fd < 0)
		return -errno;
	if (setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one)) < 0 ||
	    (family == AF_INET6 &&
	     setsockopt(fd, IPPROTO_IPV6, IPV6_V6ONLY, &v6only,
			sizeof(v6only)) < 0) ||
	    bind(fd, (struct sockaddr *)&a, family == AF_INET ?
		 sizeof(a.in) : sizeof(a.in6)) < 0 ||
	    (type == SOCK_STREAM && listen(fd, 128) < 0)) {
		int e = errno;

		close(fd);
		return -e;
	}
	return fd;
}

/* The proxy's listeners, made inside the sandbox's network namespace and
 * handed to the daemon, which serves them: a connection to them can only
 * come from this sandbox. HTTP and SOCKS5; with capture also where the
 * namespace's nftables send the rest (linux/capture.c): TCP on IPv4 and
 * IPv6, DNS over UDP on 127.0.0.1 and ::1 and over TCP (dual-stack), in
 * proxy.h's PROXY_FD_* order; the IPv6 ones missing where the namespace
 * has no IPv6. */
int
linux_send_listeners(int sfd, bool capture)
{
	struct sandbox_status rec = { .kind = SANDBOX_STATUS_LISTENERS };
	int fds[7] = { -1, -1, -1, -1, -1, -1, -1 }, sent[7], n = capture ? 7 : 2,
	    i, k, r = 0;

	fds[0] = bound(AF_INET, SOCK_STREAM, SANDBOX_HTTP_PROXY_PORT, false);
	fds[1] = bound(AF_INET, SOCK_STREAM, SANDBOX_SOCKS_PROXY_PORT, false);
	if (capture) {
		fds[2] = bound(AF_INET, SOCK_STREAM, SANDBOX_CAPTURE_PORT,
			       false);
		fds[3] = bound(AF_INET6, SOCK_STREAM, SANDBOX_CAPTURE_PORT,
			       false);
		fds[4] = bound(AF_INET, SOCK_DGRAM, SANDBOX_DNS_PORT, false);
		fds[5] = bound(AF_INET6, SOCK_STREAM, SANDBOX_DNS_PORT, true);
		if (fds[5] == -EAFNOSUPPORT || fds[5] == -EADDRNOTAVAIL)
			fds[5] = bound(AF_INET, SOCK_STREAM, SANDBOX_DNS_PORT,
				       false);
		fds[6] = bound(AF_INET6, SOCK_DGRAM, SANDBOX_DNS_PORT, false);
		/* No IPv6 in the namespace: IPv4 alone. */
		for (i = 3; i < 7; i += 3)
			if (fds[i] == -EAFNOSUPPORT || fds[i] == -EADDRNOTAVAIL)
				fds[i] = -1;
	}
	/* Sent in order, those present; value says which they are. */
	for (i = 0, k = 0; i < n; i++) {
		if (fds[i] < -1 && r == 0)
			r = fds[i];
		if (fds[i] >= 0) {
			rec.value |= 1 << i;
			sent[k++] = fds[i];
		}
	}
	if (r == 0 && fdpass_send(sfd, &rec, sizeof(rec), sent, k) < 0)
		r = -errno;
	for (i = 0; i < k; i++)
		close(sent[i]);
	return r;
}
