/* Frame encoding and decoding for the sbx protocol; pure, no I/O. */
#include <errno.h>
#include <stdlib.h>

#include "proto/wire.h"

int
wire_frame_check(const uint8_t *buf, size_t avail, size_t *frame_len)
{
	uint32_t n;

	if (avail < WIRE_HEADER)
		return 0;
	n = (uint32_t)buf[0] << 24 | (uint32_t)buf[1] << 16 |
	    (uint32_t)buf[2] << 8 | (uint32_t)buf[3];
	if (n > WIRE_FRAME_MAX)
		return -EMSGSIZE;
	if (avail < WIRE_HEADER + (size_t)n)
		return 0;
	*frame_len = WIRE_HEADER + (size_t)n;
	return 1;
}

size_t
wire_frame_need(const uint8_t *buf, size_t avail)
{
	if (avail < WIRE_HEADER)
		return WIRE_HEADER;
	return WIRE_HEADER + ((size_t)buf[0] << 24 | (size_t)buf[1] << 16 |
			      (size_t)buf[2] << 8 | (size_t)buf[3]);
}

int
wire_decode(const uint8_t *payload, size_t len, Sbx__Envelope **out)
{
	Sbx__Envelope *env;

	if (len > WIRE_FRAME_MAX)
		return -EMSGSIZE;
	env = sbx__envelope__unpack(NULL, len, payload);
	if (!env)
		return -EBADMSG;
	*out = env;
	return 0;
}

void
wire_envelope_free(Sbx__Envelope *env)
{
	if (env)
		sbx__envelope__free_unpacked(env, NULL);
}

int
wire_encode(const Sbx__Envelope *env, uint8_t **out, size_t *len)
{
	size_t n = sbx__envelope__get_packed_size(env);
	uint8_t *buf;

	if (n > WIRE_FRAME_MAX)
		return -EMSGSIZE;
	buf = malloc(WIRE_HEADER + n);
	if (!buf)
		return -ENOMEM;
	buf[0] = (uint8_t)(n >> 24);
	buf[1] = (uint8_t)(n >> 16);
	buf[2] = (uint8_t)(n >> 8);
	buf[3] = (uint8_t)n;
	sbx__envelope__pack(env, buf + WIRE_HEADER);
	*out = buf;
	*len = WIRE_HEADER + n;
	return 0;
}

const char *
wire_msg_name(Sbx__Envelope__MsgCase c)
{
	const ProtobufCFieldDescriptor *f;

	f = protobuf_c_message_descriptor_get_field(&sbx__envelope__descriptor,
						    (unsigned)c);
	return f ? f->name : "unknown";
}
