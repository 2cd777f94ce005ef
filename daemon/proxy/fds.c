/* The proxy's file descriptors: what each session's proxy holds, its share of the daemon's budget, and refusing past it. */

/*
 * A connection costs two fds from the start (the client's socket and the
 * upstream's, one at a time however many addresses are tried), and each
 * direction that moves by splice a pipe of two more. Counting connections
 * alone let one sandbox's tunnels take every fd the daemon had, and then
 * nothing else could be accepted: not another sandbox's connection, not
 * a client's `sbxctl status`.
 *
 * The proxies together hold at most fdlimit_budget(), and one session's
 * at most budget / (proxies + 1): alone it leaves half of the budget for
 * sessions to come, and each proxy that comes lowers the others' share
 * (what they already hold stays; they get no more until under it). A
 * connection past the share is refused at once (an HTTP client gets a
 * 503 saying why) and the session's listeners pause until it closes some;
 * a pipe past it is not opened, and the bytes take the buffered path.
 */
#include <errno.h>
#include <stdio.h>
#include <sys/socket.h>
#include <unistd.h>

#include "daemon/fdlimit.h"
#include "daemon/proxy/int.h"

static unsigned nproxies, held;

static const char refusal[] =
    "sbx proxy: this sandbox holds as many proxy connections as it may "
    "(its share of the daemon's file descriptors); close some and retry\n";

void
proxy_fds_join(struct proxy *px)
{
	nproxies++;
	px->joined = true;
}

void
proxy_fds_leave(struct proxy *px)
{
	if (!px->joined)
		return;
	px->joined = false;
	nproxies--;
	held -= px->fds;
	px->fds = 0;
	/* The others' share grew. */
	fdlimit_released();
}

unsigned
proxy_fds_share(void)
{
	return fdlimit_budget() / (nproxies + 1);
}

bool
proxy_fds_room(const struct proxy *px, unsigned n)
{
	return px->fds + n <= proxy_fds_share() &&
	    held + n <= fdlimit_budget();
}

bool
proxy_fds_take(struct proxy *px, unsigned n)
{
	if (!proxy_fds_room(px, n))
		return false;
	px->fds += n;
	held += n;
	return true;
}

void
proxy_fds_give(struct proxy *px, unsigned n)
{
	px->fds -= n;
	held -= n;
}

int
proxy_fds_pipe(struct pconn *pc, int d)
{
	int r;

	if (pc->pipe[d].fd[0] >= 0)
		return 0;
	if (!proxy_fds_take(pc->px, 2))
		return -EMFILE;
	if ((r = pio_pipe_open(&pc->pipe[d])) < 0) {
		proxy_fds_give(pc->px, 2);
		return r;
	}
	pc->nfds += 2;
	return 0;
}

void
proxy_fds_refuse(struct proxy *px, int fd, bool http)
{
	char buf[4096];
	int i, n;

	if (http) {
		/* What the client sent is read first: closing a socket with
		 * unread bytes resets it, and the reply may be lost. */
		for (i = 0; i < 4; i++)
			if (recv(fd, buf, sizeof(buf), MSG_DONTWAIT) <= 0)
				break;
		n = snprintf(buf, sizeof(buf), "HTTP/1.1 503 Service "
		    "Unavailable\r\nContent-Type: text/plain\r\n"
		    "Content-Length: %zu\r\nConnection: close\r\n\r\n%s",
		    sizeof(refusal) - 1, refusal);
		if (send(fd, buf, (size_t)n, MSG_DONTWAIT | MSG_NOSIGNAL) > 0)
			shutdown(fd, SHUT_WR);
	}
	close(fd);
}
