/*
 * The pushed org policy store. STATE/org holds pushed-SERIAL.json, with
 * pushed-SERIAL.json.sig when it was signed; the file names sort by serial.
 * A push writes the signature first and the policy last, each through a
 * temp file, fsync and rename, so the policy file appearing is the commit:
 * after a crash the store holds the old policy or the new one, never half
 * of either. The policy in force and the one before it are kept; a stored
 * file that no longer verifies is refused and the older one stays.
 *
 * Trust: a root daemon's store is root-owned, so a user cannot edit it
 * without breaking the signature (or, for a root push, without being
 * root). A user-mode daemon runs as the user and keeps its store in the
 * user's state dir: there a pushed policy binds only the clients of that
 * daemon, and the user could as well stop it or edit its store. Only a
 * privileged (root) daemon makes an org policy binding for its user.
 *
 * Room: the state dir also holds the home overlays' layers, which
 * sandboxes write. So the store keeps a reserve, STATE/org/.reserve, a
 * file of ORG_RESERVE_BYTES with its blocks allocated, made at start-up;
 * a push removes it before writing and makes it again after. A sandbox
 * that fills the file system cannot make a push fail for want of space.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <linux/falloc.h>
#include <sys/stat.h>
#include <unistd.h>

#include "daemon/admin-file.h"
#include "daemon/log.h"
#include "daemon/policy/org.h"
#include "daemon/policy/store.h"
#include "daemon/policy/trusted-keys.h"

#define ORG_PREFIX "pushed-"
#define ORG_MAX_FILES 64
#define ORG_MAX_PROBLEMS 8
#define ORG_RESERVE ".reserve"
/* A push writes one policy and its signature beside the two kept: room
 * for the largest policy and its temp file, with directory blocks. */
#define ORG_RESERVE_BYTES (4 * POLICY_MAX_BYTES)

static struct policy_org_opts opts;
static char dir[PATH_MAX];         /* "" until the store is usable */
static long long current;          /* serial in force; 0: none */
static char *problems[ORG_MAX_PROBLEMS];
static size_t nproblems;

