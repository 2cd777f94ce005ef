/* Policy types for documents and the effective policy; the parser. */
#ifndef SBX_POLICY_H
#define SBX_POLICY_H

#include <stdbool.h>
#include <stddef.h>

#include "daemon/policy/diag.h"

/*
 * Layers, most authoritative first (docs/architecture.md, "Policy").
 * BUILTIN holds the
 * compiled-in write protections (policy/builtin.c). ORG and USER may grant;
 * WORKSPACE and REQUEST may only narrow (policy/merge.h says exactly how).
 */
enum policy_layer {
	POLICY_LAYER_BUILTIN,
	POLICY_LAYER_ORG,
	POLICY_LAYER_USER,
	POLICY_LAYER_WORKSPACE,
	POLICY_LAYER_REQUEST,
	POLICY_NLAYERS
};

/* Every rule list of the format; policy_list_info() describes each one. */
enum policy_list {
	POLICY_DENY_READ,	/* filesystem.denyRead */
	POLICY_ALLOW_READ,	/* filesystem.allowRead: denyRead carve-outs */
	POLICY_ALLOW_WRITE,	/* filesystem.allowWrite */
	POLICY_DENY_WRITE,	/* filesystem.denyWrite */
	POLICY_ALLOWED_DOMAINS,	/* network.allowedDomains */
	POLICY_DENIED_DOMAINS,	/* network.deniedDomains */
	POLICY_UNIX_SOCKETS,	/* network.allowUnixSockets */
	POLICY_ENV_PASS,	/* env.pass */
	POLICY_ENV_DENY,	/* env.deny */
	POLICY_IGNORE_FILES,	/* ignoreFiles: gitignore-style file names */
	POLICY_PROTECT,		/* protect: extra write-protected paths */
	POLICY_HOST_SERVICES,	/* network.hostServices: host loopback
				   services reachable inside */
	POLICY_NLISTS
};

enum policy_value_kind {
	POLICY_VALUE_PATH,	/* absolute, normalised; may be a glob */
	POLICY_VALUE_DOMAIN,	/* see policy/domain.h */
	POLICY_VALUE_ENV,	/* variable name glob, '*' only */
	POLICY_VALUE_FILENAME	/* one path component */
};

struct policy_list_info {
	const char *section;	/* "filesystem", "network", "env"; NULL: top */
	const char *key;	/* name inside the section */
	const char *name;	/* dotted name used in messages */
	const char *item_key;	/* value key of an object rule: "path"... */
	enum policy_value_kind kind;
	bool grant;		/* allow list: lower layers intersect */
	bool globs;		/* glob patterns accepted (deny-type paths) */
	bool any;		/* a bare "*" is accepted (deniedDomains) */
};

/* Where a rule or setting came from; strings are owned by the holder. */
struct policy_origin {
	enum policy_layer layer;
	char *file;		/* name given in policy_ctx.file */
	char *id;		/* rule "id", or NULL */
	char *reason;		/* rule "reason", or NULL */
	int line, col;		/* 1-based position in file; 0 if none */
};

#define POLICY_RULE_GLOB	0x1u	/* value has * ? [ (path lists) */
#define POLICY_RULE_NAMED	0x2u	/* env.pass, effective policy: an org
					   or user rule names this variable
					   exactly (policy_explain_env) */
#define POLICY_RULE_PRIVATE	0x4u	/* allowedDomains "allowPrivate": the
					   name may resolve to a private or
					   reserved address (proxy/rules.h) */

struct policy_domain;
struct policy_l7;

/*
 * One rule. value is its canonical text: a resolved path, a domain rule
 * such as "*.example.com:443", an env glob or a file name. In an effective
 * policy, within is the higher layer's rule this one was checked against
 * (grant lists only), else NULL. All pointers are owned by the rule.
 */
struct policy_rule {
	char *value;
	unsigned flags;
	struct policy_domain *dom;	/* domain lists only */
	struct policy_origin origin;
	struct policy_origin *within;
};

struct policy_rules {
	struct policy_rule *v;
	size_t n, cap;
	bool set;	/* the document (or some layer) wrote this list */
};

/*
 * Settings are tri-state so a silent layer can be told from one saying no.
 * NO is always the narrow value: for unknownHosts NO is "deny", YES "ask";
 * for home NO is "read-only", YES "overlay". UNSET means the setting's
 * default (policy_setting_default()): NO, except for home and allowPtrace.
 */
enum policy_setting_id {
	POLICY_LOCAL_BINDING,		/* network.allowLocalBinding */
	POLICY_ALL_UNIX_SOCKETS,	/* network.allowAllUnixSockets */
	POLICY_UNKNOWN_HOSTS,		/* network.unknownHosts */
	POLICY_HOME,			/* filesystem.home */
	POLICY_PTRACE,			/* process.allowPtrace */
	POLICY_NSETTINGS
};

enum policy_tri {
	POLICY_UNSET,
	POLICY_NO,
	POLICY_YES
};

