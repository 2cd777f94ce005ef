/* Resource limits of a sandbox (the policy's limits key): their values as
 * documents spell them, how layers narrow them, the machine's defaults.
 * Pure. */
#ifndef SBX_POLICY_LIMITS_H
#define SBX_POLICY_LIMITS_H

#include <stddef.h>
#include <stdint.h>

#include "daemon/policy/policy.h"

/* Bounds of each limit: a smaller memory limit would not let a shell
 * start; pids and weights are the kernel's own ranges. */
#define POLICY_PIDS_MIN 8ull
#define POLICY_PIDS_MAX 4194304ull
#define POLICY_MEMORY_MIN (16ull << 20)
#define POLICY_MEMORY_MAX (1ull << 50)
#define POLICY_CPU_MIN 1ull
#define POLICY_CPU_MAX 10000ull

/* The value of each limit when no layer sets one (policy_limit_defaults). */
struct policy_limit_defaults {
	unsigned long long v[POLICY_NLIMITS];
};

/* What the machine has, for the defaults (0: unknown). */
struct policy_machine {
	uint64_t ram;           /* bytes (MemTotal) */
	uint64_t threads_max;   /* kernel.threads-max */
	uint64_t nproc;         /* the served user's RLIMIT_NPROC */
};

/* "limits.memory" */
const char *policy_limit_name(enum policy_limit_id id);
/* "memory" */
const char *policy_limit_key(enum policy_limit_id id);

/*
 * A document's value: pids and cpu a JSON integer; memory an integer
 * (bytes) or a string "512M", "2G", "2 GiB", "1.5G" (powers of 1024).
 * 0 and *out, or -EINVAL and *why.
 */
int policy_limit_parse(enum policy_limit_id id, const char *text,
    long long integer, bool is_text, unsigned long long *out,
    const char **why);
/* As people read it: "2 GiB", "512", "weight 50". */
void policy_limit_format(enum policy_limit_id id, unsigned long long v,
    char *buf, size_t len);

/*
 * Defaults sized from the machine: memory half the RAM (at least
 * POLICY_MEMORY_MIN); pids 4096, or less where the kernel's thread limit
 * or the user's process limit is lower (a quarter of the one, half of the
 * other), so one sandbox cannot use up what the user's other programs
 * need; cpu weight 50, half the weight of the user's other work.
 */
void policy_limit_defaults(const struct policy_machine *m,
    struct policy_limit_defaults *out);

/*
 * The value that applies under the effective policy eff: the org/user
 * cap (else the default), lowered by the workspace or request layers.
 * *origin is the deciding layer's, or NULL for the default.
 */
unsigned long long policy_limit_resolve(const struct policy *eff,
    enum policy_limit_id id, const struct policy_limit_defaults *d,
    const struct policy_origin **origin);

/* Within a document the smallest value wins; 0 or -ENOMEM. */
int policy_limit_set(struct policy_limit *l, unsigned long long v,
    const struct policy_origin *o);

#endif
