/* Tunnels (HTTP CONNECT, SOCKS5): the first bytes must name the host asked for, then bytes flow both ways. */

/*
 * Without decrypting anything, a TLS ClientHello's server name or the Host
 * of every plain HTTP request is compared with the destination the tunnel
 * was opened for (tunnel-check.c): a tunnel to an allowed host that asks
 * the far end for another (domain fronting, a shared CDN edge, another
 * virtual host) is closed and reported, and so is one whose first bytes
 * are none of those nor an SSH banner. Nothing unchecked of the client's
 * goes upstream; the server's bytes flow at once (SSH servers speak
 * first).
 *
 * Once a direction carries bulk (a read filled its buffer) and has nothing
 * buffered it moves by splice(2) through a pipe of its own: socket to socket inside the
 * kernel, which is what keeps a bulk download through the tunnel near
 * the speed of a direct one. Without pipes (fd limit) it stays on the
 * buffered path.
 */
#include <errno.h>
#include <event2/buffer.h>
#include <stdio.h>
#include <stdlib.h>

#include "daemon/proxy/inspect.h"
#include "daemon/proxy/int.h"
#include "daemon/proxy/io.h"
#include "daemon/proxy/tunnel-check.h"

/* Splices per wake-up before giving other connections a turn. */
#define SPLICE_ROUNDS 4

static const struct pio_ops ops[2];

static struct pio *
src(struct pconn *pc, int d)
{
	return d == 0 ? pc->c : pc->u;
}

static struct pio *
dst(struct pconn *pc, int d)
{
	return d == 0 ? pc->u : pc->c;
}

static bool *
eof_of(struct pconn *pc, int d)
{
	return d == 0 ? &pc->c_eof : &pc->u_eof;
}

static void
mismatch(struct pconn *pc, const char *why, const struct host *named,
    uint16_t port)
{
	struct proxy_denial d = { 0 };
	char name[HOST_TEXT_MAX + 16];

	d.check = "tunnel check";
	d.why = why;
	if (named != NULL && host_format(named, port, name, sizeof(name)) >= 0)
		snprintf(d.detail, sizeof(d.detail), "it names %s", name);
	d.remedy = "a tunnel may only carry traffic for the host it was "
	    "opened to";
	proxy_report(pc, &d);
	pconn_close(pc);
}

/*
 * Runs the client's buffered bytes through the check; what passed goes to
 * the upstream's buffer (all of them once the check is over, by relay).
 * 0, or -1: refused and closed.
 */
static int
check(struct pconn *pc)
{
	struct tunnel_check *tc = pc->tc;
	struct evbuffer *in = pio_in(pc->c);
	size_t len, ok;
	int r;

	while ((len = evbuffer_get_length(in)) > 0) {
		if (len > TUNNEL_CHECK_WINDOW)
			len = TUNNEL_CHECK_WINDOW;
		r = tunnel_check_feed(tc, evbuffer_pullup(in, (ev_ssize_t)len),
		    len, &ok);
		if (r == TUNNEL_CHECK_REFUSED) {
			mismatch(pc, tc->why, tc->has_named ? &tc->named :
			    NULL, tc->named_port);
			return -1;
		}
		if (r == TUNNEL_CHECK_ALL || ok > 0) {
			pc->sniffed = true;
			pconn_deadline(pc, 0);
		}
		if (r == TUNNEL_CHECK_ALL) {
			free(pc->tc);
			pc->tc = NULL;
			return 0;
		}
		if (ok == 0)
			break;
		evbuffer_remove_buffer(in, pio_out(pc->u), ok);
	}
	return 0;
}

/* Both ends passed on and written: the tunnel is done. */
static void
maybe_done(struct pconn *pc)
{
	if (pc->c_eof && pc->u_eof && pc->pipe[0].held == 0 &&
	    pc->pipe[1].held == 0 && pio_pending(pc->c) == 0 &&
	    pio_pending(pc->u) == 0)
		pconn_close(pc);
}

/* The source of d ended: end the destination once its bytes are out. */
static void
pass_end(struct pconn *pc, int d)
{
	*eof_of(pc, d) = true;
	pio_read(src(pc, d), false);
	if (pc->pipe[d].held == 0)
		pio_shutdown(dst(pc, d));
	maybe_done(pc);
}

/*
 * Direction d goes raw (splice) once it carries bulk and nothing of it is
 * buffered. Small messages (keep-alive requests and answers) stay on the
 * copy: a splice in and out costs more than reading and writing a few
 * KiB, and the tunnel holds no pipe.
 */
static void
try_splice(struct pconn *pc, int d)
{
	if (*eof_of(pc, d) || (d == 0 && pc->tc != NULL) ||
	    !pio_bulk(src(pc, d)) ||
	    evbuffer_get_length(pio_in(src(pc, d))) > 0 ||
	    pio_pending(dst(pc, d)) > 0 || proxy_fds_pipe(pc, d) < 0)
		return;
	pio_raw(src(pc, d), true);
}

/* Moves what the pipe holds to the destination; -1 on error. */
static int
drain_pipe(struct pconn *pc, int d)
{
	int r = pio_splice_out(dst(pc, d), &pc->pipe[d]);

	if (r == -EAGAIN)
		pio_read(src(pc, d), false);
	return r == 0 || r == -EAGAIN ? 0 : -1;
}

