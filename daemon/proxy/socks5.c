/* SOCKS5 (RFC 1928) as the proxy serves it: no authentication, CONNECT only. */

/*
 * Stateless: each call gets every byte received so far and says how many
 * it took, or that it needs more. A request is judged as soon as its
 * bytes allow (a wrong version on the first byte, BIND on the second),
 * so a client cannot hold the connection with a half-sent bad request.
 * A DOMAIN address goes through host_canon like every other host, so
 * "2130706433" or "LOCALHOST." as a name is what it is everywhere else.
 */
#include <errno.h>
#include <string.h>

#include "daemon/proxy/socks5.h"

int
socks5_greeting(const uint8_t *buf, size_t len, uint8_t *method)
{
	size_t n;

	if (len < 1)
		return 0;
	if (buf[0] != SOCKS5_VERSION)
		return -EPROTO;
	if (len < 2 || len < 2 + (size_t)buf[1])
		return 0;
	n = buf[1];
	*method = memchr(buf + 2, SOCKS5_AUTH_NONE, n) != NULL ?
	    SOCKS5_AUTH_NONE : SOCKS5_AUTH_REFUSED;
	return (int)(2 + n);
}

void
socks5_greeting_reply(uint8_t method, uint8_t out[2])
{
	out[0] = SOCKS5_VERSION;
	out[1] = method;
}

/* VER CMD RSV ATYP: everything that can be refused before the address. */
static int
request_head(const uint8_t *buf, size_t len, const char **why)
{
	if (len >= 1 && buf[0] != SOCKS5_VERSION) {
		*why = "not a SOCKS5 request";
		return -EPROTO;
	}
	if (len >= 2 && buf[1] != SOCKS5_CMD_CONNECT) {
		*why = buf[1] == SOCKS5_CMD_BIND ? "BIND is not supported" :
		    buf[1] == SOCKS5_CMD_UDP_ASSOCIATE ?
		    "UDP ASSOCIATE is not supported" : "unknown command";
		return -ENOTSUP;
	}
	if (len >= 3 && buf[2] != 0) {
		*why = "reserved byte is not zero";
		return -EPROTO;
	}
	if (len >= 4 && buf[3] != SOCKS5_ATYP_IPV4 &&
	    buf[3] != SOCKS5_ATYP_DOMAIN && buf[3] != SOCKS5_ATYP_IPV6) {
		*why = "unknown address type";
		return -EAFNOSUPPORT;
	}
	return len >= 4;
}

int
socks5_request(const uint8_t *buf, size_t len, struct socks5_req *out,
    const char **why)
{
	struct socks5_req req;
	size_t alen, need;
	int r;

	if ((r = request_head(buf, len, why)) <= 0)
		return r;
	memset(&req, 0, sizeof(req));
	req.atyp = buf[3];
	if (req.atyp == SOCKS5_ATYP_DOMAIN) {
		if (len < 5)
			return 0;
		alen = buf[4];
		need = 5 + alen + 2;
	} else {
		alen = req.atyp == SOCKS5_ATYP_IPV4 ? 4 : 16;
		need = 4 + alen + 2;
	}
	if (len < need)
		return 0;
	if (req.atyp == SOCKS5_ATYP_IPV4)
		host_set_ipv4(&req.host, buf + 4);
	else if (req.atyp == SOCKS5_ATYP_IPV6)
		host_set_ipv6(&req.host, buf + 4);
	else if (host_canon((const char *)buf + 5, alen, &req.host, why) < 0)
		return -EINVAL;
	req.port = (uint16_t)(buf[need - 2] << 8 | buf[need - 1]);
	if (req.port == 0) {
		*why = "port 0";
		return -EINVAL;
	}
	*out = req;
	return (int)need;
}

uint8_t
socks5_rep_for(int err)
{
	switch (err) {
	case -ENOTSUP:
		return SOCKS5_REP_CMD_UNSUPPORTED;
	case -EAFNOSUPPORT:
		return SOCKS5_REP_ATYP_UNSUPPORTED;
	case -EINVAL:
		return SOCKS5_REP_NOT_ALLOWED;
	}
	return SOCKS5_REP_FAILURE;
}

int
socks5_reply(uint8_t rep, const struct host *bound, uint16_t port,
    uint8_t *out, size_t size)
{
	static const uint8_t any[4];
	const uint8_t *addr = any;
	size_t alen = 4, n = 4;
	uint8_t atyp = SOCKS5_ATYP_IPV4;

	if (bound != NULL && bound->kind == HOST_IPV6) {
		atyp = SOCKS5_ATYP_IPV6;
		alen = 16;
		addr = bound->addr;
	} else if (bound != NULL && bound->kind == HOST_IPV4) {
		addr = bound->addr;
	} else if (bound != NULL) {
		atyp = SOCKS5_ATYP_DOMAIN;
		alen = bound->len;
		addr = (const uint8_t *)bound->text;
		n++;
	}
	if (size < n + alen + 2)
		return -ENOSPC;
	out[0] = SOCKS5_VERSION;
	out[1] = rep;
	out[2] = 0;
	out[3] = atyp;
	if (atyp == SOCKS5_ATYP_DOMAIN)
		out[4] = (uint8_t)alen;
	memcpy(out + n, addr, alen);
	out[n + alen] = (uint8_t)(port >> 8);
	out[n + alen + 1] = (uint8_t)port;
	return (int)(n + alen + 2);
}
