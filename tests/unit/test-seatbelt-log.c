/* The Seatbelt log-line parser on recorded `log stream --style ndjson` lines, and the tags and predicate. */
#include <errno.h>
#include <inttypes.h>

#include "daemon/seatbelt/log.h"
#include "unit.h"
#include "golden.h"

#define GOLDEN	"tests/golden/seatbelt-log"
#define NONCE	UINT64_C(0x0f1e2d3c4b5a6978)

/*
 * NAME.ndjson holds lines as `log stream --style ndjson` prints them;
 * NAME.out says, line by line, what the parser made of each: "ignored",
 * "malformed", or the violation's fields. SBX_GOLDEN_UPDATE=1 rewrites
 * the .out files; review them with git diff.
 */
static void
render(FILE *f, const char *line, size_t len)
{
	struct seatbelt_violation v;
	char prefix[SEATBELT_TAG_MAX];
	uint64_t session;
	int r = seatbelt_log_parse(line, len, &v);

	if (r <= 0) {
		fprintf(f, "%s\n", r == 0 ? "ignored" : "malformed");
		return;
	}
	CHECK_INT(seatbelt_log_tag_prefix(NONCE, prefix, sizeof(prefix)), 0);
	fprintf(f, "%s %s op=%s count=%u process=[%s] pid=%d target=[%s] "
	    "tag=[%s] session=", seatbelt_log_kind_name(v.kind),
	    v.denied ? "deny" : "allow", v.op, v.count, v.process, v.pid,
	    v.target, v.tag);
	if (seatbelt_log_tag_session(v.tag, prefix, &session) == 0)
		fprintf(f, "%" PRIu64, session);
	else
		fputs("none", f);
	fprintf(f, " time=[%s]\n", v.time);
}

static void
golden_run(const char *name, void *arg)
{
	size_t *nlines = arg;
	char in[512], out[512], *text, *got = NULL, *p, *nl;
	size_t len, glen = 0;
	FILE *f;

	snprintf(in, sizeof(in), "%s/%s.ndjson", GOLDEN, name);
	snprintf(out, sizeof(out), "%s/%s.out", GOLDEN, name);
	CHECK((text = golden_slurp(in, &len)) != NULL);
	if (text == NULL)
		return;
	f = open_memstream(&got, &glen);
	for (p = text; p < text + len; p = nl + 1) {
		if ((nl = memchr(p, '\n', (size_t)(text + len - p))) == NULL)
			nl = text + len;
		render(f, p, (size_t)(nl - p));
		(*nlines)++;
	}
	fclose(f);
	golden_check(out, got, glen);
	free(got);
	free(text);
}

static void
test_golden(void)
{
	size_t n, nlines = 0;

	n = golden_each(GOLDEN, ".ndjson", golden_run, &nlines);
	CHECK(n >= 1 && nlines >= 20);
	printf("log lines: %zu in %zu files\n", nlines, n);
}

static void
test_tags(void)
{
	char tag[SEATBELT_TAG_MAX], prefix[SEATBELT_TAG_MAX], pred[256];
	uint64_t s;

	CHECK_INT(seatbelt_log_tag(NONCE, 42, tag, sizeof(tag)), 0);
	CHECK_STR(tag, "sbx-0f1e2d3c4b5a6978-42");
	CHECK_INT(seatbelt_log_tag_prefix(NONCE, prefix, sizeof(prefix)), 0);
	CHECK_INT(seatbelt_log_tag_session(tag, prefix, &s), 0);
	CHECK_INT(s, 42);
	CHECK_INT(seatbelt_log_tag_session("sbx-0f1e2d3c4b5a6978-", prefix,
	    &s), -EINVAL);
	CHECK_INT(seatbelt_log_tag_session("sbx-0f1e2d3c4b5a6978-4x", prefix,
	    &s), -EINVAL);
	CHECK_INT(seatbelt_log_tag_session("sbx-0f1e2d3c4b5a6978-"
	    "18446744073709551616", prefix, &s), -EINVAL);
	CHECK_INT(seatbelt_log_tag_session("sbx-1f1e2d3c4b5a6978-4", prefix,
	    &s), -EINVAL);
	CHECK_INT(seatbelt_log_tag(NONCE, 1, tag, 10), -ENAMETOOLONG);
	CHECK_INT(seatbelt_log_predicate(prefix, pred, sizeof(pred)), 0);
	CHECK_STR(pred, "processID == 0 AND eventMessage CONTAINS "
	    "\"sbx-0f1e2d3c4b5a6978-\"");
	CHECK_INT(seatbelt_log_predicate("x\" OR 1", pred, sizeof(pred)),
	    -EINVAL);
	CHECK_INT(seatbelt_log_predicate("", pred, sizeof(pred)), -EINVAL);
}

int
main(void)
{
	test_tags();
	test_golden();
	UNIT_DONE();
}
