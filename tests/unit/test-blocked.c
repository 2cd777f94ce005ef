/* Unit tests for client/blocked.c: the line sbxctl prints for an event and
 * a group, the honest note after a failed run, the JSON summary. */
#include <stdio.h>
#include <string.h>

#include "client/blocked.h"
#include "unit.h"

static Sbx__ViolationEvent
event(const char *kind, const char *target, const char *rule,
      const char *id, const char *layer, const char *file,
      const char *detail, const char *remedy)
{
	Sbx__ViolationEvent ev = SBX__VIOLATION_EVENT__INIT;

	ev.session_id = 4;
	ev.kind = (char *)kind;
	ev.target = (char *)target;
	ev.rule = (char *)rule;
	ev.rule_id = (char *)id;
	ev.layer = (char *)layer;
	ev.file = (char *)file;
	ev.detail = (char *)detail;
	ev.remediation = (char *)remedy;
	return ev;
}

static void
test_lines(void)
{
	char buf[1024];
	Sbx__ViolationEvent ev;

	ev = event("fs-write", "/etc/hosts", "filesystem.allowWrite",
		   "fs.write", "org", "/etc/sbx/policy.d/base.json",
		   "outside writable paths",
		   "write inside the workspace, or ask the user to allow it");
	blocked_text(&ev, buf, sizeof(buf));
	CHECK_STR(buf, "blocked write /etc/hosts (outside writable paths; org "
		  "policy /etc/sbx/policy.d/base.json, rule fs.write) \u2014 "
		  "write inside the workspace, or ask the user to allow it");
	ev = event("syscall", "io_uring_setup", "builtin seccomp deny set",
		   "seccomp.io_uring", "builtin", "", "", "no io_uring");
	ev.count = 3;
	blocked_text(&ev, buf, sizeof(buf));
	CHECK_STR(buf, "blocked syscall io_uring_setup (builtin seccomp deny "
		  "set, rule seccomp.io_uring) \u2014 no io_uring (3 times)");
	ev = event("network", "127.0.0.1:9", "network.unknownHosts \"ask\"",
		   "", "user", "/p.json", "not approved", "ask");
	ev.suppressed = 7;
	blocked_text(&ev, buf, sizeof(buf));
	CHECK_STR(buf, "7 more violations suppressed (rate limit); the last: "
		  "blocked network 127.0.0.1:9 (not approved; user policy "
		  "/p.json, rule network.unknownHosts \"ask\") \u2014 ask");
	/* sbx's own check: no layer. Control bytes are replaced. */
	ev = event("network", "a\nb:1", "address check", "", "", "",
		   "private address", "");
	blocked_text(&ev, buf, sizeof(buf));
	CHECK_STR(buf, "blocked network a?b:1 (private address; address "
		  "check)");
	/* Cut to fit, terminated. */
	CHECK_INT(blocked_text(&ev, buf, 10), 9);
	CHECK_STR(buf, "blocked n");
}

/* What blocked_summary writes for es after exit code (malloc'd). */
static char *
summary(const Sbx__ExitStatus *es, int code, bool json)
{
	char *out = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&out, &len);

	blocked_summary(f, es, code, json);
	fclose(f);
	return out;
}

