/* The run loop (libevent): relays stdin and pty bytes, forwards signals,
 * writes output frames, and turns the ExitStatus into our exit code. */
#define _GNU_SOURCE
#include <errno.h>
#include <event2/buffer.h>
#include <event2/event.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "client/ask.h"
#include "client/file.h"
#include "client/relay.h"
#include "client/tty.h"
#include "client/blocked.h"

/* Stop reading stdin while this much is queued for the daemon. */
#define SOCK_HIGH (1u << 20)

struct relay {
	struct event_base *base;
	struct client *c;
	const struct relay_opts *o;
	struct evbuffer *in, *out;
	struct event *sock_rev, *sock_wev, *stdin_ev, *master_ev;
	struct event *sigs[10];
	struct ask *ask;
	bool stdin_pollable, stdin_open, stdin_paused, stdin_held;
	bool stdin_starved;   /* no stdin credit left */
	uint64_t credit;      /* bytes of StdinData we may still send */
	bool finished; /* exit_code is final */
	int exit_code;
};

static const int relayed_sigs[] = { SIGINT, SIGTERM, SIGHUP, SIGQUIT,
				    SIGUSR1, SIGUSR2, SIGALRM, SIGWINCH,
				    SIGTSTP, SIGCONT };

/* Reading stdin goes on when nothing holds it back: the socket's queue,
 * a prompt on the terminal, the daemon's credit. */
static void
stdin_rearm(struct relay *r)
{
	if (!r->stdin_ev || !r->stdin_open || r->stdin_paused ||
	    r->stdin_held || r->stdin_starved)
		return;
	if (r->stdin_pollable)
		event_add(r->stdin_ev, NULL);
	else
		event_active(r->stdin_ev, EV_READ, 0);
}

static void
queue(struct relay *r, const Sbx__Envelope *env)
{
	Sbx__Envelope e = *env;
	uint8_t *buf;
	size_t len;

	e.request_id = r->o->request_id;
	if (wire_encode(&e, &buf, &len) < 0)
		return;
	evbuffer_add(r->out, buf, len);
	free(buf);
	event_add(r->sock_wev, NULL);
	if (r->stdin_ev && evbuffer_get_length(r->out) > SOCK_HIGH &&
	    !r->stdin_paused) {
		r->stdin_paused = true;
		event_del(r->stdin_ev);
	}
}

static void
send_signal(struct relay *r, int sig)
{
	Sbx__Envelope env = SBX__ENVELOPE__INIT;
	Sbx__SendSignal s = SBX__SEND_SIGNAL__INIT;

	s.signo = sig;
	env.msg_case = SBX__ENVELOPE__MSG_SIGNAL;
	env.signal = &s;
	queue(r, &env);
}

/* The first end is the one: an Error or a lost connection that comes after
 * the command's exit status (say the daemon's answer to a StdinClose sent
 * as the command exited, read in the same chunk) does not replace it. */
static void
finish(struct relay *r, int code)
{
	if (r->finished)
		return;
	r->finished = true;
	r->exit_code = code;
	event_base_loopbreak(r->base);
}

static int
exit_code(const Sbx__ExitStatus *es)
{
	if (es->exec_error && es->exec_error[0])
		client_err("%s", es->exec_error);
	if (es->timed_out)
		client_err("command timed out");
	/* Which limit stopped it, and the rule that set it. */
	if (es->limit_hit && es->limit_hit[0])
		client_err("%s: %s", !es->exited && es->signal == SIGKILL ?
			   "killed" : "limit hit", es->limit_hit);
	return blocked_exit_code(es);
}

