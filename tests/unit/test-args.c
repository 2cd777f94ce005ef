/* Unit tests for client/args.c: global options before the verb and among
 * its arguments, told apart from the verb's own options and their values
 * by the verb's getopt table (copies of the verbs' tables: the verbs live
 * with the daemon code they call, which a unit test does not link). */
#include <errno.h>

#include "client/args.h"
#include "client/cmd.h"
#include "unit.h"

static const struct option run_opts[] = {
	{ "tty", no_argument, NULL, 't' },
	{ "env", required_argument, NULL, 'e' },
	{ "cwd", required_argument, NULL, 'C' },
	{ "workspace", required_argument, NULL, 'w' },
	{ "timeout", required_argument, NULL, 'T' },
	{ "quiet", no_argument, NULL, 'q' },
	{ NULL, 0, NULL, 0 },
};
static const struct option events_opts[] = {
	{ "session", required_argument, NULL, 's' },
	{ "count", required_argument, NULL, 'n' },
	{ NULL, 0, NULL, 0 },
};
static const struct option ws_opts[] = {
	{ "workspace", required_argument, NULL, 'w' },
	{ "write", no_argument, NULL, 0x100 },
	{ NULL, 0, NULL, 0 },
};
static const struct option doctor_opts[] = {
	{ "scratch", required_argument, NULL, 's' },
	{ NULL, 0, NULL, 0 },
};

static const struct cmd_entry run_e = {
	.name = "run", .opts = run_opts, .shortopts = "+te:C:q",
};
static const struct cmd_entry events_e = {
	.name = "events", .opts = events_opts, .shortopts = "+s:jn:",
};
static const struct cmd_entry reset_e = {
	.name = "reset", .opts = ws_opts, .shortopts = "+w:",
};
static const struct cmd_entry policy_explain_e = {
	.name = "explain", .opts = ws_opts, .shortopts = "",
};
static const struct cmd_entry policy_show_e = {
	.name = "show", .opts = ws_opts, .shortopts = "",
};
static const struct cmd_entry doctor_e = {
	.name = "doctor", .opts = doctor_opts, .shortopts = "+",
};
static const struct cmd_entry status_e = { .name = "status" };
static const struct cmd_entry kill_e = { .name = "kill" };

struct res {
	int r;
	char left[512]; /* the words left for the verb, space-separated */
	struct cmd_ctx ctx;
	const char *bad;
};

static struct res
run(const struct cmd_entry *e, unsigned flags, const char *line)
{
	static char buf[1024];
	char *argv[64], *p;
	struct res o = { .ctx = { .connect_timeout_ms = 5000 }, .bad = "" };
	int argc = 0, i;

	snprintf(buf, sizeof(buf), "%s", line);
	for (p = strtok(buf, " "); p && argc < 63; p = strtok(NULL, " "))
		argv[argc++] = p;
	argv[argc] = NULL;
	o.r = args_take_globals(&argc, argv, e ? e->opts : NULL,
				e ? e->shortopts : "+", flags, &o.ctx, &o.bad);
	for (i = 0; i < argc; i++)
		snprintf(o.left + strlen(o.left), sizeof(o.left) - strlen(o.left),
			 "%s%s", i ? " " : "", argv[i]);
	CHECK(argv[argc] == NULL);
	return o;
}

static void
test_after_verb(void)
{
	struct res o;

	o = run(&status_e, 0, "status --json");
	CHECK_INT(o.r, 0);
	CHECK_STR(o.left, "status");
	CHECK(o.ctx.json);

	o = run(&reset_e, 0, "reset --workspace /w --no-autostart");
	CHECK_STR(o.left, "reset --workspace /w");
	CHECK(o.ctx.no_autostart);

	o = run(&events_e, 0, "events -s 3 --json --count 2");
	CHECK_STR(o.left, "events -s 3 --count 2");
	CHECK(o.ctx.json);

	o = run(&policy_explain_e, 0,
		"explain /p --json --connect-timeout 0.5 --write");
	CHECK_STR(o.left, "explain /p --write");
	CHECK(o.ctx.json);
	CHECK_INT(o.ctx.connect_timeout_ms, 500);

	o = run(&policy_show_e, 0, "show --socket=/s --workspace=/w");
	CHECK_STR(o.left, "show --workspace=/w");
	CHECK_STR(o.ctx.socket, "/s");
}

/* A value of the verb's own option is never a global. */
static void
test_values(void)
{
	struct res o;

	o = run(&run_e, 0, "run -C --json -- ls");
	CHECK_STR(o.left, "run -C --json -- ls");
	CHECK(!o.ctx.json);

	o = run(&run_e, 0, "run --workspace --socket -- ls");
	CHECK_STR(o.left, "run --workspace --socket -- ls");
	CHECK(!o.ctx.socket);

	o = run(&events_e, 0, "events -s --json");
	CHECK_STR(o.left, "events -s --json");
	CHECK(!o.ctx.json);

	o = run(&run_e, 0, "run -e A=1 --socket /s -Cdir --json -- x");
	CHECK_STR(o.left, "run -e A=1 -Cdir -- x");
	CHECK_STR(o.ctx.socket, "/s");
	CHECK(o.ctx.json);
}

