/* Landlock-only mode's per-session /dev layer (linux/lldev.c). */
#ifndef SBX_LINUX_LLDEV_H
#define SBX_LINUX_LLDEV_H

#include <stdbool.h>

/* A Landlock ruleset that lets files be opened everywhere but under /dev,
 * where only null, zero, full, random, urandom, tty and the terminals among
 * stdio (fds, -1: none) may be: fd or -errno. */
int lldev_ruleset(const int stdio[3]);

/* Enforces it on the caller (no_new_privs set), quietly for the caller's
 * own denials (ABI >= 7); log_new_exec: the command's are audited. */
int lldev_enforce(int fd, int abi, bool log_new_exec);

#endif
