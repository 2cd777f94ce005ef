/* A sandbox's made-up addresses: each name its stub resolver answered gets one, mapped back when the sandbox connects to it. */
#ifndef SBX_FAKEIP_H
#define SBX_FAKEIP_H

#include <stddef.h>
#include <stdint.h>

#include "daemon/proxy/host.h"

/* IPv4 198.18.0.0/15 (RFC 2544, never routed), IPv6 the ULA
 * fd73:6278:7800::/64 ("sbx"); names past FAKEIP_MAX get none. */
#define FAKEIP_MAX	65536

struct fakeip {
	struct host *names;	/* index - 1 */
	uint32_t n, cap;
	uint32_t *slots;	/* hash of names: index, 0 empty */
	uint32_t nslots;
};

void	fakeip_init(struct fakeip *f);
void	fakeip_free(struct fakeip *f);
/* name's index (1..FAKEIP_MAX), given one if it has none: 0, -ENOSPC
 * (full), -ENOMEM. */
int	fakeip_get(struct fakeip *f, const struct host *name, uint32_t *index);
/* The name an index was given, or NULL. */
const struct host *fakeip_name(const struct fakeip *f, uint32_t index);
/* An index's addresses. */
void	fakeip_v4(uint32_t index, uint8_t out[4]);
void	fakeip_v6(uint32_t index, uint8_t out[16]);
/* The index addr (4 or 16 bytes) stands for: 0, or -ENOENT when it is
 * not in the ranges. Whether the index was given is fakeip_name's. */
int	fakeip_index(const uint8_t *addr, size_t len, uint32_t *index);

#endif
