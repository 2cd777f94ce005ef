/* The "limits" object of a policy: one parser, merger and renderer row per
 * key (policy.h's enum policy_limit_id), the machine's defaults and which
 * layer's value applies. Pure. */
#ifndef SBX_POLICY_LIMITS_H
#define SBX_POLICY_LIMITS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "daemon/policy/json.h"
#include "daemon/policy/policy.h"

/* Bounds of the cgroup limits: a smaller memory limit would not let a
 * shell start; pids and weights are the kernel's own ranges. */
#define POLICY_PIDS_MIN 8ull
#define POLICY_PIDS_MAX 4194304ull
#define POLICY_MEMORY_MIN (16ull << 20)
#define POLICY_MEMORY_MAX (1ull << 50)
#define POLICY_CPU_MIN 1ull
#define POLICY_CPU_MAX 10000ull

/* The value of each limit when no layer sets one (policy_limit_defaults;
 * tmp and home have theirs in the session: 0 here). */
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
 * One value as a document writes it: pids and cpu a JSON integer; memory,
 * tmp and home an integer (bytes) or a size string ("512M", "2 GiB",
 * "1.5G", policy/size.h). 0 and *out, or -EINVAL and *why (static).
 */
int policy_limit_parse(enum policy_limit_id id, const char *text,
    long long integer, bool is_text, unsigned long long *out,
    const char **why);

/* Reads the "limits" object obj of a document into p->limits; unknown
 * keys and bad values are errors reported through pj. */
void policy_limits_parse(struct policy_json *pj, json_t *obj,
    struct policy *p);

/* As people read it, for messages: "2 GiB", "512", "weight 50". */
void policy_limit_format(enum policy_limit_id id, unsigned long long v,
    char *buf, size_t len);

/*
 * Sets eff->limits from docs (most authoritative first): the least value
 * of the org and user layers, else unset (the default); then the least of
 * that and every workspace or request value. A lower layer asking for
 * more than the layers above is warned about in diags and changes
 * nothing. Returns 0 or -ENOMEM.
 */
int policy_limits_merge(const struct policy *const *docs, size_t n,
    struct policy *eff, struct policy_diags *diags);

/* Adds a "limits" object to root for what p sets: {"tmp": {"value":
 * "512M", "from": "user ...:3:12"}, "pids": {"value": 100, ...}}; an
 * effective limit under the default adds "atMost": "default". Returns 0
 * or -ENOMEM. */
int policy_limits_render(const struct policy *p, json_t *root);

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
 * The limit in force under p: dflt when unset, at most dflt when only
 * workspace or request layers set it. *origin (may be NULL) is the
 * deciding layer's, or NULL when the default decides.
 */
uint64_t policy_limit_pick(const struct policy *p, enum policy_limit_id id,
    uint64_t dflt, const struct policy_origin **origin);

/* policy_limit_pick() with the machine's default of id. */
unsigned long long policy_limit_resolve(const struct policy *eff,
    enum policy_limit_id id, const struct policy_limit_defaults *d,
    const struct policy_origin **origin);

/* policy_limit_pick() without the origin. */
uint64_t policy_limit_value(const struct policy *p, enum policy_limit_id id,
    uint64_t dflt);

#endif
