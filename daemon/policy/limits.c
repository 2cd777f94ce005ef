/* The policy's limits: values as written and as shown, the machine's
 * defaults, and which layer's value applies. Pure. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/policy/limits.h"
#include "daemon/policy/rule.h"

static const struct {
	const char *key, *name;
	unsigned long long min, max;
} limit_info[POLICY_NLIMITS] = {
	[POLICY_LIMIT_PIDS] = { "pids", "limits.pids", POLICY_PIDS_MIN,
	    POLICY_PIDS_MAX },
	[POLICY_LIMIT_MEMORY] = { "memory", "limits.memory",
	    POLICY_MEMORY_MIN, POLICY_MEMORY_MAX },
	[POLICY_LIMIT_CPU] = { "cpu", "limits.cpu", POLICY_CPU_MIN,
	    POLICY_CPU_MAX },
};

const char *
policy_limit_name(enum policy_limit_id id)
{
	return (unsigned)id < POLICY_NLIMITS ? limit_info[id].name : "?";
}

const char *
policy_limit_key(enum policy_limit_id id)
{
	return (unsigned)id < POLICY_NLIMITS ? limit_info[id].key : "?";
}

/* "2G", "1.5 GiB", "512m", "4096": whole bytes, powers of 1024. */
static int
parse_size(const char *s, unsigned long long *out)
{
	static const char units[] = "KMGTP";
	unsigned long long whole = 0, frac = 0, scale = 1, div = 1;
	const char *u;
	int shift = 0;

	if (*s < '0' || *s > '9')
		return -EINVAL;
	for (; *s >= '0' && *s <= '9'; s++) {
		if (whole > POLICY_MEMORY_MAX)
			return -ERANGE;
		whole = whole * 10 + (unsigned)(*s - '0');
	}
	if (*s == '.') {
		/* Three decimals are plenty for a size in KiB or more. */
		for (s++; *s >= '0' && *s <= '9'; s++)
			if (div < 1000) {
				frac = frac * 10 + (unsigned)(*s - '0');
				div *= 10;
			}
		if (div == 1)
			return -EINVAL;
	}
	if (*s == ' ')
		s++;
	if (*s && (u = strchr(units, *s & ~0x20)) != NULL) {
		shift = 10 * (int)(u - units + 1);
		s++;
		if (*s == 'i' && s[1] == 'B')
			s += 2;
		else if (*s == 'B' || *s == 'b')
			s++;
	} else if (*s == 'B' || *s == 'b')
		s++;
	if (*s != '\0' || (shift == 0 && div > 1))
		return -EINVAL;
	if (whole > (POLICY_MEMORY_MAX >> shift))
		return -ERANGE;
	scale = 1ull << shift;
	*out = whole * scale + frac * scale / div;
	return 0;
}

int
policy_limit_parse(enum policy_limit_id id, const char *text,
    long long integer, bool is_text, unsigned long long *out,
    const char **why)
{
	unsigned long long v;

	if ((unsigned)id >= POLICY_NLIMITS)
		return -EINVAL;
	if (is_text && id != POLICY_LIMIT_MEMORY) {
		*why = "expected an integer";
		return -EINVAL;
	}
	if (is_text) {
		if (parse_size(text, &v) < 0) {
			*why = "expected bytes, or a size such as \"512M\" "
			    "or \"2 GiB\"";
			return -EINVAL;
		}
	} else if (integer < 0) {
		*why = "must not be negative";
		return -EINVAL;
	} else
		v = (unsigned long long)integer;
	if (v < limit_info[id].min || v > limit_info[id].max) {
		*why = id == POLICY_LIMIT_PIDS ? "pids must be from 8 to "
		    "4194304" : id == POLICY_LIMIT_CPU ? "cpu is a weight "
		    "from 1 to 10000" : "memory must be from 16 MiB to 1 PiB";
		return -EINVAL;
	}
	*out = v;
	return 0;
}

void
policy_limit_format(enum policy_limit_id id, unsigned long long v, char *buf,
    size_t len)
{
	static const char *const units[] = { "bytes", "KiB", "MiB", "GiB",
	    "TiB", "PiB" };
	unsigned long long x = v;
	int u = 0;

	if (id == POLICY_LIMIT_CPU) {
		snprintf(buf, len, "weight %llu", v);
		return;
	}
	if (id != POLICY_LIMIT_MEMORY) {
		snprintf(buf, len, "%llu", v);
		return;
	}
	while (u < 5 && x >= 1024) {
		x /= 1024;
		u++;
	}
	/* One decimal where the unit does not divide it: 1.5 GiB. */
	if (u > 0 && v % (1ull << (10 * u)) != 0)
		snprintf(buf, len, "%.1f %s", (double)v /
		    (double)(1ull << (10 * u)), units[u]);
	else
		snprintf(buf, len, "%llu %s", x, units[u]);
}

void
policy_limit_defaults(const struct policy_machine *m,
    struct policy_limit_defaults *out)
{
	unsigned long long pids = 4096, mem = m->ram / 2;

	if (m->threads_max > 0 && m->threads_max / 4 < pids)
		pids = m->threads_max / 4;
	if (m->nproc > 0 && m->nproc / 2 < pids)
		pids = m->nproc / 2;
	if (pids < POLICY_PIDS_MIN)
		pids = POLICY_PIDS_MIN;
	if (mem == 0)
		mem = 4ull << 30; /* unknown RAM: a size most machines have */
	if (mem < POLICY_MEMORY_MIN)
		mem = POLICY_MEMORY_MIN;
	out->v[POLICY_LIMIT_PIDS] = pids;
	out->v[POLICY_LIMIT_MEMORY] = mem;
	out->v[POLICY_LIMIT_CPU] = 50;
}

unsigned long long
policy_limit_resolve(const struct policy *eff, enum policy_limit_id id,
    const struct policy_limit_defaults *d,
    const struct policy_origin **origin)
{
	const struct policy_limit *cap = &eff->limits[id];
	const struct policy_limit *low = &eff->lowered[id];
	unsigned long long v = cap->set ? cap->value : d->v[id];

	*origin = cap->set ? &cap->origin : NULL;
	if (low->set && low->value < v) {
		v = low->value;
		*origin = &low->origin;
	}
	return v;
}

int
policy_limit_set(struct policy_limit *l, unsigned long long v,
    const struct policy_origin *o)
{
	if (l->set && l->value <= v)
		return 0;
	policy_rule_origin_clear(&l->origin);
	l->set = true;
	l->value = v;
	return policy_rule_origin_copy(&l->origin, o);
}
