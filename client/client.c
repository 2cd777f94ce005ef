/* Connecting to sbxd and exchanging whole frames with it. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "client/autostart.h"
#include "client/client.h"
#include "proto/fdpass.h"
#include "proto/rundir.h"

void
client_err(const char *fmt, ...)
{
	va_list ap;

	fputs("sbxctl: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputc('\n', stderr);
}

static uint64_t
now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

/* Blocking calls on fd wait at most what is left of c's deadline (all of
 * them: connect, send, read), or forever once it is cleared. */
static void
arm_deadline(const struct client *c, int fd)
{
	struct timeval tv = { 0, 0 };
	uint64_t now = now_ms(), left;

	if (c->deadline_ms) {
		/* Spent: the shortest wait, which then fails at once. */
		left = c->deadline_ms > now ? c->deadline_ms - now : 1;
		tv.tv_sec = (time_t)(left / 1000);
		tv.tv_usec = (suseconds_t)(left % 1000) * 1000;
	}
	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
}

static void
start_deadline(struct client *c)
{
	c->deadline_ms = c->timeout_ms ? now_ms() + c->timeout_ms : 0;
}

/* The Hello is answered: from here on a request takes as long as it does
 * (a run lasts as long as its command). */
static void
end_deadline(struct client *c)
{
	c->deadline_ms = 0;
	if (c->fd >= 0)
		arm_deadline(c, c->fd);
}

static bool
is_timeout(const struct client *c, int r)
{
	return c->deadline_ms && (r == -EAGAIN || r == -EWOULDBLOCK);
}

static void
timeout_msg(const struct client *c, char *msg, size_t len)
{
	struct ucred cred = { 0 };
	socklen_t clen = sizeof(cred);
	char pid[32] = "pid unknown";

	/* A connection the daemon has not accepted yet has its listener's
	 * credentials: the pid of whoever listens (systemd, when the socket
	 * is activated). */
	if (c->fd >= 0 &&
	    getsockopt(c->fd, SOL_SOCKET, SO_PEERCRED, &cred, &clen) == 0 &&
	    cred.pid > 0)
		snprintf(pid, sizeof(pid), "pid %d", (int)cred.pid);
	snprintf(msg, len, "sbxd at %s (%s) did not answer within %u.%03u s: "
		 "is it stopped? (--connect-timeout or SBX_CONNECT_TIMEOUT "
		 "sets the wait)", c->socket, pid, c->timeout_ms / 1000,
		 c->timeout_ms % 1000);
}

bool
client_timed_out(const struct client *c, int r)
{
	char msg[4400];

	if (!is_timeout(c, r))
		return false;
	timeout_msg(c, msg, sizeof(msg));
	client_err("%s", msg);
	return true;
}

static int
try_connect(const struct client *c)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int fd, r;

	if (strlen(c->socket) >= sizeof(sa.sun_path))
		return -ENAMETOOLONG;
	strcpy(sa.sun_path, c->socket);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	/* A full backlog (a stopped daemon) blocks connect() too. */
	arm_deadline(c, fd);
	do
		r = connect(fd, (struct sockaddr *)&sa, sizeof(sa));
	while (r < 0 && errno == EINTR);
	if (r < 0) {
		r = -errno;
		close(fd);
		return r;
	}
	return fd;
}

static void
hello_env(const struct client *c, Sbx__Envelope *env, Sbx__Hello *h)
{
	h->protocol_version = c->version;
	h->client_name = (char *)"sbxctl";
	env->msg_case = SBX__ENVELOPE__MSG_HELLO;
	env->hello = h;
}

static int
hello(struct client *c)
{
	Sbx__Envelope env = SBX__ENVELOPE__INIT;
	Sbx__Hello h = SBX__HELLO__INIT;
	int r;

	hello_env(c, &env, &h);
	r = client_call(c, &env, SBX__ENVELOPE__MSG_HELLO_REPLY, &c->hello);
	if (r == 0)
		end_deadline(c);
	return r;
}

