/* Sending and receiving bytes with file descriptors (SCM_RIGHTS). */
#ifndef SBX_FDPASS_H
#define SBX_FDPASS_H

#include <stddef.h>
#include <sys/types.h>

/* Most fds one client message may carry: stdin, stdout, stderr. */
#define FDPASS_MAX 3
/* Most fds fdpass_send puts in one message (the daemon's own records to
 * and from sandboxes carry more). */
#define FDPASS_SEND_MAX 8

/* Sends len bytes with nfds fds attached to the first byte. Returns bytes
 * sent or -errno. */
ssize_t fdpass_send(int sock, const void *buf, size_t len, const int *fds,
		    int nfds);

/* Reads up to len bytes; fds that arrive are stored (CLOEXEC) in fds[] up to
 * maxfds, their count in *nfds. Extra fds beyond maxfds are closed and
 * -ETOOMANYREFS returned so the caller can drop the peer. */
ssize_t fdpass_recv(int sock, void *buf, size_t len, int *fds, int *nfds,
		    int maxfds);

#endif
