/* Unit tests for daemon/proxy/ssh-msg.c: the banner and the disconnect
 * packet a refused SSH client reads. */
#include <errno.h>
#include <string.h>

#include "daemon/proxy/ssh-msg.h"
#include "unit.h"

static uint32_t
get32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	    (uint32_t)p[2] << 8 | p[3];
}

int
main(void)
{
	uint8_t out[SSH_REFUSAL_MAX], *p;
	char longer[SSH_REASON_MAX + 50];
	size_t b = strlen("SSH-2.0-sbx\r\n");
	uint32_t plen, rlen;
	int n, k;

	n = ssh_refusal("blocked x:22: no\nrule", out, sizeof(out));
	CHECK(n > 0);
	CHECK(memcmp(out, "SSH-2.0-sbx\r\n", b) == 0);
	p = out + b;
	plen = get32(p);
	CHECK_INT(b + 4 + plen, n);
	CHECK_INT((4 + plen) % 8, 0);
	CHECK(p[4] >= 4);			/* padding */
	CHECK_INT(p[5], 1);			/* SSH_MSG_DISCONNECT */
	CHECK_INT(get32(p + 6), SSH_DISCONNECT_NOT_ALLOWED);
	rlen = get32(p + 10);
	CHECK_INT(rlen, strlen("blocked x:22: no\nrule"));
	CHECK(memcmp(p + 14, "blocked x:22: no?rule", rlen) == 0);
	CHECK_INT(get32(p + 14 + rlen), 0);	/* language */
	CHECK_INT(1 + 4 + 4 + rlen + 4 + p[4], plen - 1);
	/* Every length of reason pads to the block. */
	for (k = 0; k < 40; k++) {
		memset(longer, 'r', (size_t)k);
		longer[k] = '\0';
		n = ssh_refusal(longer, out, sizeof(out));
		CHECK(n > 0 && (n - (int)b) % 8 == 0 && out[b + 4] >= 4);
	}
	/* Cut to SSH_REASON_MAX; a buffer too small. */
	memset(longer, 'r', sizeof(longer) - 1);
	longer[sizeof(longer) - 1] = '\0';
	n = ssh_refusal(longer, out, sizeof(out));
	CHECK(n > 0);
	CHECK_INT(get32(out + b + 10), SSH_REASON_MAX);
	CHECK_INT(ssh_refusal("x", out, 20), -ENOSPC);
	UNIT_DONE();
}
