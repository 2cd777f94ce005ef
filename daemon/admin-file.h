/* Files and directories only an administrator (root), or the daemon
 * itself, can have written: trusted keys and stored org policies. */
#ifndef SBX_ADMIN_FILE_H
#define SBX_ADMIN_FILE_H

#include <stddef.h>
#include <sys/types.h>

/*
 * Opens directory path (O_PATH-free, readable, CLOEXEC, no symlink at the
 * end) if it is owned by root or by also, and nobody else can write to it.
 * Returns the fd, -errno, or -EPERM for an untrustworthy directory.
 */
int admin_dir_open(const char *path, uid_t also);

/*
 * Reads the regular file name in dirfd (no symlink) into a malloc'd,
 * NUL-ended *buf, if it is owned by root or by also and writable by nobody
 * else. -ENOENT, -EPERM (owner or mode), -EFBIG (over max), -errno.
 */
int admin_file_read(int dirfd, const char *name, size_t max, uid_t also,
		    char **buf, size_t *len);

#endif
