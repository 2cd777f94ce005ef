/* Turns one rule list of a policy document (a JSON array) into rules. */
#ifndef SBX_POLICY_ITEM_H
#define SBX_POLICY_ITEM_H

#include <jansson.h>

#include "daemon/policy/policy.h"
#include "daemon/policy/json.h"

/*
 * A rule in a document is a string, or an object naming the value with the
 * list's item key ("path", "domain" or "name") plus an optional "id"
 * ([A-Za-z0-9._-], at most 64, unique in the document), "reason" (one line
 * shown to people and agents on denial), "_comment" (ignored) and, in
 * allowedDomains only, "allowPrivate" (a boolean: POLICY_RULE_PRIVATE):
 *   "~/.ssh"
 *   {"path": "~/.ssh", "id": "ssh-keys", "reason": "private keys"}
 */
#define POLICY_ITEM_ID_MAX 64
#define POLICY_ITEM_REASON_MAX 1000

/* Parses arr as list into p, reporting through pj. */
void policy_item_parse_list(struct policy_json *pj, json_t *arr,
    enum policy_list list, struct policy *p);

#endif
