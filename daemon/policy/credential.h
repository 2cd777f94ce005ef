/* Credentials by reference (network.credentials): where a secret comes from, which hosts it may go to, where it goes. */
#ifndef SBX_POLICY_CREDENTIAL_H
#define SBX_POLICY_CREDENTIAL_H

#include <stddef.h>

#include <jansson.h>

#include "daemon/policy/policy.h"

struct policy_json;
struct policy_l7;

/* Longest secret accepted (a sentinel of the same length replaces it). */
#define POLICY_CRED_MAX 1024

/*
 * One entry. The secret is the run's client environment variable env, or
 * the first line of file (an absolute path, read with the user's rights)
 * or of what command prints (an argv run outside the sandbox as the user,
 * no shell; argv[0] an absolute path or a name looked up in PATH);
 * it goes only to hosts (domain rule texts), in the request field header
 * as format with "{}" standing for it (and, with body, in place of its
 * sentinel in request bodies). Owned by the holder.
 */
struct policy_cred {
	char *id;
	char *env;		/* or NULL */
	char *file;		/* or NULL */
	char **command;		/* or NULL; NULL-ended argv */
	char **hosts;
	size_t nhosts;
	char *header;		/* default "Authorization" */
	char *format;		/* default "{}"; has "{}" once */
	char *sigv4;		/* AWS: the variable holding the access key
				   id; the secret is the credential's value,
				   and requests are signed again (SigV4) */
	int body;		/* the sentinel in request bodies towards
				   hosts becomes the value too */
	struct policy_origin origin;
};

/*
 * The array v into l7. Only org and user policies may name credentials:
 * a workspace or a run could otherwise send a secret to a host of its
 * choosing. 0 or -ENOMEM (errors are reported through pj).
 */
int policy_cred_parse(struct policy_json *pj, json_t *v, struct policy_l7 *l7);
/* src's credentials appended to dst's. 0 or -ENOMEM. */
int policy_cred_merge(const struct policy_l7 *src, struct policy_l7 *dst);
void policy_cred_free(struct policy_cred *v, size_t n);

#endif
