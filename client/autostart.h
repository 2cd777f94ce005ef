/* Starting sbxd for the user when nothing answers on the socket. */
#ifndef SBX_AUTOSTART_H
#define SBX_AUTOSTART_H

/* Starts a detached sbxd on socket and returns once it is listening (0),
 * or when it failed, with its error printed (-errno). */
int autostart_daemon(const char *socket);

#endif
