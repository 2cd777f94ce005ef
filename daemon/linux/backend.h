/* Daemon-wide state of the Linux backend, set up once by sandbox_init(). */
#ifndef SBX_LINUX_BACKEND_H
#define SBX_LINUX_BACKEND_H

#include <limits.h>
#include <linux/filter.h>
#include <stdbool.h>
#include <sys/types.h>

#include "daemon/linux/supervise.h"
#include "daemon/sandbox.h"

#define LINUX_MAX_GROUPS 64

struct linux_backend {
	struct sandbox_config cfg;
	struct sandbox_caps caps;
	gid_t groups[LINUX_MAX_GROUPS];
	int ngroups;
	struct sock_fprog seccomp;
	struct sock_fprog seccomp_noptrace; /* seccomp with the ptrace family
					       refused (caps.ptrace) */
	struct sock_fprog seccomp_super;  /* the supervisors' own filter */
	bool have_seccomp;
	char layers_dir[PATH_MAX]; /* STATE/home: the home overlays' layers */
	struct sup_sys sys[SUP_MAX_SYS];  /* what supervisors emulate */
	size_t nsys;
	int lock_fd;                      /* held by every supervisor */
};

const struct linux_backend *linux_backend(void);
/* linux/audit.c: whether Landlock denials are read, and if not why (for
 * the degraded list). */
void linux_backend_audit(bool on, const char *why);
/* A template has directories it does not watch (linux/watch.c): said once
 * in the degraded list. */
void linux_backend_unwatched(void);

#endif
