/* An SSH refusal in the protocol's own words (RFC 4253 4.2, 6, 11.1), so ssh and git print the reason. Pure. */
#include <errno.h>
#include <string.h>

#include "daemon/proxy/ssh-msg.h"

#define SSH_MSG_DISCONNECT	1
#define BANNER			"SSH-2.0-sbx\r\n"
/* Before key exchange the cipher is "none", whose block size is 8. */
#define BLOCK			8

static void
put32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

int
ssh_refusal(const char *reason, uint8_t *out, size_t size)
{
	size_t rlen = strnlen(reason, SSH_REASON_MAX), banner = strlen(BANNER);
	/* byte type, uint32 code, string reason, string language */
	size_t payload = 1 + 4 + 4 + rlen + 4, pad, plen, i;
	uint8_t *p;

	/* packet_length, padding_length, payload, padding: a multiple of
	 * the block size, with at least 4 bytes of padding. */
	pad = BLOCK - (4 + 1 + payload) % BLOCK;
	if (pad < 4)
		pad += BLOCK;
	plen = 1 + payload + pad;
	if (banner + 4 + plen > size)
		return -ENOSPC;
	memcpy(out, BANNER, banner);
	p = out + banner;
	put32(p, (uint32_t)plen);
	p[4] = (uint8_t)pad;
	p[5] = SSH_MSG_DISCONNECT;
	put32(p + 6, SSH_DISCONNECT_NOT_ALLOWED);
	put32(p + 10, (uint32_t)rlen);
	for (i = 0; i < rlen; i++) {
		uint8_t c = (uint8_t)reason[i];

		p[14 + i] = c >= 0x20 && c < 0x7f ? c : '?';
	}
	put32(p + 14 + rlen, 0);
	memset(p + 18 + rlen, 0, pad);
	return (int)(banner + 4 + plen);
}
