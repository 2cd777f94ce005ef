/* Where a user's sbxd lives: the runtime directory and the socket in it. */
#ifndef SBX_RUNDIR_H
#define SBX_RUNDIR_H

#include <stddef.h>
#include <sys/types.h>

#define RUNDIR_SOCKET_NAME "sbxd.sock"

/* The sbx runtime directory for uid: $XDG_RUNTIME_DIR/sbx when we are uid and
 * it is set, else /run/user/UID/sbx when that exists and is uid's, else
 * /tmp/sbx-UID. Client and daemon compute it the same way. */
int rundir_dir(uid_t uid, char *buf, size_t len);

/* rundir_dir()/sbxd.sock. */
int rundir_socket(uid_t uid, char *buf, size_t len);

#endif
