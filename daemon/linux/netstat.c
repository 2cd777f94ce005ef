/* The direct-network counters of /proc/net/snmp and /proc/net/snmp6. The
 * first file pairs a header line ("Ip: Forwarding ... OutNoRoutes ...")
 * with a value line under the same prefix; the second has one
 * "Name value" per line. */
#include <errno.h>
#include <stdbool.h>
#include <string.h>

#include "daemon/linux/netstat.h"

/* The line of text[0..n) at *pos, without its newline; false at the end. */
static bool
next_line(const char *text, size_t n, size_t *pos, const char **line,
	  size_t *len)
{
	const char *nl;

	if (*pos >= n)
		return false;
	*line = text + *pos;
	nl = memchr(*line, '\n', n - *pos);
	*len = nl ? (size_t)(nl - *line) : n - *pos;
	*pos += *len + 1;
	return true;
}

static bool
blank(char c)
{
	return c == ' ' || c == '\t';
}

/* The next blank-separated word of s[0..n) from *i. */
static bool
word(const char *s, size_t n, size_t *i, const char **w, size_t *wl)
{
	while (*i < n && blank(s[*i]))
		(*i)++;
	if (*i >= n)
		return false;
	*w = s + *i;
	while (*i < n && !blank(s[*i]))
		(*i)++;
	*wl = (size_t)(s + *i - *w);
	return true;
}

static bool
number(const char *s, size_t n, uint64_t *v)
{
	size_t i;

	*v = 0;
	for (i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9' || *v > UINT64_MAX / 10 - 9)
			return false;
		*v = *v * 10 + (uint64_t)(s[i] - '0');
	}
	return n > 0;
}

/* Column name of the "prefix" table in snmp: *v. */
static int
column(const char *snmp, size_t n, const char *prefix, const char *name,
       uint64_t *v)
{
	size_t pos = 0, plen = strlen(prefix), nlen = strlen(name), hl = 0;
	const char *l, *head = NULL;
	size_t len;

	while (next_line(snmp, n, &pos, &l, &len)) {
		if (len < plen || memcmp(l, prefix, plen))
			continue;
		if (!head) {
			head = l;
			hl = len;
			continue;
		}
		/* The value line: the column of name in the header. */
		size_t hi = plen, vi = plen, wl, vl;
		const char *w, *val;

		while (word(head, hl, &hi, &w, &wl)) {
			if (!word(l, len, &vi, &val, &vl))
				return -EINVAL;
			if (wl == nlen && !memcmp(w, name, nlen))
				return number(val, vl, v) ? 0 : -EINVAL;
		}
		return -EINVAL;
	}
	return -EINVAL;
}

/* "name value" in snmp6; 0 when absent. */
static uint64_t
row(const char *snmp6, size_t n, const char *name)
{
	size_t pos = 0, nlen = strlen(name), i, wl;
	const char *l, *w;
	size_t len;
	uint64_t v;

	while (next_line(snmp6, n, &pos, &l, &len)) {
		i = 0;
		if (!word(l, len, &i, &w, &wl) || wl != nlen ||
		    memcmp(w, name, nlen))
			continue;
		return word(l, len, &i, &w, &wl) && number(w, wl, &v) ? v : 0;
	}
	return 0;
}

int
linux_netstat_direct(const char *snmp, size_t n, const char *snmp6,
		     size_t n6, uint64_t *out)
{
	uint64_t noroute, noport;

	if (column(snmp, n, "Ip:", "OutNoRoutes", &noroute) < 0 ||
	    column(snmp, n, "Udp:", "NoPorts", &noport) < 0)
		return -EINVAL;
	*out = noroute + noport;
	if (snmp6)
		*out += row(snmp6, n6, "Ip6OutNoRoutes") +
			row(snmp6, n6, "Udp6NoPorts");
	return 0;
}
