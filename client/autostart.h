/* Starting sbxd for the user when nothing answers on the socket. */
#ifndef SBX_AUTOSTART_H
#define SBX_AUTOSTART_H

#include <stddef.h>

/* Starts a detached sbxd on socket and returns once it is listening (0),
 * or when it failed (-errno, and err says why, with what sbxd printed). */
int autostart_daemon(const char *socket, char *err, size_t errlen);

#endif
