/* A session's resource limits: resolved from its effective policy for the
 * sandbox's cgroup, and at the end what it used (peak memory, CPU time)
 * and which limit it hit, for the exit status, `sbxctl ps` and a
 * violation event naming the rule. */
#define _GNU_SOURCE
#include <errno.h>
#include <event2/event.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "daemon/daemon.h"
#include "daemon/home-overlay.h"
#include "daemon/policy/limits.h"
#include "daemon/sandbox.h"
#include "daemon/session-int.h"
#include "daemon/session.h"
#include "daemon/violation.h"
#include "daemon/ws-tmp.h"

void
session_limit_defaults(struct policy_limit_defaults *d)
{
	const struct sandbox_caps *c = sandbox_caps();
	struct policy_machine m = { c->machine_ram, c->machine_threads_max,
				    c->machine_nproc };

	policy_limit_defaults(&m, d);
	/* The workspace's /tmp tmpfs has its own default; the home layer
	 * one only where a file system of that size holds it (else 0:
	 * none). */
	d->v[POLICY_LIMIT_TMP] = ws_tmp_default_size();
	d->v[POLICY_LIMIT_HOME] = c->home_disk ? home_overlay_default_size() :
				  0;
}

void
session_limits_resolve(const struct policy *eff, struct sandbox_limits *out)
{
	struct policy_limit_defaults d;
	const struct policy_origin *o;

	session_limit_defaults(&d);
	out->pids = policy_limit_resolve(eff, POLICY_LIMIT_PIDS, &d, &o);
	out->memory = policy_limit_resolve(eff, POLICY_LIMIT_MEMORY, &d, &o);
	out->cpu_weight = policy_limit_resolve(eff, POLICY_LIMIT_CPU, &d, &o);
}

void
session_limits_text(const struct policy *eff, char *buf, size_t n)
{
	struct policy_limit_defaults d;
	const struct policy_origin *o;
	char v[POLICY_NLIMITS][32];
	int i;

	session_limit_defaults(&d);
	for (i = 0; i < POLICY_NLIMITS; i++)
		policy_limit_format(i, eff ? policy_limit_resolve(eff, i, &d,
				    &o) : d.v[i], v[i], sizeof(v[i]));
	snprintf(buf, n, "memory %s, pids %s, cpu %s", v[POLICY_LIMIT_MEMORY],
		 v[POLICY_LIMIT_PIDS], v[POLICY_LIMIT_CPU]);
}

/* "memory limit 2 GiB (policy user, limits.memory)" */
static void
hit_text(const struct session *s, enum policy_limit_id id, char *buf,
	 size_t n, const struct policy_origin **origin)
{
	struct policy_limit_defaults d;
	unsigned long long v;
	char val[32];

	session_limit_defaults(&d);
	v = policy_limit_resolve(s->policy, id, &d, origin);
	policy_limit_format(id, v, val, sizeof(val));
	snprintf(buf, n, "%s limit %s (%s%s, %s)",
		 id == POLICY_LIMIT_MEMORY ? "memory" :
		 id == POLICY_LIMIT_HOME ? "home" : "process", val,
		 *origin ? "policy " : "default",
		 *origin ? policy_layer_name((*origin)->layer) : "",
		 policy_limit_name(id));
}

/* An OOM kill in a sandbox whose cgroup kills only that process (v1):
 * the rest goes too, as on v2 (memory.oom.group), so no half-killed
 * build goes on. The kernel signals (one fd for every sandbox) before its
 * kill is done and counted: each session looks at its own cgroup then
 * and, a few times, a little later. */
static void
oom_check(struct session *s)
{
	struct sandbox_usage u;

	sandbox_usage(&s->proc, &u);
	if (!u.memory_hit && !u.memory_oom)
		return;
	s->oom_checks = 0;
	event_del(s->oom_ev);
	event_del(s->oom_timer);
	session_signal(s, SIGKILL);
}

static void
oom_timer_cb(evutil_socket_t fd, short what, void *arg)
{
	struct session *s = arg;

	oom_check(s);
	if (s->oom_checks > 0 && s->oom_checks--)
		event_add(s->oom_timer, &(struct timeval){ 0, 20000 });
}

static void
oom_cb(evutil_socket_t fd, short what, void *arg)
{
	struct session *s = arg;
	uint64_t n;

	if (read(fd, &n, sizeof(n)) < 0)
		n = 0; /* another session read it first */
	s->oom_checks = 25; /* half a second */
	oom_check(s);
	if (s->oom_checks > 0)
		event_add(s->oom_timer, &(struct timeval){ 0, 20000 });
}

int
session_limits_arm(struct session *s)
{
	int fd = sandbox_oom_fd(&s->proc);

	if (fd < 0)
		return 0;
	s->oom_ev = event_new(sbxd.base, fd, EV_READ | EV_PERSIST, oom_cb, s);
	s->oom_timer = evtimer_new(sbxd.base, oom_timer_cb, s);
	return s->oom_ev && s->oom_timer && event_add(s->oom_ev, NULL) == 0 ?
	       0 : -ENOMEM;
}

/* The limit u says was hit, as text in s->limit_hit (memory first: an
 * OOM kill ends the run; refused forks may only have slowed it); its id,
 * or -1 for none. */
static int
note_hit(struct session *s, const struct sandbox_usage *u,
	 const struct policy_origin **o)
{
	enum policy_limit_id id;

	if (!s->policy || (!u->memory_hit && !u->pids_hit))
		return -1;
	id = u->memory_hit ? POLICY_LIMIT_MEMORY : POLICY_LIMIT_PIDS;
	hit_text(s, id, s->limit_hit, sizeof(s->limit_hit), o);
	return (int)id;
}