static void
handle_frame(struct relay *r, const Sbx__Envelope *env)
{
	int code;

	switch (env->msg_case) {
	case SBX__ENVELOPE__MSG_RUN_STARTED:
	case SBX__ENVELOPE__MSG_ATTACHED:
		break;
	case SBX__ENVELOPE__MSG_OUTPUT:
		/* A reader gone drops the rest, like a closed pipe. */
		(void)file_write_all(env->output->stream == 2 ? 2 : 1,
				     env->output->data.data,
				     env->output->data.len);
		break;
	case SBX__ENVELOPE__MSG_EXIT_STATUS:
		tty_restore();
		code = exit_code(env->exit_status);
		if (!r->o->quiet)
			blocked_summary(stderr, env->exit_status, code,
					r->o->json);
		finish(r, code);
		break;
	case SBX__ENVELOPE__MSG_APPROVAL_ANSWERED:
		ask_settled(r->ask, env->approval_answered);
		break;
	case SBX__ENVELOPE__MSG_ERROR:
		/* Our answer came after another client's: it ends nothing. */
		if (env->error->approval_request_id)
			break;
		tty_restore();
		client_err("%s", env->error->message);
		/* Shutdown is news, not the end: the exit status follows. */
		if (env->error->code != SBX__ERROR_CODE__ERROR_CODE_SHUTDOWN)
			finish(r, EXIT_SBX);
		break;
	case SBX__ENVELOPE__MSG_VIOLATION:
		/* The exit status brings them grouped: said once, at the end. */
		break;
	case SBX__ENVELOPE__MSG_APPROVAL_REQUEST:
		ask_request(r->ask, env->approval_request);
		break;
	case SBX__ENVELOPE__MSG_STDIN_CREDIT:
		r->credit += env->stdin_credit->bytes;
		if (r->stdin_starved && r->credit) {
			r->stdin_starved = false;
			stdin_rearm(r);
		}
		break;
	default:
		break; /* later protocol additions */
	}
}

static void
ask_send(void *arg, const Sbx__Envelope *env)
{
	queue(arg, env);
}

/* A prompt is on our terminal: leave it the keyboard and cooked mode. */
static void
ask_hold(void *arg, bool hold)
{
	struct relay *r = arg;

	r->stdin_held = hold;
	if (hold)
		tty_restore();
	else if (r->o->tty)
		tty_raw();
	if (!r->stdin_ev || !r->stdin_pollable || !r->stdin_open)
		return;
	if (hold)
		event_del(r->stdin_ev);
	else
		stdin_rearm(r);
}

static void
sock_read_cb(evutil_socket_t fd, short what, void *arg)
{
	struct relay *r = arg;
	int n = evbuffer_read(r->in, fd, 256 * 1024);

	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return;
	if (n <= 0) {
		tty_restore();
		client_err("lost the connection to sbxd");
		finish(r, EXIT_SBX);
		return;
	}
	while (!r->finished) {
		size_t avail = evbuffer_get_length(r->in), flen;
		uint8_t *p = evbuffer_pullup(r->in, avail < WIRE_HEADER ?
						 (ssize_t)avail : WIRE_HEADER);
		Sbx__Envelope *env;
		int k = wire_frame_check(p, avail, &flen);

		if (k < 0) {
			client_err("oversized frame from sbxd");
			finish(r, EXIT_SBX);
			return;
		}
		if (k == 0)
			return;
		p = evbuffer_pullup(r->in, (ssize_t)flen);
		k = wire_decode(p + WIRE_HEADER, flen - WIRE_HEADER, &env);
		evbuffer_drain(r->in, flen);
		if (k < 0) {
			client_err("undecodable frame from sbxd");
			finish(r, EXIT_SBX);
			return;
		}
		handle_frame(r, env);
		wire_envelope_free(env);
	}
}

static void
sock_write_cb(evutil_socket_t fd, short what, void *arg)
{
	struct relay *r = arg;

	if (evbuffer_write(r->out, fd) < 0 && errno != EAGAIN &&
	    errno != EINTR) {
		event_del(r->sock_wev);
		return;
	}
	if (evbuffer_get_length(r->out) == 0)
		event_del(r->sock_wev);
	if (r->stdin_paused && evbuffer_get_length(r->out) < SOCK_HIGH / 2) {
		r->stdin_paused = false;
		stdin_rearm(r);
	}
}

