/* Renders a policy as canonical JSON and an origin as text. */
#ifndef SBX_POLICY_RENDER_H
#define SBX_POLICY_RENDER_H

#include <stddef.h>

#include <jansson.h>

#include "daemon/policy/policy.h"

/*
 * The policy with every rule's origin:
 *   {"filesystem": {"denyRead": [{"path": "/home/a/.ssh",
 *        "from": "org /etc/sbx/policy.d/acme.json:5:9", "id": "ssh",
 *        "reason": "...", "within": "..."}], ...},
 *    "network": {..., "unknownHosts": {"value": "ask", "from": "..."}},
 *    "env": {...}, "ignoreFiles": [...], "protect": [...], "serial": 3}
 * An effective policy shows every list and setting (unset ones with their
 * default, from "default"); a document only what it sets. Dump it with
 * JSON_SORT_KEYS for a canonical text. *out is a new reference.
 */
int policy_render_json(const struct policy *p, json_t **out);

/* "org /etc/sbx/policy.d/acme.json:12:5", or "request --allow-domain". */
void policy_render_origin(const struct policy_origin *o, char *buf,
    size_t len);

#endif
