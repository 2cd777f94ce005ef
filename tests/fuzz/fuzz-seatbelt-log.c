/* libFuzzer target for the Seatbelt log-line parser and session tags. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/seatbelt/log.h"

int	LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A field is NUL-terminated inside its array. */
#define TERMINATED(a)	(memchr((a), '\0', sizeof(a)) != NULL)

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct seatbelt_violation v;
	char *s;
	uint64_t session;
	int r;

	r = seatbelt_log_parse((const char *)data, size, &v);
	if (r < -22 || r > 1)
		__builtin_trap();
	if (r == 1 && (!TERMINATED(v.process) || !TERMINATED(v.op) ||
	    !TERMINATED(v.target) || !TERMINATED(v.tag) ||
	    !TERMINATED(v.time) || v.op[0] == '\0' ||
	    v.kind < SEATBELT_FS_READ || v.kind > SEATBELT_SYSCALL))
		__builtin_trap();
	if ((s = malloc(size + 1)) == NULL)
		return 0;
	memcpy(s, data, size);
	s[size] = '\0';
	if (seatbelt_log_tag_session(s, "sbx-0f1e2d3c4b5a6978-", &session) ==
	    0 && strncmp(s, "sbx-0f1e2d3c4b5a6978-", 21) != 0)
		__builtin_trap();
	free(s);
	return 0;
}
