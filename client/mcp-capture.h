/* A command's output as an agent gets it: the first and the last bytes of
 * a stream kept, the middle counted and cut, and the whole made valid
 * UTF-8 text for JSON. Pure. */
#ifndef SBX_MCP_CAPTURE_H
#define SBX_MCP_CAPTURE_H

#include <stddef.h>
#include <stdint.h>

struct mcp_capture {
	size_t head_max, tail_max;
	char *head, *tail;	/* head_max and tail_max bytes, or NULL */
	size_t head_len, tail_len;
	uint64_t total;		/* bytes added since the last reset */
};

/* Keeps at most head_max bytes of the start and tail_max of the end. */
void mcp_capture_init(struct mcp_capture *c, size_t head_max,
		      size_t tail_max);
int mcp_capture_add(struct mcp_capture *c, const void *p, size_t n);
/* Bytes added but not kept (cut from the middle). */
uint64_t mcp_capture_cut(const struct mcp_capture *c);
/* What was kept as valid UTF-8 (bad bytes become U+FFFD), with
 * "[sbx: N bytes of NAME cut here]" on a line of its own where the middle
 * was; *len its length (it may hold NUL bytes). To free; NULL: no memory. */
char *mcp_capture_text(const struct mcp_capture *c, const char *name,
		       size_t *len);
/* Forgets what was added (read_output hands it out once). */
void mcp_capture_reset(struct mcp_capture *c);
void mcp_capture_free(struct mcp_capture *c);

/* s[0..n) as valid UTF-8: each byte that starts no valid sequence
 * (overlong, surrogate, past U+10FFFF, cut short) becomes U+FFFD. To free;
 * *outlen its length. */
char *mcp_utf8(const char *s, size_t n, size_t *outlen);

#endif
