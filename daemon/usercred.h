/* File-system access with the served user's rights. In privileged mode the
 * daemon is root and every path a client names is the user's input: it is
 * looked up with the user's fsuid, fsgid and supplementary groups (none of
 * root's), so root's rights never reach a file the user could not. In user
 * mode the daemon is the user and these do nothing. */
#ifndef SBX_USERCRED_H
#define SBX_USERCRED_H

#include <stdbool.h>
#include <sys/stat.h>
#include <sys/types.h>

/* Loads the served user's groups (privileged mode); called once at start,
 * before any usercred_enter(). -errno when they cannot be read. */
int usercred_init(uid_t uid, gid_t gid, bool privileged);
/* Switch the file-system credentials to the user's, and back. Calls do not
 * nest; every enter is followed by one leave on the same path. */
void usercred_enter(void);
void usercred_leave(void);
/* Is st (an inode's) the served user's own? Such a file or directory the
 * user can always open, by a chmod of its own, whatever its mode says. */
bool usercred_owns(const struct stat *st);
/* In a child about to exec: become the user for real (uid, gid and
 * groups, none of root's), for good. 0 or -EPERM; nothing in user mode. */
int usercred_become(void);
/* An fd that make() returns (or -errno) made by a short-lived child
 * running as the user (uid, gid, groups): the kernel charges what it
 * makes (an inotify instance and its watches) to the user's limits, not
 * root's. In user mode, make() itself. */
int usercred_make_fd(int (*make)(void));

#endif
