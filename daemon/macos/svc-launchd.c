/* launchd glue: the socket launchd listens on for us, and logging where launchd jobs log. */
/*
 * Compiled on macOS only (the Makefile's choice). What only a Mac can
 * check, none of it exercised by the Linux tests:
 *  - launch_activate_socket("Listeners") returns the one listening socket
 *    of launchd/com.sbx.sbxd.plist when launchd started sbxd for a
 *    connection, and ESRCH (no fd) when sbxd was started by hand;
 *  - SecureSocketWithKey puts the socket's path in SBX_SOCKET for the
 *    user's GUI session, so sbxctl in Terminal and IDEs finds it;
 *  - syslog(3) from a launchd job lands in the unified log (log show
 *    --predicate 'process == "sbxd"') with its priority.
 */
#include <fcntl.h>
#include <launch.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <unistd.h>

#include "daemon/svc.h"

int
svc_listen_fd(void)
{
	int *fds = NULL, fd;
	size_t n = 0, i;

	if (launch_activate_socket("Listeners", &fds, &n) != 0 || n == 0) {
		free(fds);
		return -1;
	}
	/* The plist declares one socket; anything more is not ours. */
	for (i = 1; i < n; i++)
		close(fds[i]);
	fd = fds[0];
	free(fds);
	fcntl(fd, F_SETFD, FD_CLOEXEC);
	return fd;
}

/* launchd has no readiness or watchdog protocol: a job is up once it
 * has taken its sockets. */
void
svc_notify(const char *state)
{
	(void)state;
}

uint64_t
svc_watchdog_usec(void)
{
	return 0;
}

/* A launchd job's stderr goes nowhere unless the plist says so: log to
 * the system log instead. launchd names its jobs in XPC_SERVICE_NAME. */
bool
svc_journal(void)
{
	const char *job = getenv("XPC_SERVICE_NAME");

	return job != NULL && strcmp(job, "com.sbx.sbxd") == 0;
}

void
svc_log(int priority, const char *msg)
{
	static bool opened;

	if (!opened) {
		openlog("sbxd", LOG_PID, LOG_USER);
		opened = true;
	}
	syslog(priority, "%s", msg);
}
