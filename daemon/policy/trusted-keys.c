/* Verifying an org policy signature against the trusted keys. The keys are
 * read on every verification: there are few, pushes are rare, and a key
 * an admin removes stops counting at once. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "daemon/admin-file.h"
#include "daemon/log.h"
#include "daemon/policy/trusted-keys.h"

static bool
is_pub(const char *name)
{
	size_t n = strlen(name);

	return name[0] != '.' && n > 4 && !strcmp(name + n - 4, ".pub");
}

/* 1: this key verifies; 0: it does not; -1: not a usable key. */
static int
try_key(int dirfd, const char *dir, const char *name, uid_t also,
	const void *msg, size_t len, const uint8_t *sig, char *id)
{
	size_t klen;
	char *key;
	int r;

	r = admin_file_read(dirfd, name, CRYPTO_KEY_MAX, also, &key, &klen);
	if (r < 0) {
		log_warn("trusted key %s/%s skipped: %s", dir, name,
			 r == -EPERM ? "not owned by root or writable by "
				       "others" : strerror(-r));
		return -1;
	}
	r = crypto_ed25519_verify(key, klen, msg, len, sig);
	if (r == -EINVAL)
		log_warn("trusted key %s/%s skipped: not an Ed25519 public "
			 "key in PEM", dir, name);
	else if (r == 0)
		crypto_ed25519_key_id(key, klen, id);
	free(key);
	return r == 0 ? 1 : r == -EBADMSG ? 0 : -1;
}

int
trusted_keys_verify(const char *dir, uid_t also, const void *msg, size_t len,
		    const uint8_t sig[CRYPTO_SIG_LEN],
		    char id[CRYPTO_KEY_ID_LEN + 1], char *err, size_t errlen)
{
	int dirfd, r, usable = 0, seen = 0;
	struct dirent *de;
	DIR *d;

	dirfd = admin_dir_open(dir, also);
	if (dirfd < 0) {
		snprintf(err, errlen, "trusted keys %s: %s", dir,
			 dirfd == -EPERM ? "not owned by root or writable by "
					   "others" : strerror(-dirfd));
		return dirfd == -EPERM ? -EPERM : -ENOENT;
	}
	if (!(d = fdopendir(dirfd))) {
		r = -errno;
		close(dirfd);
		snprintf(err, errlen, "trusted keys %s: %s", dir, strerror(-r));
		return r;
	}
	while ((de = readdir(d)) && seen < TRUSTED_KEYS_MAX) {
		if (!is_pub(de->d_name))
			continue;
		seen++;
		r = try_key(dirfd, dir, de->d_name, also, msg, len, sig, id);
		if (r == 1) {
			closedir(d);
			return 0;
		}
		usable += r == 0;
	}
	closedir(d);
	if (!usable) {
		snprintf(err, errlen, "no usable trusted key in %s", dir);
		return -ENOENT;
	}
	snprintf(err, errlen, "the signature does not verify against any "
		 "trusted key in %s", dir);
	return -EBADMSG;
}
