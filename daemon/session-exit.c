/* How a session ended, told to its client and to the lifecycle
 * subscribers: the ExitStatus (with what the run was refused, the
 * environment it was not given, what it wrote into the home's layer and
 * the summary lines every client prints), or the setup failure. */
#define _GNU_SOURCE
#include <errno.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>

#include "daemon/conn.h"
#include "daemon/events.h"
#include "daemon/home-diverted.h"
#include "daemon/sandbox.h"
#include "daemon/session.h"
#include "daemon/session-int.h"
#include "daemon/violation.h"
#include "proto/blocked.h"

static void
send_exit(struct session *s)
{
	Sbx__Envelope env = SBX__ENVELOPE__INIT;
	Sbx__ExitStatus es = SBX__EXIT_STATUS__INIT;
	struct home_diverted hd = { 0 };
	char msg[256] = "", **lines = NULL;
	size_t nlines = 0;

	es.session_id = s->id;
	if (s->got_status && WIFEXITED(s->exit.value)) {
		es.exited = true;
		es.code = WEXITSTATUS(s->exit.value);
	} else if (s->got_status && WIFSIGNALED(s->exit.value)) {
		es.signal = WTERMSIG(s->exit.value);
		es.core_dumped = WCOREDUMP(s->exit.value) != 0;
	} else {
		/* The session init itself was killed (timeout, kill, client
		 * gone): SIGKILL is the only signal that does that. */
		es.signal = SIGKILL;
	}
	if (s->exec_fail.kind) {
		snprintf(msg, sizeof(msg), "%s: %s", s->argv[0],
			 s->exec_fail.value == ENOENT ? "command not found" :
			 strerror(s->exec_fail.value));
		es.exec_error = msg;
	}
	es.timed_out = s->timed_out;
	es.wall_us = (s->end_ms - s->start_ms) * 1000u;
	es.user_us = s->exit.utime_us;
	es.sys_us = s->exit.stime_us;
	es.max_rss_kb = s->exit.maxrss_kb;
	session_limits_exit(s, &es);
	violation_log_summary(s->vlog, &es);
	es.fs_unobserved = !sandbox_audit_watched(&s->proc);
	es.writable = s->writable.v;
	es.n_writable = s->writable.n;
	es.direct_net = s->direct_refused + (s->got_status ?
					     s->exit.direct_net : 0);
	for (es.env_withheld = s->env_withheld; es.env_withheld &&
	     es.env_withheld[es.n_env_withheld]; es.n_env_withheld++)
		;
	/* What the home overlay kept from the real home, caches aside. */
	if (s->home_layers &&
	    home_diverted_scan(s->home_layers, s->home,
			       /* file times lag by up to a tick */
			       (int64_t)s->start_unix_ms - 10, &hd) == 0) {
		es.diverted = hd.path;
		es.n_diverted = hd.n;
		es.diverted_more = hd.more;
	}
	/* The words every client shows (sbxctl prints them as they are). */
	if (blocked_summary_lines(&es, &lines, &nlines) == 0) {
		es.summary_lines = lines;
		es.n_summary_lines = nlines;
	}
	env.msg_case = SBX__ENVELOPE__MSG_EXIT_STATUS;
	env.exit_status = &es;
	if (s->conn)
		conn_send_id(s->conn, s->req, &env);
	events_session_exited(&es);
	blocked_lines_free(lines, nlines);
	home_diverted_free(&hd);
}

const char *
session_setup_problem(struct session *s)
{
	const char *why = sandbox_setup_problem(&s->proc);

	return why ? why : strerror(s->setup.value);
}

void
session_send_end(struct session *s)
{
	events_flush(s->vlog, s->id, s->conn, s->req);
	/* Lifecycle subscribers get the end of a session nobody holds. */
	if (!s->setup_failed)
		send_exit(s);
	if (!s->conn)
		return;
	if (s->setup_failed)
		conn_error_id(s->conn, s->req,
			      SBX__ERROR_CODE__ERROR_CODE_SANDBOX,
			      "sandbox setup failed at %s: %s",
			      sandbox_step_name(s->setup.step),
			      session_setup_problem(s));
	conn_flush(s->conn);
	/* The write woke the client on this CPU (a socket write is a "sync"
	 * wake-up: the kernel expects the writer to sleep), where it would
	 * wait for what the daemon does next (the session's teardown, a
	 * warm sandbox asked for): yielding, the client reads its end and
	 * exits first. */
	sched_yield();
}
