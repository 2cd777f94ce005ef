/* Landlock ruleset construction and enforcement for Linux sandboxes. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/landlock.h>
#include <linux/openat2.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "daemon/linux/landlock.h"

static int
ll_create(const struct sbx_landlock_ruleset_attr *attr, size_t size,
	  uint32_t flags)
{
	return (int)syscall(SYS_landlock_create_ruleset, attr, size, flags);
}

int
landlock_probe_abi(void)
{
	int abi = ll_create(NULL, 0, LANDLOCK_CREATE_RULESET_VERSION);

	return abi < 0 ? 0 : abi;
}

uint64_t
landlock_write_rights(int abi)
{
	uint64_t r = SBX_LL_FS_WRITE_FILE | SBX_LL_FS_REMOVE_DIR |
		     SBX_LL_FS_REMOVE_FILE | SBX_LL_FS_MAKE_CHAR |
		     SBX_LL_FS_MAKE_DIR | SBX_LL_FS_MAKE_REG |
		     SBX_LL_FS_MAKE_SOCK | SBX_LL_FS_MAKE_FIFO |
		     SBX_LL_FS_MAKE_BLOCK | SBX_LL_FS_MAKE_SYM;

	if (abi >= 2)
		r |= SBX_LL_FS_REFER;
	if (abi >= 3)
		r |= SBX_LL_FS_TRUNCATE;
	if (abi >= 5)
		r |= SBX_LL_FS_IOCTL_DEV;
	return r;
}

int
landlock_add_fd(int rs, int fd, uint64_t access)
{
	struct landlock_path_beneath_attr pb = { .allowed_access = access,
						 .parent_fd = fd };

	return syscall(SYS_landlock_add_rule, rs, LANDLOCK_RULE_PATH_BENEATH,
		       &pb, 0) < 0 ? -errno : 0;
}

int
landlock_add_path(int rs, const char *path, uint64_t access)
{
	int fd, r;

	fd = open(path, O_PATH | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	r = landlock_add_fd(rs, fd, access);
	close(fd);
	return r;
}

const char *
landlock_writable_above(const char *const *rw, const char *path)
{
	const char *best = NULL;
	size_t n, bn = 0;

	for (; rw && *rw; rw++) {
		n = strlen(*rw);
		while (n > 1 && (*rw)[n - 1] == '/')
			n--;
		if (n > bn && !strncmp(path, *rw, n) &&
		    (path[n] == '/' || (n == 1 && path[0] == '/' && path[1])) &&
		    strcmp(path, *rw)) {
			best = *rw;
			bn = n;
		}
	}
	return best;
}

int
landlock_open_writable(const char *const *rw, const char *path)
{
	struct open_how how = {
		.flags = O_PATH | O_CLOEXEC,
		.resolve = RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS |
			   RESOLVE_BENEATH,
	};
	const char *above = landlock_writable_above(rw, path), *rest;
	int dir, fd;

	if (!above) {
		fd = open(path, O_PATH | O_CLOEXEC);
		return fd < 0 ? -errno : fd;
	}
	if ((dir = open(above, O_PATH | O_DIRECTORY | O_CLOEXEC)) < 0)
		return -errno;
	for (rest = path + strlen(above); *rest == '/'; rest++)
		;
	fd = (int)syscall(SYS_openat2, dir, rest, &how, sizeof(how));
	if (fd < 0)
		fd = -errno;
	close(dir);
	return fd;
}

int
landlock_add_writable(int rs, const char *const *rw, const char *path,
		      uint64_t access)
{
	int fd = landlock_open_writable(rw, path), r;

	if (fd < 0)
		return fd;
	r = landlock_add_fd(rs, fd, access);
	close(fd);
	return r;
}

/* The sandbox shares the host's network namespace: TCP may connect to the
 * session's proxy ports and nowhere else, and bind nowhere (a listener
 * would be the host's, reachable from outside). */
static int
add_ports(int rs, const uint16_t *ports)
{
	struct sbx_landlock_net_port_attr np = {
		.allowed_access = SBX_LL_NET_CONNECT_TCP,
	};
	int i;

	for (i = 0; i < 2; i++) {
		if (!ports[i])
			continue;
		np.port = ports[i];
		if (syscall(SYS_landlock_add_rule, rs, SBX_LL_RULE_NET_PORT,
			    &np, 0) < 0)
			return -errno;
	}
	return 0;
}

int
landlock_build_tcp(int abi, const uint16_t *ports)
{
	struct sbx_landlock_ruleset_attr attr = {
		.handled_access_net = SBX_LL_NET_BIND_TCP |
				      SBX_LL_NET_CONNECT_TCP,
	};
	int rs, r;

	if (abi < 4)
		return -EOPNOTSUPP;
	rs = ll_create(&attr, sizeof(attr), 0);
	if (rs < 0)
		return -errno;
	if ((r = add_ports(rs, ports)) < 0) {
		close(rs);
		return r;
	}
	return rs;
}

int
landlock_build(int abi, const char *const *rw, const char *const *must,
	       const char *dev, int pts)
{
	struct sbx_landlock_ruleset_attr attr = { 0 };
	uint64_t all = landlock_write_rights(abi);
	uint64_t devrights = SBX_LL_FS_WRITE_FILE;
	int rs, r;

	attr.handled_access_fs = all;
	if (abi >= 6)
		attr.scoped = SBX_LL_SCOPE_ABSTRACT_UNIX | SBX_LL_SCOPE_SIGNAL;
	rs = ll_create(&attr, sizeof(attr), 0);
	if (rs < 0)
		return -errno;
	for (const char *const *w = rw; w && *w; w++) {
		r = landlock_add_writable(rs, rw, *w, all);
		/* absent, out of the user's reach, or a link a sandbox may
		 * have made: nothing to grant */
		if (r < 0 && r != -ENOENT && r != -EACCES && r != -ELOOP)
			goto fail;
	}
	/* Absent (a host without /var/tmp): nothing there to write. */
	for (; must && *must; must++)
		if ((r = landlock_add_path(rs, *must, all)) < 0 && r != -ENOENT)
			goto fail;
	if (abi >= 3)
		devrights |= SBX_LL_FS_TRUNCATE;
	if (abi >= 5)
		devrights |= SBX_LL_FS_IOCTL_DEV;
	if (dev) {
		r = landlock_add_path(rs, dev, devrights);
		if (r < 0)
			goto fail;
	}
	if (pts >= 0 && (r = landlock_add_fd(rs, pts, devrights)) < 0)
		goto fail;
	return rs;
fail:
	close(rs);
	return r;
}

int
landlock_enforce(int fd, bool log_new_exec)
{
	unsigned flags = log_new_exec ? SBX_LL_RESTRICT_SELF_LOG_NEW_EXEC_ON : 0;

	return syscall(SYS_landlock_restrict_self, fd, flags) < 0 ? -errno : 0;
}

int
landlock_enforce_quiet(int fd, int abi)
{
	unsigned flags = abi >= 7 ? SBX_LL_RESTRICT_SELF_LOG_SAME_EXEC_OFF : 0;

	return syscall(SYS_landlock_restrict_self, fd, flags) < 0 ? -errno : 0;
}
