/* Policy rules: their storage, and checking one rule's value for its list. */
#ifndef SBX_POLICY_RULE_H
#define SBX_POLICY_RULE_H

#include "daemon/policy/policy.h"

/* Moves *r into l (r is zeroed); on -ENOMEM *r is left to the caller. */
int policy_rule_push(struct policy_rules *l, struct policy_rule *r);
int policy_rule_copy(struct policy_rule *dst, const struct policy_rule *src);
void policy_rule_clear(struct policy_rule *r);
void policy_rule_free_list(struct policy_rules *l);
int policy_rule_origin_copy(struct policy_origin *dst,
    const struct policy_origin *src);
void policy_rule_origin_clear(struct policy_origin *o);

/*
 * Checks text as a value of list in a document of ctx->layer and fills
 * r->value, r->flags and r->dom. 0: done; -EINVAL: an error, *why says
 * which; 1: valid srt but unsupported, to be dropped with *why as the
 * warning; -ENOMEM.
 */
int policy_rule_value(enum policy_list list, const char *text,
    const struct policy_ctx *ctx, struct policy_rule *r, const char **why);

/*
 * Checks a string a rule will keep: no control characters (they would reach
 * terminals and agents), at most max bytes. NULL if fine, else why.
 */
#define POLICY_RULE_TEXT_MAX 4096
const char *policy_rule_check_string(const char *s, size_t max);

/*
 * Adds one rule given as text, for request-layer flags (--allow-domain,
 * --deny-read, --allow-write): origin file is ctx->file, e.g. the flag.
 * 0, -EINVAL (with an error in diags) or -ENOMEM.
 */
int policy_rule_add_text(struct policy *p, enum policy_list list,
    const char *text, const struct policy_ctx *ctx, struct policy_diags *d);

#endif
