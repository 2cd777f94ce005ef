/* Where the daemon's messages go, decided once at start-up, and how often
 * one line may repeat. */

/*
 * Each call site (its format string) may write LOG_BURST lines per
 * LOG_WINDOW_MS; past that its lines are counted, not written, and once
 * the window is over one line says how many were left out and what the
 * last of them was. A condition that repeats in a loop (accept failing at
 * EMFILE, a peer refused again and again) then costs a few lines a window
 * instead of filling the disk. log_fields is not limited here: its callers
 * (violation events) limit and summarise their own.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <event2/event.h>

#include "daemon/daemon.h"
#include "daemon/log.h"
#include "daemon/svc.h"

#define LOG_BURST 20
#define LOG_WINDOW_MS 10000
#define LOG_SLOTS 64
#define LOG_PROBES 8

struct log_slot {
	const char *fmt;	/* the call site; NULL: free */
	uint64_t start;		/* its window began */
	unsigned lines;		/* written in this window */
	unsigned suppressed;
	int priority;
	char last[240];		/* the last line left out */
};

static bool to_journal;
static int max_priority = LOG_INFO;
static struct log_slot slots[LOG_SLOTS];
static struct event *summary_ev;

void
log_init(void)
{
	const char *v = getenv("SBXD_DEBUG");

	to_journal = svc_journal();
	if (v && *v == '1')
		max_priority = LOG_DEBUG;
}

static void
emit(int priority, const char *const *fields, const char *msg)
{
	static const char *const names[] = { "emerg", "alert", "crit", "error",
					     "warning", "notice", "info",
					     "debug" };

	if (to_journal) {
		if (fields)
			svc_log_fields(priority, msg, fields);
		else
			svc_log(priority, msg);
		return;
	}
	fprintf(stderr, "sbxd[%d]: %s: %s\n", (int)getpid(),
		names[priority & 7], msg);
}

/* Says what the slot left out, and starts its next window at now. */
static void
slot_summary(struct log_slot *s, uint64_t now)
{
	char buf[320];

	if (s->suppressed) {
		snprintf(buf, sizeof(buf), "%u similar lines suppressed "
			 "(the last: %s)", s->suppressed, s->last);
		emit(s->priority, NULL, buf);
	}
	s->suppressed = 0;
	s->lines = 0;
	s->start = now;
}

/* Summaries of the windows that are over; the timer again for the next
 * to end. */
static void
summary_cb(evutil_socket_t fd, short what, void *arg)
{
	uint64_t now = sbxd_now_ms(), next = LOG_WINDOW_MS + 1, left;
	struct timeval tv;
	int i;

	for (i = 0; i < LOG_SLOTS; i++) {
		if (!slots[i].suppressed)
			continue;
		if (fd != -1 && now - slots[i].start < LOG_WINDOW_MS) {
			left = slots[i].start + LOG_WINDOW_MS - now;
			next = left < next ? left : next;
			continue;
		}
		slot_summary(&slots[i], now);
	}
	if (next <= LOG_WINDOW_MS && summary_ev) {
		tv.tv_sec = (time_t)(next / 1000);
		tv.tv_usec = (suseconds_t)(next % 1000 * 1000);
		event_add(summary_ev, &tv);
	}
}

void
log_attach(struct event_base *base)
{
	summary_ev = evtimer_new(base, summary_cb, NULL);
}

void
log_detach(void)
{
	/* Whatever was left out is told now, at the end. */
	if (summary_ev)
		event_free(summary_ev);
	summary_ev = NULL;
	summary_cb(-1, 0, NULL);
}

/* The slot of fmt: its own, a free one, or the stalest of its probes. */
static struct log_slot *
slot_of(const char *fmt, uint64_t now)
{
	size_t h = ((uintptr_t)fmt >> 3) % LOG_SLOTS, i;
	struct log_slot *s, *old = NULL;

	for (i = 0; i < LOG_PROBES; i++) {
		s = &slots[(h + i) % LOG_SLOTS];
		if (s->fmt == fmt)
			return s;
		if (!s->fmt) {
			s->fmt = fmt;
			s->start = now;
			return s;
		}
		if (!old || s->start < old->start)
			old = s;
	}
	slot_summary(old, now);
	old->fmt = fmt;
	return old;
}

/* True when the line may be written; else it is counted and kept. */
static bool
slot_allows(const char *fmt, int priority, const char *msg)
{
	uint64_t now = sbxd_now_ms();
	struct log_slot *s = slot_of(fmt, now);
	struct timeval tv;

	if (now - s->start >= LOG_WINDOW_MS)
		slot_summary(s, now);
	if (++s->lines <= LOG_BURST)
		return true;
	if (s->suppressed++ == 0 && summary_ev &&
	    !event_pending(summary_ev, EV_TIMEOUT, NULL)) {
		tv.tv_sec = (time_t)((s->start + LOG_WINDOW_MS - now) / 1000);
		tv.tv_usec = (suseconds_t)((s->start + LOG_WINDOW_MS - now) %
					   1000 * 1000);
		event_add(summary_ev, &tv);
	}
	s->priority = priority;
	snprintf(s->last, sizeof(s->last), "%.*s", (int)sizeof(s->last) - 1,
		 msg);
	return false;
}

static void __attribute__((format(printf, 3, 0)))
log_v(int priority, const char *const *fields, const char *fmt, va_list ap)
{
	char buf[1024];

	if (priority > max_priority)
		return;
	vsnprintf(buf, sizeof(buf), fmt, ap);
	if (!fields && !slot_allows(fmt, priority, buf))
		return;
	emit(priority, fields, buf);
}

void
log_msg(int priority, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	log_v(priority, NULL, fmt, ap);
	va_end(ap);
}

void
log_fields(int priority, const char *const *fields, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	log_v(priority, fields, fmt, ap);
	va_end(ap);
}
