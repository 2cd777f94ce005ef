/* Profiles for hostile paths: quoting, regex escaping and refusals of the Seatbelt generator. */
#include <errno.h>

#include "daemon/policy/merge.h"
#include "daemon/seatbelt/seatbelt.h"
#include "daemon/seatbelt/out.h"
#include "unit.h"
#include "sbpl.h"

/* Every byte a path can hold survives quoting and the reader. */
static void
test_quote(void)
{
	char in[256], *buf = NULL, err[128];
	struct sx *top;
	size_t n = 0, i;
	FILE *f = open_memstream(&buf, &n);

	for (i = 1; i < 256; i++)
		in[i - 1] = (char)i;
	seatbelt_out_quote(f, in, 255);
	fclose(f);
	CHECK(memchr(buf, '\n', n) == NULL);
	top = sx_parse(buf, n, err, sizeof(err));
	CHECK(top != NULL && top->n == 1 && top->v[0]->kind == SX_STR &&
	    top->v[0]->len == 255 && memcmp(top->v[0]->s, in, 255) == 0);
	sx_free(top);
	free(buf);
}

/* Finds the (subpath ...) strings of the first "allow file-write*". */
static bool
has_write_root(struct sx *top, const char *path)
{
	struct sx *r;
	size_t i, j;

	for (i = 3; i < top->n; i++) {
		r = top->v[i];
		if (!sx_head(r, "allow") || !sx_is(r->v[1], "file-write*"))
			continue;
		for (j = 2; j < r->n; j++)
			if (sx_head(r->v[j], "subpath") &&
			    strcmp(r->v[j]->v[1]->s, path) == 0)
				return true;
	}
	return false;
}

static bool
allows(struct sx *top, const char *op, const char *a, const char *b)
{
	char path[4096];
	struct sbpl_q q = { op, path, false, NULL, NULL };

	snprintf(path, sizeof(path), "%s%s", a, b);
	CHECK(sbpl_allows(top, &q, false) == sbpl_allows(top, &q, true));
	return sbpl_allows(top, &q, false);
}

/*
 * Workspaces made to break quoting or regexes: the write root must read
 * back as exactly the path, and the rules must mean that path and no
 * other (a sibling with the same prefix, a path a metacharacter would
 * also match).
 */
static void
test_hostile(void)
{
	static const char *const ws[] = {
		"/Users/a/x\"y", "/Users/a/x\\y", "/Users/a/(x)", "/Users/a/x)",
		"/Users/a/x\ny", "/Users/a/x\n(allow default)",
		"/Users/a/a.b*c+d?e[f]g{h}i|j^k$l", "/Users/a/\\\"\\",
		"/tmp/w;x", "/Users/a/x\ty\r",
	};
	static const char doc[] = "{\"filesystem\": {\"allowWrite\": "
	    "[\".\"], \"denyRead\": [\"./.env\"]}}";
	struct policy_ctx ctx = { POLICY_LAYER_USER, "t.json", "/Users/a",
	    NULL };
	struct seatbelt_input in = { NULL, NULL, NULL, "/t", NULL, 0, 0 };
	struct policy_diags d = { 0 };
	struct policy *u, *eff;
	char *text, err[128], sib[256];
	struct sx *top;
	size_t i, len;

	for (i = 0; i < sizeof(ws) / sizeof(ws[0]); i++) {
		ctx.workspace = ws[i];
		CHECK_INT(policy_parse(doc, strlen(doc), &ctx, &u, &d), 0);
		CHECK_INT(policy_merge((const struct policy *const *)&u, 1,
		    "/Users/a", &eff, &d), 0);
		in.policy = eff;
		in.workspace = ws[i];
		CHECK_INT(seatbelt_profile(&in, &text, &len, &d), 0);
		top = sx_parse(text, len, err, sizeof(err));
		CHECK(top != NULL && sbpl_check(top) == NULL);
		CHECK(top != NULL && has_write_root(top, ws[i]));
		snprintf(sib, sizeof(sib), "%sz", ws[i]);
		if (top != NULL) {
			CHECK(allows(top, "file-write-create", ws[i], "/f"));
			CHECK(!allows(top, "file-write-create", sib, "/f"));
			CHECK(!allows(top, "file-read-data", ws[i], "/.env"));
			CHECK(allows(top, "file-read-data", ws[i], "/.envy"));
			CHECK(!allows(top, "file-write-create", ws[i],
			    "/.GIT/hooks/x"));
			CHECK(strstr(text, "\n(allow default") == NULL);
		}
		sx_free(top);
		free(text);
		policy_free(eff);
		policy_free(u);
	}
	policy_diag_free(&d);
}

static void
test_refused(void)
{
	struct policy_diags d = { 0 };
	struct seatbelt_input in = { NULL, NULL, "/ws", "/t", NULL, 0, 0 };
	char long_ws[1200], *text = NULL;
	size_t len;

	CHECK_INT(policy_merge(NULL, 0, "/h", (struct policy **)&in.policy,
	    &d), 0);
	in.workspace = "ws";
	CHECK_INT(seatbelt_profile(&in, &text, &len, &d), -EINVAL);
	in.workspace = "/ws\xff";
	CHECK_INT(seatbelt_profile(&in, &text, &len, &d), -EINVAL);
	memset(long_ws, 'a', sizeof(long_ws) - 1);
	long_ws[0] = '/';
	long_ws[sizeof(long_ws) - 1] = '\0';
	in.workspace = "/ws";
	in.tmpdir = long_ws;
	CHECK_INT(seatbelt_profile(&in, &text, &len, &d), -ENAMETOOLONG);
	CHECK(text == NULL);
	policy_free((struct policy *)in.policy);
	policy_diag_free(&d);
}

int
main(void)
{
	test_quote();
	test_hostile();
	test_refused();
	UNIT_DONE();
}