/* The home layer once the command has ended: its own file system full
 * (the sandbox's writes got ENOSPC) or, where nothing of that size holds
 * it, measured over limits.home (the workspace's next runs get a
 * read-only home). A violation either way, naming the layer, by the run
 * that filled it; a run whose home was read-only for it says why in its
 * exit status. */
static void
home_end(struct session *s)
{
	const struct policy_origin *o = NULL;
	struct violation v = { .kind = VIOLATION_LIMIT };
	struct policy_limit_defaults d;
	const char *ws = session_workspace(s);
	bool disk = sandbox_caps()->home_disk, was;
	struct home_usage u;
	uint64_t lim;
	char detail[PATH_MAX + 160];
	size_t n;

	if (!s->policy || (!s->home_layers && !s->home_over))
		return;
	session_limit_defaults(&d);
	if (!(lim = policy_limit_resolve(s->policy, POLICY_LIMIT_HOME, &d,
					 &o)))
		return; /* no limit, nothing that enforces one */
	if (s->limit_hit[0])
		return; /* memory or processes stopped it first */
	hit_text(s, POLICY_LIMIT_HOME, s->limit_hit, sizeof(s->limit_hit),
		 &o);
	if (s->home_over) {
		/* A raised limit makes the next run's home writable. */
		home_overlay_measure(ws, lim, &u);
		if (u.used <= lim)
			home_overlay_set_over(ws, false);
		n = strlen(s->limit_hit);
		snprintf(s->limit_hit + n, sizeof(s->limit_hit) - n, ": the "
			 "home is read-only: its layer is over limits.home "
			 "(sbxctl reset)");
		return;
	}
	/* Said once, by the run that filled it (or took it over). */
	was = home_overlay_over(ws);
	/* The walk (where there is no file system to ask) ends once over:
	 * it delays this run's exit status. */
	home_overlay_measure(ws, lim, &u);
	home_overlay_set_over(ws, disk ? u.full : u.used > lim);
	if (was || !home_overlay_over(ws)) {
		s->limit_hit[0] = '\0';
		return;
	}
	snprintf(detail, sizeof(detail), disk ? "the workspace's home layer "
		 "(%s) is full: writes to the home get ENOSPC" : "the "
		 "workspace's home layer (%s) is over the limit: its next "
		 "runs get a read-only home until sbxctl reset", u.layer);
	v.target = policy_limit_key(POLICY_LIMIT_HOME);
	v.operation = "write";
	v.rule = s->limit_hit;
	v.layer = o ? (int)o->layer : VIOLATION_NO_LAYER;
	v.file = o ? o->file : NULL;
	v.rule_id = o ? o->id : NULL;
	v.reason = o ? o->reason : NULL;
	v.detail = detail;
	session_violation(s, &v);
}

/* The sandbox's cgroup, read once its command has ended: a limit it hit
 * is a violation too, so an agent's event stream and the summary say
 * which rule stopped it. */
void
session_limits_end(struct session *s)
{
	const struct policy_origin *o = NULL;
	struct violation v = { .kind = VIOLATION_LIMIT };
	int id;

	sandbox_usage(&s->proc, &s->usage);
	if ((id = note_hit(s, &s->usage, &o)) < 0) {
		home_end(s);
		return;
	}
	v.target = policy_limit_key(id);
	v.operation = id == POLICY_LIMIT_MEMORY ? "oom-kill" : "fork";
	v.rule = s->limit_hit;
	v.layer = o ? (int)o->layer : VIOLATION_NO_LAYER;
	v.file = o ? o->file : NULL;
	v.rule_id = o ? o->id : NULL;
	v.reason = o ? o->reason : NULL;
	v.detail = id == POLICY_LIMIT_MEMORY ?
		   "the sandbox ran out of memory and was killed" :
		   "the sandbox reached its process limit: fork failed";
	session_violation(s, &v);
}

void
session_limits_exit(const struct session *s, Sbx__ExitStatus *es)
{
	es->measured = s->usage.measured;
	es->mem_peak_bytes = s->usage.mem_peak;
	es->cpu_us = s->usage.cpu_us;
	es->limit_hit = (char *)s->limit_hit;
}

void
session_home_usage(const struct session *s, uint64_t *used, uint64_t *limit)
{
	struct policy_limit_defaults d;
	const struct policy_origin *o;
	struct home_usage u;

	home_overlay_measure(session_workspace(s), 0, &u);
	*used = u.used;
	/* The size its file system was made with is the one in force. */
	session_limit_defaults(&d);
	*limit = u.size ? u.size : s->policy ?
		 policy_limit_resolve(s->policy, POLICY_LIMIT_HOME, &d, &o) :
		 d.v[POLICY_LIMIT_HOME];
}

/* ps: what a running sandbox used so far, and a limit it already hit. */
void
session_limits_describe(struct session *s, Sbx__SessionInfo *info)
{
	const struct policy_origin *o;
	struct sandbox_usage u;

	sandbox_usage(&s->proc, &u);
	if (!s->exited)
		note_hit(s, &u, &o);
	info->measured = u.measured;
	info->mem_peak_bytes = u.mem_peak;
	info->cpu_us = u.cpu_us;
	info->limit_hit = (char *)s->limit_hit;
	info->limits = (char *)s->limits_text;
}
