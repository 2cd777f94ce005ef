/* Landlock audit records as a violation source (Linux >= 6.15, audit on, a
 * daemon with CAP_AUDIT_READ: privileged mode). The daemon joins the audit
 * netlink read-only log group, so it never displaces auditd; it reads each
 * event's records, learns which Landlock domain a sandbox made from the
 * domain record (its creator is the command, whose pid the session knows),
 * and reports the access records of those domains. */
#define _GNU_SOURCE
#include <errno.h>
#include <event2/event.h>
#include <linux/audit.h>
#include <linux/netlink.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "daemon/linux/audit-record.h"
#include "daemon/linux/backend.h"
#include "daemon/violation.h"

#ifndef AUDIT_NLGRP_READLOG
#define AUDIT_NLGRP_READLOG 1
#endif
/* Domains remembered at once (sandboxes with denials, live or recent). */
#define DOMAINS_MAX 256
/* Records of interest kept per event (an event has one access record and
 * maybe its domain's). */
#define EVENT_MAX 4
#define BARRIERS_MAX 64
#define BARRIER_TIMEOUT_MS 500

struct domain {
	uint64_t id;
	pid_t creator;
};

struct barrier {
	unsigned long long n;
	void (*done)(void *arg);
	void *arg;
	struct event *timer;
};

static struct {
	int fd, ctl;		/* read-only log group; requests */
	struct event *ev;
	sandbox_audit_fn fn;
	void *arg;
	struct domain domains[DOMAINS_MAX];
	size_t ndomains, next_slot;
	struct audit_record event[EVENT_MAX];
	size_t nevent;
	struct barrier barriers[BARRIERS_MAX];
	unsigned long long next_barrier;
} au = { .fd = -1, .ctl = -1 };

static pid_t
creator_of(uint64_t id)
{
	size_t i;

	for (i = 0; i < au.ndomains; i++)
		if (au.domains[i].id == id)
			return au.domains[i].creator;
	return 0;
}

static void
domain_record(const struct audit_record *r)
{
	size_t i;

	for (i = 0; i < au.ndomains; i++)
		if (au.domains[i].id == r->domain)
			break;
	if (r->deallocated && i < au.ndomains) {
		au.domains[i] = au.domains[--au.ndomains];
		return;
	}
	if (!r->allocated || i < au.ndomains || r->pid <= 0)
		return;
	/* Full: the oldest slot goes (round robin). */
	if (au.ndomains < DOMAINS_MAX)
		i = au.ndomains++;
	else
		i = au.next_slot++ % DOMAINS_MAX;
	au.domains[i].id = r->domain;
	au.domains[i].creator = (pid_t)r->pid;
}

static int
blocker_kind(const char *b)
{
	if (!strncmp(b, "fs.make_", 8))
		return VIOLATION_FS_CREATE;
	if (!strncmp(b, "fs.read_", 8) || !strcmp(b, "fs.execute"))
		return VIOLATION_FS_READ;
	if (!strncmp(b, "fs.", 3))
		return VIOLATION_FS_WRITE;
	if (!strncmp(b, "net.", 4))
		return VIOLATION_NETWORK;
	if (!strcmp(b, "scope.signal"))
		return VIOLATION_SIGNAL;
	return VIOLATION_IPC;
}

static void
access_record(const struct audit_record *r)
{
	struct sandbox_audit_denial d = { .creator = creator_of(r->domain) };
	char access[sizeof(r->blockers)], target[AUDIT_TEXT_MAX + 32];

	if (!d.creator)
		return; /* not a sandbox's domain */
	/* The first blocker names the access; the rest are the same act. */
	snprintf(access, sizeof(access), "%.*s",
		 (int)strcspn(r->blockers, ","), r->blockers);
	d.access = access;
	d.kind = blocker_kind(access);
	if (r->path[0])
		snprintf(target, sizeof(target), "%s", r->path);
	else if (r->ocomm[0])
		snprintf(target, sizeof(target), "process %s (pid %ld)",
			 r->ocomm, r->opid);
	else
		snprintf(target, sizeof(target), "%s", r->addr);
	d.target = target;
	au.fn(&d, au.arg);
}

static void
barrier_clear(struct barrier *b)
{
	event_free(b->timer);
	memset(b, 0, sizeof(*b));
}

