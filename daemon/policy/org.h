/* Org policies pushed to the daemon (`sbxctl policy push`): who may push,
 * no rollback, the atomic store, and loading the store back. */
#ifndef SBX_POLICY_ORG_H
#define SBX_POLICY_ORG_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

#include "daemon/crypto.h"

/* State dir of a root daemon; a user-mode daemon uses $XDG_STATE_HOME/sbx
 * (default ~/.local/state/sbx); main.c decides. Pushed policies live in
 * its org/. */
#define POLICY_ORG_ROOT_STATE "/var/lib/sbx"

struct policy_org_opts {
	const char *state_dir;     /* the daemon's state dir */
	const char *keys_dir;      /* --trusted-keys; NULL: TRUSTED_KEYS_DIR */
	bool keys_dir_explicit;    /* keys may be the daemon's own (tests) */
	const char *home;          /* the served user's home ("~") */
};

/*
 * Opens the store (STATE/org, made at the first push; it must be owned by
 * the daemon's euid and writable by nobody else), drops temp files a crash
 * left, and puts the newest stored policy that verifies in force. A stored
 * file that fails is refused and reported (policy_org_problems); an older
 * one stays in force. -errno with err for an unusable store.
 */
int policy_org_init(const struct policy_org_opts *o, char *err, size_t errlen);

struct policy_org_result {
	long long serial;
	char stored[PATH_MAX + 64];
	char key_id[CRYPTO_KEY_ID_LEN + 1];  /* "" when unsigned */
};

/*
 * A push: signature (raw or base64; siglen 0 for none) must verify against
 * a trusted key, or the peer must be root. The policy must parse as an org
 * policy whose serial is greater than the org serial in force. Stored with
 * its signature (each file: temp, fsync, rename, fsync of the directory),
 * then read back and verified as at start, then in force for new runs.
 * -EPERM: not allowed; -EINVAL: does not parse; -ENODATA: no serial;
 * -ESTALE: rollback; other -errno: could not store. err says why.
 */
int policy_org_push(const void *policy, size_t len, const void *sig,
		    size_t siglen, bool root_peer, struct policy_org_result *res,
		    char *err, size_t errlen);

/* The store's directory changed (another daemon pushed): take a newer
 * verified policy if there is one. */
void policy_org_rescan(void);

/* STATE/org (which may not exist yet), or "" when there can be none. */
const char *policy_org_dir(void);
/* Stored policies refused (verification, parse), for `sbxctl status`. */
size_t policy_org_problems(const char *const **out);
void policy_org_cleanup(void);

#endif
