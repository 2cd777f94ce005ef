/* Landlock ruleset construction and enforcement for Linux sandboxes. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/landlock.h>
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
	for (; rw && *rw; rw++) {
		r = landlock_add_path(rs, *rw, all);
		/* absent, or out of the user's reach: nothing to grant */
		if (r < 0 && r != -ENOENT && r != -EACCES)
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
