/* The daemon's file descriptor limit, the proxy's budget within it, the
 * control socket's reserve fd, and the listeners waiting for an fd. */
#define _GNU_SOURCE
#include <errno.h>
#include <event2/event.h>
#include <fcntl.h>
#include <sys/resource.h>
#include <unistd.h>

#include "daemon/fdlimit.h"

/* What the daemon keeps for itself out of the limit: a quarter, at least
 * this many (sessions' pipes and pidfds, clients, templates). */
#define FDLIMIT_OWN_MIN 64u

static unsigned nofile = 1024, budget = 512;
static int reserve = -1;
static struct event *wake_ev, *retry_ev, *reopen_ev;
static TAILQ_HEAD(, fdlimit_waiter) waiters = TAILQ_HEAD_INITIALIZER(waiters);
static uint64_t gen;

static void
reserve_open(void)
{
	if (reserve < 0)
		reserve = open("/dev/null", O_RDONLY | O_CLOEXEC);
}

static void
reopen_cb(evutil_socket_t fd, short what, void *arg)
{
	reserve_open();
}

/* Every waiter queued before this wake-up is called once; those that
 * wait again from their callback are queued for the next one. */
static void
wake_cb(evutil_socket_t fd, short what, void *arg)
{
	struct fdlimit_waiter *w;

	reserve_open();
	gen++;
	while ((w = TAILQ_FIRST(&waiters)) != NULL && w->gen < gen) {
		TAILQ_REMOVE(&waiters, w, link);
		w->queued = false;
		w->cb(w->arg);
	}
	if (TAILQ_EMPTY(&waiters))
		event_del(retry_ev);
}

int
fdlimit_init(struct event_base *base)
{
	struct rlimit rl;
	unsigned own;

	/* The proxy holds two sockets per connection and a pipe per busy
	 * direction: use the whole limit. */
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0) {
		if (rl.rlim_cur < rl.rlim_max) {
			rl.rlim_cur = rl.rlim_max;
			if (setrlimit(RLIMIT_NOFILE, &rl) < 0)
				getrlimit(RLIMIT_NOFILE, &rl);
		}
		nofile = rl.rlim_cur > (1u << 30) ? 1u << 30 :
			 (unsigned)rl.rlim_cur;
	}
	own = nofile / 4 > FDLIMIT_OWN_MIN ? nofile / 4 : FDLIMIT_OWN_MIN;
	if (own > nofile / 2)
		own = nofile / 2;
	budget = nofile - own;
	wake_ev = event_new(base, -1, 0, wake_cb, NULL);
	retry_ev = evtimer_new(base, wake_cb, NULL);
	reopen_ev = event_new(base, -1, 0, reopen_cb, NULL);
	if (!wake_ev || !retry_ev || !reopen_ev)
		return -ENOMEM;
	reserve_open();
	return reserve < 0 ? -errno : 0;
}

void
fdlimit_cleanup(void)
{
	if (wake_ev)
		event_free(wake_ev);
	if (retry_ev)
		event_free(retry_ev);
	if (reopen_ev)
		event_free(reopen_ev);
	wake_ev = retry_ev = reopen_ev = NULL;
	if (reserve >= 0)
		close(reserve);
	reserve = -1;
}

unsigned
fdlimit_max(void)
{
	return nofile;
}

unsigned
fdlimit_budget(void)
{
	return budget;
}

bool
fdlimit_exhausted(int err)
{
	return err == EMFILE || err == ENFILE;
}

int
fdlimit_reserve_use(void)
{
	if (reserve < 0)
		return -EMFILE;
	close(reserve);
	reserve = -1;
	/* Taken again at once if the accept it was closed for finds
	 * nothing, else when an fd comes free. */
	event_active(reopen_ev, EV_TIMEOUT, 0);
	return 0;
}

void
fdlimit_wait(struct fdlimit_waiter *w)
{
	struct timeval tv = { FDLIMIT_RETRY_MS / 1000,
			      FDLIMIT_RETRY_MS % 1000 * 1000 };

	if (w->queued)
		return;
	w->queued = true;
	w->gen = gen;
	TAILQ_INSERT_TAIL(&waiters, w, link);
	if (!event_pending(retry_ev, EV_TIMEOUT, NULL))
		event_add(retry_ev, &tv);
}

void
fdlimit_cancel(struct fdlimit_waiter *w)
{
	if (!w->queued)
		return;
	TAILQ_REMOVE(&waiters, w, link);
	w->queued = false;
}

void
fdlimit_released(void)
{
	if (wake_ev && (reserve < 0 || !TAILQ_EMPTY(&waiters)))
		event_active(wake_ev, EV_TIMEOUT, 0);
}
