/* Framing of the sbx protocol: u32 big-endian length + one Envelope. */
#ifndef SBX_WIRE_H
#define SBX_WIRE_H

#include <stddef.h>
#include <stdint.h>

#include "proto/sbx.pb-c.h"

/* The release both binaries print (Hello carries the daemon's). */
#define SBX_VERSION "0.1.0"
/* The versions are sbx.proto's (enum ProtocolVersion): the daemon
 * accepts a Hello of any from MIN to the current one. */
#define WIRE_PROTOCOL_VERSION SBX__PROTOCOL_VERSION__PROTOCOL_VERSION
#define WIRE_PROTOCOL_VERSION_MIN SBX__PROTOCOL_VERSION__PROTOCOL_VERSION_MIN
#define WIRE_HEADER 4
/* Largest Envelope accepted; checked before anything is allocated. Output
 * chunks are far smaller (WIRE_CHUNK), so only hostile peers come near it. */
#define WIRE_FRAME_MAX (1u << 20)
#define WIRE_CHUNK (64u * 1024)

/* Length of the frame at buf: 1 and *frame_len (header included) when a whole
 * frame is there, 0 when more bytes are needed, -EMSGSIZE when the header
 * announces more than WIRE_FRAME_MAX. */
int wire_frame_check(const uint8_t *buf, size_t avail, size_t *frame_len);

/* What the frame begun at buf takes in all, header included, once that
 * header is there (checked by wire_frame_check); WIRE_HEADER before. */
size_t wire_frame_need(const uint8_t *buf, size_t avail);

/* Decodes the payload of one frame (header excluded). -EBADMSG when it does
 * not decode; an Envelope with no known message comes back with msg_case
 * SBX__ENVELOPE__MSG__NOT_SET and is the dispatcher's to refuse. The result
 * is freed with wire_envelope_free(). */
int wire_decode(const uint8_t *payload, size_t len, Sbx__Envelope **out);
void wire_envelope_free(Sbx__Envelope *env);

/* Encodes env as a whole frame into a malloc'd buffer. -EMSGSIZE when the
 * encoding exceeds WIRE_FRAME_MAX. */
int wire_encode(const Sbx__Envelope *env, uint8_t **out, size_t *len);

/* Name of a message case, for logs and errors ("run", "hello", ...). */
const char *wire_msg_name(Sbx__Envelope__MsgCase c);

#endif
