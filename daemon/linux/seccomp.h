/* The seccomp program of Linux sandboxes: compiled once, loaded per spawn. */
#ifndef SBX_LINUX_SECCOMP_H
#define SBX_LINUX_SECCOMP_H

#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "daemon/sandbox.h"

/* Linux 6.6, newer than the installed headers may be: the listener wakes
 * its reader on the notifying task's CPU, and the reply the task. */
#ifndef SECCOMP_IOCTL_NOTIF_SET_FLAGS
#define SECCOMP_IOCTL_NOTIF_SET_FLAGS SECCOMP_IOW(4, __u64)
#endif
#ifndef SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP
#define SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP (1UL << 0)
#endif

struct seccomp_opts {
	bool allow_unix;        /* with notify: permit socket(AF_UNIX) of
				   streams and seqpackets, every connect() a
				   user notification (the supervisor makes
				   it) */
	bool allow_ptrace;      /* debuggers within the sandbox: ptrace,
				   process_vm_readv/writev not refused */
	bool host_ipc;          /* no IPC namespace: SysV IPC and POSIX
				   message queues refused (seccomp.ipc) */
	bool notify;            /* denials as user notifications, answered
				   (EPERM) and reported by the daemon */
	enum sandbox_net net;   /* how sandboxes reach the network
				   (sandbox.h): which IP sockets they make */
	bool notify_connect;    /* every connect() a user notification too
				   (SANDBOX_NET_HOST_PORTS, with notify) */
	bool emulate;           /* file syscalls that create, write, rename
				   or link go to the session's supervisor
				   too (linux/emulate.c) */
	bool guard;             /* with emulate: unlink, rmdir and the chmod
				   family too, for a sandbox with no
				   read-only binds (Landlock-only mode) */
	bool native_only;       /* other ABIs refused outright (the
				   supervisor's own filter: a third of the
				   size, so quicker to load) */
	bool supervisor;        /* process_vm_readv allowed (the
				   supervisor's own filter) */
};

/* Compiles the deny set with libseccomp into *prog (filter owned by the
 * caller; free prog->filter). */
int seccomp_compile(const struct seccomp_opts *o, struct sock_fprog *prog);

/* The same for processes whose native ABI is arch (an SCMP_ARCH_* token),
 * with its compat ABIs: i386 and x32 beside x86-64, AArch32 beside AArch64.
 * seccomp_compile is this with the daemon's own ABI; the unit tests build
 * the AArch64 program on x86-64 (and the reverse) to check it. */
int seccomp_compile_arch(uint32_t arch, const struct seccomp_opts *o,
			 struct sock_fprog *prog);

/* Loads prog on the calling thread with SECCOMP_FILTER_FLAG_* flags;
 * no_new_privs must already be set. Does not allocate (safe in the forked
 * child). With SECCOMP_FILTER_FLAG_NEW_LISTENER, returns the listener. */
int seccomp_load_prog(const struct sock_fprog *prog, unsigned flags);

/* The name of syscall nr of ABI arch as a notification reports them
 * (seccomp_data.arch and .nr; x32's numbers under x86-64's arch), "?" when
 * libseccomp knows none. */
void seccomp_nr_name(uint32_t arch, int nr, char *buf, size_t len);

/* Whether the kernel can keep an emulated syscall's caller waiting
 * through signals (needed to emulate). */
bool seccomp_probe_emulate(void);

struct sup_sys;
/* Fills out[] with the emulated syscalls of every ABI the filter covers;
 * returns how many, or -E2BIG. */
int seccomp_syscall_table(struct sup_sys *out, size_t cap);

struct sandbox_denial;
struct seccomp_notif;
/* Takes one notification from listener fd, answers EPERM, describes it
 * (0); a native connect() with keep_connect set is copied to *kept and
 * left for the caller to answer (1). -EAGAIN when none waits. */
int seccomp_notify_answer(int fd, bool keep_connect,
			  struct seccomp_notif *kept,
			  struct sandbox_denial *out);

#endif
