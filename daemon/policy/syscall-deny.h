/* The builtin seccomp deny set as data: which syscalls sandboxes are refused,
 * grouped under rule ids ("seccomp.io_uring"), each with the kind of
 * violation it is and what to do instead. linux/seccomp.c compiles the
 * filter from it; a refused syscall is described from it. Pure. */
#ifndef SBX_SYSCALL_DENY_H
#define SBX_SYSCALL_DENY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "daemon/violation.h"

/* The rule text every seccomp violation names. */
#define SYSCALL_DENY_RULE "builtin seccomp deny set"

struct syscall_deny_group {
	const char *id;			/* "seccomp.io_uring" */
	enum violation_kind kind;
	const char *reason;		/* the remediation line */
	/* Refused whatever their arguments (NULL-terminated); the groups
	 * with conditions on arguments (socket families, ioctl requests,
	 * namespace flags) list none: linux/seccomp.c writes those rules. */
	const char *const *names;
	/* Refused only where the sandbox has no IPC namespace of its own
	 * (Landlock-only mode): what the namespace makes private. */
	bool host_ipc;
};

extern const struct syscall_deny_group syscall_deny_groups[];

/* Whether name is one of group seccomp.ptrace's calls a debugger needs
 * (ptrace, process_vm_readv, process_vm_writev): left out of the filter
 * where the sandbox allows debuggers. */
bool syscall_deny_ptrace_ok(const char *name);
extern const size_t syscall_deny_ngroups;

/* The calls that could set a setuid or setgid bit (group seccomp.setid):
 * the argument holding the mode, the one holding open flags (-1: none;
 * then only O_CREAT or O_TMPFILE make it a creation), and whether it makes
 * a file (the supervisor performs those, where there is one). */
struct syscall_setid {
	const char *name;
	int mode, flags;
	bool creates;
};
extern const struct syscall_setid syscall_deny_setid[];
extern const size_t syscall_deny_nsetid;

/*
 * Describes a refused syscall as a violation: group, kind and reason from
 * the table, rule SYSCALL_DENY_RULE, layer builtin, operation the name.
 * target gets the name or, where the arguments are what was refused, the
 * name with them decoded ("socket(AF_UNIX, SOCK_STREAM)",
 * "unshare(CLONE_NEWUSER)", "ioctl(TIOCSTI)"): stable text, so repeats
 * group together (pointers and other varying values are left out); for a
 * connect() refused by the daemon, addr ("host:port", else NULL; a Unix
 * socket's path, or "@name", makes it group seccomp.unix-socket). v's
 * strings point into target and the table.
 */
void syscall_deny_describe(const char *name, const uint64_t args[6],
			   const char *addr, struct violation *v,
			   char *target, size_t tlen);

/* Where the sandbox shares the host's network (no network namespace): is v
 * a program reaching the network around the proxy? A connect() sbxd
 * refused, or a resolver's UDP socket (SOCK_DGRAM|SOCK_NONBLOCK: glibc
 * makes its name-server sockets so, getaddrinfo's sorting probes not). */
bool syscall_deny_direct_net(const struct violation *v);

#endif
