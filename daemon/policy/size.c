/* Byte sizes of policy limits: "512M" and back. */
#include <errno.h>
#include <stdio.h>

#include "daemon/policy/size.h"

static const char units[] = "KMGTP";

static int
unit_shift(char c)
{
	int i;

	for (i = 0; units[i]; i++)
		if (c == units[i] || c == units[i] + ('a' - 'A'))
			return 10 * (i + 1);
	return -1;
}

/* s[*i..len): ".5" after a number, at most three decimals kept (plenty
 * for a size in KiB or more); 0 and *frac / *div, or -EINVAL. */
static int
size_fraction(const char *s, size_t len, size_t *i, uint64_t *frac,
    uint64_t *div)
{
	if (*i >= len || s[*i] != '.')
		return 0;
	for ((*i)++; *i < len && s[*i] >= '0' && s[*i] <= '9'; (*i)++)
		if (*div < 1000) {
			*frac = *frac * 10 + (uint64_t)(s[*i] - '0');
			*div *= 10;
		}
	return *div > 1 ? 0 : -EINVAL;
}

int
policy_size_parse(const char *s, size_t len, uint64_t *out, const char **why)
{
	uint64_t v = 0, frac = 0, div = 1;
	size_t i = 0;
	int shift = 0;

	if (len == 0 || s[0] < '0' || s[0] > '9') {
		*why = "a size is a number of bytes, or one with K, M, G, T "
		    "or P after it (\"512M\", \"2 GiB\", \"1.5G\")";
		return -EINVAL;
	}
	for (; i < len && s[i] >= '0' && s[i] <= '9'; i++) {
		if (v > POLICY_SIZE_MAX / 10) {
			*why = "size too large (at most 1P)";
			return -EINVAL;
		}
		v = v * 10 + (uint64_t)(s[i] - '0');
	}
	if (size_fraction(s, len, &i, &frac, &div) < 0) {
		*why = "a fraction needs digits after the point (\"1.5G\")";
		return -EINVAL;
	}
	/* "2 GiB", as people and sbx's messages write it. */
	if (i + 1 < len && s[i] == ' ')
		i++;
	if (i < len && (shift = unit_shift(s[i])) >= 0) {
		i++;
		if (i + 2 == len && s[i] == 'i' && (s[i + 1] == 'B'))
			i += 2;
		else if (i + 1 == len && s[i] == 'B')
			i++;
	} else {
		shift = 0;
		if (i + 1 == len && s[i] == 'B')
			i++;
	}
	if (i != len || (shift == 0 && div > 1)) {
		*why = "unknown unit: use K, M, G, T or P (powers of 1024)";
		return -EINVAL;
	}
	if (shift > 0 && v > (POLICY_SIZE_MAX >> shift)) {
		*why = "size too large (at most 1P)";
		return -EINVAL;
	}
	v = (v << shift) + (frac << shift) / div;
	if (v > POLICY_SIZE_MAX) {
		*why = "size too large (at most 1P)";
		return -EINVAL;
	}
	*out = v;
	return 0;
}

int
policy_size_format(uint64_t v, char *buf, size_t len, int human)
{
	static const char *const iec[] = { "KiB", "MiB", "GiB", "TiB",
	    "PiB" };
	int i = -1, n;

	while (v != 0 && i + 1 < (int)sizeof(units) - 1 &&
	    (v & 1023) == 0) {
		v >>= 10;
		i++;
	}
	if (i < 0)
		n = snprintf(buf, len, human ? "%llu bytes" : "%llu",
		    (unsigned long long)v);
	else if (human)
		n = snprintf(buf, len, "%llu %s", (unsigned long long)v,
		    iec[i]);
	else
		n = snprintf(buf, len, "%llu%c", (unsigned long long)v,
		    units[i]);
	return n >= 0 && (size_t)n < len ? n : -ENOSPC;
}
