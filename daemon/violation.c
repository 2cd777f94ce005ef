/* Violation events, the per-session token bucket that rate-limits them, and
 * the grouped summary each session keeps for its exit status. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/policy/policy.h"
#include "daemon/violation.h"

struct violation_log {
	uint64_t last_ms;
	uint64_t tokens;	/* in thousandths of an event */
	uint32_t total;		/* every denial recorded */
	uint32_t suppressed;	/* held back, all time */
	uint32_t pending;	/* held back since the last send */
	uint32_t ungrouped;	/* past the group table */
	Sbx__ViolationEvent held;	/* the last one held back */
	Sbx__ViolationEvent *groups[VIOLATION_GROUPS_MAX];
	size_t ngroups;
};

static const char *const kind_names[VIOLATION_NKINDS] = {
	[VIOLATION_FS_READ] = "fs-read",
	[VIOLATION_FS_WRITE] = "fs-write",
	[VIOLATION_FS_CREATE] = "fs-create",
	[VIOLATION_NETWORK] = "network",
	[VIOLATION_SYSCALL] = "syscall",
	[VIOLATION_IPC] = "ipc",
	[VIOLATION_SIGNAL] = "signal",
	[VIOLATION_LIMIT] = "limit",
};

/* What to do when the rule gave no reason: one line an agent can act on. */
static const char *const kind_remedies[VIOLATION_NKINDS] = {
	[VIOLATION_FS_READ] = "the path is hidden by policy; ask the user "
		"if the task really needs it",
	[VIOLATION_FS_WRITE] = "write inside the workspace, or ask the user "
		"to allow it",
	[VIOLATION_FS_CREATE] = "create files inside the workspace, or ask "
		"the user to allow it",
	[VIOLATION_NETWORK] = "ask the user to add the host to "
		"network.allowedDomains",
	[VIOLATION_SYSCALL] = "sandboxed commands cannot make this system "
		"call; do without it, or ask the user to run the step "
		"outside the sandbox",
	[VIOLATION_IPC] = "the sandbox cannot reach host services; ask the "
		"user to allow the socket (network.allowUnixSockets)",
	[VIOLATION_SIGNAL] = "processes outside the sandbox cannot be "
		"signalled from inside it",
	[VIOLATION_LIMIT] = "the sandbox hit a resource limit; use less "
		"(fewer parallel jobs), or ask the user to raise limits.* in "
		"the policy",
};

const char *
violation_kind_name(enum violation_kind kind)
{
	return (unsigned)kind < VIOLATION_NKINDS ? kind_names[kind] : NULL;
}

const char *
violation_remediation(const struct violation *v)
{
	if (v->reason && v->reason[0])
		return v->reason;
	return (unsigned)v->kind < VIOLATION_NKINDS ? kind_remedies[v->kind] :
						      "";
}

static char *
str(const char *s)
{
	return (char *)(s ? s : "");
}

void
violation_event(const struct violation *v, uint64_t session_id,
		uint64_t time_unix_ms, Sbx__ViolationEvent *ev)
{
	const char *kind = violation_kind_name(v->kind);

	ev->session_id = session_id;
	ev->time_unix_ms = time_unix_ms;
	ev->kind = str(kind);
	ev->target = str(v->target);
	ev->operation = str(v->operation);
	ev->rule = str(v->rule);
	ev->rule_id = str(v->rule_id);
	ev->layer = v->layer == VIOLATION_NO_LAYER ? (char *)"" :
		    str(policy_layer_name((enum policy_layer)v->layer));
	ev->file = str(v->file);
	ev->remediation = str(violation_remediation(v));
	ev->detail = str(v->detail);
	ev->expected = v->expected;
}

/* --- owned copies, every string cut to VIOLATION_TEXT_MAX ------------- */

#define EVENT_STRINGS(ev)                                                  \
	{ &(ev)->kind, &(ev)->target, &(ev)->operation, &(ev)->rule,       \
	  &(ev)->rule_id, &(ev)->layer, &(ev)->file, &(ev)->remediation,   \
	  &(ev)->detail }
#define NSTRINGS 9

static void
event_clear(Sbx__ViolationEvent *ev)
{
	char **f[NSTRINGS] = EVENT_STRINGS(ev);
	size_t i;

	for (i = 0; i < NSTRINGS; i++)
		if (*f[i] != protobuf_c_empty_string)
			free(*f[i]);
	sbx__violation_event__init(ev);
}

