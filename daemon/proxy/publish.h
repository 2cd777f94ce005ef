/* Published ports: the "[ADDR:]HOSTPORT[:SANDBOXPORT]" spec, parsed and printed. Pure. */
#ifndef SBX_PUBLISH_H
#define SBX_PUBLISH_H

#include <stddef.h>
#include <stdint.h>

/* Longest spec text taken ("[ffff:...]:65535:65535/tcp" fits). */
#define PUBLISH_TEXT_MAX 80
/* Longest canonical form, NUL included. */
#define PUBLISH_FORMAT_MAX 64

struct publish_spec {
	int family;		/* AF_INET or AF_INET6 */
	uint8_t addr[16];	/* the host address, network order */
	uint16_t host_port;	/* 1-65535 */
	uint16_t sandbox_port;	/* 1-65535 */
};

/*
 * docker's -p syntax, TCP only: "HOSTPORT" (the same port inside),
 * "HOSTPORT:SANDBOXPORT", "ADDR:HOSTPORT", "ADDR:HOSTPORT:SANDBOXPORT",
 * each with an optional "/tcp". ADDR is an IPv4 literal, an IPv6 literal
 * in brackets, or "localhost" (127.0.0.1); left out it is 127.0.0.1:
 * every address (0.0.0.0, [::]) only when written. 0, or -EINVAL with
 * *why (static).
 */
int publish_parse(const char *text, struct publish_spec *out,
    const char **why);
/* "ADDR:HOSTPORT:SANDBOXPORT" with IPv6 in brackets; -ENOSPC if short. */
int publish_format(const struct publish_spec *p, char *buf, size_t len);

#endif
