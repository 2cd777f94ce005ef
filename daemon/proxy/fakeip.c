/* Name <-> made-up address, per sandbox: the stub resolver's answers and the capture's way back to the name. Pure. */

/*
 * Indices are handed out in order and never taken back while the sandbox
 * lives: an address a program kept (resolver caches, connection pools)
 * always means the same name. Only names a rule allows get one, so the
 * table grows with what the policy names, not with what a program asks.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/proxy/fakeip.h"

static const uint8_t v6_prefix[8] = { 0xfd, 0x73, 0x62, 0x78, 0x78, 0, 0, 0 };

void
fakeip_init(struct fakeip *f)
{
	memset(f, 0, sizeof(*f));
}

void
fakeip_free(struct fakeip *f)
{
	free(f->names);
	free(f->slots);
	fakeip_init(f);
}

static uint32_t
hash(const struct host *h)
{
	uint32_t x = 2166136261u;
	size_t i;

	for (i = 0; i < h->len; i++)
		x = (x ^ (uint8_t)h->text[i]) * 16777619u;
	return x;
}

/* The slot that holds h, or the empty one where it would go. */
static uint32_t *
slot(const struct fakeip *f, const struct host *h)
{
	uint32_t i = hash(h) & (f->nslots - 1);

	while (f->slots[i] != 0 &&
	    !host_equal(&f->names[f->slots[i] - 1], h))
		i = (i + 1) & (f->nslots - 1);
	return &f->slots[i];
}

/* Twice the slots, the names placed again. */
static int
grow(struct fakeip *f)
{
	uint32_t n = f->nslots ? f->nslots * 2 : 64, old = f->nslots, i;
	uint32_t *s = calloc(n, sizeof(*s)), *prev = f->slots;

	if (s == NULL)
		return -ENOMEM;
	f->slots = s;
	f->nslots = n;
	for (i = 0; i < old; i++)
		if (prev[i] != 0)
			*slot(f, &f->names[prev[i] - 1]) = prev[i];
	free(prev);
	return 0;
}

int
fakeip_get(struct fakeip *f, const struct host *name, uint32_t *index)
{
	struct host *v;
	uint32_t *s, cap;

	if (f->nslots > 0 && *(s = slot(f, name)) != 0) {
		*index = *s;
		return 0;
	}
	if (f->n >= FAKEIP_MAX)
		return -ENOSPC;
	if (f->n == f->cap) {
		cap = f->cap ? f->cap * 2 : 32;
		if ((v = realloc(f->names, cap * sizeof(*v))) == NULL)
			return -ENOMEM;
		f->names = v;
		f->cap = cap;
	}
	/* At most half full: probes stay short. */
	if ((f->n + 1) * 2 > f->nslots && grow(f) < 0)
		return -ENOMEM;
	f->names[f->n++] = *name;
	*(s = slot(f, name)) = f->n;
	*index = f->n;
	return 0;
}

const struct host *
fakeip_name(const struct fakeip *f, uint32_t index)
{
	return index >= 1 && index <= f->n ? &f->names[index - 1] : NULL;
}

void
fakeip_v4(uint32_t index, uint8_t out[4])
{
	uint32_t a = (198u << 24 | 18u << 16) + index;

	out[0] = (uint8_t)(a >> 24);
	out[1] = (uint8_t)(a >> 16);
	out[2] = (uint8_t)(a >> 8);
	out[3] = (uint8_t)a;
}

void
fakeip_v6(uint32_t index, uint8_t out[16])
{
	memset(out, 0, 16);
	memcpy(out, v6_prefix, sizeof(v6_prefix));
	out[12] = (uint8_t)(index >> 24);
	out[13] = (uint8_t)(index >> 16);
	out[14] = (uint8_t)(index >> 8);
	out[15] = (uint8_t)index;
}

int
fakeip_index(const uint8_t *addr, size_t len, uint32_t *index)
{
	static const uint8_t zero[4];
	uint32_t a;

	if (len == 4 && addr[0] == 198 && (addr[1] & 0xfe) == 18) {
		a = (uint32_t)addr[0] << 24 | (uint32_t)addr[1] << 16 |
		    (uint32_t)addr[2] << 8 | addr[3];
		*index = a - (198u << 24 | 18u << 16);
		return 0;
	}
	if (len == 16 && memcmp(addr, v6_prefix, 8) == 0 &&
	    memcmp(addr + 8, zero, 4) == 0) {
		*index = (uint32_t)addr[12] << 24 | (uint32_t)addr[13] << 16 |
		    (uint32_t)addr[14] << 8 | addr[15];
		return 0;
	}
	return -ENOENT;
}
