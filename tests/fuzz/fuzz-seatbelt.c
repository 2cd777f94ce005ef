/* libFuzzer target for the Seatbelt generator and its quoting: every profile must read back with the structure it claims. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ignore.h"
#include "policy-merge.h"
#include "seatbelt.h"
#include "seatbelt-out.h"
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

/* The profile for workspace ws and one ignore file must be well formed. */
static void
profile(const char *ws, const char *text, size_t len)
{
	struct policy_ctx ctx = { POLICY_LAYER_USER, "f.json", "/Users/f", ws };
	struct seatbelt_input in = { NULL, NULL, ws, "/var/folders/x/T/t",
	    NULL, 3128, 1080 };
	struct policy_diags d = { 0 };
	struct policy *u = NULL, *eff = NULL;
	struct ignore_file *f;
	struct ignore_error ierr;
	char *out = NULL, err[128];
	struct sx *top;
	size_t n;

	if (ignore_set_new((struct ignore_set **)&in.ignores) < 0)
		return;
	if (ignore_parse("", ".sbxignore", text, len, &f, &ierr) == 0 &&
	    ignore_set_add((struct ignore_set *)in.ignores, f) < 0)
		ignore_file_free(f);
	if (policy_parse(doc, sizeof(doc) - 1, &ctx, &u, &d) == 0 &&
	    policy_merge((const struct policy *const *)&u, 1, "/Users/f",
	    &eff, &d) == 0) {
		in.policy = eff;
		if (seatbelt_profile(&in, &out, &n, &d) == 0) {
			top = sx_parse(out, n, err, sizeof(err));
			if (top == NULL || sbpl_check(top) != NULL)
				__builtin_trap();
			sx_free(top);
			free(out);
		}
	}
	policy_free(u);
	policy_free(eff);
	policy_diag_free(&d);
	ignore_set_free((struct ignore_set *)in.ignores);
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
