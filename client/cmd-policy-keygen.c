/* sbxctl policy keygen: an Ed25519 key pair for signing org policies. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "client/cmd-policy.h"
#include "client/file.h"
#include "daemon/crypto.h"

static const struct option opts[] = {
	{ "out", required_argument, NULL, 'o' },
	{ NULL, 0, NULL, 0 },
};

static int
cmd_policy_keygen(const struct cmd_ctx *ctx, int argc, char **argv)
{
	char *priv = NULL, *pub = NULL, kpath[4096], ppath[4096];
	char id[CRYPTO_KEY_ID_LEN + 1];
	const char *prefix = NULL;
	int ch, code = EXIT_SBX;

	while ((ch = getopt_long(argc, argv, "", opts, NULL)) != -1) {
		if (ch != 'o')
			return cmd_bad_usage(&cmd_policy_keygen_entry,
					     "policy ");
		prefix = optarg;
	}
	if (!prefix || optind != argc) {
		client_err("usage: sbxctl policy %s",
			   cmd_policy_keygen_entry.usage);
		return EXIT_SBX;
	}
	snprintf(kpath, sizeof(kpath), "%s.key", prefix);
	snprintf(ppath, sizeof(ppath), "%s.pub", prefix);
	if (crypto_ed25519_keygen(&priv, &pub) < 0) {
		client_err("cannot make a key pair");
		return EXIT_SBX;
	}
	/* Never over an existing key: losing one is worse than a retry. */
	if (file_write_new(kpath, 0600, priv, strlen(priv)) < 0)
		goto out;
	if (file_write_new(ppath, 0644, pub, strlen(pub)) < 0) {
		unlink(kpath);
		goto out;
	}
	crypto_ed25519_key_id(pub, strlen(pub), id);
	printf("private key: %s (keep it secret; sbxctl policy sign --key)\n"
	       "public key:  %s (install in /etc/sbx/trusted-keys/, owned "
	       "by root)\nkey id:      %s\n", kpath, ppath, id);
	code = 0;
out:
	free(priv);
	free(pub);
	return code;
}

const struct cmd_entry cmd_policy_keygen_entry = {
	.name = "keygen",
	.usage = "keygen --out PREFIX",
	.summary = "Make an Ed25519 key pair: PREFIX.key (0600) and PREFIX.pub.",
	.fn = cmd_policy_keygen,
	.opts = opts,
	.shortopts = "",
};
