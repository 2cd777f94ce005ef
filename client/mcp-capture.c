/* Bounded capture of a command's output for an agent: head and tail kept,
 * the middle counted; UTF-8 repair for JSON strings. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "client/mcp-capture.h"

void
mcp_capture_init(struct mcp_capture *c, size_t head_max, size_t tail_max)
{
	memset(c, 0, sizeof(*c));
	c->head_max = head_max;
	c->tail_max = tail_max;
}

int
mcp_capture_add(struct mcp_capture *c, const void *data, size_t n)
{
	const char *p = data;
	size_t take;

	if (!c->head && c->head_max && !(c->head = malloc(c->head_max)))
		return -ENOMEM;
	if (!c->tail && c->tail_max && !(c->tail = malloc(c->tail_max)))
		return -ENOMEM;
	c->total += n;
	take = c->head_max - c->head_len;
	if (take > n)
		take = n;
	if (take) {
		memcpy(c->head + c->head_len, p, take);
		c->head_len += take;
		p += take;
		n -= take;
	}
	if (!n || !c->tail_max)
		return 0;
	if (n >= c->tail_max) {
		memcpy(c->tail, p + n - c->tail_max, c->tail_max);
		c->tail_len = c->tail_max;
		return 0;
	}
	if (c->tail_len + n > c->tail_max) {
		size_t drop = c->tail_len + n - c->tail_max;

		memmove(c->tail, c->tail + drop, c->tail_len - drop);
		c->tail_len -= drop;
	}
	memcpy(c->tail + c->tail_len, p, n);
	c->tail_len += n;
	return 0;
}

uint64_t
mcp_capture_cut(const struct mcp_capture *c)
{
	return c->total - c->head_len - c->tail_len;
}

/* The length of the valid UTF-8 sequence at s (n bytes left), 0 if none. */
static size_t
seq_len(const unsigned char *s, size_t n)
{
	size_t len, i;
	uint32_t cp;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		len = 2, cp = s[0] & 0x1f;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		len = 3, cp = s[0] & 0x0f;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		len = 4, cp = s[0] & 0x07;
	else
		return 0;
	if (n < len)
		return 0;
	for (i = 1; i < len; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if ((len == 3 && (cp < 0x800 || (cp >= 0xd800 && cp <= 0xdfff))) ||
	    (len == 4 && (cp < 0x10000 || cp > 0x10ffff)))
		return 0;
	return len;
}

char *
mcp_utf8(const char *s, size_t n, size_t *outlen)
{
	const unsigned char *p = (const unsigned char *)s;
	char *out = malloc(n * 3 + 1), *o = out;
	size_t i = 0, k;

	if (!out)
		return NULL;
	while (i < n) {
		if ((k = seq_len(p + i, n - i))) {
			memcpy(o, p + i, k);
			o += k;
			i += k;
			continue;
		}
		memcpy(o, "\xef\xbf\xbd", 3);
		o += 3;
		i++;
	}
	*o = '\0';
	*outlen = (size_t)(o - out);
	return out;
}

char *
mcp_capture_text(const struct mcp_capture *c, const char *name, size_t *len)
{
	uint64_t cut = mcp_capture_cut(c);
	char note[128] = "", *raw, *text;
	size_t nlen, n;

	if (cut)
		nlen = (size_t)snprintf(note, sizeof(note), "\n[sbx: %" PRIu64
					" bytes of %s cut here]\n", cut, name);
	else
		nlen = 0;
	n = c->head_len + nlen + c->tail_len;
	if (!(raw = malloc(n + 1)))
		return NULL;
	if (c->head_len)
		memcpy(raw, c->head, c->head_len);
	memcpy(raw + c->head_len, note, nlen);
	if (c->tail_len)
		memcpy(raw + c->head_len + nlen, c->tail, c->tail_len);
	/* The cut may split a character: its ends become U+FFFD. */
	text = mcp_utf8(raw, n, len);
	free(raw);
	return text;
}

void
mcp_capture_reset(struct mcp_capture *c)
{
	c->head_len = c->tail_len = 0;
	c->total = 0;
}

void
mcp_capture_free(struct mcp_capture *c)
{
	free(c->head);
	free(c->tail);
	c->head = c->tail = NULL;
	mcp_capture_reset(c);
}
