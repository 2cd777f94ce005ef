/*
 * Watching the policy files. Directories are watched, not files: editors
 * replace files by rename, and a file that does not exist yet (a first
 * ~/.config/sbx/policy.json) must be noticed when it appears. A change
 * re-reads the layers (policy_store_refresh), so `sbxctl status` shows a
 * bad edit with its position at once while the last good version stays in
 * force. A workspace's ignore files are not watched here: its template
 * watches them and the tree they cover (linux/watch.c), and a policy
 * change that alters the filesystem plan gives the next run a new template
 * (the plan's key) anyway.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <event2/event.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/inotify.h>
#include <unistd.h>

#include "daemon/daemon.h"
#include "daemon/log.h"
#include "daemon/policy/org.h"
#include "daemon/policy/store.h"
#include "daemon/policy/watch.h"
#include "daemon/usercred.h"

#define WATCH_MASK (IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | \
		    IN_CREATE | IN_DELETE | IN_ATTRIB | IN_ONLYDIR)
#define WATCH_MAX (8 + 2 * POLICY_WATCH_WORKSPACES)

enum role {
	ROLE_USER_DIR,     /* directory of --policy FILE */
	ROLE_HOME,         /* ~: .srt-settings.json, .config */
	ROLE_CONFIG,       /* ~/.config: sbx */
	ROLE_CONFIG_SBX,   /* ~/.config/sbx: policy.json */
	ROLE_ORG,          /* org dir: *.json */
	ROLE_STORE,        /* pushed policies */
	ROLE_WS,           /* workspace: .sbx */
	ROLE_WS_SBX,       /* workspace/.sbx: anything */
};

struct watch {
	char *path;        /* NULL: free slot */
	enum role role;
	int wd;            /* -1 while the directory does not exist */
	int ws;            /* index in workspaces (ROLE_WS*), else -1 */
};

struct workspace {
	char *path;
	uint64_t used;
};

static int ifd = -1;
static struct event *ev;
static struct watch watches[WATCH_MAX];
static struct workspace workspaces[POLICY_WATCH_WORKSPACES];
static uint64_t clock_;
static char user_name[NAME_MAX + 1]; /* basename of --policy FILE */

static void
add(const char *path, enum role role, int ws)
{
	size_t i;

	for (i = 0; i < WATCH_MAX; i++)
		if (!watches[i].path) {
			if (!(watches[i].path = strdup(path)))
				return;
			watches[i].role = role;
			watches[i].wd = -1;
			watches[i].ws = ws;
			return;
		}
}

/* Is wd watched for an entry other than skip? */
static bool
wd_shared(int wd, size_t skip)
{
	size_t j;

	for (j = 0; j < WATCH_MAX; j++)
		if (j != skip && watches[j].path && watches[j].wd == wd)
			return true;
	return false;
}

static void
unwatch(size_t i)
{
	if (watches[i].wd >= 0 && !wd_shared(watches[i].wd, i))
		inotify_rm_watch(ifd, watches[i].wd);
	watches[i].wd = -1;
}

/*
 * Watches each path as it is now: what does not exist is retried at the
 * next change, and a path that names another directory than before (it
 * was moved away and made again) gets the new one.
 */
static void
arm(void)
{
	size_t i;
	int wd;

	for (i = 0; i < WATCH_MAX; i++) {
		/* The user's directories as the user: no watch (and no
		 * event) where the user's link points out of the user's
		 * reach. The org's and the store's are the daemon's. */
		bool user = watches[i].role != ROLE_ORG &&
			    watches[i].role != ROLE_STORE;

		if (!watches[i].path)
			continue;
		if (user)
			usercred_enter();
		wd = inotify_add_watch(ifd, watches[i].path, WATCH_MASK);
		if (user)
			usercred_leave();
		if (wd != watches[i].wd)
			unwatch(i);
		watches[i].wd = wd < 0 ? -1 : wd;
	}
}

static bool
ends_with(const char *s, const char *suffix)
{
	size_t a = strlen(s), b = strlen(suffix);

	return a >= b && !strcmp(s + a - b, suffix);
}

/* Does a change to name in a directory of this role matter? */
static bool
relevant(enum role role, const char *name)
{
	switch (role) {
	case ROLE_USER_DIR:
		return !strcmp(name, user_name);
	case ROLE_HOME:
		return !strcmp(name, ".srt-settings.json") ||
		       !strcmp(name, ".config");
	case ROLE_CONFIG:
		return !strcmp(name, "sbx");
	case ROLE_CONFIG_SBX:
		return !strcmp(name, "policy.json");
	case ROLE_ORG:
		return ends_with(name, ".json");
	case ROLE_WS:
		return !strcmp(name, ".sbx");
	case ROLE_STORE:
	case ROLE_WS_SBX:
		return true;
	}
	return false;
}

struct changes {
	bool any, store;
	char what[PATH_MAX];	/* the first policy file that changed */
};

static void
note(struct changes *ch, const struct watch *w, const char *name)
{
	ch->any = true;
	if (w->role == ROLE_STORE)
		ch->store = true;
	else if (!ch->what[0])
		snprintf(ch->what, sizeof(ch->what), "%s%s%s", w->path,
			 name ? "/" : "", name ? name : "");
}

