/* The list of sessions, which owns them: lookups by id and by client
 * connection, what a connection's end or half-close does to its sessions,
 * and stopping them all at shutdown. */
#define _GNU_SOURCE
#include <errno.h>
#include <event2/event.h>
#include <signal.h>
#include <stdlib.h>

#include "daemon/conn.h"
#include "daemon/credcmd.h"
#include "daemon/daemon.h"
#include "daemon/log.h"
#include "daemon/policy/fsplan-cache.h"
#include "daemon/sandbox.h"
#include "daemon/session.h"
#include "daemon/session-int.h"

static struct session *sessions;
static unsigned nsessions;
static void (*drained_cb)(void);
static struct event *kill_timer;

void
session_on_drained(void (*cb)(void))
{
	drained_cb = cb;
}

static void
on_drained(void)
{
	if (drained_cb)
		drained_cb();
}

void
session_list_add(struct session *s)
{
	s->next = sessions;
	sessions = s;
	nsessions++;
}

void
session_list_remove(struct session *s)
{
	struct session **pp;

	for (pp = &sessions; *pp; pp = &(*pp)->next)
		if (*pp == s) {
			*pp = s->next;
			break;
		}
	nsessions--;
	if (sbxd.stopping && nsessions == 0)
		on_drained();
}

/* A Landlock denial from the kernel's audit records: the session whose
 * command made the domain, if it is still known. */
void
session_audit_denied(const struct sandbox_audit_denial *d, void *arg)
{
	struct session *s;

	for (s = sessions; s; s = s->next)
		if (d->session ? s->id == d->session :
				 s->proc.cmd_pid == d->creator)
			break;
	if (s)
		session_fs_denied(s, d->kind, d->access, d->target);
}

struct session *
session_find(uint64_t id)
{
	struct session *s;

	for (s = sessions; s; s = s->next)
		if (s->id == id && !s->exited)
			return s;
	return NULL;
}

struct session *
session_find_any(uint64_t id)
{
	struct session *s;

	for (s = sessions; s; s = s->next)
		if (s->id == id && !s->finished)
			return s;
	return NULL;
}

struct session *
session_of(const struct conn *c, uint64_t req)
{
	struct session *s;

	for (s = sessions; s; s = s->next)
		if (s->conn == c && s->req == req)
			return s;
	return NULL;
}

int
session_approval_any(const Sbx__ApprovalDecision *d, const struct conn *by,
		     uint64_t by_req)
{
	struct session *s;

	/* Request ids are the daemon's, unique across sessions. */
	for (s = sessions; s; s = s->next)
		if (session_approval(s, d, by, by_req) == 0)
			return 0;
	return -ENOENT;
}

unsigned
session_conn_count(const struct conn *c)
{
	struct session *s;
	unsigned n = 0;

	for (s = sessions; s; s = s->next)
		n += s->conn == c;
	return n;
}

void
session_conn_gone(struct conn *c)
{
	struct session *s;

	for (s = sessions; s; s = s->next)
		if (s->conn == c)
			session_client_gone(s);
	session_cred_conn_gone(c);
}

void
session_conn_drained(struct conn *c, size_t pending)
{
	struct session *s;

	for (s = sessions; s; s = s->next)
		if (s->conn == c)
			session_output_drained(s, pending);
}

void
session_conn_eof(struct conn *c)
{
	struct session *s;

	for (s = sessions; s; s = s->next)
		if (s->conn == c && s->streaming)
			session_stdin_close(s);
}

struct session *
session_first(void)
{
	return sessions;
}

struct session *
session_next(const struct session *s)
{
	return s->next;
}

void
session_describe(struct session *s, Sbx__SessionInfo *info)
{
	size_t n = 0;

	while (s->argv[n])
		n++;
	info->id = s->id;
	info->pid = s->proc.pid;
	info->argv = s->argv;
	info->n_argv = n;
	info->workspace = s->workspace;
	info->started_unix_ms = s->start_unix_ms;
	info->tty = s->tty;
	info->io_mode = s->streaming ? SBX__IO_MODE__IO_MODE_STREAMING :
				       SBX__IO_MODE__IO_MODE_FD_PASSING;
	session_limits_describe(s, info);
	info->sandbox_id = s->sbox_id;
}

const char *
session_workspace(const struct session *s)
{
	return s->workspace;
}

const struct policy *
session_policy(const struct session *s)
{
	return s->policy;
}

bool
session_live(const struct session *s)
{
	return !s->exited;
}

unsigned
session_count(void)
{
	return nsessions;
}

static void
shutdown_kill_cb(evutil_socket_t fd, short what, void *arg)
{
	struct session *s;

	for (s = sessions; s; s = s->next)
		if (!s->exited) {
			log_warn("session %llu ignored SIGTERM: killing",
				 (unsigned long long)s->id);
			sandbox_signal(&s->proc, SIGKILL);
		}
	if (arg == kill_timer)
		kill_timer = NULL;
	if (arg)
		event_free(arg);
}

void
session_shutdown_all(unsigned grace_ms)
{
	struct timeval tv = { grace_ms / 1000, (grace_ms % 1000) * 1000 };
	struct event *ev;
	struct session *s;

	for (s = sessions; s; s = s->next) {
		/* Nobody will attach any more: what waits for that goes
		 * (an ended session now, a running one with the rest). */
		if (s->keep && !s->conn) {
			event_del(s->grace_ev);
			s->keep = false;
			session_maybe_finish(s);
		}
		if (s->exited)
			continue;
		if (s->conn)
			conn_error_id(s->conn, s->req,
				      SBX__ERROR_CODE__ERROR_CODE_SHUTDOWN,
				      "sbxd is shutting down: stopping the "
				      "command");
		sandbox_signal(&s->proc, SIGTERM);
	}
	if (nsessions == 0) {
		on_drained();
		return;
	}
	ev = evtimer_new(sbxd.base, shutdown_kill_cb, NULL);
	if (!ev) {
		shutdown_kill_cb(-1, 0, NULL);
		return;
	}
	event_assign(ev, sbxd.base, -1, 0, shutdown_kill_cb, ev);
	kill_timer = ev;
	evtimer_add(ev, &tv);
}

void
session_cleanup(void)
{
	if (kill_timer)
		event_free(kill_timer);
	kill_timer = NULL;
	fsplan_cache_clear();
	credcmd_shutdown();
}
