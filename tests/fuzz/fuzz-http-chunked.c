/* libFuzzer target for http-chunked.c: every way of splitting the body finds the same end. */
#include <stdlib.h>
#include <string.h>

#include "http-chunked.h"

int	LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A proxy's loop: feed what is pending, forward and drop what is used. */
static int
run(const char *s, size_t size, size_t step, size_t *fwd)
{
	struct http_chunked c;
	const char *why = NULL;
	size_t have = 0, done = 0, used;
	int r = 0;

	http_chunked_init(&c);
	while (have < size) {
		have = have + step < size ? have + step : size;
		r = http_chunked_feed(&c, s + done, have - done, &used, &why);
		if (r < 0) {
			if (why == NULL)
				abort();
			break;
		}
		if (used > have - done)
			abort();
		done += used;
		if (r == 1)
			break;
	}
	*fwd = done;
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
