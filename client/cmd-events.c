/* sbxctl events [--session ID] [--json] [--count N]: violation events of
 * this daemon's sessions as they happen, until interrupted (like
 * `log stream`). */
#include <getopt.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>

#include "client/blocked.h"
#include "client/cmd.h"

#define EVENTS_USAGE "usage: sbxctl events [--session ID] [--json] " \
		     "[--count N]"

static void
print_event(const Sbx__ViolationEvent *ev, bool json)
{
	char line[2048];
	json_t *j;

	if (json) {
		j = blocked_json(ev);
		json_dumpf(j, stdout, JSON_COMPACT);
		json_decref(j);
		putchar('\n');
	} else {
		blocked_text(ev, line, sizeof(line));
		printf("session %llu: %s\n",
		       (unsigned long long)ev->session_id, line);
	}
	fflush(stdout);
}

/* Printed like an event, so a reader of the stream knows from which run
 * on the new policy applies. */
static void
print_policy_changed(const Sbx__PolicyChanged *pc, bool json)
{
	char what[1024];
	json_t *j;

	snprintf(what, sizeof(what), "%s", pc->what ? pc->what : "");
	blocked_scrub(what);
	if (json) {
		j = json_pack("{s:s, s:I, s:s}", "event", "policy-changed",
			      "time_unix_ms", (json_int_t)pc->time_unix_ms,
			      "what", what);
		if (j)
			json_dumpf(j, stdout, JSON_COMPACT);
		json_decref(j);
		putchar('\n');
	} else
		printf("policy changed: %s (new runs use it; running sessions "
		       "keep theirs)\n", what);
	fflush(stdout);
}

static int
parse_number(const char *s, unsigned long long *out)
{
	char *end;

	*out = strtoull(s, &end, 10);
	return *s && !*end && *out ? 0 : -1;
}

static const struct option opts[] = {
	{ "session", required_argument, NULL, 's' },
	{ "count", required_argument, NULL, 'n' },
	{ NULL, 0, NULL, 0 },
};

static int
cmd_events(const struct cmd_ctx *ctx, int argc, char **argv)
{
	Sbx__Envelope env = SBX__ENVELOPE__INIT, *rep = NULL;
	Sbx__Subscribe req = SBX__SUBSCRIBE__INIT;
	unsigned long long id = 0, count = 0, seen = 0;
	bool json = ctx->json;
	struct client c;
	int o, r;

	while ((o = getopt_long(argc, argv, cmd_events_entry.shortopts, opts,
				 NULL)) != -1) {
		if ((o == 's' && parse_number(optarg, &id) < 0) ||
		    (o == 'n' && parse_number(optarg, &count) < 0) ||
		    (o != 's' && o != 'j' && o != 'n')) {
			client_err(EVENTS_USAGE);
			return EXIT_SBX;
		}
		json |= o == 'j';
	}
	if (optind < argc) {
		client_err(EVENTS_USAGE);
		return EXIT_SBX;
	}
	if (client_open(ctx, &c) < 0)
		return EXIT_SBX;
	req.session_id = id;
	env.msg_case = SBX__ENVELOPE__MSG_SUBSCRIBE;
	env.subscribe = &req;
	if (client_call(&c, &env, SBX__ENVELOPE__MSG_ACK, &rep) < 0) {
		client_close(&c);
		return EXIT_SBX;
	}
	wire_envelope_free(rep);
	/* Said once subscribed: a script can wait for this line. */
	fprintf(stderr, "sbxctl: streaming violation events (Ctrl-C to "
		"stop)\n");
	while (!count || seen < count) {
		if ((r = client_recv(&c, &rep)) < 0 || !rep) {
			client_err("lost the connection to sbxd");
			client_close(&c);
			return EXIT_SBX;
		}
		if (rep->msg_case == SBX__ENVELOPE__MSG_VIOLATION) {
			print_event(rep->violation, json);
			seen++;
		} else if (rep->msg_case ==
			   SBX__ENVELOPE__MSG_POLICY_CHANGED) {
			print_policy_changed(rep->policy_changed, json);
			seen++;
		} else if (rep->msg_case == SBX__ENVELOPE__MSG_ERROR) {
			client_err("%s", rep->error->message);
			wire_envelope_free(rep);
			client_close(&c);
			return EXIT_SBX;
		}
		wire_envelope_free(rep);
	}
	client_close(&c);
	return 0;
}

const struct cmd_entry cmd_events_entry = {
	.name = "events",
	.usage = "events [--session ID] [--json] [--count N]",
	.summary = "Print violation events as they happen (all sessions, or "
		   "one), one per line.",
	.fn = cmd_events,
	.opts = opts,
	.shortopts = "+s:jn:",
};