static void
add_problem(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

static void
add_problem(const char *fmt, ...)
{
	va_list ap;
	char *p;

	va_start(ap, fmt);
	if (nproblems < ORG_MAX_PROBLEMS && vasprintf(&p, fmt, ap) >= 0) {
		log_warn("%s", p);
		problems[nproblems++] = p;
	}
	va_end(ap);
}

static void
clear_problems(void)
{
	while (nproblems)
		free(problems[--nproblems]);
}

/* The serial in a stored name "pushed-0000000000000007.json", else -1. */
static long long
name_serial(const char *name)
{
	size_t p = strlen(ORG_PREFIX);
	long long v = 0;
	size_t i;

	if (strncmp(name, ORG_PREFIX, p) || strlen(name) != p + 16 + 5 ||
	    strcmp(name + p + 16, ".json"))
		return -1;
	for (i = p; i < p + 16; i++) {
		if (name[i] < '0' || name[i] > '9')
			return -1;
		v = v * 10 + (name[i] - '0');
	}
	return v;
}

static void
stored_name(long long serial, bool sig, char *out, size_t len)
{
	snprintf(out, len, ORG_PREFIX "%016lld.json%s", serial,
		 sig ? ".sig" : "");
}

/* The signature of msg, if the sig bytes decode and a trusted key made it:
 * 0 with the key's id, else -EPERM (-EINVAL: not a signature) and err. */
static int
verify(const void *msg, size_t len, const void *sig, size_t siglen, char *id,
       char *err, size_t errlen)
{
	uint8_t raw[CRYPTO_SIG_LEN];
	int r;

	if (crypto_sig_decode(sig, siglen, raw) < 0) {
		snprintf(err, errlen, "the signature is neither 64 bytes nor "
			 "their base64");
		return -EINVAL;
	}
	r = trusted_keys_verify(opts.keys_dir, opts.keys_dir_explicit ?
				geteuid() : 0, msg, len, raw, id, err, errlen);
	return r < 0 ? -EPERM : 0;
}

static int
parse(const char *buf, size_t len, const char *file, struct policy **out,
      char *err, size_t errlen)
{
	struct policy_ctx ctx = { POLICY_LAYER_ORG, file, opts.home, NULL };
	struct policy_diags d = { 0 };
	const char *e;
	int r;

	r = policy_parse(buf, len, &ctx, out, &d);
	if (r < 0) {
		e = policy_diag_first_error(&d);
		snprintf(err, errlen, "%s", e ? e : strerror(-r));
	}
	policy_diag_free(&d);
	return r;
}

/*
 * Reads back, verifies and parses one stored policy: signed by a trusted
 * key if it has a signature file, else (a root push) trusted for being the
 * store owner's like the directory. Its serial must be the one its name
 * says.
 */
static int
load_stored(int dfd, long long serial, struct policy **out, char *id,
	    char *err, size_t errlen)
{
	char name[64], sname[64], path[PATH_MAX + 64];
	char *buf = NULL, *sig = NULL;
	struct policy *p = NULL;
	size_t len, siglen;
	int r;

	stored_name(serial, false, name, sizeof(name));
	stored_name(serial, true, sname, sizeof(sname));
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	id[0] = '\0';
	r = admin_file_read(dfd, name, POLICY_MAX_BYTES, geteuid(), &buf, &len);
	if (r < 0) {
		snprintf(err, errlen, "%s", r == -EPERM ? "not owned by the "
			 "store's owner, or writable by others" : strerror(-r));
		return r;
	}
	r = admin_file_read(dfd, sname, CRYPTO_SIG_B64_LEN + 64, geteuid(),
			    &sig, &siglen);
	if (r == -ENOENT)
		r = 0;
	else if (r < 0)
		snprintf(err, errlen, "signature file: %s", strerror(-r));
	else
		r = verify(buf, len, sig, siglen, id, err, errlen);
	if (r == 0)
		r = parse(buf, len, path, &p, err, errlen);
	if (r == 0 && p->serial != serial) {
		snprintf(err, errlen, "its serial (%lld) is not the one its "
			 "name says", p->serial);
		r = -EINVAL;
	}
	free(buf);
	free(sig);
	if (r < 0) {
		policy_free(p);
		return r;
	}
	*out = p;
	return 0;
}

static int
cmp_desc(const void *a, const void *b)
{
	long long x = *(const long long *)a, y = *(const long long *)b;

	return x < y ? 1 : x > y ? -1 : 0;
}

/* A signature whose policy never landed (a push cut short). */
static bool
orphan_sig(int dfd, const char *name)
{
	char json[64];
	size_t n = strlen(name);

	if (n >= sizeof(json) || n < 5 || strcmp(name + n - 4, ".sig"))
		return false;
	memcpy(json, name, n - 4);
	json[n - 4] = '\0';
	return name_serial(json) > 0 &&
	       faccessat(dfd, json, F_OK, AT_SYMLINK_NOFOLLOW) < 0 &&
	       errno == ENOENT;
}

/* Serials stored in dfd, newest first; what a crash left half done goes
 * (temp files, a signature without its policy). */
static size_t
list_stored(int dfd, long long *serials, size_t max)
{
	struct dirent *de;
	size_t n = 0;
	long long s;
	DIR *d;
	int fd = dup(dfd);

	if (fd < 0 || !(d = fdopendir(fd))) {
		if (fd >= 0)
			close(fd);
		return 0;
	}
	while ((de = readdir(d))) {
		if (!strncmp(de->d_name, ".tmp-", 5) || orphan_sig(dfd,
								 de->d_name))
			unlinkat(dfd, de->d_name, 0);
		else if ((s = name_serial(de->d_name)) > 0 && n < max)
			serials[n++] = s;
	}
	closedir(d);
	qsort(serials, n, sizeof(serials[0]), cmp_desc);
	return n;
}

/* Puts the newest stored policy newer than the one in force in force;
 * newer files that fail are reported. Called with the store locked. */
static void
scan(int dfd)
{
	long long serials[ORG_MAX_FILES];
	char err[512], id[CRYPTO_KEY_ID_LEN + 1];
	struct policy *p;
	size_t n, i;

	clear_problems();
	n = list_stored(dfd, serials, ORG_MAX_FILES);
	for (i = 0; i < n && serials[i] > current; i++) {
		if (load_stored(dfd, serials[i], &p, id, err, sizeof(err)) < 0) {
			add_problem("%s/" ORG_PREFIX "%016lld.json: refused: %s",
				    dir, serials[i], err);
			continue;
		}
		log_info("org policy serial %lld in force%s%s", serials[i],
			 id[0] ? ", signed by key " : " (pushed by root)", id);
		current = serials[i];
		policy_store_set_pushed(p);
		policy_store_changed("org policy");
		break;
	}
	if (nproblems && current)
		add_problem("%s: serial %lld stays in force", dir, current);
	else if (nproblems)
		add_problem("%s: no pushed org policy in force", dir);
}

/* Makes STATE/org and its parents, as mkdir -p would; the daemon's umask
 * (077) leaves them private to it. Made at start-up, with the reserve. */
static int
make_dirs(void)
{
	char path[PATH_MAX], *s;

	snprintf(path, sizeof(path), "%s", dir);
	for (s = strchr(path + 1, '/'); s; s = strchr(s + 1, '/')) {
		*s = '\0';
		if (mkdir(path, 0700) < 0 && errno != EEXIST)
			return -errno;
		*s = '/';
	}
	return mkdir(path, 0700) < 0 && errno != EEXIST ? -errno : 0;
}

/* Opens the store and takes its lock (other daemons share a root store). */
static int
lock_store(void)
{
	int dfd;

	if (!dir[0])
		return -ENOENT;
	dfd = admin_dir_open(dir, geteuid());
	if (dfd < 0)
		return dfd;
	if (flock(dfd, LOCK_EX) < 0) {
		close(dfd);
		return -errno;
	}
	return dfd;
}

static int
write_atomic(int dfd, const char *name, const void *data, size_t len)
{
	char tmp[96];
	const char *p = data;
	size_t off = 0;
	ssize_t k;
	int fd, r = 0;

	snprintf(tmp, sizeof(tmp), ".tmp-%s", name);
	unlinkat(dfd, tmp, 0);
	fd = openat(dfd, tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
		    O_CLOEXEC, 0644);
	if (fd < 0)
		return -errno;
	while (r == 0 && off < len) {
		k = write(fd, p + off, len - off);
		if (k < 0 && errno != EINTR)
			r = -errno;
		else if (k > 0)
			off += (size_t)k;
	}
	if (r == 0 && fsync(fd) < 0)
		r = -errno;
	if (close(fd) < 0 && r == 0)
		r = -errno;
	if (r == 0 && renameat(dfd, tmp, dfd, name) < 0)
		r = -errno;
	if (r < 0)
		unlinkat(dfd, tmp, 0);
	return r;
}

/* The reserve, its blocks allocated (fallocate, else written: a file
 * system without fallocate). 0, or -errno (-ENOSPC: no room for it). */
static int
reserve_make(int dfd)
{
	static const char zero[4096];
	off_t off;
	int fd, r = 0;

	fd = openat(dfd, ORG_RESERVE, O_WRONLY | O_CREAT | O_NOFOLLOW |
		    O_CLOEXEC, 0600);
	if (fd < 0)
		return -errno;
	if (fallocate(fd, 0, 0, ORG_RESERVE_BYTES) < 0) {
		r = errno == EOPNOTSUPP ? 0 : -errno;
		for (off = 0; r == 0 && off < ORG_RESERVE_BYTES;
		     off += (off_t)sizeof(zero))
			if (pwrite(fd, zero, sizeof(zero), off) !=
			    (ssize_t)sizeof(zero))
				r = -ENOSPC;
	}
	if (r == 0 && fsync(fd) < 0)
		r = -errno;
	close(fd);
	if (r < 0)
		unlinkat(dfd, ORG_RESERVE, 0);
	return r;
}

/* Signature first, policy last (the commit), each rename made durable. */
static int
store(int dfd, long long serial, const void *buf, size_t len,
      const void *sig, size_t siglen)
{
	char name[64];
	int r;

	stored_name(serial, true, name, sizeof(name));
	if (siglen)
		r = write_atomic(dfd, name, sig, siglen);
	else
		r = unlinkat(dfd, name, 0) < 0 && errno != ENOENT ? -errno : 0;
	if (r == 0 && fsync(dfd) < 0)
		r = -errno;
	stored_name(serial, false, name, sizeof(name));
	if (r == 0)
		r = write_atomic(dfd, name, buf, len);
	if (r == 0 && fsync(dfd) < 0)
		r = -errno;
	return r;
}

/* Drops every stored policy but keep and prev (the fallback). */
static void
prune(int dfd, long long keep, long long prev)
{
	long long serials[ORG_MAX_FILES];
	char name[64];
	size_t n, i;

	n = list_stored(dfd, serials, ORG_MAX_FILES);
	for (i = 0; i < n; i++) {
		if (serials[i] == keep || serials[i] == prev)
			continue;
		stored_name(serials[i], true, name, sizeof(name));
		unlinkat(dfd, name, 0);
		stored_name(serials[i], false, name, sizeof(name));
		unlinkat(dfd, name, 0);
	}
}

/* Who may push this, and is it an org policy newer than the one in force? */
static int
admit(const void *buf, size_t len, const void *sig, size_t siglen,
      bool root_peer, struct policy_org_result *res, char *err, size_t errlen)
{
	struct policy *p = NULL;
	long long cur = 0;
	int r;

	if (len == 0 || len > POLICY_MAX_BYTES) {
		snprintf(err, errlen, "an org policy is 1 to %d bytes",
			 POLICY_MAX_BYTES);
		return -EINVAL;
	}
	if (siglen)
		r = verify(buf, len, sig, siglen, res->key_id, err, errlen);
	else if (!root_peer) {
		snprintf(err, errlen, "only root may push an unsigned org "
			 "policy; sign it (sbxctl policy sign) with a key in %s",
			 opts.keys_dir);
		r = -EPERM;
	} else
		r = 0;
	if (r == 0)
		r = parse(buf, len, "<pushed policy>", &p, err, errlen);
	if (r == 0)
		r = policy_store_org_serial(&cur, err, errlen);
	if (r == 0 && (r = policy_serial_check(p, cur)) < 0)
		snprintf(err, errlen, r == -ENODATA ? "an org policy needs a "
			 "\"serial\"" : "serial %lld is not greater than the "
			 "org serial in force (%lld): no rollback",
			 p->serial, cur);
	if (r == 0)
		res->serial = p->serial;
	policy_free(p);
	return r;
}

int
policy_org_push(const void *buf, size_t len, const void *sig, size_t siglen,
		bool root_peer, struct policy_org_result *res, char *err,
		size_t errlen)
{
	char id[CRYPTO_KEY_ID_LEN + 1], name[64];
	char canon[CRYPTO_SIG_B64_LEN + 2];
	uint8_t raw[CRYPTO_SIG_LEN];
	struct policy *p;
	long long prev = current;
	int dfd, r;

	memset(res, 0, sizeof(*res));
	if ((r = admit(buf, len, sig, siglen, root_peer, res, err, errlen)) < 0)
		return r;
	if (!dir[0])
		dfd = -ENOENT;
	else if ((dfd = make_dirs()) == 0)
		dfd = lock_store();
	if (dfd < 0) {
		snprintf(err, errlen, "org policy store %s: %s",
			 dir[0] ? dir : "(none)", dfd == -EPERM ? "not owned "
			 "by the daemon's user, or writable by others" :
			 strerror(-dfd));
		return dfd;
	}
	/* Stored as sbxctl policy sign writes it, whatever the client sent
	 * (raw bytes, base64 with any white space): what load_stored reads
	 * back is then always the same 89 bytes. */
	if (siglen) {
		(void)crypto_sig_decode(sig, siglen, raw); /* admit did */
		crypto_sig_encode(raw, canon);
		sig = canon;
		siglen = strlen(canon);
	}
	/* The reserve's room is the push's. */
	unlinkat(dfd, ORG_RESERVE, 0);
	r = store(dfd, res->serial, buf, len, sig, siglen);
	if (r < 0)
		snprintf(err, errlen, "storing in %s: %s", dir, strerror(-r));
	/* What is in force is what the store holds, read back. */
	if (r == 0 && (r = load_stored(dfd, res->serial, &p, id, err,
				       errlen)) == 0) {
		current = res->serial;
		policy_store_set_pushed(p);
		prune(dfd, current, prev);
		clear_problems();
	}
	if (reserve_make(dfd) < 0)
		log_warn("%s/%s: no room to keep a reserve for the next push",
			 dir, ORG_RESERVE);
	close(dfd);
	if (r < 0)
		return r;
	stored_name(res->serial, false, name, sizeof(name));
	snprintf(res->stored, sizeof(res->stored), "%s/%s", dir, name);
	log_info("org policy serial %lld pushed by %s, stored in %s",
		 res->serial, res->key_id[0] ? "a trusted key" : "root",
		 res->stored);
	policy_store_changed("org policy");
	return 0;
}

void
policy_org_rescan(void)
{
	int dfd = lock_store();

	if (dfd < 0)
		return;
	scan(dfd);
	close(dfd);
}

int
policy_org_init(const struct policy_org_opts *o, char *err, size_t errlen)
{
	int dfd, n;

	opts = *o;
	if (!opts.keys_dir)
		opts.keys_dir = TRUSTED_KEYS_DIR;
	n = snprintf(dir, sizeof(dir), "%s/org", opts.state_dir);
	if (n < 0 || (size_t)n >= sizeof(dir) - 64) {
		dir[0] = '\0';
		snprintf(err, errlen, "org policy store: path too long");
		return -ENAMETOOLONG;
	}
	/* Made now, not at the first push: the reserve must be there
	 * before a sandbox can fill the disk. */
	if ((n = make_dirs()) < 0 || (dfd = lock_store()) == -ENOENT) {
		snprintf(err, errlen, "org policy store %s: %s", dir,
			 strerror(-(n < 0 ? n : ENOENT)));
		return n < 0 ? n : -ENOENT;
	}
	if (dfd < 0) {
		snprintf(err, errlen, "org policy store %s: %s", dir,
			 dfd == -EPERM ? "not owned by the daemon's user, or "
			 "writable by others" : strerror(-dfd));
		add_problem("%s", err);
		return dfd;
	}
	scan(dfd);
	if ((n = reserve_make(dfd)) < 0)
		add_problem("org policy store %s: no reserve for pushes (%s): "
			    "a full disk can make them fail", dir,
			    strerror(-n));
	close(dfd);
	return 0;
}

const char *
policy_org_dir(void)
{
	return dir;
}

size_t
policy_org_problems(const char *const **out)
{
	*out = (const char *const *)problems;
	return nproblems;
}

void
policy_org_cleanup(void)
{
	clear_problems();
}