static int
connect_daemon(const struct cmd_ctx *ctx, struct client *c, char *err,
	       size_t errlen)
{
	const char *env = getenv("SBX_SOCKET");
	int fd, r;

	c->fd = -1;
	c->hello = NULL;
	c->hello_queued = false;
	c->version = WIRE_PROTOCOL_VERSION_MIN;
	c->timeout_ms = ctx->connect_timeout_ms;
	start_deadline(c);
	if (ctx->socket)
		snprintf(c->socket, sizeof(c->socket), "%s", ctx->socket);
	else if (env && *env)
		snprintf(c->socket, sizeof(c->socket), "%s", env);
	else if ((r = rundir_socket(getuid(), c->socket,
				    sizeof(c->socket))) < 0) {
		if (r == -EPERM)
			rundir_refusal(c->socket, err, errlen);
		else
			snprintf(err, errlen, "the socket path is too long");
		return r;
	}
	fd = try_connect(c);
	if (fd < 0 && (fd == -ENOENT || fd == -ECONNREFUSED) &&
	    !ctx->no_autostart) {
		r = autostart_daemon(c->socket, err, errlen);
		if (r < 0)
			return r;
		/* The deadline is for a daemon that runs, not its start. */
		start_deadline(c);
		fd = try_connect(c);
	}
	if (fd < 0 && is_timeout(c, fd)) {
		timeout_msg(c, err, errlen);
		return fd;
	}
	if (fd < 0) {
		snprintf(err, errlen, "cannot connect to sbxd at %s: %s",
			 c->socket, strerror(-fd));
		return fd;
	}
	c->fd = fd;
	return 0;
}

static int
open_err(const struct cmd_ctx *ctx, struct client *c, unsigned version,
	 char *err, size_t errlen)
{
	int r;

	if ((r = connect_daemon(ctx, c, err, errlen)) < 0)
		return r;
	c->version = version;
	if ((r = hello(c)) < 0) {
		err[0] = '\0'; /* client_call printed why */
		client_close(c);
		return r;
	}
	return 0;
}

int
client_open_err(const struct cmd_ctx *ctx, struct client *c, char *err,
		size_t errlen)
{
	return open_err(ctx, c, WIRE_PROTOCOL_VERSION_MIN, err, errlen);
}

int
client_open(const struct cmd_ctx *ctx, struct client *c)
{
	return client_open_version(ctx, c, WIRE_PROTOCOL_VERSION_MIN);
}

int
client_open_version(const struct cmd_ctx *ctx, struct client *c,
		    unsigned version)
{
	char err[2300];
	int r;

	if ((r = open_err(ctx, c, version, err, sizeof(err))) < 0 && err[0])
		client_err("%s", err);
	return r;
}

bool
client_has_feature(const struct client *c, const char *name)
{
	const Sbx__HelloReply *h = c->hello ? c->hello->hello_reply : NULL;
	size_t i;

	for (i = 0; h && i < h->n_features; i++)
		if (!strcmp(h->features[i], name))
			return true;
	return false;
}

int
client_open_pipelined(const struct cmd_ctx *ctx, struct client *c)
{
	char err[2300];
	int r;

	if ((r = connect_daemon(ctx, c, err, sizeof(err))) < 0) {
		client_err("%s", err);
		return r;
	}
	/* It goes in one write with the request: the daemon wakes once for
	 * both. */
	c->hello_queued = true;
	return 0;
}

int
client_hello_reply(struct client *c)
{
	Sbx__Envelope *rep;
	int r;

	if ((r = client_recv(c, &rep)) < 0 || !rep) {
		if (!client_timed_out(c, r))
			client_err("sbxd closed the connection%s%s",
				   r < 0 ? ": " : "", r < 0 ? strerror(-r) : "");
		return r < 0 ? r : -EPIPE;
	}
	if (rep->msg_case == SBX__ENVELOPE__MSG_ERROR)
		client_err("%s", rep->error->message);
	else if (rep->msg_case != SBX__ENVELOPE__MSG_HELLO_REPLY)
		client_err("unexpected reply from sbxd (%s)",
			   wire_msg_name(rep->msg_case));
	else {
		c->hello = rep;
		end_deadline(c);
		return 0;
	}
	wire_envelope_free(rep);
	return -EPROTO;
}

