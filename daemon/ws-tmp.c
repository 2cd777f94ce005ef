/* The workspaces' tmpfs: a list (as many entries as workspaces used in
 * the idle time), each a detached mount the sandboxes clone. */
#define _GNU_SOURCE
#include <errno.h>
#include <event2/event.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/sysinfo.h>
#include <unistd.h>

#include "daemon/daemon.h"
#include "daemon/log.h"
#include "daemon/sandbox.h"
#include "daemon/ws-tmp.h"

struct ws_tmp {
	char *ws;
	int mnt;                   /* the tmpfs's root, detached */
	int dir[2];                /* its tmp/ and var-tmp/ (O_PATH): what
				      sandboxes clone; mount roots there,
				      which no sandbox can rename */
	unsigned users;            /* sessions holding it */
	struct event *idle;        /* armed while users == 0 */
	struct ws_tmp *next;
};

static struct ws_tmp *list;
static unsigned idle_ms = WS_TMP_IDLE_MS;

void
ws_tmp_set_idle(unsigned ms)
{
	idle_ms = ms;
}

unsigned
ws_tmp_idle_ms(void)
{
	return idle_ms;
}

uint64_t
ws_tmp_default_size(void)
{
	struct sysinfo si;
	uint64_t ram, v = 1ULL << 30;

	if (sysinfo(&si) == 0) {
		ram = (uint64_t)si.totalram * si.mem_unit;
		if (ram / 16 < v)
			v = ram / 16;
	}
	return v < (16ULL << 20) ? 16ULL << 20 : v;
}

static struct ws_tmp *
find(const char *ws)
{
	struct ws_tmp *t;

	for (t = list; t; t = t->next)
		if (!strcmp(t->ws, ws))
			return t;
	return NULL;
}

static void
entry_free(struct ws_tmp *t)
{
	struct ws_tmp **pp;

	for (pp = &list; *pp; pp = &(*pp)->next)
		if (*pp == t) {
			*pp = t->next;
			break;
		}
	if (t->idle)
		event_free(t->idle);
	if (t->mnt >= 0)
		close(t->mnt);
	if (t->dir[0] >= 0)
		close(t->dir[0]);
	if (t->dir[1] >= 0)
		close(t->dir[1]);
	free(t->ws);
	free(t);
}

/* Templates of the workspace hold the tmpfs mounted in their trees: they
 * go first, or the next run would join one with the old /tmp while a -t
 * session got the new one. Busy: tried again after the idle time. */
static int
drop(struct ws_tmp *t)
{
	int r = sandbox_retire_workspace(t->ws);

	if (r < 0)
		return r;
	log_info("workspace %s idle: its /tmp is dropped", t->ws);
	entry_free(t);
	return 1;
}

static void
idle_cb(evutil_socket_t fd, short what, void *arg)
{
	struct ws_tmp *t = arg;

	if (t->users == 0 && drop(t) == -EBUSY)
		event_add(t->idle, &(struct timeval){ idle_ms / 1000,
						      idle_ms % 1000 * 1000 });
}

/* name in the tmpfs's root, a directory of the served user's. The root is
 * the daemon's (0700): only the two directories are ever mounted. */
static int
subdir(int mnt, const char *name)
{
	struct stat st;
	int fd;

	if (mkdirat(mnt, name, 0700) < 0 && errno != EEXIST)
		return -errno;
	fd = openat(mnt, name, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0 ||
	    (st.st_uid != sbxd.uid &&
	     fchownat(fd, "", sbxd.uid, sbxd.gid, AT_EMPTY_PATH) < 0)) {
		int e = -errno;

		close(fd);
		return e;
	}
	return fd;
}

static struct ws_tmp *
entry_new(const char *ws, uint64_t size, int *err)
{
	struct ws_tmp *t = calloc(1, sizeof(*t));

	if (!t) {
		*err = -ENOMEM;
		return NULL;
	}
	t->mnt = t->dir[0] = t->dir[1] = -1;
	if (!(t->ws = strdup(ws)) ||
	    !(t->idle = event_new(sbxd.base, -1, 0, idle_cb, t)))
		*err = -ENOMEM;
	else if ((*err = sandbox_tmpfs_new(size, &t->mnt)) == 0 &&
		 (*err = t->dir[0] = subdir(t->mnt, "tmp")) >= 0 &&
		 (*err = t->dir[1] = subdir(t->mnt, "var-tmp")) >= 0)
		*err = 0;
	if (*err < 0) {
		entry_free(t);
		return NULL;
	}
	t->next = list;
	list = t;
	return t;
}

/* The fds a spawn takes are copies: the plan closes its own. */
int
ws_tmp_acquire(const char *ws, uint64_t size, int *tmp_fd, int *vartmp_fd)
{
	struct ws_tmp *t = find(ws);
	int r, a, b;

	if (!t && !(t = entry_new(ws, size, &r)))
		return r;
	if ((a = fcntl(t->dir[0], F_DUPFD_CLOEXEC, 3)) < 0 ||
	    (b = fcntl(t->dir[1], F_DUPFD_CLOEXEC, 3)) < 0) {
		r = -errno;
		if (a >= 0)
			close(a);
		if (t->users == 0 && !event_pending(t->idle, EV_TIMEOUT, NULL))
			entry_free(t);
		return r;
	}
	t->users++;
	event_del(t->idle);
	*tmp_fd = a;
	*vartmp_fd = b;
	return 0;
}

void
ws_tmp_release(const char *ws)
{
	struct ws_tmp *t = find(ws);

	if (!t || t->users == 0 || --t->users > 0)
		return;
	event_add(t->idle, &(struct timeval){ idle_ms / 1000,
					      idle_ms % 1000 * 1000 });
}

int
ws_tmp_drop(const char *ws)
{
	struct ws_tmp *t = find(ws);

	if (!t)
		return 0;
	if (t->users > 0)
		return -EBUSY;
	return drop(t);
}

bool
ws_tmp_usage(const char *ws, uint64_t *used, uint64_t *limit)
{
	struct ws_tmp *t = find(ws);
	struct statfs sf;

	if (!t || fstatfs(t->mnt, &sf) < 0)
		return false;
	*limit = (uint64_t)sf.f_blocks * (uint64_t)sf.f_bsize;
	*used = (uint64_t)(sf.f_blocks - sf.f_bfree) * (uint64_t)sf.f_bsize;
	return true;
}

const char *
ws_tmp_nth(unsigned i)
{
	struct ws_tmp *t;

	for (t = list; t && i > 0; t = t->next)
		i--;
	return t ? t->ws : NULL;
}
