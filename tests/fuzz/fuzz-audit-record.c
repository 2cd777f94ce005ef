/* libFuzzer target for audit-record.c: any bytes, any record type; the
 * fields stay NUL-terminated, within their buffers, and printable. */
#include <stdlib.h>
#include <string.h>

#include "daemon/linux/audit-record.h"

int	LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void
printable(const char *s, size_t cap)
{
	size_t n = strnlen(s, cap);

	if (n == cap)
		abort();
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const int types[] = { AUDIT_RECORD_LANDLOCK_ACCESS,
				     AUDIT_RECORD_LANDLOCK_DOMAIN,
				     AUDIT_RECORD_TRUSTED_APP };
	struct audit_record r;
	char *copy;
	size_t i;

	/* Exactly size bytes: the parser must not read past them. */
	if (!(copy = malloc(size ? size : 1)))
		return 0;
	memcpy(copy, data, size);
	for (i = 0; i < sizeof(types) / sizeof(types[0]); i++) {
		if (audit_record_parse(types[i], copy, size, &r) < 0)
			continue;
		printable(r.blockers, sizeof(r.blockers));
		printable(r.path, sizeof(r.path));
		printable(r.ocomm, sizeof(r.ocomm));
		printable(r.addr, sizeof(r.addr));
		printable(r.msg, sizeof(r.msg));
		if (r.allocated && r.deallocated)
			abort();
	}
	free(copy);
	return 0;
}
