/* The daemon's file descriptors: the limit, the proxy's budget within it,
 * a reserve fd for the control socket, and waiting for an fd to come free.
 *
 * A listener that meets EMFILE or ENFILE stops accepting (a listening
 * socket stays readable while its backlog holds connections, so retrying
 * at once only spins) and waits here; it is called back once an fd is
 * released, or after FDLIMIT_RETRY_MS in case the fd that came free was
 * not one reported. */
#ifndef SBX_FDLIMIT_H
#define SBX_FDLIMIT_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/queue.h>

struct event_base;

#define FDLIMIT_RETRY_MS 1000

/* One party waiting for an fd; owned by the caller, which cancels it
 * before freeing it. */
struct fdlimit_waiter {
	void (*cb)(void *arg);
	void *arg;
	bool queued;
	uint64_t gen;
	TAILQ_ENTRY(fdlimit_waiter) link;
};

/* Raises RLIMIT_NOFILE to its hard limit, sets the budget from it and
 * opens the reserve fd. */
int fdlimit_init(struct event_base *base);
void fdlimit_cleanup(void);
/* The limit, and the fds the proxy may hold for all sessions together
 * (the rest is the daemon's own: sessions, clients, templates). */
unsigned fdlimit_max(void);
unsigned fdlimit_budget(void);

/* True for the errors that mean "no fd left" (EMFILE, ENFILE). */
bool fdlimit_exhausted(int err);
/* Closes the reserve fd so that one accept can succeed at EMFILE: 0 when
 * there was one, -EMFILE when it is already in use. It is opened again as
 * soon as an fd is released. */
int fdlimit_reserve_use(void);

/* w->cb runs once, from the loop, when an fd is released (or after
 * FDLIMIT_RETRY_MS). Waiting again from the callback is allowed. */
void fdlimit_wait(struct fdlimit_waiter *w);
void fdlimit_cancel(struct fdlimit_waiter *w);
/* The daemon closed fds: the reserve is taken again, waiters called. */
void fdlimit_released(void);

#endif
