/* Unit tests for daemon/policy/describe.c over a merged policy. */
#include <stdlib.h>
#include <string.h>

#include "daemon/policy/describe.h"
#include "daemon/policy/merge.h"
#include "unit.h"

static const char doc[] =
	"{\"filesystem\": {\"denyRead\": [\"~/.ssh\"], \"allowWrite\": [\".\"]},"
	" \"network\": {\"allowedDomains\": [\"pypi.org\"],"
	"  \"deniedDomains\": [\"evil.example\"], \"unknownHosts\": \"deny\"},"
	" \"limits\": {\"pids\": 300}}";

int
main(void)
{
	struct policy_ctx ctx = { POLICY_LAYER_USER, "u.json", "/home/u",
				  "/w" };
	char tok[] = "GITHUB_TOKEN", sock[] = "SSH_AUTH_SOCK";
	char *withheld[] = { tok, sock, NULL };
	struct describe_ctx dc = { "/w", "linux", 6, true, false, false,
				   "/tmp", false, false, withheld,
				   64 << 20, 600, true, true,
				   { { 1000, 4ull << 30, 50 } }, true, false };
	struct policy_diags d = { 0 };
	struct policy *u = NULL, *eff = NULL;
	const struct policy *docs[1];
	struct fsplan *fs = NULL;
	json_t *j = NULL;
	char *text = NULL;

	CHECK_INT(policy_parse(doc, sizeof(doc) - 1, &ctx, &u, &d), 0);
	docs[0] = u;
	CHECK_INT(policy_merge(docs, 1, "/home/u", &eff, &d), 0);
	CHECK_INT(fsplan_build(eff, "/w", NULL, &fs), 0);
	CHECK_INT(describe_build(eff, fs, &dc, &text, &j), 0);
	CHECK(text && strstr(text, "Writable: /w\n"));
	CHECK(text && strstr(text, "/home/u/.ssh"));
	CHECK(text && strstr(text, "Allowed hosts: pypi.org"));
	CHECK(text && strstr(text, "Denied hosts: evil.example"));
	CHECK(text && strstr(text, "Other hosts: refused"));
	CHECK(text && strstr(text, "hold at most 64 MiB together"));
	CHECK(text && strstr(text, "emptied 10 minutes after"));
	CHECK(text && strstr(text, ".git/hooks"));
	CHECK(text && strstr(text, "sbx: blocked"));
	CHECK(text && strstr(text, "- Withheld from the environment (secrets; "
			     "`sbxctl policy explain env:NAME` says why): "
			     "GITHUB_TOKEN, SSH_AUTH_SOCK\n"));
	CHECK_INT(json_array_size(json_object_get(j, "env_withheld")), 2);
	CHECK(text && strstr(text, "- Hard links of files outside the "
			     "writable paths (a package store's, as pnpm "
			     "makes node_modules) are read-only"));
	CHECK_STR(json_string_value(json_object_get(j, "unknown_hosts")),
		  "deny");
	CHECK_INT(json_array_size(json_object_get(j, "writable")), 1);
	CHECK_INT(json_integer_value(json_object_get(j, "landlock_abi")), 6);
	CHECK_STR(json_string_value(json_object_get(j, "outside_links")),
		  "read-only");
	CHECK(json_is_true(json_object_get(j, "local_servers")));
	CHECK(text && !strstr(text, "listening"));
	CHECK(json_is_null(json_object_get(j, "home_overlay")));
	/* Limits: the defaults, the user's pids lower. */
	CHECK(text && strstr(text, "- Resources: at most 300 processes and "
			     "threads, 4 GiB of memory"));
	CHECK_INT(json_integer_value(json_object_get(json_object_get(j,
		  "limits"), "pids")), 300);
	CHECK_INT(json_integer_value(json_object_get(json_object_get(j,
		  "limits"), "memory")), 4ll << 30);
	CHECK(text && !strstr(text, "overlay"));
	CHECK(text && strstr(text, "- Unix sockets: stream and seqpacket "
			     "sockets in the writable paths"));
	CHECK(text && strstr(text, "Sockets outside the sandbox allowed: "
			     "none"));
	CHECK_STR(json_string_value(json_object_get(j, "unix_sockets")),
		  "sandbox");
	CHECK(text && strstr(text, "- Debuggers (ptrace) work on the "
			     "sandbox's own processes"));
	CHECK(json_is_true(json_object_get(j, "ptrace")));
	free(text);
	json_decref(j);
	/* No supervisor or no network namespace: Unix sockets refused, and
	 * said; a policy without ptrace says so. */
	dc.unix_sockets = false;
	fs->no_ptrace = true;
	CHECK_INT(describe_build(eff, fs, &dc, &text, &j), 0);
	CHECK(text && strstr(text, "- Unix sockets: refused (this host"));
	CHECK_STR(json_string_value(json_object_get(j, "unix_sockets")),
		  "refused");
	CHECK(text && strstr(text, "Debuggers: no ptrace"));
	CHECK(json_is_false(json_object_get(j, "ptrace")));
	fs->no_ptrace = false;
	free(text);
	json_decref(j);
	/* Transparent capture: said, in text and JSON. */
	dc.captured = true;
	CHECK_INT(describe_build(eff, fs, &dc, &text, &j), 0);
	CHECK(text && strstr(text, "whether a program uses "
			     "HTTP_PROXY/ALL_PROXY or not"));
	CHECK(json_is_true(json_object_get(j, "network_capture")));
	free(text);
	json_decref(j);
	dc.captured = false;
	/* No network namespace on this host: no servers, no UDP, no
	 * capture. */
	dc.host_network = true;
	CHECK_INT(describe_build(eff, fs, &dc, &text, &j), 0);
	CHECK(text && strstr(text, "- No UDP and no listening sockets (this "
			     "host gives the sandbox no network namespace)"));
	CHECK(text && strstr(text, "no transparent capture here"));
	CHECK(json_is_false(json_object_get(j, "network_capture")));
	CHECK(json_is_false(json_object_get(j, "local_servers")));
	free(text);
	json_decref(j);
	/* Landlock-only: no network, a temp dir of its own. */
	dc.host_network = false;
	dc.no_network = true;
	dc.tmp = "/run/user/1/sbx/tmp/x";
	dc.no_link_mounts = true;
	CHECK_INT(describe_build(eff, fs, &dc, &text, &j), 0);
	CHECK(text && strstr(text, "- Files with several hard links in the "
			     "writable paths cannot be written."));
	CHECK(text && !strstr(text, "are read-only and cannot be removed"));
	CHECK_STR(json_string_value(json_object_get(j, "outside_links")),
		  "refused");
	CHECK(text && strstr(text, "- Network: none"));
	CHECK(text && !strstr(text, "Allowed hosts"));
	CHECK(text && strstr(text, "- The temp dir is /run/user/1/sbx/tmp/x "
			     "($TMPDIR)"));
	CHECK_STR(json_string_value(json_object_get(j, "tmp")),
		  "/run/user/1/sbx/tmp/x");
	CHECK(json_is_false(json_object_get(j, "local_servers")));
	free(text);
	json_decref(j);
	/* ... and without a supervisor: said to be unguarded. */
	dc.protect_unguarded = true;
	CHECK_INT(describe_build(eff, fs, &dc, &text, &j), 0);
	CHECK(text && strstr(text, "are writable here, and a write changes "
			     "the file outside too"));
	CHECK_STR(json_string_value(json_object_get(j, "outside_links")),
		  "unguarded");
	free(text);
	json_decref(j);
	dc.protect_unguarded = false;
	dc.no_link_mounts = false;
	dc.no_network = false;
	dc.tmp = "/tmp";
	fsplan_free(fs);
	/* With an overlay-capable backend the home is one, by default. */
	CHECK_INT(fsplan_build(eff, "/w", "/home/u", &fs), 0);
	CHECK_INT(describe_build(eff, fs, &dc, &text, &j), 0);
	CHECK(text && strstr(text, "The home directory (/home/u) is "
			     "writable as an overlay"));
	CHECK_STR(json_string_value(json_object_get(j, "home_overlay")),
		  "/home/u");
	free(text);
	json_decref(j);
	fsplan_free(fs);
	policy_free(eff);
	policy_free(u);
	policy_diag_free(&d);
	UNIT_DONE();
}
