/* sbx's inspection CA added to the distribution's CA bundles inside a sandbox with TLS inspection on. */

/*
 * Programs that ignore SSL_CERT_FILE and the like (Go, Rust's
 * webpki-roots aside, anything linked against the system's bundle) read
 * the distribution's file: each one found is copied with the CA appended
 * into the fresh /dev/shm, bound read-only over the real path, and
 * unlinked there (as mount-java.c does). Links such as /etc/ssl/cert.pem
 * are followed and each real file is bound once. Java reads its own
 * trust store (the JDK's lib/security/cacerts, on Debian a link into
 * /etc/ssl/certs/java): each one found is replaced the same way by the
 * store the daemon made (proxy/tls-jks.c).
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "daemon/linux/linux.h"
#include "daemon/linux/mount-int.h"
#include "daemon/proxy/env.h"

#define BUNDLE_MAX (8 * 1024 * 1024)
#define BUNDLES_MAX 8
#define STORES_MAX 16

/* Java trust stores: the distributions' shared ones, then each JDK's
 * (JDK 8 keeps it in jre/lib). */
static const char *const java_stores[] = {
	"/etc/ssl/certs/java/cacerts",
	"/etc/pki/ca-trust/extracted/java/cacerts",
	"/usr/lib/jvm/*/lib/security/cacerts",
	"/usr/lib/jvm/*/jre/lib/security/cacerts",
	"/usr/java/*/lib/security/cacerts",
	"/opt/java/*/lib/security/cacerts",
	NULL
};

/* The bundle's bytes, a newline, pem: into /dev/shm/NAME. */
static int
write_bundle(const char *src, const char *name, const char *pem)
{
	char buf[65536];
	struct stat st;
	ssize_t n;
	int in, out, r = 0;

	in = open(src, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
	if (in < 0)
		return -errno;
	if (fstat(in, &st) < 0 || !S_ISREG(st.st_mode) ||
	    st.st_size > BUNDLE_MAX) {
		close(in);
		return -EINVAL;
	}
	out = openat(AT_FDCWD, name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC |
		     O_NOFOLLOW, 0444);
	if (out < 0) {
		r = -errno;
		close(in);
		return r;
	}
	while (r == 0 && (n = read(in, buf, sizeof(buf))) > 0)
		if (write(out, buf, (size_t)n) != n)
			r = -EIO;
	if (r == 0 && (write(out, "\n", 1) != 1 ||
		       write(out, pem, strlen(pem)) != (ssize_t)strlen(pem)))
		r = -EIO;
	close(in);
	close(out);
	return r;
}

/* name (a file in /dev/shm) bound read-only over real, and unlinked.
 * 0 or -errno. */
static int
bind_over(const char *name, const char *real)
{
	int fd, r;

	fd = lmount_clone_tree(name, 0);
	if (fd < 0) {
		unlink(name);
		return fd;
	}
	r = lmount_set_attr(fd, "", AT_EMPTY_PATH, MOUNT_ATTR_RDONLY |
			    MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV |
			    MOUNT_ATTR_NOEXEC, 0);
	if (r == 0)
		r = lmount_attach(fd, real);
	close(fd);
	unlink(name);
	return r;
}

/* Is real[n] one of real[0..n)? */
static bool
seen(char (*real)[PATH_MAX], size_t n)
{
	size_t j;

	for (j = 0; j < n && strcmp(real[j], real[n]); j++)
		;
	return j < n;
}

void
lmount_ca(const char *pem)
{
	char real[BUNDLES_MAX][PATH_MAX], name[64];
	size_t i, n = 0;

	for (i = 0; proxy_ca_bundles[i] && n < BUNDLES_MAX; i++) {
		if (!realpath(proxy_ca_bundles[i], real[n]) || seen(real, n))
			continue;
		snprintf(name, sizeof(name), "/dev/shm/.sbx-ca-%zu", n);
		if (write_bundle(real[n], name, pem) == 0 &&
		    bind_over(name, real[n]) == 0)
			n++;
		else
			unlink(name);
	}
}

/* ks into /dev/shm/NAME. */
static int
write_store(const char *name, const void *ks, size_t len)
{
	int fd, r = 0;

	fd = openat(AT_FDCWD, name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC |
		    O_NOFOLLOW, 0444);
	if (fd < 0)
		return -errno;
	if (write(fd, ks, len) != (ssize_t)len)
		r = -EIO;
	close(fd);
	return r;
}

void
lmount_ca_java(const void *ks, size_t len)
{
	char real[STORES_MAX][PATH_MAX], name[64];
	size_t i, k, n = 0;
	struct stat st;
	glob_t g;

	for (i = 0; java_stores[i] && n < STORES_MAX; i++) {
		if (glob(java_stores[i], GLOB_NOSORT, NULL, &g) != 0)
			continue;
		for (k = 0; k < g.gl_pathc && n < STORES_MAX; k++) {
			if (!realpath(g.gl_pathv[k], real[n]) || seen(real, n) ||
			    stat(real[n], &st) < 0 || !S_ISREG(st.st_mode))
				continue;
			snprintf(name, sizeof(name), "/dev/shm/.sbx-jks-%zu",
				 n);
			if (write_store(name, ks, len) == 0 &&
			    bind_over(name, real[n]) == 0)
				n++;
			else
				unlink(name);
		}
		globfree(&g);
	}
}
