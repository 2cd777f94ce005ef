/* Merges policy layers into the effective policy; lower layers narrow. */
#ifndef SBX_POLICY_MERGE_H
#define SBX_POLICY_MERGE_H

#include "daemon/policy/policy.h"

/*
 * docs are parsed documents of the layers ORG..REQUEST, most authoritative
 * first; several may share a layer (org drop-ins; request flags and a
 * --policy file), and within a layer they are unioned: lists concatenate,
 * a setting is NO if any says no, else YES if any says yes. The builtin
 * layer (policy/builtin.h) is added here, above everything. Across layers:
 *
 * - Deny lists union: denyRead, denyWrite, deniedDomains, env.deny,
 *   ignoreFiles, protect. Rules stay in layer order, so the first match is
 *   the most authoritative one, which is what explain cites.
 * - allowRead is a carve-out, not a grant: a rule re-allows reading only
 *   below the denyRead rules of its own layer, so a workspace cannot re-open
 *   what the org or the user denied. The rules union.
 * - Grant lists: allowWrite, allowedDomains, allowUnixSockets, env.pass.
 *   Going down the layers, the first layer that sets the list defines it,
 *   if it may grant (org or user). Each later layer that sets it meets
 *   every one of its rules with every rule above: a path inside an allowed
 *   path stays; an allowed path inside the lower one stays (that is the
 *   intersection); domains meet by policy_domain_meet(), so api.example.com
 *   under *.example.com stays, *.example.com under api.example.com becomes
 *   api.example.com, and ports must agree; an env glob stays only if a
 *   glob above covers it. A result keeps the lower rule's origin and, in
 *   within, the origin of the rule above it. An allowedDomains rule's
 *   allowPrivate widens: a result keeps it only if the rule above has it
 *   too (a warning says where it was dropped). A layer that is silent changes
 *   nothing. A workspace or request layer setting a list no org or user
 *   layer set gets nothing: those layers only narrow. A list nobody sets
 *   is empty (nothing granted).
 * - Widening settings (allowLocalBinding, allowAllUnixSockets, unknownHosts
 *   "ask"): YES only if an org or user layer says YES and no layer says NO;
 *   so "deny" wins over "ask". filesystem.home is "overlay" by default:
 *   any layer may repeat that, and "read-only" from any layer wins.
 * - Every ignoreFiles name is write-protected at any depth as well.
 * - serial is the largest org serial.
 *
 * Every lower-layer rule dropped or narrowed and every widening refused is
 * a warning in diags, located at the lower rule: `sbxctl policy check`
 * shows them as "widens beyond a higher layer". A grant list is cut at
 * POLICY_MAX_RULES with a warning (cutting a grant narrows); deny lists
 * are never cut. Each lower rule meets each rule above, so with the
 * document limits of policy.h a merge costs at most about 1024 x 1024
 * meets per list.
 *
 * The caller provides the user layer: ~/.config/sbx/policy.json, else
 * ~/.srt-settings.json, else policies/default.json; a user file replaces
 * the defaults entirely, as srt's settings file does. Without a user (or
 * org) layer, the workspace can grant nothing.
 *
 * On success *out is a new effective policy (policy_free()). Returns 0,
 * -EINVAL if docs are out of order or hold a builtin layer, -ENOMEM.
 */
int policy_merge(const struct policy *const *docs, size_t n, const char *home,
    struct policy **out, struct policy_diags *diags);

#endif
