/* libFuzzer target for http-chunked.c: every way of splitting the body finds the same end. */
#include <stdlib.h>
#include <string.h>

#include "chunked-drive.h"

int	LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int
run(const char *s, size_t size, size_t step, size_t *fwd)
{
	const char *why;
	int r;

	*fwd = 0;
	r = chunked_drive(s, size, step, fwd, &why);
	if (r == CHUNKED_DRIVE_OVERRUN || (r < 0 && why == NULL))
		abort();
	return r;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *s = (const char *)data;
	size_t f1, f2, f3;
	int r1, r2, r3;

	if (size == 0)
		return 0;
	r1 = run(s + 1, size - 1, size, &f1);
	r2 = run(s + 1, size - 1, 1, &f2);
	r3 = run(s + 1, size - 1, 1 + data[0], &f3);
	if (r1 != r2 || r1 != r3)
		abort();
	if (r1 == 1 && (f1 != f2 || f1 != f3))
		abort();
	return 0;
}
