/* libFuzzer target for http-parse.c: any split of the input gives the same result as the whole. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/proxy/http-chunked.h"
#include "daemon/proxy/http-parse.h"

int	LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A name that, '_' read as '-', is Content-Length or Transfer-Encoding
 * without being it: the parser must have refused it. */
static bool
folds_to_framing(const char *n, size_t len)
{
	char folded[32];
	size_t j;

	if (memchr(n, '_', len) == NULL || len > sizeof(folded))
		return false;
	for (j = 0; j < len; j++)
		folded[j] = n[j] == '_' ? '-' : n[j];
	return http_parse_token_is(folded, len, "content-length") ||
	    http_parse_token_is(folded, len, "transfer-encoding");
}

static void
check_result(const struct http_req *r, const char *buf, size_t n)
{
	char line[HTTP_HEAD_MAX + 32];
	const char *why;
	size_t i;

	if (r->head != buf || r->head_len != n || n > HTTP_HEAD_MAX ||
	    r->nfields > HTTP_FIELDS_MAX)
		abort();
	for (i = 0; i < r->nfields; i++) {
		if ((size_t)r->field[i].name.off + r->field[i].name.len > n ||
		    (size_t)r->field[i].value.off + r->field[i].value.len > n ||
		    r->field[i].name.len == 0)
			abort();
		(void)http_parse_hop_by_hop(r, i);
		if (folds_to_framing(buf + r->field[i].name.off,
		    r->field[i].name.len))
			abort();
	}
	if (r->minor == 1 && r->form != HTTP_FORM_AUTHORITY &&
	    r->host_field < 0)
		abort();
	if ((r->form == HTTP_FORM_AUTHORITY) !=
	    (http_parse_origin_line(r, line, sizeof(line)) == -EINVAL))
		abort();
	if (http_parse_host_agrees(r, &why) != 0 &&
	    r->form != HTTP_FORM_ABSOLUTE)
		abort();
}

/* The same bytes in pieces of the given sizes, as a socket would give them. */
static int
parse_split(struct http_req *r, enum http_mode mode, const char *buf,
    size_t size, const uint8_t *steps, size_t nsteps)
{
	size_t have = 0, k = 0;
	int ret = 0;

	http_parse_init(r, mode);
	while (have < size) {
		have += 1 + (nsteps ? steps[k++ % nsteps] : 0);
		if (have > size)
			have = size;
		if ((ret = http_parse_request(r, buf, have)) != 0)
			break;
	}
	return ret;
}

static void
check_body(const char *s, size_t len)
{
	struct http_chunked c;
	const char *why;
	size_t used;

	http_chunked_init(&c);
	if (http_chunked_feed(&c, s, len, &used, &why) >= 0 && used > len)
		abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct http_req whole, split;
	const char *buf = (const char *)data;
	enum http_mode mode;
	int a, b;

	for (mode = HTTP_MODE_PROXY; mode <= HTTP_MODE_ORIGIN; mode++) {
		http_parse_init(&whole, mode);
		a = http_parse_request(&whole, buf, size);
		b = parse_split(&split, mode, buf, size, data,
		    size < 8 ? size : 8);
		if (a != b || (a < 0 && (whole.status != split.status ||
		    whole.why != split.why)))
			abort();
		if (a < 0 && (whole.why == NULL || whole.status < 400))
			abort();
		if (a > 0) {
			check_result(&whole, buf, (size_t)a);
			if (whole.nfields != split.nfields)
				abort();
			if (whole.body == HTTP_BODY_CHUNKED)
				check_body(buf + a, size - (size_t)a);
		}
	}
	return 0;
}
