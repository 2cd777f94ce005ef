/* A streaming session's stdio: the command's output to the client with
 * backpressure, the client's input to the command, the pty's size. (With
 * fd passing the client holds the stdio and none of this runs.) */
#define _GNU_SOURCE
#include <errno.h>
#include <event2/buffer.h>
#include <event2/event.h>
#include <fcntl.h>
#include <stdlib.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "daemon/conn.h"
#include "daemon/daemon.h"
#include "daemon/events.h"
#include "daemon/session.h"
#include "daemon/session-int.h"

/* Streaming backpressure: stop reading the command's output while this
 * much is queued for the client; resume below the low mark. */
#define OUT_HIGH (4u << 20)
#define OUT_LOW (1u << 20)
#define STDIN_HIGH (4u << 20)
/* Stdin by credit: what a client may have sent that the command has not
 * read yet. Credit goes out once a quarter of it is free again. */
#define STDIN_WINDOW (1u << 20)

static void
stream_close(struct session *s, struct stream *st)
{
	if (st->fd < 0)
		return;
	event_free(st->ev);
	st->ev = NULL;
	close(st->fd);
	st->fd = -1;
}

static void
stdin_close_fd(struct session *s)
{
	if (s->stdin_fd < 0)
		return;
	event_free(s->stdin_ev);
	s->stdin_ev = NULL;
	close(s->stdin_fd);
	s->stdin_fd = -1;
	if (s->conn)
		conn_pause_read(s->conn, false);
}

static void
output_env(Sbx__Envelope *env, Sbx__OutputData *od, unsigned id,
	   const uint8_t *buf, size_t n)
{
	od->stream = id;
	od->data.data = (uint8_t *)buf;
	od->data.len = n;
	env->msg_case = SBX__ENVELOPE__MSG_OUTPUT;
	env->output = od;
}

void
session_output(struct session *s, unsigned id, const uint8_t *buf, size_t n)
{
	Sbx__Envelope env = SBX__ENVELOPE__INIT;
	Sbx__OutputData od = SBX__OUTPUT_DATA__INIT;

	output_env(&env, &od, id, buf, n);
	conn_send_id(s->conn, s->req, &env);
}

/* Live output only (an attach's replay is not copied again). */
static void
session_mirror(struct session *s, unsigned id, const uint8_t *buf, size_t n)
{
	Sbx__Envelope env = SBX__ENVELOPE__INIT;
	Sbx__OutputData od = SBX__OUTPUT_DATA__INIT;

	output_env(&env, &od, id, buf, n);
	events_output(s->id, &env);
}

static void
pause_output(struct session *s, bool pause)
{
	int i;

	if (s->paused == pause)
		return;
	s->paused = pause;
	for (i = 0; i < s->nout; i++) {
		if (!s->out[i].ev)
			continue;
		if (pause)
			event_del(s->out[i].ev);
		else
			event_add(s->out[i].ev, NULL);
	}
}

static void
out_cb(evutil_socket_t fd, short what, void *arg)
{
	static uint8_t buf[WIRE_CHUNK];
	struct stream *st = arg;
	struct session *s = st->s;
	ssize_t n;

	n = read(fd, buf, sizeof(buf));
	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return;
	/* A pty master reports EIO once the last slave fd is closed. */
	if (n <= 0) {
		stream_close(s, st);
		session_maybe_finish(s);
		return;
	}
	/* A kept session keeps its last output for an Attach; one that
	 * is not and has no client is being killed. */
	if (s->keep)
		session_ring_add(s, st->id, buf, (size_t)n);
	session_mirror(s, st->id, buf, (size_t)n);
	if (!s->conn)
		return;
	session_output(s, st->id, buf, (size_t)n);
	if (s->conn && conn_out_pending(s->conn) > OUT_HIGH)
		pause_output(s, true);
}

void
session_output_drained(struct session *s, size_t pending)
{
	if (s->paused && pending < OUT_LOW)
		pause_output(s, false);
}

void
session_stdin_grant(struct session *s, bool all)
{
	Sbx__Envelope env = SBX__ENVELOPE__INIT;
	Sbx__StdinCredit sc = SBX__STDIN_CREDIT__INIT;
	uint64_t to = s->stdin_out + STDIN_WINDOW;

	if (!s->credit || !s->conn || s->stdin_eof || to <= s->stdin_granted ||
	    (!all && to - s->stdin_granted < STDIN_WINDOW / 4))
		return;
	sc.bytes = to - s->stdin_granted;
	s->stdin_granted = to;
	env.msg_case = SBX__ENVELOPE__MSG_STDIN_CREDIT;
	env.stdin_credit = &sc;
	conn_send_id(s->conn, s->req, &env);
}

static void
stdin_cb(evutil_socket_t fd, short what, void *arg)
{
	struct session *s = arg;
	int n = evbuffer_write(s->stdin_buf, fd);

	if (n < 0 && errno != EAGAIN && errno != EINTR) {
		/* The command closed its stdin: drop what it will never read. */
		s->stdin_out += evbuffer_get_length(s->stdin_buf);
		evbuffer_drain(s->stdin_buf, evbuffer_get_length(s->stdin_buf));
		stdin_close_fd(s);
		session_stdin_grant(s, true);
		return;
	}
	if (n > 0) {
		s->stdin_out += (size_t)n;
		session_stdin_grant(s, false);
	}
	if (evbuffer_get_length(s->stdin_buf) == 0) {
		event_del(s->stdin_ev);
		if (s->stdin_eof && !s->tty)
			stdin_close_fd(s);
	}
	if (s->conn && evbuffer_get_length(s->stdin_buf) < STDIN_HIGH / 2)
		conn_pause_read(s->conn, false);
}

