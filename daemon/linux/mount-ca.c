/* sbx's inspection CA added to the distribution's CA bundles inside a sandbox with TLS inspection on. */

/*
 * Programs that ignore SSL_CERT_FILE and the like (Go, Rust's
 * webpki-roots aside, anything linked against the system's bundle) read
 * the distribution's file: each one found is copied with the CA appended
 * into the fresh /dev/shm, bound read-only over the real path, and
 * unlinked there (as mount-java.c does). Links such as /etc/ssl/cert.pem
 * are followed and each real file is bound once.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
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

void
lmount_ca(const char *pem)
{
	char real[BUNDLES_MAX][PATH_MAX], name[64];
	size_t i, j, n = 0;
	int fd;

	for (i = 0; proxy_ca_bundles[i] && n < BUNDLES_MAX; i++) {
		if (!realpath(proxy_ca_bundles[i], real[n]))
			continue;
		for (j = 0; j < n && strcmp(real[j], real[n]); j++)
			;
		if (j < n)
			continue;
		snprintf(name, sizeof(name), "/dev/shm/.sbx-ca-%zu", n);
		if (write_bundle(real[n], name, pem) == 0 &&
		    (fd = lmount_clone_tree(name, 0)) >= 0) {
			if (lmount_set_attr(fd, "", AT_EMPTY_PATH,
					    MOUNT_ATTR_RDONLY |
					    MOUNT_ATTR_NOSUID |
					    MOUNT_ATTR_NODEV |
					    MOUNT_ATTR_NOEXEC, 0) == 0 &&
			    lmount_attach(fd, real[n]) == 0)
				n++;
			close(fd);
		}
		unlink(name);
	}
}
