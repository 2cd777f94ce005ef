/* The request policy layer of sbxctl run and sbxctl sandbox create
 * (run-policy.h): all the policy flags live here, so the request layer has
 * one parser. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "client/client.h"
#include "client/file.h"
#include "client/run-policy.h"
#include "daemon/policy/policy.h"

int
run_policy_flag(int c, const char *arg, struct run_policy *p)
{
	const char **v;
	size_t *n;

	switch (c) {
	case RUN_OPT_ALLOW_DOMAIN:
		v = p->allow_domain;
		n = &p->nallow_domain;
		break;
	case RUN_OPT_DENY_READ:
		v = p->deny_read;
		n = &p->ndeny_read;
		break;
	case RUN_OPT_ALLOW_WRITE:
		v = p->allow_write;
		n = &p->nallow_write;
		break;
	case RUN_OPT_PUBLISH:
		v = p->publish;
		n = &p->npublish;
		break;
	case RUN_OPT_POLICY:
		if (p->file) {
			client_err("--policy may be given once");
			return -EINVAL;
		}
		p->file = arg;
		return 1;
	default:
		return 0;
	}
	if (*n >= RUN_MAX_POLICY_FLAGS || !arg[0]) {
		client_err("too many or empty policy flags");
		return -EINVAL;
	}
	v[(*n)++] = arg;
	return 1;
}

/* A path flag as the daemon wants it: "~..." and absolute paths as they
 * are, relative ones against the run's cwd (lexically: they may not exist
 * yet). */
static char *
flag_path(const char *arg, const char *cwd)
{
	char *out;

	if (arg[0] == '/' || arg[0] == '~')
		return strdup(arg);
	return asprintf(&out, "%s/%s", cwd, arg) < 0 ? NULL : out;
}

static int
paths_of(const char *const *in, size_t n, const char *cwd, char ***out)
{
	size_t i;

	*out = calloc(n + 1, sizeof(**out));
	if (!*out)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		if (!((*out)[i] = flag_path(in[i], cwd)))
			return -ENOMEM;
	return 0;
}

void
run_policy_free(Sbx__PolicyOverrides *po)
{
	size_t i;

	for (i = 0; po->deny_read && i < po->n_deny_read; i++)
		free(po->deny_read[i]);
	for (i = 0; po->allow_write && i < po->n_allow_write; i++)
		free(po->allow_write[i]);
	free(po->deny_read);
	free(po->allow_write);
	/* Unset strings point at protobuf-c's static empty string. */
	if (po->policy_json != protobuf_c_empty_string)
		free(po->policy_json);
	if (po->policy_file != protobuf_c_empty_string)
		free(po->policy_file);
}

int
run_policy_overrides(const struct run_policy *p, const char *cwd,
	       Sbx__PolicyOverrides *po, Sbx__PolicyOverrides **out)
{
	size_t len;
	int r;

	*out = NULL;
	if (!p->nallow_domain && !p->ndeny_read && !p->nallow_write && !p->file)
		return 0;
	po->allow_domains = (char **)p->allow_domain;
	po->n_allow_domains = p->nallow_domain;
	po->n_deny_read = p->ndeny_read;
	po->n_allow_write = p->nallow_write;
	if ((r = paths_of(p->deny_read, p->ndeny_read, cwd,
			  &po->deny_read)) < 0 ||
	    (r = paths_of(p->allow_write, p->nallow_write, cwd,
			  &po->allow_write)) < 0)
		return r;
	if (p->file) {
		if ((r = file_read(p->file, POLICY_MAX_BYTES, &po->policy_json,
				   &len)) < 0)
			return r;
		if (!(po->policy_file = flag_path(p->file, cwd)))
			return -ENOMEM;
	}
	*out = po;
	return 0;
}
