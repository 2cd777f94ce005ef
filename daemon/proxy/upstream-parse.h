/* An upstream (parent) proxy as policy names it: its URL, the noProxy list, and the CONNECT exchange. Pure. */
#ifndef SBX_UPSTREAM_PARSE_H
#define SBX_UPSTREAM_PARSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "daemon/proxy/host.h"

#define UPSTREAM_URL_MAX	2048
/* Longest user:password after percent-decoding. */
#define UPSTREAM_USERINFO_MAX	512
/* "Basic " and the base64 of the longest user:password. */
#define UPSTREAM_AUTH_MAX	(6 + (UPSTREAM_USERINFO_MAX + 2) / 3 * 4 + 1)
#define NOPROXY_MAX		256
/* A CONNECT reply head longer than this is refused. */
#define UPSTREAM_REPLY_MAX	8192

/*
 * "http://[user[:password]@]host[:port][/]": the only form accepted
 * (TLS to the upstream and SOCKS upstreams are not). auth is the
 * Proxy-Authorization value ("Basic ...", "" without credentials). The
 * credentials live only in auth: messages use upstream_url_format().
 */
struct upstream_url {
	struct host host;
	uint16_t port;			/* 80 when the URL names none */
	char auth[UPSTREAM_AUTH_MAX];
};

/*
 * Parses s[0..len). -EINVAL with a static reason in *why, which never
 * quotes the URL (it may hold a password).
 */
int	upstream_url_parse(const char *s, size_t len, struct upstream_url *out,
	    const char **why);
/* "http://host:port", never the credentials; -ENOSPC if cut. */
int	upstream_url_format(const struct upstream_url *u, char *buf,
	    size_t size);

/*
 * noProxy: destinations that go direct instead of through the upstream.
 * Entries are separated by commas or white space: "*" (every one), a name
 * (that name and its subdomains; a leading "." or "*." means the same),
 * an address, either with ":port" (that port only), or a CIDR range
 * ("10.0.0.0/8", "fd00::/8") that matches address literals. A name never
 * matches an address it might resolve to: nothing is resolved here.
 */
enum noproxy_kind {
	NOPROXY_NAME,
	NOPROXY_ADDR,
	NOPROXY_CIDR,
};

struct noproxy_entry {
	enum noproxy_kind kind;
	struct host host;	/* the name, the address, the range's base */
	uint16_t port;		/* 0: any */
	uint8_t bits;		/* NOPROXY_CIDR */
};

struct noproxy {
	bool all;		/* "*" */
	size_t n;
	struct noproxy_entry e[];
};

/* A new list (noproxy_free); -EINVAL with *why, -ENOMEM. */
int	noproxy_parse(const char *s, size_t len, struct noproxy **out,
	    const char **why);
void	noproxy_free(struct noproxy *np);
/* np may be NULL (nothing goes direct). h must be canonical. */
bool	noproxy_match(const struct noproxy *np, const struct host *h,
	    uint16_t port);

/*
 * The CONNECT request for h:port with auth (may be ""): its length, or
 * -ENOSPC. h is canonical, so nothing in it can end a line.
 */
int	upstream_connect_request(const struct host *h, uint16_t port,
	    const char *auth, char *buf, size_t size);
/*
 * The upstream's reply to CONNECT in buf[0..len): 0 while the head is
 * incomplete, else its length with *status set (bytes after it are the
 * tunnel's); -EBADMSG with *why for anything but an HTTP/1.x status line
 * or a head past UPSTREAM_REPLY_MAX.
 */
int	upstream_connect_reply(const char *buf, size_t len, unsigned *status,
	    const char **why);

#endif
