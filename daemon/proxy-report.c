/* Network denials as violation events for the session's client, and as one-line answers. */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "daemon/log.h"
#include "daemon/proxy-int.h"

static const char *
remedy(const struct proxy_denial *d)
{
	if (d->o != NULL && d->o->reason != NULL)
		return d->o->reason;
	return d->remedy ? d->remedy : "";
}

static void
rule_text(const struct proxy_denial *d, char *buf, size_t size)
{
	if (d->o != NULL)
		proxy_rules_describe(d->o, buf, size);
	else
		snprintf(buf, size, "%s", d->check ? d->check : "sbx");
}

int
proxy_denial_format(const struct pconn *pc, const struct proxy_denial *d,
    char *buf, size_t size)
{
	char target[HOST_TEXT_MAX + 16], rule[384];
	const char *r = remedy(d);
	int n;

	host_format(&pc->host, pc->port, target, sizeof(target));
	rule_text(d, rule, sizeof(rule));
	n = snprintf(buf, size, "blocked %s: %s%s%s (%s)%s%s", target, d->why,
	    d->detail[0] ? ": " : "", d->detail, rule, r[0] ? " - " : "", r);
	return n < 0 || (size_t)n >= size ? -1 : n;
}

static uint64_t
now_unix_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

void
proxy_report(struct pconn *pc, const struct proxy_denial *d)
{
	Sbx__Envelope env = SBX__ENVELOPE__INIT;
	Sbx__ViolationEvent ev = SBX__VIOLATION_EVENT__INIT;
	struct proxy *px = pc->px;
	char target[HOST_TEXT_MAX + 16], rule[384], detail[512], line[1024];

	proxy_denial_format(pc, d, line, sizeof(line));
	log_info("session %llu: %s %s", (unsigned long long)px->session_id,
	    pc->proto, line);
	if (px->nevents >= PROXY_EVENTS_MAX) {
		px->nsuppressed++;
		return;
	}
	px->nevents++;
	host_format(&pc->host, pc->port, target, sizeof(target));
	rule_text(d, rule, sizeof(rule));
	snprintf(detail, sizeof(detail), "%s%s%s", d->why,
	    d->detail[0] ? ": " : "", d->detail);
	ev.session_id = px->session_id;
	ev.time_unix_ms = now_unix_ms();
	ev.kind = (char *)"network";
	ev.target = target;
	ev.operation = (char *)pc->proto;
	ev.rule = rule;
	ev.detail = detail;
	ev.remediation = (char *)remedy(d);
	if (d->o != NULL) {
		if (d->o->id != NULL)
			ev.rule_id = d->o->id;
		if (d->o->has_layer)
			ev.layer = (char *)policy_layer_name(d->o->layer);
		if (d->o->file != NULL)
			ev.file = d->o->file;
	}
	env.msg_case = SBX__ENVELOPE__MSG_VIOLATION;
	env.violation = &ev;
	px->hooks.send(px->hooks.arg, &env);
}