static void
barrier_fire(struct barrier *b)
{
	void (*done)(void *) = b->done;
	void *arg = b->arg;

	barrier_clear(b);
	done(arg);
}

static void
barrier_record(const struct audit_record *r)
{
	unsigned long long n;
	size_t i;

	if (sscanf(r->msg, "sbx-barrier=%llu", &n) != 1)
		return;
	/* Every barrier up to n: the queue is in order. */
	for (i = 0; i < BARRIERS_MAX; i++)
		if (au.barriers[i].done && au.barriers[i].n <= n)
			barrier_fire(&au.barriers[i]);
}

/* One event's records are in: domains first (a domain record follows the
 * first access record of its domain), then accesses. */
static void
event_end(void)
{
	size_t i;

	for (i = 0; i < au.nevent; i++)
		if (au.event[i].type == AUDIT_RECORD_LANDLOCK_DOMAIN)
			domain_record(&au.event[i]);
	for (i = 0; i < au.nevent; i++)
		if (au.event[i].type == AUDIT_RECORD_LANDLOCK_ACCESS)
			access_record(&au.event[i]);
	au.nevent = 0;
}

static void
record(int type, const char *text, size_t len)
{
	struct audit_record r;

	if (type == AUDIT_RECORD_EOE) {
		event_end();
		return;
	}
	if (type != AUDIT_RECORD_LANDLOCK_ACCESS &&
	    type != AUDIT_RECORD_LANDLOCK_DOMAIN &&
	    type != AUDIT_RECORD_TRUSTED_APP)
		return;
	if (audit_record_parse(type, text, len, &r) < 0)
		return;
	if (type == AUDIT_RECORD_TRUSTED_APP) {
		barrier_record(&r);
		return;
	}
	/* A record of a new event ends the last one (its EOE was lost). */
	if (au.nevent && au.event[0].serial != r.serial)
		event_end();
	/* A deallocation comes alone, with no EOE. */
	if (r.deallocated) {
		domain_record(&r);
		return;
	}
	if (au.nevent < EVENT_MAX)
		au.event[au.nevent++] = r;
}

static void
read_cb(evutil_socket_t fd, short what, void *arg)
{
	/* MAX_AUDIT_MESSAGE_LENGTH and a header */
	static char buf[9216] __attribute__((aligned(NLMSG_ALIGNTO)));
	struct nlmsghdr *h;
	size_t off;
	ssize_t n;
	int batch;

	for (batch = 0; batch < 64; batch++) {
		n = recv(fd, buf, sizeof(buf), MSG_DONTWAIT);
		if (n <= 0)
			return; /* EAGAIN; ENOBUFS: records lost, go on */
		for (off = 0; off + NLMSG_HDRLEN <= (size_t)n;
		     off += NLMSG_ALIGN(h->nlmsg_len)) {
			h = (struct nlmsghdr *)(buf + off);
			if (h->nlmsg_len < NLMSG_HDRLEN ||
			    h->nlmsg_len > (size_t)n - off)
				break;
			record(h->nlmsg_type, NLMSG_DATA(h),
			       h->nlmsg_len - NLMSG_HDRLEN);
		}
	}
}

/* Replies nobody waits for (errors to our barrier messages) would fill
 * the request socket: drop them. */
static void
drain_ctl(void)
{
	char buf[512];

	while (recv(au.ctl, buf, sizeof(buf), MSG_DONTWAIT) > 0)
		;
}

/* Is audit on? (Off, the kernel writes no Landlock records at all.) */
static int
audit_enabled(void)
{
	struct {
		struct nlmsghdr h;
		struct audit_status st;
	} req = { { sizeof(req.h), AUDIT_GET, NLM_F_REQUEST, 1, 0 }, { 0 } };
	char buf[512] __attribute__((aligned(NLMSG_ALIGNTO)));
	struct nlmsghdr *h = (struct nlmsghdr *)buf;
	ssize_t n;

	if (send(au.ctl, &req.h, sizeof(req.h), 0) < 0)
		return -errno;
	n = recv(au.ctl, buf, sizeof(buf), 0);
	if (n < 0)
		return -errno;
	if ((size_t)n < NLMSG_LENGTH(sizeof(struct audit_status)) ||
	    h->nlmsg_len > (size_t)n || h->nlmsg_type != AUDIT_GET)
		return -EPROTO;
	return ((struct audit_status *)NLMSG_DATA(h))->enabled ? 1 : 0;
}

