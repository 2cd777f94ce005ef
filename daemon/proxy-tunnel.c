/* Tunnels (HTTP CONNECT, SOCKS5): the first bytes must name the host asked for, then bytes flow both ways. */

/*
 * Without decrypting anything, a TLS ClientHello's server name or a plain
 * HTTP request's Host is compared with the destination the tunnel was
 * opened for: a tunnel to an allowed host that asks the far end for
 * another (domain fronting, a shared CDN edge) is closed and reported.
 * Until the client's first bytes have passed, nothing of them goes
 * upstream; the server's bytes flow at once, for protocols where the
 * server speaks first. Other protocols (SSH, ...) name no host and pass.
 *
 * Once a direction has carried bytes and has nothing buffered it moves by
 * splice(2) through a pipe of its own: socket to socket inside the
 * kernel, which is what keeps a bulk download through the tunnel near
 * the speed of a direct one. Without pipes (fd limit) it stays on the
 * buffered path.
 */
#include <errno.h>
#include <event2/buffer.h>
#include <stdio.h>

#include "daemon/proxy-int.h"
#include "daemon/proxy-io.h"
#include "daemon/sni.h"

/* A whole ClientHello in its largest form: every record header too. */
#define SNIFF_MAX (SNI_HELLO_MAX + 5 * (SNI_RECORDS_MAX + 1))
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

/* 1: passed, 0: need more, -1: closed. */
static int
sniff(struct pconn *pc)
{
	struct evbuffer *in = pio_in(pc->c);
	size_t len = evbuffer_get_length(in), need = 0;
	const uint8_t *buf;
	struct sni_hello hello;
	struct host h;
	const char *why = NULL;
	uint16_t port = 0;
	int r;

	if (len > SNIFF_MAX)
		len = SNIFF_MAX;
	buf = evbuffer_pullup(in, (ev_ssize_t)len);
	r = sni_parse(buf, len, &hello, &need, &why);
	if (r == SNI_NEED_MORE && len == SNIFF_MAX) {
		mismatch(pc, "first bytes too long to check", NULL, 0);
		return -1;
	}
	if (r == SNI_NEED_MORE)
		return 0;
	if (r == SNI_FOUND) {
		if (host_equal(&hello.host, &pc->host))
			return 1;
		mismatch(pc, "the TLS server name is another host",
		    &hello.host, 0);
		return -1;
	}
	if (r == SNI_MALFORMED) {
		mismatch(pc, why ? why : "malformed TLS handshake", NULL, 0);
		return -1;
	}
	if (r != SNI_NOT_TLS)
		return 1;	/* TLS without a server name */
	r = sni_http_host(buf, len, &h, &port, &why);
	switch (r) {
	case SNI_NEED_MORE:
		return 0;
	case SNI_FOUND:
		if (host_equal(&h, &pc->host) && (port == 0 ||
		    port == pc->port))
			return 1;
		mismatch(pc, "the HTTP request inside is for another host",
		    &h, port);
		return -1;
	case SNI_MALFORMED:
		mismatch(pc, why ? why : "malformed HTTP request", NULL, 0);
		return -1;
	default:
		return 1;	/* no host named, or not HTTP */
	}
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

/* Direction d goes raw (splice) when nothing of it is buffered. */
static void
try_splice(struct pconn *pc, int d)
{
	if (*eof_of(pc, d) || (d == 0 && !pc->sniffed) ||
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

/* Buffered path: move what was read, hold the source while it piles. */
static void
relay(struct pconn *pc, int d)
{
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
	int r;

	if (pc->pipe[d].held == 0 && pc->pipe[d].fd[0] >= 0 &&
	    evbuffer_get_length(pio_in(src(pc, d))) == 0) {
		splice_in(pc, d);
		return;
	}
	if (d == 0 && !pc->sniffed) {
		if ((r = sniff(pc)) <= 0)
			return;
		pc->sniffed = true;
		pconn_deadline(pc, 0);
	}
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
	 * unchecked goes upstream. */
	if (d == 0 && !pc->sniffed && evbuffer_get_length(pio_in(pc->c)) > 0) {
		pconn_close(pc);
		return;
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
	pconn_deadline(pc, proxy_config()->head_timeout_ms);
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
}
