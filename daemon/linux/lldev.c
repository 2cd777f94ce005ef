/* Landlock-only mode's /dev: a second Landlock layer, made per session, in
 * which a command reads and writes only the device nodes a namespace
 * sandbox has and the session's own terminals, so the user's other
 * terminals (a sudo prompt in another window, a console), /dev/shm and
 * the rest of the host's devices stay out of reach. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/landlock.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "daemon/linux/landlock.h"
#include "daemon/linux/lldev.h"

/* The rights this layer handles: only opening files. Whatever else the
 * command does is the first layer's to decide. */
#define LLDEV_RIGHTS (SBX_LL_FS_READ_FILE | SBX_LL_FS_WRITE_FILE)

/* A namespace sandbox's device nodes (linux/mount.c's dev_nodes). */
static const char *const dev_nodes[] = {
	"null", "zero", "full", "random", "urandom", "tty",
};

static int
add_fd(int rs, int fd)
{
	struct landlock_path_beneath_attr pb = {
		.allowed_access = LLDEV_RIGHTS,
		.parent_fd = fd,
	};

	return syscall(SYS_landlock_add_rule, rs, LANDLOCK_RULE_PATH_BENEATH,
		       &pb, 0) < 0 ? -errno : 0;
}

/* Grants name in dir (absent or unreachable: nothing to grant). Not
 * through a symlink: /dev/stdin is the daemon's own stdin, and access
 * through a link is checked on its target anyway. */
static int
add_at(int rs, int dir, const char *name)
{
	int fd = openat(dir, name, O_PATH | O_NOFOLLOW | O_CLOEXEC), r;
	struct stat st;

	if (fd < 0)
		return errno == ENOENT || errno == EACCES ? 0 : -errno;
	r = fstat(fd, &st) < 0 ? -errno : S_ISLNK(st.st_mode) ? 0 :
	    add_fd(rs, fd);
	close(fd);
	return r;
}

/* Everything under / but /dev: one rule per entry of / (only root makes
 * new ones). */
static int
add_root(int rs)
{
	struct dirent *de;
	DIR *d = opendir("/");
	int r = 0;

	if (!d)
		return -errno;
	while (r == 0 && (de = readdir(d)))
		if (strcmp(de->d_name, ".") && strcmp(de->d_name, "..") &&
		    strcmp(de->d_name, "dev"))
			r = add_at(rs, dirfd(d), de->d_name);
	closedir(d);
	return r;
}

/* The session's terminals: those among its stdio (a -t session's pty, or
 * the terminal sbxctl runs in when it passes its own stdio), by the fds
 * themselves, so /dev/tty, /dev/stderr and /proc/self/fd reopen them. */
static int
add_ttys(int rs, const int stdio[3])
{
	int i, r = 0;

	for (i = 0; r == 0 && i < 3; i++)
		if (stdio[i] >= 0 && isatty(stdio[i]))
			r = add_fd(rs, stdio[i]);
	return r;
}

int
lldev_ruleset(const int stdio[3])
{
	struct sbx_landlock_ruleset_attr attr = {
		.handled_access_fs = LLDEV_RIGHTS,
	};
	size_t i;
	int rs, dev, r;

	rs = (int)syscall(SYS_landlock_create_ruleset, &attr,
			  sizeof(attr.handled_access_fs), 0);
	if (rs < 0)
		return -errno;
	r = add_root(rs);
	dev = open("/dev", O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (r == 0 && dev < 0)
		r = -errno;
	for (i = 0; r == 0 && i < sizeof(dev_nodes) / sizeof(dev_nodes[0]);
	     i++)
		r = add_at(rs, dev, dev_nodes[i]);
	if (dev >= 0)
		close(dev);
	if (r == 0)
		r = add_ttys(rs, stdio);
	if (r < 0) {
		close(rs);
		return r;
	}
	return rs;
}

int
lldev_enforce(int fd, int abi, bool log_new_exec)
{
	unsigned flags = 0;

	/* Quiet for the process that enforces it (the session init, or the
	 * supervisor, whose refusals are answers to the command's calls);
	 * the command's own denials are audited when the daemon reads the
	 * audit log. */
	if (abi >= 7)
		flags = SBX_LL_RESTRICT_SELF_LOG_SAME_EXEC_OFF |
			(log_new_exec ? SBX_LL_RESTRICT_SELF_LOG_NEW_EXEC_ON :
					0);
	return syscall(SYS_landlock_restrict_self, fd, flags) < 0 ? -errno : 0;
}