/* run's command and whatever follows "--" are the command's. */
static void
test_command_is_its_own(void)
{
	struct res o;

	o = run(&run_e, 0, "run -t --json -- ls --json --help");
	CHECK_INT(o.r, 0);
	CHECK_STR(o.left, "run -t -- ls --json --help");
	CHECK(o.ctx.json);

	o = run(&run_e, 0, "run -t ls --json -h");
	CHECK_INT(o.r, 0);
	CHECK_STR(o.left, "run -t ls --json -h");
	CHECK(!o.ctx.json);

	o = run(&policy_explain_e, 0, "explain -- --json");
	CHECK_STR(o.left, "explain -- --json");
	CHECK(!o.ctx.json);
}

static void
test_help_version(void)
{
	struct res o;

	o = run(&kill_e, 0, "kill 3 -h");
	CHECK_INT(o.r, ARGS_HELP);
	CHECK_STR(o.left, "kill 3");
	o = run(&status_e, 0, "status --help");
	CHECK_INT(o.r, ARGS_HELP);
	o = run(&status_e, 0, "status --version");
	CHECK_INT(o.r, ARGS_VERSION);
	o = run(&run_e, 0, "run -- ls --help");
	CHECK_INT(o.r, 0);
	/* A cluster with a letter of the verb's stays the verb's word. */
	o = run(&run_e, 0, "run -th -- ls");
	CHECK_INT(o.r, ARGS_HELP);
	CHECK_STR(o.left, "run -th -- ls");
}

static void
test_errors(void)
{
	struct res o;

	o = run(&status_e, 0, "status --connect-timeout");
	CHECK_INT(o.r, -EINVAL);
	CHECK_STR(o.bad, "--connect-timeout");
	o = run(&status_e, 0, "status --connect-timeout abc");
	CHECK_INT(o.r, -EINVAL);
	CHECK_STR(o.bad, "abc");
	o = run(&status_e, 0, "status --json=1");
	CHECK_INT(o.r, -EINVAL);
	CHECK_STR(o.bad, "--json=1");
	o = run(&status_e, 0, "status --socket");
	CHECK_INT(o.r, -EINVAL);
	/* Unknown and ambiguous options are the verb's to refuse. */
	o = run(&status_e, 0, "status --bogus x");
	CHECK_INT(o.r, 0);
	CHECK_STR(o.left, "status --bogus x");
	o = run(&doctor_e, 0, "doctor --s /x");
	CHECK_STR(o.left, "doctor --s /x");
	CHECK(!o.ctx.socket);
}

/* Before the verb: short aliases, prefixes, and a stop at the verb. */
static void
test_before_verb(void)
{
	struct res o;

	o = run(NULL, ARGS_SHORT,
		"sbxctl -j -s /sock --no-autostart status --json");
	CHECK_INT(o.r, 0);
	CHECK_STR(o.left, "sbxctl status --json");
	CHECK(o.ctx.json);
	CHECK(o.ctx.no_autostart);
	CHECK_STR(o.ctx.socket, "/sock");

	o = run(NULL, ARGS_SHORT, "sbxctl -s/x --so /y --con=2 ps");
	CHECK_STR(o.left, "sbxctl ps");
	CHECK_STR(o.ctx.socket, "/y");
	CHECK_INT(o.ctx.connect_timeout_ms, 2000);

	o = run(NULL, ARGS_SHORT, "sbxctl -x status");
	CHECK_STR(o.left, "sbxctl -x status");
	/* A cluster with an unknown letter stays whole and sets nothing
	 * (found by fuzz-args). */
	o = run(NULL, ARGS_SHORT, "sbxctl -xjs /y status");
	CHECK_STR(o.left, "sbxctl -xjs /y status");
	CHECK(!o.ctx.socket);
	CHECK(!o.ctx.json);
	o = run(NULL, ARGS_SHORT, "sbxctl -h");
	CHECK_INT(o.r, ARGS_HELP);
	CHECK_STR(o.left, "sbxctl");
	o = run(NULL, ARGS_SHORT, "sbxctl -s");
	CHECK_INT(o.r, -EINVAL);
	/* -s after a verb is the verb's (events --session), never --socket. */
	o = run(&status_e, 0, "status -j");
	CHECK_STR(o.left, "status -j");
	CHECK(!o.ctx.json);
}

static void
test_timeout(void)
{
	unsigned ms = 7;

	CHECK_INT(args_timeout("0", &ms), 0);
	CHECK_INT(ms, 0);
	CHECK_INT(args_timeout("0.0001", &ms), 0);
	CHECK_INT(ms, 1);
	CHECK_INT(args_timeout("1.5", &ms), 0);
	CHECK_INT(ms, 1500);
	CHECK_INT(args_timeout("86400", &ms), 0);
	CHECK_INT(args_timeout("86401", &ms), -EINVAL);
	CHECK_INT(args_timeout("-1", &ms), -EINVAL);
	CHECK_INT(args_timeout("nan", &ms), -EINVAL);
	CHECK_INT(args_timeout("", &ms), -EINVAL);
	CHECK_INT(args_timeout("2s", &ms), -EINVAL);
}

int
main(void)
{
	test_after_verb();
	test_values();
	test_command_is_its_own();
	test_help_version();
	test_errors();
	test_before_verb();
	test_timeout();
	UNIT_DONE();
}