#define POLICY_HOSTS_DENY	POLICY_NO
#define POLICY_HOSTS_ASK	POLICY_YES
#define POLICY_HOME_READ_ONLY	POLICY_NO
#define POLICY_HOME_OVERLAY	POLICY_YES

struct policy_setting {
	enum policy_tri value;
	struct policy_origin origin;	/* meaningful unless UNSET */
};

/*
 * Resource limits of one sandbox (the "limits" object; policy/limits.h
 * parses, merges and renders them, one table row per key). A limit is a
 * number that narrows by getting smaller: the org caps it, the user may
 * lower it (or set it where the org is silent, even above the machine's
 * default), workspace and request only lower it, never above the default
 * (policy_limit_resolve()).
 */
enum policy_limit_id {
	POLICY_LIMIT_PIDS,	/* limits.pids: processes and threads */
	POLICY_LIMIT_MEMORY,	/* limits.memory: bytes */
	POLICY_LIMIT_CPU,	/* limits.cpu: CPU weight, 1-10000 */
	POLICY_LIMIT_TMP,	/* limits.tmp: bytes of /tmp + /var/tmp */
	POLICY_LIMIT_HOME,	/* limits.home: bytes of the home overlay's
				   upper layer */
	POLICY_NLIMITS
};

struct policy_limit {
	bool set;
	unsigned long long value;
	/* Effective only: no org or user layer set it, so value (from a
	 * narrowing layer) counts only below the default. */
	bool under_default;
	struct policy_origin origin;	/* meaningful when set */
};

/*
 * network.parentProxy (policy/parent.h). The URLs may hold credentials:
 * never print them but through policy_parent_redact().
 */
struct policy_parent_proxy {
	bool set;
	bool from_env;		/* "env": the daemon's HTTP(S)_PROXY, NO_PROXY */
	char *http, *https;	/* URLs, or NULL */
	char *no_proxy;		/* entries separated by commas, or NULL */
	struct policy_origin origin;
};

/*
 * A parsed document, or the effective policy that policy_merge() makes from
 * documents; the same type so one renderer and one explainer serve both.
 */
struct policy {
	enum policy_layer layer;	/* of a document; BUILTIN: effective */
	bool effective;
	struct policy_rules lists[POLICY_NLISTS];
	struct policy_setting settings[POLICY_NSETTINGS];
	struct policy_limit limits[POLICY_NLIMITS];
	struct policy_parent_proxy parent;
	struct policy_l7 *l7;	/* request rules, TLS settings; or NULL */
	long long serial;	/* org "serial"; 0 when absent */
	unsigned extra_refs;	/* policy_ref()s not dropped yet */
};

/* What the parser needs besides the bytes. Strings are borrowed. */
struct policy_ctx {
	enum policy_layer layer;
	const char *file;	/* shown in messages and kept in origins */
	const char *home;	/* absolute; "~" expands to it */
	const char *workspace;	/* absolute, or NULL: relative paths fail */
};

/*
 * Largest document, and most rules in one list of a document or in one
 * effective grant list. Merging meets every lower rule with every rule
 * above, so these bound the work a hostile workspace file (or spawn
 * request) can cause; the shipped default policy is under 10 KiB.
 */
#define POLICY_MAX_BYTES (256 * 1024)
#define POLICY_MAX_RULES 1024
/* Largest org serial: exact in a JSON double, so every tool agrees. */
#define POLICY_SERIAL_MAX 9007199254740991LL

/*
 * Parses one document. On success *out is a new policy (free it with
 * policy_free()). Errors and warnings are appended to diags in both cases,
 * each as "file:line:col: severity: message". Returns 0, -EINVAL if the
 * document has errors, -ENOMEM.
 */
int policy_parse(const void *buf, size_t len, const struct policy_ctx *ctx,
    struct policy **out, struct policy_diags *diags);

/*
 * The org-policy hook for crypto.c and the push RPC: after the signature
 * over the exact file bytes has verified and the bytes have parsed, a push
 * is accepted only if this returns 0. -ENODATA: no serial; -ESTALE: serial
 * not greater than current (rollback or replay).
 */
int policy_serial_check(const struct policy *org, long long current);

struct policy *policy_new(enum policy_layer layer);
/* Another reference to p, for a holder that must not see it change (a
 * policy is never changed once made); policy_free() drops one. */
struct policy *policy_ref(struct policy *p);
void policy_free(struct policy *p);

const struct policy_list_info *policy_list_info(enum policy_list list);
/* "network.allowLocalBinding" */
const char *policy_setting_name(enum policy_setting_id id);
/* What UNSET stands for: POLICY_NO, but the home is an overlay unless a
 * layer says "read-only". */
enum policy_tri policy_setting_default(enum policy_setting_id id);
/* v (UNSET: the default) as the document spells it: "ask", "read-only",
 * "true"... */
const char *policy_setting_text(enum policy_setting_id id, enum policy_tri v);
/* The setting's value, its default when no layer set it. */
enum policy_tri policy_setting_value(const struct policy *p,
    enum policy_setting_id id);
const char *policy_layer_name(enum policy_layer layer);

#endif
