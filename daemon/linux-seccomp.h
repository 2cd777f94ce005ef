/* The seccomp program of Linux sandboxes: compiled once, loaded per spawn. */
#ifndef SBX_LINUX_SECCOMP_H
#define SBX_LINUX_SECCOMP_H

#include <linux/filter.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct sup_sys;

enum {
	SECCOMP_ALLOW_UNIX = 1 << 0,  /* socket(AF_UNIX) permitted */
	SECCOMP_NOTIFY = 1 << 1,      /* denials are user notifications,
					 answered EPERM by the supervisor */
	SECCOMP_EMULATE = 1 << 2,     /* file syscalls that create, write,
					 rename, link or remove go to the
					 supervisor too (linux-emulate.c) */
	SECCOMP_NATIVE_ONLY = 1 << 3, /* other ABIs refused outright (for
					 the supervisor itself: a third of
					 the size, so quicker to load) */
	SECCOMP_SUPERVISOR = 1 << 4,  /* process_vm_readv allowed */
};

/* Compiles the deny set with libseccomp into *prog (filter owned by the
 * caller; free prog->filter), with SECCOMP_* flags. */
int seccomp_compile(unsigned flags, struct sock_fprog *prog);

/* Loads prog on the calling thread with SECCOMP_FILTER_FLAG_* flags;
 * no_new_privs must already be set. Does not allocate (safe in the forked
 * child). With SECCOMP_FILTER_FLAG_NEW_LISTENER, returns the listener. */
int seccomp_load_prog(const struct sock_fprog *prog, unsigned flags);

/* Whether the kernel can keep an emulated syscall's caller waiting
 * through signals (needed to emulate). */
bool seccomp_probe_emulate(void);

/* Fills out[] with the emulated syscalls of every ABI the filter covers;
 * returns how many, or -E2BIG. */
int seccomp_syscall_table(struct sup_sys *out, size_t cap);

/* Name of syscall nr of audit arch, "?" when unknown. */
void seccomp_syscall_name(uint32_t arch, int nr, char *buf, size_t len);

#endif