void
client_close(struct client *c)
{
	if (c->fd >= 0)
		close(c->fd);
	c->fd = -1;
	wire_envelope_free(c->hello);
	c->hello = NULL;
}

/* The queued Hello's frame and then env's, in one buffer. */
static int
encode_with_hello(struct client *c, const Sbx__Envelope *env, uint8_t **out,
		  size_t *outlen)
{
	Sbx__Envelope he = SBX__ENVELOPE__INIT;
	Sbx__Hello h = SBX__HELLO__INIT;
	uint8_t *a, *b, *both;
	size_t alen, blen;
	int r;

	hello_env(c, &he, &h);
	if ((r = wire_encode(&he, &a, &alen)) < 0)
		return r;
	if ((r = wire_encode(env, &b, &blen)) < 0) {
		free(a);
		return r;
	}
	both = realloc(a, alen + blen);
	if (!both) {
		free(a);
		free(b);
		return -ENOMEM;
	}
	memcpy(both + alen, b, blen);
	free(b);
	c->hello_queued = false;
	*out = both;
	*outlen = alen + blen;
	return 0;
}

int
client_send(struct client *c, const Sbx__Envelope *env, const int *fds,
	    int nfds)
{
	uint8_t *buf;
	size_t len, off = 0;
	ssize_t n;
	int r;

	r = c->hello_queued ? encode_with_hello(c, env, &buf, &len) :
			      wire_encode(env, &buf, &len);
	if (r < 0)
		return r;
	while (off < len) {
		n = fdpass_send(c->fd, buf + off, len - off, off ? NULL : fds,
				off ? 0 : nfds);
		if (n < 0) {
			free(buf);
			return (int)n;
		}
		off += (size_t)n;
	}
	free(buf);
	return 0;
}

static int
read_full(int fd, uint8_t *buf, size_t len)
{
	size_t off = 0;
	ssize_t n;

	while (off < len) {
		n = read(fd, buf + off, len - off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			return off ? -EPIPE : 0;
		off += (size_t)n;
	}
	return 1;
}

int
client_recv(struct client *c, Sbx__Envelope **out)
{
	uint8_t hdr[WIRE_HEADER], *buf;
	size_t flen;
	int r;

	*out = NULL;
	if ((r = read_full(c->fd, hdr, sizeof(hdr))) <= 0)
		return r;
	if ((r = wire_frame_check(hdr, sizeof(hdr), &flen)) < 0)
		return r;
	flen = ((size_t)hdr[0] << 24 | (size_t)hdr[1] << 16 |
		(size_t)hdr[2] << 8 | hdr[3]);
	buf = malloc(flen ? flen : 1);
	if (!buf)
		return -ENOMEM;
	if ((r = read_full(c->fd, buf, flen)) < 0 || (r == 0 && flen)) {
		free(buf);
		return r < 0 ? r : -EPIPE;
	}
	r = wire_decode(buf, flen, out);
	free(buf);
	return r;
}

int
client_call(struct client *c, const Sbx__Envelope *env,
	    Sbx__Envelope__MsgCase want, Sbx__Envelope **out)
{
	Sbx__Envelope *rep;
	int r;

	/* A refused peer may find the daemon gone before its request is
	 * written; the daemon's Error is still there to read. */
	if ((r = client_send(c, env, NULL, 0)) < 0 && r != -EPIPE &&
	    r != -ECONNRESET) {
		if (!client_timed_out(c, r))
			client_err("sending to sbxd: %s", strerror(-r));
		return r;
	}
	if ((r = client_recv(c, &rep)) < 0 || !rep) {
		if (!client_timed_out(c, r))
			client_err("sbxd closed the connection%s%s",
				   r < 0 ? ": " : "", r < 0 ? strerror(-r) : "");
		return r < 0 ? r : -EPIPE;
	}
	if (rep->msg_case == SBX__ENVELOPE__MSG_ERROR) {
		client_err("%s", rep->error->message);
		wire_envelope_free(rep);
		return -EPROTO;
	}
	if (rep->msg_case != want) {
		client_err("unexpected reply from sbxd (%s)",
			   wire_msg_name(rep->msg_case));
		wire_envelope_free(rep);
		return -EPROTO;
	}
	*out = rep;
	return 0;
}
