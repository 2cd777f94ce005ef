/* One client connection: frames in, frames out, fds received with them.
 * Connections are owned by conn.c; a dead connection is freed from a
 * deferred event, never from inside its own callback. */
#ifndef SBX_CONN_H
#define SBX_CONN_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "proto/fdpass.h"
#include "proto/wire.h"

struct session;

struct conn {
	int fd;
	uid_t uid;
	pid_t pid;
	bool hello;
	bool dead;
	bool read_paused;
	struct event *rev, *wev, *free_ev;
	struct event *frame_ev;    /* the frame in progress is late */
	size_t partial;            /* its announced size, or 0 */
	struct evbuffer *in, *out;
	int fds[FDPASS_MAX];       /* received, not yet claimed */
	int nfds;
	struct session *session;   /* the run this connection started */
	bool session_over;         /* it has ended: late input is dropped */
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
/* Writes what is queued now instead of on the next turn of the loop: for
 * the frame a client waits on to finish (its exit status), which then
 * goes before the session's teardown. What the socket does not take
 * stays queued. */
void conn_flush(struct conn *c);
/* Sends an Error and closes the connection once it is written. */
void conn_fail(struct conn *c, Sbx__ErrorCode code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Sends an Error and keeps the connection. */
void conn_error(struct conn *c, Sbx__ErrorCode code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Moves exactly n received fds into fds[]; -EBADMSG when the count differs. */
int conn_take_fds(struct conn *c, int n, int *fds);

void conn_pause_read(struct conn *c, bool pause);
/* The deadline of a frame in progress (tests shorten it). */
void conn_set_frame_timeout(unsigned ms);
size_t conn_out_pending(const struct conn *c);

unsigned conn_count(void);
/* Best-effort final flush of every connection (shutdown). */
void conn_flush_all(void);
/* Frees every connection (after the event loop has stopped). */
void conn_close_all(void);

#endif
