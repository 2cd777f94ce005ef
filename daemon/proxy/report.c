/* Network denials as violations for the session, and as one-line answers. */
#include <stdio.h>
#include <string.h>

#include "daemon/proxy/int.h"
#include "daemon/violation.h"

static const char *
remedy(const struct proxy_denial *d)
{
	if (d->fix[0] != '\0')
		return d->fix;
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

/* The denial for the session's violation events (events.c rate-limits,
 * sends and logs them). */
void
proxy_report(struct pconn *pc, const struct proxy_denial *d)
{
	struct proxy *px = pc->px;
	struct violation v = { VIOLATION_NETWORK, NULL, pc->proto, NULL, NULL,
			       VIOLATION_NO_LAYER, NULL, NULL, NULL, false };
	char target[HOST_TEXT_MAX + 16], rule[384], detail[512];

	host_format(&pc->host, pc->port, target, sizeof(target));
	if (d->o != NULL) {
		/* The id travels in its own field. */
		struct proxy_origin o = *d->o;

		o.id = NULL;
		proxy_rules_describe(&o, rule, sizeof(rule));
	} else
		rule_text(d, rule, sizeof(rule));
	snprintf(detail, sizeof(detail), "%s%s%s", d->why,
	    d->detail[0] ? ": " : "", d->detail);
	v.target = target;
	v.rule = rule;
	v.detail = detail;
	v.reason = remedy(d);
	if (d->o != NULL) {
		v.rule_id = d->o->id;
		v.file = d->o->file;
		if (d->o->has_layer)
			v.layer = (int)d->o->layer;
	}
	px->hooks.violation(px->hooks.arg, &v);
}
