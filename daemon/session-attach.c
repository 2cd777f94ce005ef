/* Sessions that outlive their client (keep_on_disconnect): the ring of
 * their last output, the grace a detached one waits for an Attach, and
 * handing one to another connection. */
#define _GNU_SOURCE
#include <errno.h>
#include <event2/buffer.h>
#include <event2/event.h>
#include <stdlib.h>

#include "daemon/conn.h"
#include "daemon/daemon.h"
#include "daemon/log.h"
#include "daemon/session.h"
#include "daemon/session-int.h"

/* A ring record: the stream (1 byte) and the length (4, big-endian),
 * then the bytes of one read of the command's output. */
#define REC_HEADER 5

void
session_ring_add(struct session *s, unsigned stream, const uint8_t *buf,
		 size_t n)
{
	uint8_t hdr[REC_HEADER] = { (uint8_t)stream, (uint8_t)(n >> 24),
				    (uint8_t)(n >> 16), (uint8_t)(n >> 8),
				    (uint8_t)n };

	if (!s->ring)
		s->ring = evbuffer_new();
	if (!s->ring || evbuffer_add(s->ring, hdr, sizeof(hdr)) < 0 ||
	    evbuffer_add(s->ring, buf, n) < 0) {
		s->ring_dropped += n;
		return;
	}
	s->ring_len += n;
	/* Whole records go from the front: the ring holds at most
	 * SESSION_RING_MAX bytes of output, and the oldest go first. */
	while (s->ring_len > SESSION_RING_MAX) {
		size_t len;

		if (evbuffer_copyout(s->ring, hdr, sizeof(hdr)) != sizeof(hdr))
			break;
		len = (size_t)hdr[1] << 24 | (size_t)hdr[2] << 16 |
		      (size_t)hdr[3] << 8 | hdr[4];
		evbuffer_drain(s->ring, sizeof(hdr) + len);
		s->ring_len -= len;
		s->ring_dropped += len;
	}
}

void
session_ring_free(struct session *s)
{
	if (s->ring)
		evbuffer_free(s->ring);
	s->ring = NULL;
}

/* Nobody attached in time: a running session is killed as one without
 * keep_on_disconnect is when its client goes; an ended one is let go. */
static void
grace_cb(evutil_socket_t fd, short what, void *arg)
{
	struct session *s = arg;

	log_info("session %llu: not attached within %u ms: %s",
		 (unsigned long long)s->id, s->grace_ms,
		 s->exited ? "dropping its exit status" : "killing it");
	s->keep = false;
	if (s->exited)
		session_maybe_finish(s);
	else
		session_client_gone(s);
}

void
session_detach(struct session *s)
{
	struct timeval tv = { s->grace_ms / 1000, (s->grace_ms % 1000) * 1000 };

	s->conn = NULL;
	if (!s->grace_ev)
		s->grace_ev = evtimer_new(sbxd.base, grace_cb, s);
	if (!s->grace_ev || evtimer_add(s->grace_ev, &tv) < 0) {
		s->keep = false; /* cannot keep it: it goes with its client */
		session_client_gone(s);
		return;
	}
	log_info("session %llu: detached; waits %u ms for an attach",
		 (unsigned long long)s->id, s->grace_ms);
	/* Its output goes to the ring now, which never holds the command
	 * back: the oldest output makes room. */
	session_output_drained(s, 0);
}

static void
send_attached(struct session *s)
{
	Sbx__Envelope env = SBX__ENVELOPE__INIT;
	Sbx__Attached at = SBX__ATTACHED__INIT;
	Sbx__SessionInfo info = SBX__SESSION_INFO__INIT;

	session_describe(s, &info);
	at.session = &info;
	at.output_replayed = s->ring_len;
	at.output_dropped = s->ring_dropped;
	at.exited = s->exited;
	env.msg_case = SBX__ENVELOPE__MSG_ATTACHED;
	env.attached = &at;
	conn_send_id(s->conn, s->req, &env);
}

/* The ring's records, as the OutputData frames they were. */
static void
replay(struct session *s)
{
	size_t total, off = 0, len;
	uint8_t *p;

	if (!s->ring || !(total = evbuffer_get_length(s->ring)))
		return;
	if (!(p = evbuffer_pullup(s->ring, -1)))
		return;
	while (off + REC_HEADER <= total) {
		len = (size_t)p[off + 1] << 24 | (size_t)p[off + 2] << 16 |
		      (size_t)p[off + 3] << 8 | p[off + 4];
		if (off + REC_HEADER + len > total)
			break;
		session_output(s, p[off], p + off + REC_HEADER, len);
		off += REC_HEADER + len;
	}
}

int
session_attach(struct session *s, struct conn *c, bool credit)
{
	if (s->conn)
		return -EBUSY;
	/* Not kept, or its grace is over: it is being killed or freed. */
	if (!s->keep || s->finished)
		return -ENOENT;
	event_del(s->grace_ev);
	s->conn = c;
	s->req = c->req;
	send_attached(s);
	replay(s);
	/* The new client has been given nothing yet. */
	s->credit = credit;
	s->stdin_granted = s->stdin_in;
	session_stdin_grant(s, true);
	log_info("session %llu: attached by pid %d", (unsigned long long)s->id,
		 (int)c->pid);
	/* Ended while detached: the end it kept goes now. */
	session_maybe_finish(s);
	return 0;
}
