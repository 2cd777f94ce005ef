/* Unit tests for proto/wire.c: framing limits and round trips. */
#include <errno.h>
#include <stdlib.h>

#include "proto/wire.h"
#include "unit.h"

static void
test_frame_check(void)
{
	uint8_t b[8] = { 0, 0, 0, 3, 1, 2, 3, 9 };
	size_t n = 0;

	CHECK_INT(wire_frame_check(b, 0, &n), 0);
	CHECK_INT(wire_frame_check(b, 3, &n), 0);
	CHECK_INT(wire_frame_check(b, 6, &n), 0);
	CHECK_INT(wire_frame_check(b, 7, &n), 1);
	CHECK_INT(n, 7);
	CHECK_INT(wire_frame_check(b, 8, &n), 1);
	CHECK_INT(n, 7);
	/* Exactly the limit is fine (needs more bytes); one more is not. */
	b[0] = 0; b[1] = 0x10; b[2] = 0; b[3] = 0;
	CHECK_INT(wire_frame_check(b, 8, &n), 0);
	b[3] = 1;
	CHECK_INT(wire_frame_check(b, 4, &n), -EMSGSIZE);
	b[0] = 0xff;
	CHECK_INT(wire_frame_check(b, 4, &n), -EMSGSIZE);
	/* An empty payload is a whole frame. */
	memset(b, 0, 4);
	CHECK_INT(wire_frame_check(b, 4, &n), 1);
	CHECK_INT(n, 4);
}

static void
test_frame_need(void)
{
	uint8_t b[5] = { 0, 0x10, 0, 0, 7 };

	/* Before the header is whole, the header is what is needed. */
	CHECK_INT(wire_frame_need(b, 0), WIRE_HEADER);
	CHECK_INT(wire_frame_need(b, 3), WIRE_HEADER);
	CHECK_INT(wire_frame_need(b, 4), WIRE_HEADER + WIRE_FRAME_MAX);
	CHECK_INT(wire_frame_need(b, 5), WIRE_HEADER + WIRE_FRAME_MAX);
	b[1] = 0;
	b[3] = 2;
	CHECK_INT(wire_frame_need(b, 4), WIRE_HEADER + 2);
}

static void
test_roundtrip(void)
{
	Sbx__Envelope env = SBX__ENVELOPE__INIT, *out = NULL;
	Sbx__RunRequest req = SBX__RUN_REQUEST__INIT;
	char a0[] = "echo", a1[] = "hi", cwd[] = "/w";
	char *argv[] = { a0, a1 };
	uint8_t *buf;
	size_t len, flen;

	req.argv = argv;
	req.n_argv = 2;
	req.cwd = cwd;
	req.io_mode = SBX__IO_MODE__IO_MODE_STREAMING;
	env.msg_case = SBX__ENVELOPE__MSG_RUN;
	env.run = &req;
	CHECK_INT(wire_encode(&env, &buf, &len), 0);
	CHECK_INT(wire_frame_check(buf, len, &flen), 1);
	CHECK_INT(flen, len);
	CHECK_INT(wire_decode(buf + WIRE_HEADER, len - WIRE_HEADER, &out), 0);
	CHECK(out && out->msg_case == SBX__ENVELOPE__MSG_RUN);
	if (out && out->run) {
		CHECK_INT(out->run->n_argv, 2);
		CHECK_STR(out->run->argv[1], "hi");
		CHECK_STR(out->run->cwd, "/w");
	}
	wire_envelope_free(out);
	free(buf);
	CHECK_STR(wire_msg_name(SBX__ENVELOPE__MSG_RUN), "run");
	CHECK_STR(wire_msg_name(SBX__ENVELOPE__MSG_HELLO), "hello");
	CHECK_STR(wire_msg_name((Sbx__Envelope__MsgCase)9999), "unknown");
}

static void
test_bad_payloads(void)
{
	static const uint8_t garbage[] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff,
					   0xff, 0xff, 0xff, 0xff, 0xff };
	static const uint8_t truncated[] = { 0x0a, 0x10, 0x08 };
	static const uint8_t unknown[] = { 0x98, 0x06, 0x01 };
	Sbx__Envelope *out = NULL;

	CHECK_INT(wire_decode(garbage, sizeof(garbage), &out), -EBADMSG);
	CHECK_INT(wire_decode(truncated, sizeof(truncated), &out), -EBADMSG);
	/* Unknown fields decode into an envelope with no message set. */
	CHECK_INT(wire_decode(unknown, sizeof(unknown), &out), 0);
	CHECK(out && out->msg_case == SBX__ENVELOPE__MSG__NOT_SET);
	wire_envelope_free(out);
	CHECK_INT(wire_decode(garbage, WIRE_FRAME_MAX + 1, &out), -EMSGSIZE);
}

static void
test_encode_limit(void)
{
	Sbx__Envelope env = SBX__ENVELOPE__INIT;
	Sbx__OutputData od = SBX__OUTPUT_DATA__INIT;
	uint8_t *buf = NULL;
	size_t len = 0;

	od.data.len = WIRE_FRAME_MAX;
	od.data.data = calloc(1, od.data.len);
	env.msg_case = SBX__ENVELOPE__MSG_OUTPUT;
	env.output = &od;
	CHECK_INT(wire_encode(&env, &buf, &len), -EMSGSIZE);
	od.data.len = WIRE_CHUNK;
	CHECK_INT(wire_encode(&env, &buf, &len), 0);
	free(buf);
	free(od.data.data);
}

int
main(void)
{
	test_frame_check();
	test_frame_need();
	test_roundtrip();
	test_bad_payloads();
	test_encode_limit();
	UNIT_DONE();
}
