/* Kernel probes of the Linux backend. Each one really attempts what a
 * sandbox does, in a child process so the caller stays as it was, and says
 * which call failed. sbxd probes with them at start-up (linux/backend.c);
 * `sbxctl doctor` runs the same ones to explain a host (client/). */
#ifndef SBX_LINUX_PROBE_H
#define SBX_LINUX_PROBE_H

#include <linux/filter.h>
#include <stdbool.h>
#include <sys/types.h>

/* Why a probe failed: the call, and its errno (0 when the call worked but
 * did the wrong thing, e.g. a write that should have been refused). */
struct probe_fail {
	char step[64];
	int err;
};

/* unshare(CLONE_NEWUSER), then in that user namespace the others a
 * sandbox makes (mnt, pid, ipc, uts; net is probe_netns's), then a tmpfs
 * made with the mount API. 0, or -errno with *f set. */
int probe_userns(struct probe_fail *f);
/* Whether this process is in the initial user namespace (its uid_map is
 * the identity over every uid): only there does root's CAP_SYS_ADMIN
 * reach loop devices and block file systems. */
bool probe_initial_userns(void);

/* The mount API (mount_setattr, Linux >= 5.12) exists: 0 or -ENOSYS. */
int probe_mount_api(void);

/* Loads prog (sbx's deny set, seccomp_compile()) in a child, which then
 * calls keyctl(2), a syscall the set refuses, from a grandchild: it must
 * fail with EPERM. With notify the child takes the user notification
 * and answers it as sbxd does (seccomp_notify_answer()). */
int probe_seccomp(const struct sock_fprog *prog, bool notify,
		  struct probe_fail *f);

/* A seccomp listener takes SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP (Linux
 * 6.6): a supervisor is woken on the notifying task's CPU and answers it
 * on its own, and a waiting RECV ends with the filter. */
int probe_notify_sync(struct probe_fail *f);

/* A fresh network namespace (inside a fresh user namespace when userns):
 * loopback up as sandboxes bring it up, and a TCP connection over it. */
int probe_netns(bool userns, struct probe_fail *f);

/* Transparent capture in a fresh network namespace as probe_netns makes
 * it (linux_capture_setup): a connection to a made-up address reaches the
 * capture port, which knows the address. */
int probe_capture(bool userns, struct probe_fail *f);

/* Brings lo up in the calling process's network namespace (a sandbox
 * step, linux/init.c, and part of probe_netns). 1: brought up (a fresh
 * namespace), 0: it was up, or -errno. */
int probe_loopback_up(void);

/* In a fresh mount namespace (and user namespace as uid/gid when userns):
 * a tmpfs on dir (an existing empty directory; the host never sees what is
 * made on it), an overlay as sandboxes make it (linux_mount_overlay) of
 * lower (NULL: a directory on that tmpfs; else only read) with upper and
 * work directories on the tmpfs, and a write through the overlay that must
 * land in the upper one. */
int probe_overlay(const char *dir, const char *lower, bool userns, uid_t uid,
		  gid_t gid, struct probe_fail *f);

/* Landlock at abi as sandboxes use it (landlock_build): writes allowed
 * beneath dir/allowed only. Enforced in a child, which must create a file
 * in dir/allowed and be refused (EACCES) one in dir. */
int probe_landlock(int abi, const char *dir, struct probe_fail *f);

#endif
