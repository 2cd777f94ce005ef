/* Host names and address literals as the proxy sees them: validated, canonical, classified. */
#ifndef SBX_HOST_H
#define SBX_HOST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define HOST_TEXT_MAX	253	/* longest name (RFC 1035), without a trailing dot */
#define HOST_LABEL_MAX	63

enum host_kind {
	HOST_NAME = 1,		/* a DNS name; still to be resolved */
	HOST_IPV4,
	HOST_IPV6,
};

/*
 * A canonical host. Two hosts are the same destination exactly when their
 * kind and text are equal, which is what makes rule matching safe.
 */
struct host {
	enum host_kind	 kind;
	size_t		 len;				/* strlen(text) */
	char		 text[HOST_TEXT_MAX + 1];	/* IPv6 without brackets */
	uint8_t		 addr[16];	/* IPV4: addr[0..3]; IPV6: all; NAME: 0 */
};

/*
 * Validate and canonicalise s[0..len) (not NUL-terminated; a NUL inside is
 * rejected). Accepts a DNS name, an IPv4 literal in any form inet_aton(3)
 * takes, or an IPv6 literal with or without brackets. On failure returns
 * -EINVAL and points *why at a static reason.
 */
int	host_canon(const char *s, size_t len, struct host *out,
	    const char **why);

/*
 * Split "host", "host:port", "[v6]", "[v6]:port" or a bare IPv6 literal
 * and canonicalise the host. *port is 0 when there is none; a present port
 * is 1..65535.
 */
int	host_parse_hostport(const char *s, size_t len, struct host *out,
	    uint16_t *port, const char **why);

/*
 * Parse an IPv4 literal exactly as glibc's inet_aton(3) does (1 to 4
 * parts, each decimal, 0-octal or 0x-hex), but with no trailing bytes.
 */
int	host_parse_ipv4(const char *s, size_t len, uint8_t out[4]);

/* Build a host from a binary address; a v4-mapped IPv6 becomes IPv4. */
void	host_set_ipv4(struct host *h, const uint8_t a[4]);
void	host_set_ipv6(struct host *h, const uint8_t a[16]);

bool	host_equal(const struct host *a, const struct host *b);

/*
 * Write "host", "host:port" or "[v6]:port" (port 0: none) into buf;
 * returns the length or -ENOSPC.
 */
int	host_format(const struct host *h, uint16_t port, char *buf,
	    size_t size);

const char *host_kind_name(enum host_kind kind);

#endif
