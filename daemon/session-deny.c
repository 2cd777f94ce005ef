/* A session's refusals: the supervisor's reports or the command's seccomp
 * listener, read as they come (and all of them at the end), and Landlock's
 * refusals, each made a violation described by the rules that made it. */
#define _GNU_SOURCE
#include <errno.h>
#include <event2/event.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "daemon/daemon.h"
#include "daemon/policy/fsdenial.h"
#include "daemon/policy/store.h"
#include "daemon/sandbox.h"
#include "daemon/session-int.h"
#include "daemon/policy/syscall-deny.h"
#include "daemon/violation.h"

/* A filesystem refusal the kernel made (Landlock), described by the rules
 * that left target out of reach. */
void
session_fs_denied(struct session *s, int kind, const char *access,
		  const char *target)
{
	struct fsdenial f;
	struct violation v;

	fsdenial_describe(s->policy, policy_store_home(),
			  sandbox_caps()->home_overlay ? policy_store_home() :
			  NULL, s->workspace, kind, access, target, &f, &v);
	session_violation(s, &v);
}

/* A syscall the sandbox refused (the filter's user notification), or a
 * change to a protected path the supervisor refused: it has been
 * answered EPERM; here it becomes a violation. */
static void
session_syscall_denied(struct session *s, const struct sandbox_denial *d)
{
	char target[128], access[32];
	struct violation v;
	struct fsdenial f;
	bool write;

	if (d->access[0]) {
		/* Landlock's refusal, as its audit record would tell it. */
		session_fs_denied(s, VIOLATION_FS_CREATE, d->access, d->path);
		return;
	}
	if (!d->operation) {
		syscall_deny_describe(d->syscall, d->args,
				      d->addr[0] ? d->addr : NULL, &v, target,
				      sizeof(target));
		session_violation(s, &v);
		return;
	}
	write = !strcmp(d->operation, "write") ||
		!strcmp(d->operation, "remove");
	snprintf(access, sizeof(access), "fs.%s", d->operation);
	fsdenial_describe(s->policy, policy_store_home(),
			  sandbox_caps()->home_overlay ? policy_store_home() :
			  NULL, s->workspace,
			  write ? VIOLATION_FS_WRITE : VIOLATION_FS_CREATE,
			  access, d->path, &f, &v);
	if (d->detail[0])
		v.detail = d->detail;
	session_violation(s, &v);
}

/* Reads refusals (the supervisor's reports, or the command's seccomp
 * listener): one per wake-up, or all that are queued (drain). */
void
session_read_denials(struct session *s, bool drain)
{
	struct sandbox_denial d;
	int r;

	/* Never blocks: the backend looks before it receives (a seccomp
	 * listener's receive would block when none is pending, whatever
	 * O_NONBLOCK says). 1: a connect() made for the command. */
	do {
		r = sandbox_denial_read(&s->proc, s->deny_fd, &d);
		if (r == 0)
			session_syscall_denied(s, &d);
		else if (r != 1 && r != -EAGAIN && r != -EINTR &&
			 r != -ENOENT)
			event_del(s->deny_ev); /* the filtered or the
						  supervisor are gone */
	} while (drain && (r == 0 || r == 1));
}

static void
deny_cb(evutil_socket_t fd, short what, void *arg)
{
	session_read_denials(arg, false);
}

void
session_denials(struct session *s, int *fds, int nfds)
{
	int fd = sandbox_proc_denials(&s->proc, fds, nfds);

	if (fd < 0)
		return;
	if (s->deny_fd >= 0) {
		close(fd);
		return;
	}
	s->deny_fd = fd;
	fcntl(s->deny_fd, F_SETFL, O_NONBLOCK);
	s->deny_ev = event_new(sbxd.base, s->deny_fd, EV_READ | EV_PERSIST,
			       deny_cb, s);
	if (s->deny_ev)
		event_add(s->deny_ev, NULL);
}
