/* What a tunnel's client bytes may be: a ClientHello, an SSH banner, or HTTP requests, each for the tunnel's host. */
#ifndef SBX_TUNNEL_CHECK_H
#define SBX_TUNNEL_CHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "daemon/proxy/http-chunked.h"
#include "daemon/proxy/http-parse.h"
#include "daemon/proxy/host.h"
#include "daemon/proxy/sni.h"

/* Bytes to offer at once: a whole ClientHello with its record headers. */
#define TUNNEL_CHECK_WINDOW	(SNI_HELLO_MAX + 5 * (SNI_RECORDS_MAX + 1))
/* An SSH identification line, CR LF included (RFC 4253 4.2). */
#define TUNNEL_SSH_LINE_MAX	255

enum tunnel_check_result {
	TUNNEL_CHECK_MORE = 0,		/* *ok bytes may go; keep the rest */
	TUNNEL_CHECK_ALL = 1,		/* these and all later bytes may go */
	TUNNEL_CHECK_REFUSED = -EPERM,	/* close: why, maybe named */
};

/* One tunnel's check; set up with tunnel_check_init. */
struct tunnel_check {
	struct host	 host;		/* the tunnel's destination */
	uint16_t	 port;
	int		 state;
	struct http_req	 req;		/* the head being read */
	uint64_t	 left;		/* of a body by length */
	struct http_chunked ck;
	bool		 passed;	/* a request head passed */
	/* A captured connection to a port other than 80 and 443: first
	 * bytes that are neither TLS, SSH nor an HTTP request line pass the
	 * whole stream (the rule allowed the port; what speaks there is
	 * the server's business). TLS and HTTP are checked as ever. */
	bool		 by_port;

	/* Set on REFUSED. */
	const char	*why;		/* static */
	bool		 has_named;	/* the bytes named named:named_port */
	struct host	 named;
	uint16_t	 named_port;
};

void	tunnel_check_init(struct tunnel_check *t, const struct host *host,
	    uint16_t port);

/*
 * buf holds the client's bytes not yet let through (at most
 * TUNNEL_CHECK_WINDOW of them: more is never needed to decide). Returns a
 * tunnel_check_result; on MORE, *ok is how many of them are checked and
 * may go upstream now, and the rest must be offered again, first, with
 * what arrives after them. Nothing of a REFUSED call may go.
 *
 * First bytes: a TLS ClientHello whose server name is the tunnel's host
 * (none only when that host is an address), or an SSH banner, pass the
 * whole stream (encrypted from there). Anything else must be HTTP/1.x
 * requests, every one of them naming the host, followed through their
 * bodies (by length or chunked) to the next; with by_port, anything that
 * does not start as an HTTP request line passes instead.
 */
int	tunnel_check_feed(struct tunnel_check *t, const uint8_t *buf,
	    size_t len, size_t *ok);

#endif
