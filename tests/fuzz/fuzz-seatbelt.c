/* libFuzzer target for the Seatbelt generator and its quoting: every profile must read back with the structure it claims. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/policy/ignore.h"
#include "daemon/policy/merge.h"
#include "daemon/seatbelt/seatbelt.h"
#include "daemon/seatbelt/out.h"
#include "sbpl.h"

int	LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char doc[] = "{\"filesystem\": {\"allowWrite\": [\".\"], "
    "\"denyRead\": [\"./secret\", \"~/**/*.pem\"], \"allowRead\": "
    "[\"./secret/ok\"]}, \"protect\": [\"./gen/[a-c]*\"]}";

/* Quoting: any bytes (but NUL) read back as themselves. */
static void
quote(const char *s, size_t n)
{
	char *buf = NULL, err[128];
	struct sx *top;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (f == NULL)
		return;
	seatbelt_out_quote(f, s, n);
	fclose(f);
	top = sx_parse(buf, len, err, sizeof(err));
	if (top == NULL || top->n != 1 || top->v[0]->len != n ||
	    memcmp(top->v[0]->s, s, n) != 0)
		__builtin_trap();
	sx_free(top);
	free(buf);
}

/* The effective policy, made once: parsing is not what is fuzzed here. */
static const struct policy *
policy(void)
{
	static struct policy *eff;
	struct policy_ctx ctx = { POLICY_LAYER_USER, "f.json", "/Users/f",
	    "/Users/f/ws" };
	struct policy_diags d = { 0 };
	struct policy *u = NULL;

	if (eff == NULL && policy_parse(doc, sizeof(doc) - 1, &ctx, &u,
	    &d) == 0)
		policy_merge((const struct policy *const *)&u, 1, "/Users/f",
		    &eff, &d);
	policy_free(u);
	policy_diag_free(&d);
	return eff;
}

/* The profile for workspace ws and one ignore file must be well formed. */
static void
profile(const char *ws, const char *text, size_t len)
{
	struct seatbelt_input in = { policy(), NULL, ws, "/var/folders/x/T/t",
	    NULL, 3128, 1080 };
	struct policy_diags d = { 0 };
	struct ignore_set *set;
	struct ignore_file *f;
	struct ignore_error ierr;
	char *out = NULL, err[128];
	struct sx *top;
	size_t n;

	if (in.policy == NULL || ignore_set_new(&set) < 0)
		return;
	if (ignore_parse("", ".sbxignore", text, len, &f, &ierr) == 0 &&
	    ignore_set_add(set, f) < 0)
		ignore_file_free(f);
	in.ignores = set;
	if (seatbelt_profile(&in, &out, &n, &d) == 0) {
		top = sx_parse(out, n, err, sizeof(err));
		if (top == NULL || sbpl_check(top) != NULL)
			__builtin_trap();
		sx_free(top);
		free(out);
	}
	policy_diag_free(&d);
	ignore_set_free(set);
}

/* Input: a workspace path (one line, "/" put in front), then ignore lines. */
int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *nl = memchr(data, '\n', size);
	size_t wlen = nl ? (size_t)(nl - (const char *)data) : size;
	char ws[512];

	if (memchr(data, '\0', size) == NULL)
		quote((const char *)data, size);
	if (wlen >= sizeof(ws) - 1 || memchr(data, '\0', wlen) != NULL)
		return 0;
	ws[0] = '/';
	memcpy(ws + 1, data, wlen);
	ws[wlen + 1] = '\0';
	profile(ws, nl ? nl + 1 : "", nl ? size - wlen - 1 : 0);
	return 0;
}