/* dst becomes a copy of src; on failure dst is left empty. */
static int
event_copy(Sbx__ViolationEvent *dst, const Sbx__ViolationEvent *src)
{
	char **d[NSTRINGS] = EVENT_STRINGS(dst);
	char *const *s[NSTRINGS] = EVENT_STRINGS(src);
	size_t i;

	event_clear(dst);
	dst->session_id = src->session_id;
	dst->time_unix_ms = src->time_unix_ms;
	dst->expected = src->expected;
	for (i = 0; i < NSTRINGS; i++)
		*d[i] = NULL;
	for (i = 0; i < NSTRINGS; i++)
		if (!(*d[i] = strndup(*s[i], VIOLATION_TEXT_MAX)))
			break;
	if (i < NSTRINGS) {
		for (i = 0; i < NSTRINGS; i++) {
			free(*d[i]);
			*d[i] = (char *)protobuf_c_empty_string;
		}
		return -ENOMEM;
	}
	return 0;
}

/* --- the log ------------------------------------------------------------ */

struct violation_log *
violation_log_new(uint64_t now_ms)
{
	struct violation_log *l = calloc(1, sizeof(*l));

	if (!l)
		return NULL;
	l->last_ms = now_ms;
	l->tokens = VIOLATION_BURST * 1000u;
	sbx__violation_event__init(&l->held);
	return l;
}

void
violation_log_free(struct violation_log *l)
{
	size_t i;

	if (!l)
		return;
	event_clear(&l->held);
	for (i = 0; i < l->ngroups; i++) {
		event_clear(l->groups[i]);
		free(l->groups[i]);
	}
	free(l);
}

/* Same group: same kind, target, operation and rule, and both expected or
 * neither (a cut string compares by what was kept). */
static bool
same_group(const Sbx__ViolationEvent *g, const Sbx__ViolationEvent *ev)
{
	return g->expected == ev->expected && !strcmp(g->kind, ev->kind) &&
	       !strncmp(g->target, ev->target, VIOLATION_TEXT_MAX) &&
	       !strncmp(g->operation, ev->operation, VIOLATION_TEXT_MAX) &&
	       !strncmp(g->rule_id, ev->rule_id, VIOLATION_TEXT_MAX) &&
	       !strncmp(g->rule, ev->rule, VIOLATION_TEXT_MAX);
}

/* Out of memory, a denial is counted as ungrouped. */
static void
group(struct violation_log *l, const Sbx__ViolationEvent *ev)
{
	Sbx__ViolationEvent *g;
	size_t i;

	for (i = 0; i < l->ngroups; i++)
		if (same_group(l->groups[i], ev)) {
			l->groups[i]->count++;
			return;
		}
	if (l->ngroups == VIOLATION_GROUPS_MAX || !(g = malloc(sizeof(*g)))) {
		l->ungrouped++;
		return;
	}
	sbx__violation_event__init(g);
	if (event_copy(g, ev) < 0) {
		free(g);
		l->ungrouped++;
		return;
	}
	g->count = 1;
	l->groups[l->ngroups++] = g;
}

static bool
take_token(struct violation_log *l, uint64_t now_ms)
{
	uint64_t cap = VIOLATION_BURST * 1000u;

	if (now_ms > l->last_ms) {
		uint64_t add = (now_ms - l->last_ms) * VIOLATION_RATE;

		l->tokens = add >= cap - l->tokens ? cap : l->tokens + add;
		l->last_ms = now_ms;
	}
	if (l->tokens < 1000u)
		return false;
	l->tokens -= 1000u;
	return true;
}

int
violation_log_add(struct violation_log *l, const struct violation *v,
		  uint64_t session_id, uint64_t now_ms,
		  Sbx__ViolationEvent *held)
{
	Sbx__ViolationEvent ev = SBX__VIOLATION_EVENT__INIT;
	int send = VIOLATION_SEND_THIS;

	violation_event(v, session_id, 0, &ev);
	l->total++;
	group(l, &ev);
	if (!take_token(l, now_ms)) {
		/* A loop repeats one denial: copy only what changed. Out of
		 * memory, the held event stays empty: the count matters. */
		if (!l->pending || !same_group(&l->held, &ev))
			event_copy(&l->held, &ev);
		l->suppressed++;
		l->pending++;
		return 0;
	}
	if (violation_log_flush(l, held))
		send |= VIOLATION_SEND_HELD;
	return send;
}

bool
violation_log_flush(struct violation_log *l, Sbx__ViolationEvent *held)
{
	if (l->pending == 0)
		return false;
	*held = l->held;
	held->suppressed = l->pending;
	l->pending = 0;
	return true;
}

void
violation_log_summary(const struct violation_log *l, Sbx__ExitStatus *es)
{
	es->violations = l->total;
	es->violations_suppressed = l->suppressed;
	es->violations_ungrouped = l->ungrouped;
	es->n_violation_groups = l->ngroups;
	es->violation_groups = l->ngroups ?
		(Sbx__ViolationEvent **)l->groups : NULL;
}

uint32_t
violation_log_total(const struct violation_log *l)
{
	return l->total;
}
