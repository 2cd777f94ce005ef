/* The keys a policy document may have, and diagnosis of unknown ones. */
#ifndef SBX_POLICY_KEYS_H
#define SBX_POLICY_KEYS_H

#include <stdbool.h>

#include "daemon/policy/json.h"

enum policy_key_kind {
	POLICY_KEY_SECTION,	/* arg: enum policy_section */
	POLICY_KEY_LIST,	/* arg: enum policy_list */
	POLICY_KEY_BOOL,	/* arg: enum policy_setting_id */
	POLICY_KEY_HOSTS,	/* network.unknownHosts */
	POLICY_KEY_HOME,	/* filesystem.home */
	POLICY_KEY_STRICT,	/* srt strictAllowlist: true = hosts deny */
	POLICY_KEY_REASONS,	/* srt deniedDomainReasons: reasons by entry */
	POLICY_KEY_SERIAL,
	POLICY_KEY_LIMITS,
	POLICY_KEY_PARENT,	/* network.parentProxy (policy/parent.h) */
	POLICY_KEY_COMMENT,	/* "_comment", "$schema": people, tools */
	POLICY_KEY_L7,		/* arg 0: requestRules, 1: tls, 2:
				   credentials (reqrule.h) */
	POLICY_KEY_SRT		/* an srt setting sbx does not implement */
};

enum policy_section {
	POLICY_SEC_TOP,
	POLICY_SEC_FS,
	POLICY_SEC_NET,
	POLICY_SEC_ENV,
	POLICY_SEC_PROC,
	POLICY_NSECTIONS
};

struct policy_key {
	const char *name;
	enum policy_key_kind kind;
	int arg;
	const char *note;	/* POLICY_KEY_SRT: what ignoring it means */
};

const struct policy_key *policy_keys_find(enum policy_section sec,
    const char *name);
/* typed is probably a typo of key (an edit distance of at most 2). */
bool policy_keys_near(const char *typed, const char *key);
/*
 * Reports name as an unknown key of sec: typos in a security policy must not
 * pass silently, so say what was probably meant.
 */
void policy_keys_unknown(struct policy_json *pj, enum policy_section sec,
    const char *name);

#endif