static void
splice_in(struct pconn *pc, int d)
{
	ssize_t n;
	int i;

	for (i = 0; i < SPLICE_ROUNDS && pc->pipe[d].held == 0; i++) {
		n = pio_splice_in(src(pc, d), &pc->pipe[d], SIZE_MAX);
		if (n == 0) {
			pass_end(pc, d);
			return;
		}
		if (n == -EAGAIN)
			return;
		if (n < 0 || drain_pipe(pc, d) < 0) {
			pconn_close(pc);
			return;
		}
		if (!pc->pipe[d].filled)
			return;	/* drained: no need to find EAGAIN */
	}
}

/* Buffered path: move what was read (check() moved what passed; the
 * rest waits), hold the source while it piles. */
static void
relay(struct pconn *pc, int d)
{
	if (d == 1 || pc->tc == NULL)
		evbuffer_add_buffer(pio_out(dst(pc, d)), pio_in(src(pc, d)));
	pio_flush(dst(pc, d));
	if (pio_pending(dst(pc, d)) > PROXY_HIGH)
		pio_read(src(pc, d), false);
	else
		try_splice(pc, d);
}

static void
on_read(struct pconn *pc, int d)
{
	if (pc->pipe[d].held == 0 && pc->pipe[d].fd[0] >= 0 &&
	    evbuffer_get_length(pio_in(src(pc, d))) == 0) {
		splice_in(pc, d);
		return;
	}
	if (d == 0 && pc->tc != NULL && check(pc) < 0)
		return;
	relay(pc, d);
}

static void
on_drained(struct pconn *pc, int d)
{
	/* The destination of direction d can take more. */
	if (pc->pipe[d].held > 0 && drain_pipe(pc, d) < 0) {
		pconn_close(pc);
		return;
	}
	if (pc->pipe[d].held > 0)
		return;
	if (*eof_of(pc, d)) {
		pio_shutdown(dst(pc, d));
		maybe_done(pc);
		return;
	}
	try_splice(pc, d);
	pio_read(src(pc, d), true);
}

static void
on_event(struct pconn *pc, int d, int what)
{
	if (!(what & PIO_EOF)) {
		pconn_close(pc);
		return;
	}
	/* The client ended before its first bytes decided: nothing
	 * unchecked goes upstream. A request cut short after checked ones
	 * is dropped: the server sees the end where the last one ended. */
	if (d == 0 && pc->tc != NULL && evbuffer_get_length(pio_in(pc->c)) > 0) {
		if (!pc->sniffed) {
			pconn_close(pc);
			return;
		}
		evbuffer_drain(pio_in(pc->c), evbuffer_get_length(pio_in(pc->c)));
	}
	if (d == 0)
		pc->sniffed = true;
	pass_end(pc, d);
}

/* pio callbacks: reads and ends of a side are of its direction; drains
 * of a side are of the direction writing to it. */
static void
c_read(struct pconn *pc, struct pio *p)
{
	on_read(pc, 0);
}

static void
u_read(struct pconn *pc, struct pio *p)
{
	on_read(pc, 1);
}

static void
c_drained(struct pconn *pc, struct pio *p)
{
	on_drained(pc, 1);
}

static void
u_drained(struct pconn *pc, struct pio *p)
{
	on_drained(pc, 0);
}

static void
c_event(struct pconn *pc, struct pio *p, int what)
{
	on_event(pc, 0, what);
}

static void
u_event(struct pconn *pc, struct pio *p, int what)
{
	on_event(pc, 1, what);
}

static const struct pio_ops ops[2] = {
	{ c_read, c_drained, c_event },
	{ u_read, u_drained, u_event },
};

void
tunnel_start(struct pconn *pc)
{
	if (inspect_take(pc))
		return;
	if ((pc->tc = malloc(sizeof(*pc->tc))) == NULL) {
		pconn_close(pc);
		return;
	}
	tunnel_check_init(pc->tc, &pc->host, pc->port);
	/* Captured, by port: the program made this connection itself and
	 * may wait for the server to speak first (SMTP, MySQL). */
	pc->tc->by_port = pc->by_port;
	pconn_deadline(pc, pc->by_port ? 0 : proxy_config()->head_timeout_ms);
	tunnel_relay(pc);
}

void
tunnel_relay(struct pconn *pc)
{
	if (pc->tc == NULL)
		pc->sniffed = true;
	pio_set_ops(pc->c, &ops[0]);
	pio_set_ops(pc->u, &ops[1]);
	pio_low_mark(pc->c, PROXY_HIGH / 2);
	pio_low_mark(pc->u, PROXY_HIGH / 2);
	pio_read(pc->c, true);
	pio_read(pc->u, true);
	/*
	 * No pipe yet (an idle tunnel holds none): the first bytes of each
	 * direction are read into a buffer, and relay() opens it. Bytes the
	 * client sent with its request are already here.
	 */
	if (evbuffer_get_length(pio_in(pc->c)) > 0)
		on_read(pc, 0);
	/* And the far end's first bytes that came with an upstream proxy's
	 * answer to CONNECT (upstream.c). */
	if (!pc->dead && pc->u != NULL &&
	    evbuffer_get_length(pio_in(pc->u)) > 0)
		on_read(pc, 1);
}
