/* libsystemd glue: socket activation, sd_notify, watchdog, journal. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <systemd/sd-daemon.h>
#include <systemd/sd-journal.h>

#include "daemon/svc.h"

int
svc_listen_fd(void)
{
	int n = sd_listen_fds(1);

	if (n != 1)
		return -1;
	if (sd_is_socket_unix(SD_LISTEN_FDS_START, SOCK_STREAM, 1, NULL, 0) <= 0)
		return -1;
	return SD_LISTEN_FDS_START;
}

void
svc_notify(const char *state)
{
	sd_notify(0, state);
}

uint64_t
svc_watchdog_usec(void)
{
	uint64_t usec = 0;

	return sd_watchdog_enabled(0, &usec) > 0 ? usec : 0;
}

/* JOURNAL_STREAM names the device:inode of the stream the journal gave us;
 * it only counts while stderr still is that stream. */
bool
svc_journal(void)
{
	const char *js = getenv("JOURNAL_STREAM");
	unsigned long long dev, ino;
	struct stat st;

	if (!js || sscanf(js, "%llu:%llu", &dev, &ino) != 2)
		return false;
	if (fstat(2, &st) < 0)
		return false;
	return st.st_dev == dev && st.st_ino == ino;
}

void
svc_log(int priority, const char *msg)
{
	static const char *const none[] = { NULL };

	svc_log_fields(priority, msg, none);
}

#define SVC_FIELDS_MAX 16

void
svc_log_fields(int priority, const char *msg, const char *const *fields)
{
	struct iovec iov[SVC_FIELDS_MAX + 3];
	char *m = NULL, prio[16];
	int n = 0;

	if (asprintf(&m, "MESSAGE=%s", msg) < 0)
		return;
	snprintf(prio, sizeof(prio), "PRIORITY=%d", priority);
	iov[n++] = (struct iovec){ m, strlen(m) };
	iov[n++] = (struct iovec){ prio, strlen(prio) };
	iov[n++] = (struct iovec){ (char *)"SYSLOG_IDENTIFIER=sbxd", 22 };
	for (; *fields && n < SVC_FIELDS_MAX + 3; fields++)
		iov[n++] = (struct iovec){ (char *)*fields, strlen(*fields) };
	sd_journal_sendv(iov, n);
	free(m);
}
