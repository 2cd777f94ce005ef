/* Violation reports on macOS: one `log stream` per daemon, its lines parsed and reported per session as violations (the sandbox_audit_* side of sandbox.h). */
/*
 * Compiled on macOS only. What only a Mac can check:
 *  - `log stream --style ndjson --predicate 'processID == 0 AND
 *    eventMessage CONTAINS "sbx-NONCE-"'` prints one JSON object per line
 *    for each kernel sandbox report whose profile carried the tag in
 *    (with message ...), with the tag as the message's last line
 *    (tests/golden/seatbelt-log holds lines written to that format);
 *  - a user (not root) may run `log stream` and sees reports of its own
 *    processes;
 *  - reports are rate-limited by the kernel ("N duplicate reports"), so
 *    counts are lower bounds.
 */
#include <errno.h>
#include <event2/event.h>
#include <fcntl.h>
#include <inttypes.h>
#include <signal.h>
#include <spawn.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "daemon/daemon.h"
#include "daemon/log.h"
#include "daemon/macos/macos.h"
#include "daemon/sandbox.h"
#include "daemon/seatbelt/log.h"
#include "daemon/violation.h"

#define BUF_MAX		65536	/* longer lines are dropped whole */
#define WATCH_MAX	1024

extern char **environ;

static struct {
	char		 prefix[SEATBELT_TAG_MAX];
	pid_t		 pid;
	struct event	*ev;
	char		 buf[BUF_MAX];
	size_t		 len;
	bool		 skipping;	/* inside a line longer than buf */
	struct {
		uint64_t	 session;
		char		 hash[65];
	}		 watch[WATCH_MAX];
	size_t		 nwatch;
	sandbox_audit_fn fn;		/* where denials go, once set */
	void		*arg;
} lm;

void
macos_logmon_watch(uint64_t session, const char *hash)
{
	if (lm.nwatch == WATCH_MAX)
		return;
	lm.watch[lm.nwatch].session = session;
	snprintf(lm.watch[lm.nwatch].hash, 65, "%s", hash);
	lm.nwatch++;
}

void
macos_logmon_forget(uint64_t session)
{
	size_t i;

	for (i = 0; i < lm.nwatch; i++)
		if (lm.watch[i].session == session) {
			lm.watch[i] = lm.watch[--lm.nwatch];
			return;
		}
}

static int
violation_kind(enum seatbelt_kind k)
{
	switch (k) {
	case SEATBELT_FS_READ:
		return VIOLATION_FS_READ;
	case SEATBELT_FS_WRITE:
		return VIOLATION_FS_WRITE;
	case SEATBELT_NETWORK:
		return VIOLATION_NETWORK;
	case SEATBELT_IPC:
		return VIOLATION_IPC;
	default:
		return VIOLATION_SYSCALL;
	}
}

/*
 * A denial becomes the session's violation (the report's count is a lower
 * bound: one event stands for a line of duplicates); "allow with report"
 * lines, and everything before sandbox_audit_start(), only reach the log.
 */
static void
report(const struct seatbelt_violation *v)
{
	struct sandbox_audit_denial d = { 0 };
	const char *hash = "-";
	uint64_t session;
	size_t i;

	if (seatbelt_log_tag_session(v->tag, lm.prefix, &session) < 0)
		return;
	if (v->denied && lm.fn != NULL) {
		d.session = session;
		d.kind = violation_kind(v->kind);
		d.access = v->op;
		d.target = v->target;
		lm.fn(&d, lm.arg);
		return;
	}
	for (i = 0; i < lm.nwatch; i++)
		if (lm.watch[i].session == session)
			hash = lm.watch[i].hash;
	log_warn("violation session=%" PRIu64 " kind=%s op=%s target=%s "
	    "process=%s pid=%d count=%u denied=%d profile=%s", session,
	    seatbelt_log_kind_name(v->kind), v->op, v->target, v->process,
	    v->pid, v->count, v->denied, hash);
}

static void
stopped(void)
{
	log_error("log stream stopped: sandbox violations on macOS are no "
	    "longer reported");
	event_free(lm.ev);
	lm.ev = NULL;
	waitpid(lm.pid, NULL, WNOHANG);
}

/* Complete lines of buf go to the parser; a partial one stays. */
static void
read_cb(evutil_socket_t fd, short what, void *arg)
{
	struct seatbelt_violation v;
	ssize_t n = read(fd, lm.buf + lm.len, sizeof(lm.buf) - lm.len);
	char *p, *nl;

	if (n <= 0) {
		if (n == 0 || (errno != EAGAIN && errno != EINTR)) {
			close(fd);
			stopped();
		}
		return;
	}
	lm.len += (size_t)n;
	for (p = lm.buf; (nl = memchr(p, '\n', lm.len -
	    (size_t)(p - lm.buf))) != NULL; p = nl + 1) {
		if (!lm.skipping && seatbelt_log_parse(p, (size_t)(nl - p),
		    &v) == 1)
			report(&v);
		lm.skipping = false;
	}
	lm.len -= (size_t)(p - lm.buf);
	memmove(lm.buf, p, lm.len);
	if (lm.len == sizeof(lm.buf)) {
		lm.skipping = true;
		lm.len = 0;
	}
}

int
sandbox_audit_start(struct event_base *base, sandbox_audit_fn fn, void *arg)
{
	if (lm.ev == NULL)
		return -ENOTSUP; /* sandbox_init said why */
	lm.fn = fn;
	lm.arg = arg;
	return 0;
}

/* log(1) has no way to say "everything before this": nothing to wait for. */
int
sandbox_audit_barrier(void (*done)(void *arg), void *arg)
{
	return -ENOTSUP;
}

void
sandbox_audit_cancel(void *arg)
{
}

bool
sandbox_audit_watched(const struct sandbox_proc *p)
{
	return lm.ev != NULL && lm.fn != NULL;
}

void
sandbox_audit_stop(void)
{
	lm.fn = NULL;
	lm.arg = NULL;
}

int
macos_logmon_start(const char *prefix)
{
	char pred[256];
	char *argv[] = { (char *)"/usr/bin/log", (char *)"stream",
	    (char *)"--style", (char *)"ndjson", (char *)"--predicate", pred,
	    NULL };
	posix_spawn_file_actions_t fa;
	posix_spawnattr_t attr;
	int p[2], r;

	snprintf(lm.prefix, sizeof(lm.prefix), "%s", prefix);
	if ((r = seatbelt_log_predicate(prefix, pred, sizeof(pred))) < 0)
		return r;
	if (pipe(p) < 0)
		return -errno;
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_adddup2(&fa, p[1], 1);
	posix_spawnattr_init(&attr);
	/* Nothing of the daemon but this pipe reaches log(1). */
	posix_spawnattr_setflags(&attr, POSIX_SPAWN_CLOEXEC_DEFAULT);
	r = posix_spawn(&lm.pid, argv[0], &fa, &attr, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	posix_spawnattr_destroy(&attr);
	close(p[1]);
	if (r != 0) {
		close(p[0]);
		return -r;
	}
	fcntl(p[0], F_SETFD, FD_CLOEXEC);
	fcntl(p[0], F_SETFL, O_NONBLOCK);
	lm.ev = event_new(sbxd.base, p[0], EV_READ | EV_PERSIST, read_cb,
	    NULL);
	if (lm.ev == NULL || event_add(lm.ev, NULL) < 0) {
		kill(lm.pid, SIGTERM);
		close(p[0]);
		return -ENOMEM;
	}
	return 0;
}
