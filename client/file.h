/* Whole files for the verbs that take or make them (policies, keys,
 * signatures): bounded reads, writes that never clobber, and whole
 * buffers to an fd. */
#ifndef SBX_FILE_H
#define SBX_FILE_H

#include <stddef.h>
#include <sys/types.h>

/* Reads all of path (at most max bytes) into a malloc'd, NUL-ended *buf.
 * -EFBIG when larger; on failure a message naming path is printed. */
int file_read(const char *path, size_t max, char **buf, size_t *len);

/* Creates path with mode (never replacing a file, never following a
 * symlink) and writes all of buf. Prints a message on failure. */
int file_write_new(const char *path, mode_t mode, const void *buf,
		   size_t len);

/* Writes all of buf to fd, again after EINTR and short writes: 0, or
 * -errno (-EPIPE when fd takes nothing). Callers that relay to a reader
 * who may be gone (a closed pipe) drop what is left on failure. */
int file_write_all(int fd, const void *buf, size_t len);

/* Writes buf to a temp file beside path and renames it over path. */
int file_replace(const char *path, mode_t mode, const void *buf, size_t len);

#endif
