/* The keys an org policy may be signed with: Ed25519 public keys, one PEM
 * per *.pub file, in a directory only root can write. */
#ifndef SBX_TRUSTED_KEYS_H
#define SBX_TRUSTED_KEYS_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "daemon/crypto.h"

#define TRUSTED_KEYS_DIR "/etc/sbx/trusted-keys"
#define TRUSTED_KEYS_MAX 64

/*
 * 0, with the id of the key in id, when sig is a signature of msg by one of
 * the keys in dir. The directory and each key file must be owned by root
 * (or by also: `sbxd --trusted-keys` for tests) and writable by nobody
 * else; other files are skipped with a warning in the log. -EBADMSG when
 * no key verifies, -ENOENT when there is no usable key, -EPERM for an
 * untrustworthy directory; err says which.
 */
int trusted_keys_verify(const char *dir, uid_t also, const void *msg,
			size_t len, const uint8_t sig[CRYPTO_SIG_LEN],
			char id[CRYPTO_KEY_ID_LEN + 1], char *err,
			size_t errlen);

#endif
