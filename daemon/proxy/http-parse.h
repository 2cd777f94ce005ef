/* Incremental HTTP/1.x request-head parser for the filtering proxy. */
#ifndef SBX_HTTP_PARSE_H
#define SBX_HTTP_PARSE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "daemon/proxy/host.h"

#define HTTP_HEAD_MAX	16384	/* whole head, leading empty lines included */
#define HTTP_FIELDS_MAX	100

enum http_mode {
	HTTP_MODE_PROXY = 0,	/* a proxy's client: CONNECT or absolute-form */
	HTTP_MODE_ORIGIN,	/* inside a tunnel: origin-form or absolute-form */
};

enum http_form {
	HTTP_FORM_AUTHORITY = 1,	/* CONNECT host:port */
	HTTP_FORM_ABSOLUTE,		/* http://host[:port]/path */
	HTTP_FORM_ORIGIN,		/* /path, or OPTIONS * */
};

enum http_body {
	HTTP_BODY_NONE = 0,
	HTTP_BODY_LENGTH,	/* content_length bytes follow */
	HTTP_BODY_CHUNKED,	/* see http-chunked.h */
};

/* Bytes [off, off + len) of the buffer the head was parsed from. */
struct http_span {
	uint16_t	 off;
	uint16_t	 len;
};

struct http_field {
	struct http_span name;
	struct http_span value;		/* without surrounding whitespace */
};

/*
 * Parser state and result. Set up with http_parse_init; reuse for the
 * next request on a connection by calling it again.
 */
struct http_req {
	enum http_mode	 mode;
	size_t		 scanned;	/* bytes known not to end the head */
	size_t		 start;		/* empty lines skipped before it */
	bool		 method_seen;	/* the method and its SP arrived */

	/* Valid once http_parse_request returned > 0. */
	const char	*head;		/* the buffer of that call (not owned) */
	size_t		 head_len;
	struct http_span method;
	struct http_span target;
	struct http_span path;		/* absolute/origin-form: after authority */
	uint8_t		 minor;		/* HTTP/1.minor */
	enum http_form	 form;
	struct host	 host;		/* authority/absolute-form target */
	uint16_t	 port;		/* absolute-form without one: 80 */
	int		 host_field;	/* index of Host in field[], or -1 */
	struct host	 host_hdr;	/* the Host field's host ... */
	uint16_t	 host_hdr_port;	/* ... and port, 0 if none */
	enum http_body	 body;
	uint64_t	 content_length;
	bool		 close;		/* connection ends after this exchange */
	size_t		 nfields;
	struct http_field field[HTTP_FIELDS_MAX];

	/* Set when http_parse_request fails. */
	int		 status;	/* the answer to send: 400, 431, 501, 505 */
	const char	*why;		/* static reason */
};

void	http_parse_init(struct http_req *r, enum http_mode mode);

/*
 * Feed the bytes received so far: buf must start with the same bytes as
 * on the previous call, with any new ones appended. Returns the head's
 * length (what to consume; the body follows) once it is complete, 0 if
 * more is needed, or -EPROTO (not HTTP: no method + SP at the start),
 * -EBADMSG (malformed), -EMSGSIZE (head too large), -ENOTSUP (version,
 * scheme or transfer coding not supported), with r->status and r->why.
 */
int	http_parse_request(struct http_req *r, const char *buf, size_t len);

/*
 * Absolute-form: 0 if the Host field names the URI's host and port (a
 * missing port means 80), -EPERM with a reason if not. Other forms: 0
 * (CONNECT's Host is not forwarded; the tunnel's SNI check guards it).
 */
int	http_parse_host_agrees(const struct http_req *r, const char **why);

/*
 * Write the request line to send upstream, "METHOD /path HTTP/1.x\r\n".
 * Returns its length, -ENOSPC, or -EINVAL for CONNECT.
 */
int	http_parse_origin_line(const struct http_req *r, char *buf,
	    size_t size);

/* Field i is hop-by-hop (fixed list, or named in Connection): drop it. */
bool	http_parse_hop_by_hop(const struct http_req *r, size_t i);

/*
 * Validate one field line without its CRLF: token ":" OWS value OWS.
 * Sets the name's length and the trimmed value's offset and length.
 */
int	http_parse_field_line(const char *s, size_t len, size_t *name_len,
	    size_t *value_off, size_t *value_len, const char **why);

/* RFC 9110 tchar: the bytes of methods, field names and tokens. */
bool	http_parse_tchar(unsigned char c);

/* Case-insensitive token comparison of s[0..len) with a C string. */
bool	http_parse_token_is(const char *s, size_t len, const char *name);

/*
 * Calls fn on each element of the comma-separated list v[0..len)
 * (white space trimmed, empty elements skipped); stops when fn returns
 * true, and returns whether one did.
 */
bool	http_parse_list(const char *v, size_t len,
	    bool (*fn)(void *arg, const char *t, size_t tlen), void *arg);

/* A Content-Length value: digits only, no overflow. 0 or -1. */
int	http_parse_length(const char *v, size_t len, uint64_t *n);

#endif
