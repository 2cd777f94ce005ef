/* libFuzzer target for the check of a rewritten .git/config: the input is
 * two files split at the first NUL; no crash, and a refusal names a line
 * of the new file (0: removed, or the file as a whole) and says why. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/policy/gitconfig.h"

int	LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *p = (const char *)data, *z = memchr(p, '\0', size);
	const char *n = z ? z + 1 : p;
	size_t olen = z ? (size_t)(z - p) : size;
	size_t nlen = z ? size - olen - 1 : size;
	struct gitconfig_error e = { 0 };
	size_t lines = 1, i;

	if (gitconfig_change_check(p, olen, n, nlen, &e) == 0)
		return 0;
	for (i = 0; i < nlen; i++)
		lines += n[i] == '\n';
	if (e.line > lines || e.why == NULL)
		__builtin_trap();
	return 0;
}