static int
open_sockets(void)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK,
				  .nl_groups = 1u << (AUDIT_NLGRP_READLOG - 1) };

	au.fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC | SOCK_NONBLOCK,
		       NETLINK_AUDIT);
	au.ctl = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_AUDIT);
	if (au.fd < 0 || au.ctl < 0)
		return -errno;
	/* EPERM without CAP_AUDIT_READ. */
	if (bind(au.fd, (struct sockaddr *)&sa, sizeof(sa)) < 0)
		return -errno;
	return 0;
}

int
sandbox_audit_start(struct event_base *base, sandbox_audit_fn fn, void *arg)
{
	const struct sandbox_caps *caps = sandbox_caps();
	const char *why = NULL;
	int r;

	if (caps->landlock_abi < 7)
		return -ENOTSUP; /* the Landlock line already says so */
	if (!caps->seccomp_notify)
		why = "no seccomp notification to learn the command's pid";
	else if (geteuid() != 0)
		why = "user mode (the audit log needs a root daemon)";
	if (!why && (r = open_sockets()) < 0)
		why = "cannot join the audit log group";
	if (!why && (r = audit_enabled()) <= 0)
		why = r == 0 ? "kernel audit is off (auditctl -e 1 turns it on)" :
			       "cannot ask the kernel whether audit is on";
	if (!why) {
		au.ev = event_new(base, au.fd, EV_READ | EV_PERSIST, read_cb,
				  NULL);
		if (!au.ev || event_add(au.ev, NULL) < 0)
			why = "out of memory";
	}
	if (why) {
		sandbox_audit_stop();
		linux_backend_audit(false, why);
		return -ENOTSUP;
	}
	au.fn = fn;
	au.arg = arg;
	linux_backend_audit(true, NULL);
	return 0;
}

static void
barrier_timeout(evutil_socket_t fd, short what, void *arg)
{
	barrier_fire(arg);
}

/* A message of our own through the audit queue: when the read-only log
 * brings it back, everything queued before it has been delivered. */
int
sandbox_audit_barrier(void (*done)(void *arg), void *arg)
{
	struct timeval tv = { 0, BARRIER_TIMEOUT_MS * 1000 };
	struct {
		struct nlmsghdr h;
		char text[64];
	} req;
	struct barrier *b = NULL;
	size_t i;
	int n;

	if (!au.ev)
		return -ENOTSUP;
	drain_ctl();
	for (i = 0; i < BARRIERS_MAX && !b; i++)
		if (!au.barriers[i].done)
			b = &au.barriers[i];
	if (!b)
		return -EBUSY;
	n = snprintf(req.text, sizeof(req.text), "sbx-barrier=%llu",
		     ++au.next_barrier);
	req.h = (struct nlmsghdr){ (uint32_t)NLMSG_LENGTH(n + 1),
				   AUDIT_RECORD_TRUSTED_APP, NLM_F_REQUEST, 0, 0 };
	b->timer = evtimer_new(event_get_base(au.ev), barrier_timeout, b);
	if (!b->timer || evtimer_add(b->timer, &tv) < 0 ||
	    send(au.ctl, &req, req.h.nlmsg_len, 0) < 0) {
		if (b->timer)
			event_free(b->timer);
		b->timer = NULL;
		return -EIO;
	}
	b->n = au.next_barrier;
	b->done = done;
	b->arg = arg;
	return 0;
}

void
sandbox_audit_cancel(void *arg)
{
	size_t i;

	for (i = 0; i < BARRIERS_MAX; i++)
		if (au.barriers[i].done && au.barriers[i].arg == arg)
			barrier_clear(&au.barriers[i]);
}

bool
sandbox_audit_watched(const struct sandbox_proc *p)
{
	return au.ev != NULL && p->cmd_pid > 0;
}

void
sandbox_audit_stop(void)
{
	size_t i;

	for (i = 0; i < BARRIERS_MAX; i++)
		if (au.barriers[i].done)
			barrier_clear(&au.barriers[i]);
	if (au.ev)
		event_free(au.ev);
	au.ev = NULL;
	if (au.fd >= 0)
		close(au.fd);
	if (au.ctl >= 0)
		close(au.ctl);
	au.fd = au.ctl = -1;
}
