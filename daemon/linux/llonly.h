/* Landlock-only mode of the Linux backend: for a daemon that is not root
 * and cannot make user namespaces (or runs with --landlock-only). No
 * namespaces and no mounts: each command runs under no_new_privs, a new
 * session, the seccomp deny set plus a no-network filter, a cached
 * Landlock ruleset that grants reads by complement of the masked paths and
 * writes only to the writable trees and a private TMPDIR, and a layer of
 * the session's own that closes /dev but for its terminals and a few
 * device nodes (linux/lldev.c). */
#ifndef SBX_LINUX_LLONLY_H
#define SBX_LINUX_LLONLY_H

#include <signal.h>
#include <stddef.h>

#include "daemon/sandbox.h"

struct probe_fail;
struct sandbox_plan;

/* Enters the mode: refuses (-errno, *err names the fix) as root or without
 * Landlock; else fills caps (ABI, landlock_only, the losses in the
 * degraded list). why: the failed user-namespace probe, NULL when forced. */
int llonly_init(struct sandbox_caps *caps, const struct probe_fail *why,
		char *err, size_t errlen);
/* Completes a plan for this mode: TMPDIR, the ruleset (borrowed from the
 * cache until the next llonly_plan), the /dev layer (the plan's), the
 * extra filter. */
int llonly_plan(struct sandbox_plan *p, const struct sandbox_request *req,
		char *err, size_t errlen);
/* What sandbox_signal sends the session init for SIGKILL: with no pid
 * namespace, killing the init would not take the sandbox along, so the
 * init kills the command's process group and every orphan, then exits. */
#define LLONLY_SIGKILL (SIGRTMIN + 2)

/* Starts the session init (a plain child of the daemon, pidfd in *out);
 * st[1] is its status channel. */
int llonly_spawn(struct sandbox_plan *p, struct sandbox_proc *out, int st[2]);

#endif
