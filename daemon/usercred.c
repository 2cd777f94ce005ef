/* Switching the daemon's file-system credentials to the served user's
 * (fsuid, fsgid and supplementary groups) and back, and making kernel
 * objects charged to the user (a child running as the user). */
#define _GNU_SOURCE
#include <errno.h>
#include <grp.h>
#include <pwd.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <sys/fsuid.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "daemon/usercred.h"
#include "proto/fdpass.h"

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

int
usercred_become(void)
{
	if (!uc.privileged)
		return 0;
	if (set_groups(uc.ngroups, uc.groups) < 0 ||
	    setresgid(uc.gid, uc.gid, uc.gid) < 0 ||
	    setresuid(uc.uid, uc.uid, uc.uid) < 0)
		return -EPERM;
	return 0;
}

/* The child's half: as the user for real (uid, gid and groups; the
 * kernel charges what a task makes to its euid), make the object, send
 * it, or its errno, and exit. */
static void __attribute__((noreturn))
make_as_user(int sock, int (*make)(void))
{
	int fd = -EPERM, e;

	if (usercred_become() == 0)
		fd = make();
	e = fd < 0 ? -fd : 0;
	_exit(fdpass_send(sock, &e, sizeof(e), &fd, fd < 0 ? 0 : 1) ==
	      (ssize_t)sizeof(e) ? 0 : 1);
}

int
usercred_make_fd(int (*make)(void))
{
	int sv[2], fd = -1, nfds = 0, e = EPERM;
	ssize_t n;
	pid_t pid;

	if (!uc.privileged)
		return make();
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) < 0)
		return -errno;
	if ((pid = fork()) == 0) {
		close(sv[0]);
		make_as_user(sv[1], make);
	}
	close(sv[1]);
	if (pid < 0) {
		e = errno;
		close(sv[0]);
		return -e;
	}
	n = fdpass_recv(sv[0], &e, sizeof(e), &fd, &nfds, 1);
	close(sv[0]);
	while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
		;
	if (n == (ssize_t)sizeof(e) && nfds == 1 && e == 0)
		return fd;
	if (nfds == 1)
		close(fd);
	return n == (ssize_t)sizeof(e) && e > 0 ? -e : -EPROTO;
}
