/* Removing what the daemon keeps for workspaces that are gone: at
 * start-up (a daemon restart after the workspace was deleted) and once a
 * day (a long-running daemon). Without this a deleted workspace's home
 * layer would stay in the state dir for ever. */
#define _GNU_SOURCE
#include <errno.h>
#include <event2/event.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "daemon/daemon.h"
#include "daemon/home-overlay.h"
#include "daemon/log.h"
#include "daemon/session.h"
#include "daemon/usercred.h"
#include "daemon/workspace.h"
#include "daemon/ws-clean.h"
#include "daemon/ws-tmp.h"

#define DAY_S (24 * 60 * 60)

int
ws_record_write(int dfd, const char *name, const char *ws)
{
	size_t len = strlen(ws);
	int fd = openat(dfd, name, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
			O_CLOEXEC, 0600), e = 0;

	if (fd < 0)
		return errno == EEXIST ? 0 : -errno;
	if (write(fd, ws, len) != (ssize_t)len)
		e = -EIO;
	close(fd);
	if (e < 0)
		unlinkat(dfd, name, 0);
	return e;
}

int
ws_record_read(int dfd, const char *name, char *buf, size_t len)
{
	struct stat st;
	ssize_t n;
	int fd = openat(dfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK |
			O_CLOEXEC);

	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
		close(fd);
		return -EINVAL;
	}
	n = read(fd, buf, len - 1);
	close(fd);
	if (n <= 0 || buf[0] != '/' || memchr(buf, '\0', (size_t)n))
		return -EINVAL;
	buf[n] = '\0';
	return 0;
}

bool
ws_clean_gone(const char *ws)
{
	const struct session *s;
	uint64_t used, limit;
	struct stat st;
	int e = 0;

	usercred_enter();
	if (stat(ws, &st) < 0)
		e = errno;
	usercred_leave();
	if (e != ENOENT && e != ENOTDIR)
		return false;
	if (ws_tmp_usage(ws, &used, &limit))
		return false;
	for (s = session_first(); s; s = session_next(s)) {
		if (!strcmp(session_workspace(s), ws))
			return false;
	}
	return true;
}

static void
clean(void)
{
	int h = home_overlay_clean(), t = workspace_tmpdir_clean();

	if (h > 0 || t > 0)
		log_info("removed what was kept for workspaces that are gone: "
			 "%d home layer%s, %d temp dir%s", h > 0 ? h : 0,
			 h == 1 ? "" : "s", t > 0 ? t : 0, t == 1 ? "" : "s");
}

static void
daily_cb(evutil_socket_t fd, short what, void *arg)
{
	clean();
}

void
ws_clean_start(void)
{
	static struct event *daily;

	clean();
	if (!daily && (daily = event_new(sbxd.base, -1, EV_PERSIST, daily_cb,
					 NULL)))
		event_add(daily, &(struct timeval){ DAY_S, 0 });
}
