/* Switching the daemon's file-system credentials to the served user's
 * (fsuid, fsgid and supplementary groups) and back. */
#define _GNU_SOURCE
#include <errno.h>
#include <grp.h>
#include <pwd.h>
#include <stdlib.h>
#include <sys/fsuid.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "daemon/usercred.h"

#define USERCRED_MAX_GROUPS 256

static struct {
	bool privileged;
	uid_t uid;
	gid_t gid;
	int ngroups, nroot;
	gid_t groups[USERCRED_MAX_GROUPS];
	gid_t root_groups[USERCRED_MAX_GROUPS];
} uc;

/* The raw syscall: glibc's setgroups() changes every thread's groups by a
 * signal broadcast; the daemon has one thread, and this one must not fail
 * half way. */
static int
set_groups(int n, const gid_t *g)
{
	return syscall(SYS_setgroups, (size_t)n, g) < 0 ? -errno : 0;
}

int
usercred_init(uid_t uid, gid_t gid, bool privileged)
{
	struct passwd *pw;
	int n = USERCRED_MAX_GROUPS;

	uc.privileged = privileged;
	uc.uid = uid;
	uc.gid = gid;
	if (!privileged)
		return 0;
	if ((uc.nroot = getgroups(USERCRED_MAX_GROUPS, uc.root_groups)) < 0)
		return -errno;
	if (!(pw = getpwuid(uid))) {
		/* A uid without a passwd entry has its primary group only. */
		uc.groups[0] = gid;
		uc.ngroups = 1;
		return 0;
	}
	if (getgrouplist(pw->pw_name, gid, uc.groups, &n) < 0)
		n = USERCRED_MAX_GROUPS; /* truncated: fewer rights, never more */
	uc.ngroups = n;
	return 0;
}

void
usercred_enter(void)
{
	if (!uc.privileged)
		return;
	/* Groups first: until fsuid is the user's, root's rights hold anyway;
	 * if the groups cannot be set, none are better than root's. */
	if (set_groups(uc.ngroups, uc.groups) < 0)
		(void)set_groups(0, NULL);
	setfsgid(uc.gid);
	setfsuid(uc.uid);
}

bool
usercred_owns(const struct stat *st)
{
	return st->st_uid == uc.uid;
}

void
usercred_leave(void)
{
	if (!uc.privileged)
		return;
	setfsuid(0);
	setfsgid(0);
	(void)set_groups(uc.nroot, uc.root_groups);
}
