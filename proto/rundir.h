/* Where a user's sbxd lives: the runtime directory and the socket in it. */
#ifndef SBX_RUNDIR_H
#define SBX_RUNDIR_H

#include <stddef.h>
#include <sys/types.h>

#define RUNDIR_SOCKET_NAME "sbxd.sock"
/* A root daemon's runtime dirs: RUNDIR_PRIV_ROOT/UID, root's, 0711. */
#define RUNDIR_PRIV_ROOT "/run/sbx"

/* The sbx runtime directory for uid: $XDG_RUNTIME_DIR/sbx when we are uid and
 * it is set, else /run/user/UID/sbx when that exists and is uid's, else
 * /tmp/sbx-UID. Client and daemon compute it the same way. -EPERM (buf
 * still names it) when it is /tmp/sbx-UID and that is not uid's directory:
 * see rundir_refusal(). */
int rundir_dir(uid_t uid, char *buf, size_t len);

/* Why dir (refused by rundir_dir) is not used, and the fix: two lines. */
void rundir_refusal(const char *dir, char *msg, size_t len);

/* The runtime directory of a root daemon serving uid. */
int rundir_priv_dir(uid_t uid, char *buf, size_t len);

/* The socket of a root daemon serving uid when there is one (its
 * directories root's and writable by nobody else), else rundir_dir()/
 * sbxd.sock. -EPERM as rundir_dir(), with the refused directory in buf. */
int rundir_socket(uid_t uid, char *buf, size_t len);

#endif