static void
handle(const struct inotify_event *e, struct changes *ch)
{
	size_t i;

	if (e->mask & IN_Q_OVERFLOW) {
		/* Events were lost: assume everything changed. */
		for (i = 0; i < WATCH_MAX; i++)
			if (watches[i].path)
				note(ch, &watches[i], NULL);
		return;
	}
	for (i = 0; i < WATCH_MAX; i++) {
		if (!watches[i].path || watches[i].wd != e->wd)
			continue;
		if (e->mask & IN_IGNORED) {
			/* The directory went: watch it again if it returns. */
			watches[i].wd = -1;
			note(ch, &watches[i], NULL);
		} else if (e->len && relevant(watches[i].role, e->name))
			note(ch, &watches[i], e->name);
	}
}

static void
apply(const struct changes *ch)
{
	const char *ws[POLICY_WATCH_WORKSPACES];
	size_t i, n = 0;

	for (i = 0; i < POLICY_WATCH_WORKSPACES; i++)
		if (workspaces[i].path)
			ws[n++] = workspaces[i].path;
	if (ch->store)
		policy_org_rescan();
	arm();
	policy_store_refresh(ws, n);
	/* (The org store says so itself, when a new serial is in force.) */
	if (ch->what[0])
		policy_store_changed(ch->what);
}

void
policy_watch_sync(void)
{
	char buf[8192] __attribute__((aligned(__alignof__(struct inotify_event))));
	struct changes ch = { 0 };
	const struct inotify_event *e;
	ssize_t n;
	char *p;

	if (ifd < 0)
		return;
	while ((n = read(ifd, buf, sizeof(buf))) > 0)
		for (p = buf; p < buf + n; p += sizeof(*e) + e->len) {
			e = (const struct inotify_event *)p;
			handle(e, &ch);
		}
	if (ch.any)
		apply(&ch);
}

static void
watch_cb(evutil_socket_t fd, short what, void *arg)
{
	policy_watch_sync();
}

static void
forget_workspace(int k)
{
	size_t i;

	for (i = 0; i < WATCH_MAX; i++) {
		if (!watches[i].path || watches[i].ws != k)
			continue;
		/* A directory watched in two roles shares one wd. */
		unwatch(i);
		free(watches[i].path);
		memset(&watches[i], 0, sizeof(watches[i]));
	}
	free(workspaces[k].path);
	memset(&workspaces[k], 0, sizeof(workspaces[k]));
}

void
policy_watch_workspace(const char *ws)
{
	char sub[PATH_MAX + 8];
	int i, k = -1;

	policy_watch_sync();
	if (ifd < 0)
		return;
	for (i = 0; i < POLICY_WATCH_WORKSPACES; i++) {
		if (workspaces[i].path && !strcmp(workspaces[i].path, ws)) {
			workspaces[i].used = ++clock_;
			return;
		}
		if (k < 0 || !workspaces[i].path ||
		    (workspaces[k].path &&
		     workspaces[i].used < workspaces[k].used))
			k = i;
	}
	if (workspaces[k].path)
		forget_workspace(k);
	if (!(workspaces[k].path = strdup(ws)))
		return;
	workspaces[k].used = ++clock_;
	/* Watched before anything is read, so no edit falls in between. */
	snprintf(sub, sizeof(sub), "%s/.sbx", ws);
	add(ws, ROLE_WS, k);
	add(sub, ROLE_WS_SBX, k);
	arm();
}

static void
add_user_dirs(const struct policy_store_opts *o)
{
	char path[PATH_MAX], *slash;
	const char *base;
	size_t n;

	if (o->user_file) {
		snprintf(path, sizeof(path), "%s", o->user_file);
		slash = strrchr(path, '/');
		base = slash ? slash + 1 : path;
		n = strnlen(base, sizeof(user_name) - 1);
		memcpy(user_name, base, n);
		user_name[n] = '\0';
		if (slash)
			*slash = '\0';
		add(slash ? (path[0] ? path : "/") : ".", ROLE_USER_DIR, -1);
		return;
	}
	add(o->lookup_home, ROLE_HOME, -1);
	snprintf(path, sizeof(path), "%s/.config", o->lookup_home);
	add(path, ROLE_CONFIG, -1);
	snprintf(path, sizeof(path), "%s/.config/sbx", o->lookup_home);
	add(path, ROLE_CONFIG_SBX, -1);
}

int
policy_watch_start(void)
{
	const struct policy_store_opts *o = policy_store_opts();

	ifd = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
	if (ifd < 0)
		return -errno;
	ev = event_new(sbxd.base, ifd, EV_READ | EV_PERSIST, watch_cb, NULL);
	if (!ev || event_add(ev, NULL) < 0) {
		policy_watch_stop();
		return -ENOMEM;
	}
	add_user_dirs(o);
	add(o->org_dir, ROLE_ORG, -1);
	if (policy_org_dir()[0])
		add(policy_org_dir(), ROLE_STORE, -1);
	arm();
	/* The user layer's problems show before the first run. */
	policy_store_refresh(NULL, 0);
	return 0;
}

void
policy_watch_stop(void)
{
	size_t i;

	for (i = 0; i < POLICY_WATCH_WORKSPACES; i++)
		if (workspaces[i].path)
			forget_workspace((int)i);
	for (i = 0; i < WATCH_MAX; i++) {
		free(watches[i].path);
		watches[i].path = NULL;
	}
	if (ev)
		event_free(ev);
	ev = NULL;
	if (ifd >= 0)
		close(ifd);
	ifd = -1;
}