static void
stdin_eof(struct relay *r)
{
	Sbx__Envelope env = SBX__ENVELOPE__INIT;
	Sbx__StdinClose sc = SBX__STDIN_CLOSE__INIT;
	static const uint8_t eot = 4;

	r->stdin_open = false;
	event_del(r->stdin_ev);
	if (r->o->master >= 0) {
		/* Piped input ran out: the pty's EOF character. A terminal
		 * never reaches here in raw mode. */
		if (!isatty(0))
			(void)file_write_all(r->o->master, &eot, 1);
		return;
	}
	env.msg_case = SBX__ENVELOPE__MSG_STDIN_CLOSE;
	env.stdin_close = &sc;
	queue(r, &env);
}

static void
stdin_cb(evutil_socket_t fd, short what, void *arg)
{
	static uint8_t buf[WIRE_CHUNK];
	struct relay *r = arg;
	size_t want = sizeof(buf);
	ssize_t n;

	if (!r->stdin_open || r->stdin_paused || r->stdin_starved)
		return;
	if (r->o->credit && r->o->master < 0) {
		if (!r->credit) {
			r->stdin_starved = true;
			if (r->stdin_pollable)
				event_del(r->stdin_ev);
			return;
		}
		if (r->credit < want)
			want = (size_t)r->credit;
	}
	n = read(0, buf, want);
	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return;
	if (n <= 0) {
		stdin_eof(r);
		return;
	}
	if (r->o->master >= 0)
		(void)file_write_all(r->o->master, buf, (size_t)n);
	else {
		Sbx__Envelope env = SBX__ENVELOPE__INIT;
		Sbx__StdinData sd = SBX__STDIN_DATA__INIT;

		sd.data.data = buf;
		sd.data.len = (size_t)n;
		env.msg_case = SBX__ENVELOPE__MSG_STDIN_DATA;
		env.stdin_data = &sd;
		queue(r, &env);
		if (r->o->credit)
			r->credit -= (size_t)n;
	}
	/* Files and /dev/null cannot be polled: pump them by hand. */
	if (!r->stdin_pollable && !r->stdin_paused)
		event_active(r->stdin_ev, EV_READ, 0);
}

static void
master_cb(evutil_socket_t fd, short what, void *arg)
{
	static uint8_t buf[WIRE_CHUNK];
	struct relay *r = arg;
	ssize_t n = read(fd, buf, sizeof(buf));

	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return;
	if (n <= 0) {
		/* EIO: every slave fd is closed; the exit status follows. */
		event_del(r->master_ev);
		return;
	}
	(void)file_write_all(1, buf, (size_t)n);
}

/* What the sandbox wrote to the pty before it died is still in the pty:
 * read it all (blocking until EIO) before we exit. */
static void
drain_master(int m)
{
	uint8_t buf[4096];
	ssize_t n;

	fcntl(m, F_SETFL, fcntl(m, F_GETFL) & ~O_NONBLOCK);
	while ((n = read(m, buf, sizeof(buf))) > 0 ||
	       (n < 0 && errno == EINTR))
		if (n > 0)
			(void)file_write_all(1, buf, (size_t)n);
}

static void
resize(struct relay *r)
{
	Sbx__Envelope env = SBX__ENVELOPE__INIT;
	Sbx__Resize rs = SBX__RESIZE__INIT;
	Sbx__WindowSize w = SBX__WINDOW_SIZE__INIT;
	struct winsize ws;

	tty_winsize(&ws);
	if (r->o->master >= 0) {
		ioctl(r->o->master, TIOCSWINSZ, &ws);
		return;
	}
	w.rows = ws.ws_row;
	w.cols = ws.ws_col;
	rs.winsize = &w;
	env.msg_case = SBX__ENVELOPE__MSG_RESIZE;
	env.resize = &rs;
	queue(r, &env);
}

static void
flush_out(struct relay *r)
{
	int fl = fcntl(r->c->fd, F_GETFL);

	fcntl(r->c->fd, F_SETFL, fl & ~O_NONBLOCK);
	while (evbuffer_get_length(r->out) > 0 &&
	       evbuffer_write(r->out, r->c->fd) > 0)
		;
	fcntl(r->c->fd, F_SETFL, fl);
}

/* ^Z at our terminal (no pty): stop the command, then ourselves, as the
 * shell expects of a foreground job; on fg, continue both. */
