/* sbxctl policy sign: an Ed25519 signature of an org policy file. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "client/cmd-policy.h"
#include "client/file.h"
#include "daemon/crypto.h"
#include "daemon/policy/policy.h"

/* Only what the daemon would accept is worth signing: an org policy that
 * parses and has a serial. */
static int
check(const char *path, const char *buf, size_t len)
{
	struct policy_ctx pc = { POLICY_LAYER_ORG, path, "/", NULL };
	struct policy_diags d = { 0 };
	struct policy *p = NULL;
	size_t i;
	int r;

	r = policy_parse(buf, len, &pc, &p, &d);
	for (i = 0; i < d.n; i++)
		if (d.v[i].severity == POLICY_ERROR)
			fprintf(stderr, "%s\n", d.v[i].msg);
	if (r == 0 && p->serial <= 0) {
		client_err("%s: an org policy needs a \"serial\"", path);
		r = -1;
	}
	policy_diag_free(&d);
	policy_free(p);
	return r;
}

static const struct option opts[] = {
	{ "key", required_argument, NULL, 'k' },
	{ "out", required_argument, NULL, 'o' },
	{ NULL, 0, NULL, 0 },
};

static int
cmd_policy_sign(const struct cmd_ctx *ctx, int argc, char **argv)
{
	char *policy = NULL, *key = NULL, out[4096];
	char text[CRYPTO_SIG_B64_LEN + 2];
	uint8_t sig[CRYPTO_SIG_LEN];
	const char *kpath = NULL, *opath = NULL;
	size_t len, klen;
	int ch, code = EXIT_SBX;

	while ((ch = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		if (ch == 'k')
			kpath = optarg;
		else if (ch == 'o')
			opath = optarg;
		else
			return cmd_bad_usage(&cmd_policy_sign_entry, "policy ");
	}
	if (!kpath || optind != argc - 1) {
		client_err("usage: sbxctl policy %s", cmd_policy_sign_entry.usage);
		return EXIT_SBX;
	}
	snprintf(out, sizeof(out), "%s.sig", argv[optind]);
	if (file_read(argv[optind], POLICY_MAX_BYTES, &policy, &len) < 0 ||
	    check(argv[optind], policy, len) < 0 ||
	    file_read(kpath, CRYPTO_KEY_MAX, &key, &klen) < 0)
		goto out;
	if (crypto_ed25519_sign(key, klen, policy, len, sig) < 0) {
		client_err("%s: not an unencrypted Ed25519 private key in PEM",
			   kpath);
		goto out;
	}
	crypto_sig_encode(sig, text);
	if (file_replace(opath ? opath : out, 0644, text, strlen(text)) < 0)
		goto out;
	printf("signature: %s\n", opath ? opath : out);
	code = 0;
out:
	free(policy);
	if (key)
		explicit_bzero(key, klen);
	free(key);
	return code;
}

const struct cmd_entry cmd_policy_sign_entry = {
	.name = "sign",
	.usage = "sign FILE --key KEY [--out SIGFILE]",
	.summary = "Sign an organisation policy (base64 Ed25519; default "
		   "FILE.sig).",
	.fn = cmd_policy_sign,
	.opts = opts,
	.shortopts = "",
};
