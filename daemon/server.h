/* The listening socket: creation, locking, accepting and peer checks. */
#ifndef SBX_SERVER_H
#define SBX_SERVER_H

#include <stdbool.h>

/* Binds sbxd.socket_path (or adopts inherited_fd >= 0) and starts
 * accepting. On failure *err says why. */
int server_start(int inherited_fd, char *err, size_t errlen);
/* Stops accepting; unlinks the socket if this process created it. */
void server_stop(void);

#endif