int
session_stdin(struct session *s, const uint8_t *data, size_t len)
{
	if (!s->streaming || s->stdin_eof)
		return -EINVAL;
	s->stdin_in += len;
	if (s->stdin_fd < 0) {
		/* The command closed stdin: discard, as a pipe would. */
		s->stdin_out += len;
		session_stdin_grant(s, false);
		return 0;
	}
	if (evbuffer_add(s->stdin_buf, data, len) < 0)
		return -ENOMEM;
	event_add(s->stdin_ev, NULL);
	/* Without credit, the connection waits for the command. With it,
	 * the client keeps within the window, and only one that does not
	 * is paced so. */
	if (evbuffer_get_length(s->stdin_buf) > (s->credit ?
	    STDIN_WINDOW + WIRE_FRAME_MAX : STDIN_HIGH) && s->conn)
		conn_pause_read(s->conn, true);
	return 0;
}

int
session_stdin_close(struct session *s)
{
	if (!s->streaming)
		return -EINVAL;
	if (s->stdin_eof)
		return 0;
	s->stdin_eof = true;
	if (s->stdin_fd < 0)
		return 0;
	if (s->tty) {
		/* A terminal has no close short of hang-up: send EOF (^D). */
		static const uint8_t eot = 4;

		evbuffer_add(s->stdin_buf, &eot, 1);
		event_add(s->stdin_ev, NULL);
	} else if (evbuffer_get_length(s->stdin_buf) == 0)
		stdin_close_fd(s);
	return 0;
}

int
session_resize(struct session *s, unsigned rows, unsigned cols)
{
	struct winsize ws = { .ws_row = (unsigned short)rows,
			      .ws_col = (unsigned short)cols };

	/* With fd passing the client owns the pty master and resizes it. */
	if (!s->tty || !s->streaming || s->stdin_fd < 0)
		return 0;
	return ioctl(s->stdin_fd, TIOCSWINSZ, &ws) < 0 ? -errno : 0;
}

int
session_io_make(struct session *s, const Sbx__RunRequest *req, int child[3])
{
	int p[3][2] = { { -1, -1 }, { -1, -1 }, { -1, -1 } }, i, m;

	if (req->tty) {
		struct winsize ws = { 24, 80, 0, 0 };
		int slave;

		m = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
		if (m < 0 || grantpt(m) < 0 || unlockpt(m) < 0 ||
		    (slave = open(ptsname(m), O_RDWR | O_NOCTTY | O_CLOEXEC)) < 0) {
			if (m >= 0)
				close(m);
			return -errno;
		}
		if (req->winsize && req->winsize->rows && req->winsize->cols) {
			ws.ws_row = (unsigned short)req->winsize->rows;
			ws.ws_col = (unsigned short)req->winsize->cols;
		}
		ioctl(m, TIOCSWINSZ, &ws);
		child[0] = child[1] = child[2] = slave;
		s->out[0].fd = m;
		s->out[0].id = 1;
		s->nout = 1;
		s->stdin_fd = fcntl(m, F_DUPFD_CLOEXEC, 3);
		fcntl(m, F_SETFL, O_NONBLOCK);
		return s->stdin_fd < 0 ? -errno : 0;
	}
	for (i = 0; i < 3; i++)
		if (pipe2(p[i], O_CLOEXEC) < 0)
			goto fail;
	child[0] = p[0][0];
	child[1] = p[1][1];
	child[2] = p[2][1];
	s->stdin_fd = p[0][1];
	s->out[0].fd = p[1][0];
	s->out[0].id = 1;
	s->out[1].fd = p[2][0];
	s->out[1].id = 2;
	s->nout = 2;
	for (i = 0; i < 3; i++)
		fcntl(i ? p[i][0] : p[0][1], F_SETFL, O_NONBLOCK);
	return 0;
fail:
	m = -errno;
	for (i = 0; i < 3; i++) {
		if (p[i][0] >= 0)
			close(p[i][0]);
		if (p[i][1] >= 0)
			close(p[i][1]);
	}
	return m;
}

void
session_io_close_child(int child[3])
{
	close(child[0]);
	if (child[1] != child[0])
		close(child[1]);
	if (child[2] != child[0] && child[2] != child[1])
		close(child[2]);
}

int
session_io_arm(struct session *s)
{
	int i;

	for (i = 0; i < s->nout; i++) {
		s->out[i].s = s;
		s->out[i].ev = event_new(sbxd.base, s->out[i].fd,
					 EV_READ | EV_PERSIST, out_cb, &s->out[i]);
		if (!s->out[i].ev || event_add(s->out[i].ev, NULL) < 0)
			return -ENOMEM;
	}
	if (s->stdin_fd >= 0) {
		s->stdin_buf = evbuffer_new();
		s->stdin_ev = event_new(sbxd.base, s->stdin_fd,
					EV_WRITE | EV_PERSIST, stdin_cb, s);
		if (!s->stdin_buf || !s->stdin_ev)
			return -ENOMEM;
	}
	return 0;
}

void
session_io_close(struct session *s)
{
	int i;

	for (i = 0; i < s->nout; i++)
		stream_close(s, &s->out[i]);
	stdin_close_fd(s);
}
