/* The key=value text of kernel audit records, for the Landlock ones and
 * sbx's barrier messages: quoted values, 'msg' values, and the hex
 * encoding audit uses for untrusted strings. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/linux/audit-record.h"

static int
hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

/* Copies value v (vlen bytes) into buf: quoted values as they are, bare
 * ones hex-decoded when the key holds an untrusted string and they are
 * hex (audit_log_untrustedstring()). Control bytes become '?'. */
static void
value(const char *v, size_t vlen, bool quoted, bool untrusted, char *buf,
      size_t size)
{
	size_t i, n = 0;
	bool hex = !quoted && untrusted && vlen > 0 && vlen % 2 == 0;

	for (i = 0; hex && i < vlen; i++)
		hex = hexval(v[i]) >= 0;
	for (i = 0; i < vlen && n + 1 < size; i += hex ? 2 : 1) {
		unsigned char c = hex ? (unsigned char)(hexval(v[i]) * 16 +
							hexval(v[i + 1])) :
					(unsigned char)v[i];

		buf[n++] = c < 0x20 || c == 0x7f ? '?' : (char)c;
	}
	buf[n] = '\0';
}

static long
number(const char *v, size_t vlen, int base)
{
	char tmp[32];

	if (vlen == 0 || vlen >= sizeof(tmp))
		return -1;
	memcpy(tmp, v, vlen);
	tmp[vlen] = '\0';
	return strtol(tmp, NULL, base);
}

static uint64_t
hex64(const char *v, size_t vlen)
{
	uint64_t x = 0;
	size_t i;

	if (vlen == 0 || vlen > 16)
		return 0;
	for (i = 0; i < vlen; i++) {
		if (hexval(v[i]) < 0)
			return 0;
		x = x * 16 + (uint64_t)hexval(v[i]);
	}
	return x;
}

#define KEY(k) (klen == sizeof(k) - 1 && !memcmp(key, k, klen))

static void
field(struct audit_record *r, const char *key, size_t klen, const char *v,
      size_t vlen, bool quoted)
{
	char tmp[32];

	if (KEY("domain"))
		r->domain = hex64(v, vlen);
	else if (KEY("blockers"))
		value(v, vlen, quoted, false, r->blockers,
		      sizeof(r->blockers));
	else if (KEY("path"))
		value(v, vlen, quoted, true, r->path, sizeof(r->path));
	else if (KEY("ocomm"))
		value(v, vlen, quoted, true, r->ocomm, sizeof(r->ocomm));
	else if (KEY("opid"))
		r->opid = number(v, vlen, 10);
	else if (KEY("pid"))
		r->pid = number(v, vlen, 10);
	else if (KEY("msg"))
		value(v, vlen, true, false, r->msg, sizeof(r->msg));
	else if (KEY("daddr") || KEY("dest")) {
		size_t n = strlen(r->addr);

		value(v, vlen, quoted, false, tmp, sizeof(tmp));
		snprintf(r->addr + n, sizeof(r->addr) - n, "%s%s",
			 n ? ":" : "", tmp);
	} else if (KEY("status")) {
		r->allocated = vlen == 9 && !memcmp(v, "allocated", 9);
		r->deallocated = vlen == 11 && !memcmp(v, "deallocated", 11);
	}
}

/* "audit(1795331838.712:2): " -> serial 2; returns the text after it. */
static const char *
header(const char *p, const char *end, uint64_t *serial)
{
	const char *colon = NULL;

	if (end - p < 7 || memcmp(p, "audit(", 6))
		return NULL;
	for (p += 6; p < end && *p != ')'; p++)
		if (*p == ':')
			colon = p;
	if (p == end || !colon || colon + 1 == p)
		return NULL;
	*serial = 0;
	for (colon++; colon < p; colon++) {
		if (*colon < '0' || *colon > '9')
			return NULL;
		*serial = *serial * 10 + (uint64_t)(*colon - '0');
	}
	p++;
	if (p < end && *p == ':')
		p++;
	return p;
}

int
audit_record_parse(int type, const char *text, size_t len,
		   struct audit_record *out)
{
	const char *p, *end = text + len, *key, *v;
	size_t klen, vlen;
	char close;

	memset(out, 0, sizeof(*out));
	out->type = type;
	out->opid = out->pid = -1;
	if (!(p = header(text, end, &out->serial)))
		return -EINVAL;
	while (p < end) {
		while (p < end && *p == ' ')
			p++;
		key = p;
		while (p < end && *p != '=' && *p != ' ')
			p++;
		klen = (size_t)(p - key);
		if (p == end || *p == ' ')
			continue;
		p++; /* '=' */
		close = p < end && (*p == '"' || *p == '\'') ? *p++ : ' ';
		v = p;
		while (p < end && *p != close)
			p++;
		vlen = (size_t)(p - v);
		if (close != ' ' && p < end)
			p++;
		field(out, key, klen, v, vlen, close != ' ');
	}
	if ((type == AUDIT_RECORD_LANDLOCK_ACCESS ||
	     type == AUDIT_RECORD_LANDLOCK_DOMAIN) && !out->domain)
		return -EINVAL;
	return 0;
}
