/* What sbx says to an SSH client it will not connect: a banner and a disconnect message carrying the reason. */
#ifndef SBX_SSH_MSG_H
#define SBX_SSH_MSG_H

#include <stddef.h>
#include <stdint.h>

/* SSH_DISCONNECT_HOST_NOT_ALLOWED_TO_CONNECT (RFC 4253 11.1) */
#define SSH_DISCONNECT_NOT_ALLOWED	1
/* Room for the banner, the packet and a reason of SSH_REASON_MAX. */
#define SSH_REASON_MAX			400
#define SSH_REFUSAL_MAX			(SSH_REASON_MAX + 64)

/*
 * Writes "SSH-2.0-sbx\r\n" and an unencrypted SSH_MSG_DISCONNECT packet
 * (the only kind a client reads before key exchange) whose description is
 * reason, cut to SSH_REASON_MAX bytes, with bytes outside printable ASCII
 * made '?'. Returns the length or -ENOSPC.
 */
int	ssh_refusal(const char *reason, uint8_t *out, size_t size);

#endif
