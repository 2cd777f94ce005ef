/* SOCKS5 (RFC 1928) server side: parsing a client's greeting and request, building replies. */
#ifndef SBX_SOCKS5_H
#define SBX_SOCKS5_H

#include <stddef.h>
#include <stdint.h>

#include "daemon/proxy/host.h"

#define SOCKS5_VERSION		0x05
#define SOCKS5_AUTH_NONE	0x00
#define SOCKS5_AUTH_REFUSED	0xff	/* no acceptable method */
#define SOCKS5_REPLY_MAX	262	/* 4 + 1 + 255 + 2 */

enum socks5_cmd {
	SOCKS5_CMD_CONNECT = 1,
	SOCKS5_CMD_BIND = 2,
	SOCKS5_CMD_UDP_ASSOCIATE = 3,
};

enum socks5_atyp {
	SOCKS5_ATYP_IPV4 = 1,
	SOCKS5_ATYP_DOMAIN = 3,
	SOCKS5_ATYP_IPV6 = 4,
};

enum socks5_rep {
	SOCKS5_REP_SUCCEEDED = 0,
	SOCKS5_REP_FAILURE = 1,
	SOCKS5_REP_NOT_ALLOWED = 2,
	SOCKS5_REP_NET_UNREACHABLE = 3,
	SOCKS5_REP_HOST_UNREACHABLE = 4,
	SOCKS5_REP_REFUSED = 5,
	SOCKS5_REP_TTL_EXPIRED = 6,
	SOCKS5_REP_CMD_UNSUPPORTED = 7,
	SOCKS5_REP_ATYP_UNSUPPORTED = 8,
};

/* A CONNECT request; host is canonical whatever the address type. */
struct socks5_req {
	uint8_t		 atyp;
	struct host	 host;
	uint16_t	 port;
};

/*
 * The greeting (VER NMETHODS METHODS). Returns the bytes it took and
 * sets *method to SOCKS5_AUTH_NONE if offered, else SOCKS5_AUTH_REFUSED
 * (send it, then close); 0 if more bytes are needed; -EPROTO if this is
 * not SOCKS5.
 */
int	socks5_greeting(const uint8_t *buf, size_t len, uint8_t *method);

/* The method-selection message: writes 2 bytes. */
void	socks5_greeting_reply(uint8_t method, uint8_t out[2]);

/*
 * The request (VER CMD RSV ATYP DST.ADDR DST.PORT). Returns the bytes it
 * took, 0 if more are needed, or, as soon as the bytes seen decide it:
 * -EPROTO malformed, -ENOTSUP a command other than CONNECT, -EAFNOSUPPORT
 * an unknown address type, -EINVAL a host name or port refused; *why
 * says which. Reply with socks5_rep_for(error), then close.
 */
int	socks5_request(const uint8_t *buf, size_t len, struct socks5_req *out,
	    const char **why);

/* The reply code for an error socks5_request returned. */
uint8_t	socks5_rep_for(int err);

/*
 * A reply with the bound address (NULL: 0.0.0.0) and port; returns its
 * length (at most SOCKS5_REPLY_MAX) or -ENOSPC.
 */
int	socks5_reply(uint8_t rep, const struct host *bound, uint16_t port,
	    uint8_t *out, size_t size);

#endif