static void
test_note_and_json(void)
{
	Sbx__ExitStatus es = SBX__EXIT_STATUS__INIT;
	Sbx__ViolationEvent ev = event("syscall", "bpf", "r", "seccomp.bpf",
				       "builtin", "", "", "x");
	Sbx__ViolationEvent *groups[1] = { &ev };
	char *writable[2] = { (char *)"/ws", (char *)"/tmp" }, note[512];
	char *out;

	Sbx__ViolationEvent w = event("fs-create", "/etc", "filesystem.allowWrite",
				      "", "", "", "outside the writable paths",
				      "x");
	Sbx__ViolationEvent *wgroups[2] = { &ev, &w };

	es.fs_unobserved = true;
	es.writable = writable;
	es.n_writable = 2;
	/* No write was refused (none seen): no guess about one. */
	CHECK_INT(blocked_note(&es, 0, note, sizeof(note)), 0);
	CHECK_INT(blocked_note(&es, 1, note, sizeof(note)), 0);
	es.violation_groups = groups;
	es.n_violation_groups = 1;
	CHECK_INT(blocked_note(&es, 1, note, sizeof(note)), 0);
	/* One was: the writable paths, after a failure only. */
	es.violation_groups = wgroups;
	es.n_violation_groups = 2;
	CHECK_INT(blocked_note(&es, 0, note, sizeof(note)), 0);
	blocked_note(&es, 1, note, sizeof(note));
	CHECK_STR(note, "the command failed (exit 1) after a write outside "
		  "the writable paths was refused; they are: /ws, /tmp");
	es.exec_error = (char *)"x: command not found";
	CHECK_INT(blocked_note(&es, 127, note, sizeof(note)), 0);
	es.exec_error = NULL;

	es.violations = 5;
	es.violations_suppressed = 2;
	es.violation_groups = groups;
	es.n_violation_groups = 1;
	ev.count = 5;
	out = summary(&es, 0, false);
	CHECK_STR(out, "sbx: blocked syscall bpf (r, rule seccomp.bpf) \u2014 "
		  "x (5 times)\n");
	free(out);
	out = summary(&es, 0, true);
	CHECK(out && strstr(out, "\"violations\":5,\"suppressed\":2,"));
	CHECK(out && strstr(out, "\"rule_id\":\"seccomp.bpf\""));
	CHECK(out && strstr(out, "\"count\":5"));
	CHECK(out && strstr(out, "\"note\":null"));
	CHECK(out && strchr(out, '\n') == out + strlen(out) - 1);
	free(out);
}

/* What libc tries and takes in its stride: getaddrinfo's UDP sockets are
 * listed only after a failure; an expected refusal (nscd) never. */
static void
test_probes(void)
{
	static const struct {
		const char *kind, *target, *id;
		bool probe;
	} cases[] = {
		/* a program's own Unix socket: a refusal like any other */
		{ "ipc", "socket(AF_UNIX, SOCK_STREAM)", "seccomp.unix-socket",
		  false },
		/* getaddrinfo's sorting and resolver, where UDP is refused */
		{ "syscall", "socket(AF_INET6, SOCK_DGRAM)", "seccomp.ip-socket",
		  true },
		{ "syscall", "socket(AF_INET, SOCK_DGRAM|SOCK_NONBLOCK)",
		  "seccomp.ip-socket", true },
		{ "syscall", "socket(AF_INET, SOCK_RAW)", "seccomp.ip-socket",
		  false },
	};
	Sbx__ExitStatus es = SBX__EXIT_STATUS__INIT;
	Sbx__ViolationEvent ev, *groups[1] = { &ev };
	char *out, want[160];
	size_t i;

	es.violation_groups = groups;
	es.n_violation_groups = 1;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		ev = event(cases[i].kind, cases[i].target, "r", cases[i].id,
			   "builtin", "", "", "x");
		ev.count = 2;
		snprintf(want, sizeof(want), "sbx: blocked %s %s (r, rule %s)",
			 cases[i].kind, cases[i].target, cases[i].id);
		out = summary(&es, 0, false);
		CHECK(out && (cases[i].probe ? !*out : !!strstr(out, want)));
		free(out);
		out = summary(&es, 1, false);
		CHECK(out && !strncmp(out, want, strlen(want)));
		free(out);
	}
	/* libc's nscd probe, marked expected by the daemon. */
	ev = event("ipc", "socket(AF_UNIX, SOCK_STREAM|SOCK_NONBLOCK)", "r",
		   "seccomp.unix-socket", "builtin", "", "", "x");
	ev.expected = true;
	out = summary(&es, 1, false);
	CHECK_STR(out, "");
	free(out);
	out = summary(&es, 1, true);
	CHECK(out && strstr(out, "\"expected\":true"));
	CHECK(out && strstr(out, "[expected: a probe the program goes on "
			    "without]\""));
	free(out);
}

int
main(void)
{
	test_lines();
	test_note_and_json();
	test_probes();
	UNIT_DONE();
}