static void
suspend(struct relay *r)
{
	send_signal(r, SIGTSTP);
	flush_out(r);
	tty_restore();
	kill(getpid(), SIGSTOP);
	if (r->o->tty)
		tty_raw();
	send_signal(r, SIGCONT);
}

static void
signal_cb(evutil_socket_t sig, short what, void *arg)
{
	struct relay *r = arg;

	if (sig == SIGWINCH) {
		if (r->o->tty)
			resize(r);
		return;
	}
	if (sig == SIGTSTP) {
		suspend(r);
		return;
	}
	if (sig == SIGCONT)
		return; /* handled after our own SIGSTOP returns */
	send_signal(r, (int)sig);
}

/* Regular files and /dev/null cannot be polled (epoll refuses them). */
static bool
pollable(int fd)
{
	struct epoll_event ev = { .events = EPOLLIN };
	int ep = epoll_create1(EPOLL_CLOEXEC);
	bool ok;

	if (ep < 0)
		return false;
	ok = epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev) == 0;
	close(ep);
	return ok;
}

static int
setup_stdin(struct relay *r)
{
	bool wanted = r->o->stream || r->o->master >= 0;

	if (!wanted)
		return 0;
	r->stdin_open = true;
	r->stdin_pollable = pollable(0);
	if (r->stdin_pollable) {
		r->stdin_ev = event_new(r->base, 0, EV_READ | EV_PERSIST,
					stdin_cb, r);
		if (!r->stdin_ev || event_add(r->stdin_ev, NULL) < 0)
			return -ENOMEM;
	} else {
		r->stdin_ev = event_new(r->base, -1, 0, stdin_cb, r);
		if (!r->stdin_ev)
			return -ENOMEM;
		event_active(r->stdin_ev, EV_READ, 0);
	}
	return 0;
}

static void
teardown(struct relay *r)
{
	size_t i;

	for (i = 0; i < sizeof(r->sigs) / sizeof(r->sigs[0]); i++)
		if (r->sigs[i])
			event_free(r->sigs[i]);
	ask_free(r->ask);
	if (r->stdin_ev)
		event_free(r->stdin_ev);
	if (r->master_ev)
		event_free(r->master_ev);
	event_free(r->sock_rev);
	event_free(r->sock_wev);
	evbuffer_free(r->in);
	evbuffer_free(r->out);
	event_base_free(r->base);
}

int
relay_run(struct client *c, const struct relay_opts *o)
{
	struct relay r = { .c = c, .o = o, .exit_code = EXIT_SBX };
	const struct ask_hooks hooks = { &r, ask_send, ask_hold };
	size_t i;

	r.base = event_base_new();
	r.in = evbuffer_new();
	r.out = evbuffer_new();
	if (!r.base || !r.in || !r.out ||
	    !(r.ask = ask_new(r.base, o->on_ask, &hooks)))
		return EXIT_SBX;
	evutil_make_socket_nonblocking(c->fd);
	r.sock_rev = event_new(r.base, c->fd, EV_READ | EV_PERSIST,
			       sock_read_cb, &r);
	r.sock_wev = event_new(r.base, c->fd, EV_WRITE | EV_PERSIST,
			       sock_write_cb, &r);
	event_add(r.sock_rev, NULL);
	if (o->master >= 0) {
		evutil_make_socket_nonblocking(o->master);
		r.master_ev = event_new(r.base, o->master, EV_READ | EV_PERSIST,
					master_cb, &r);
		event_add(r.master_ev, NULL);
	}
	for (i = 0; i < sizeof(relayed_sigs) / sizeof(relayed_sigs[0]); i++) {
		r.sigs[i] = evsignal_new(r.base, relayed_sigs[i], signal_cb, &r);
		event_add(r.sigs[i], NULL);
	}
	if (setup_stdin(&r) < 0)
		return EXIT_SBX;
	if (o->tty) {
		tty_raw();
		/* The size may have changed since the request took it, with
		 * its SIGWINCH before our handler: say it again now. */
		resize(&r);
	}
	event_base_dispatch(r.base);
	tty_restore();
	if (o->master >= 0)
		drain_master(o->master);
	teardown(&r);
	return r.exit_code;
}
