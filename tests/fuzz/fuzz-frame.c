/* libFuzzer target for the frame decoder: arbitrary bytes as a stream of
 * frames, exactly as conn.c consumes them. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "proto/wire.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t flen;

	while (wire_frame_check(data, size, &flen) == 1) {
		Sbx__Envelope *env = NULL;

		/* What conn.c reserves for a frame is what it then takes. */
		if (wire_frame_need(data, size) != flen)
			abort();
		if (wire_decode(data + WIRE_HEADER, flen - WIRE_HEADER, &env) == 0) {
			uint8_t *buf;
			size_t len;

			(void)wire_msg_name(env->msg_case);
			/* Whatever decodes must re-encode within the limit. */
			if (wire_encode(env, &buf, &len) == 0)
				free(buf);
			wire_envelope_free(env);
		}
		data += flen;
		size -= flen;
	}
	/* An unfinished frame needs more than there is, within the limit. */
	if (wire_frame_check(data, size, &flen) == 0 &&
	    (wire_frame_need(data, size) <= size ||
	     wire_frame_need(data, size) > WIRE_HEADER + WIRE_FRAME_MAX))
		abort();
	return 0;
}
