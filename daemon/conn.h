/* One client connection: frames in, frames out, fds received with them.
 * Connections are owned by conn.c; a dead connection is freed from a
 * deferred event, never from inside its own callback. */
#ifndef SBX_CONN_H
#define SBX_CONN_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "proto/fdpass.h"
#include "proto/wire.h"

struct session;

/* Request ids of runs and attaches of a connection that have ended, the
 * last CONN_ENDED of them: input for one of them is late, not wrong. */
#define CONN_ENDED 16

struct conn {
	int fd;
	uid_t uid;
	pid_t pid;
	bool hello;
	bool dead;
	bool read_paused;
	bool read_eof;             /* half-closed: no more requests */
	bool closing;              /* ... and nothing is left: close once
				      what is queued is written */
	uint64_t req;              /* id of the request being dispatched */
	struct event *rev, *wev, *free_ev;
	struct event *hup_ev;      /* after a half-close: the full close */
	int hup_fd;
	struct event *frame_ev;    /* the frame in progress is late */
	size_t partial;            /* its announced size, or 0 */
	struct evbuffer *in, *out;
	int fds[FDPASS_MAX];       /* received, not yet claimed */
	int nfds;
	uint64_t ended[CONN_ENDED];
	unsigned nended;
	char name[64];             /* Hello.client_name, cut; "" if none */
	const Sbx__Envelope *cur;  /* the request being dispatched, or NULL */
	uint8_t *held;             /* a held request's frame (conn_hold) */
	size_t held_len;
	int held_fds[FDPASS_MAX];
	int nheld;
	struct event *resume_ev;
	struct conn *next;
};

/* A frame begun must be whole within this, or the connection is closed. */
#define CONN_FRAME_TIMEOUT_MS 5000

/* Takes ownership of fd (a connected, accepted socket). */
int conn_new(int fd, uid_t uid, pid_t pid, struct conn **out);
/* Every decoded request of every connection goes to fn (main.c
 * registers rpc_dispatch before the first connection). */
void conn_on_request(void (*fn)(struct conn *c, const Sbx__Envelope *env));

/* Queues one frame; marks the connection dead on failure. */
int conn_send(struct conn *c, const Sbx__Envelope *env);
/* The same, as a frame of the operation with request id id. */
int conn_send_id(struct conn *c, uint64_t id, const Sbx__Envelope *env);
/* Writes what is queued now instead of on the next turn of the loop: for
 * the frame a client waits on to finish (its exit status), which then
 * goes before the session's teardown. What the socket does not take
 * stays queued. */
void conn_flush(struct conn *c);
/* Whether the peer has closed its end entirely (POLLHUP; a half-close,
 * the end of stdin, is not), whether or not that was read yet. */
bool conn_hung_up(const struct conn *c);
/* Errors carry the id of the request being dispatched (c->req). What an
 * error ends is the code's to say (docs/protocol.md): conn_fail for the
 * codes that end the connection (BAD_FRAME, UNKNOWN_MESSAGE, BAD_ORDER,
 * BAD_VERSION, and PERMISSION for a peer refused before any request), which
 * closes it once the Error is written; conn_error for the others, which end
 * the request only. */
void conn_fail(struct conn *c, Sbx__ErrorCode code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void conn_error(struct conn *c, Sbx__ErrorCode code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* conn_error for the operation id, outside its dispatch (a session's). */
void conn_error_id(struct conn *c, uint64_t id, Sbx__ErrorCode code,
		   const char *fmt, ...) __attribute__((format(printf, 4, 5)));

/* The run or attach id has ended (its exit status is out): late input for
 * it is dropped; a half-closed connection with nothing left closes. */
void conn_op_ended(struct conn *c, uint64_t id);
bool conn_op_was(const struct conn *c, uint64_t id);

/* Moves exactly n received fds into fds[]; -EBADMSG when the count differs. */
int conn_take_fds(struct conn *c, int n, int *fds);

void conn_pause_read(struct conn *c, bool pause);
/*
 * The request being dispatched waits for something the loop brings (a
 * credential's command): its frame is kept with fds (which c now owns),
 * nothing more of c is read, and a full close of the peer is still seen.
 * conn_resume dispatches it again from a fresh event, then reading goes
 * on. 0 or -errno (nothing held; the fds are the caller's still).
 */
int conn_hold(struct conn *c, const int *fds, int nfds);
void conn_resume(struct conn *c);
/* The deadline of a frame in progress (tests shorten it). */
void conn_set_frame_timeout(unsigned ms);
size_t conn_out_pending(const struct conn *c);

unsigned conn_count(void);
/* Best-effort final flush of every connection (shutdown). */
void conn_flush_all(void);
/* Frees every connection (after the event loop has stopped). */
void conn_close_all(void);

#endif
