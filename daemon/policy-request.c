/* Builds each run's effective policy from the sbxd --policy user layer and the request's overrides. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "policy-merge.h"
#include "policy-request.h"
#include "policy-rule.h"

/* The user layer's bytes, read at start-up so a later edit cannot change
 * the policy in force behind the daemon's back. */
static char *user_text, *user_path, *home_dir;
static size_t user_len;

static void
first_error(const struct policy_diags *d, char *err, size_t errlen)
{
	size_t i;

	for (i = 0; i < d->n; i++)
		if (d->v[i].severity == POLICY_ERROR) {
			snprintf(err, errlen, "%s", d->v[i].msg);
			return;
		}
	snprintf(err, errlen, "invalid policy");
}

static int
read_file(const char *path, char **out, size_t *len)
{
	struct stat st;
	char *buf = NULL;
	ssize_t n;
	size_t got = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC), r = 0;

	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0)
		r = -errno;
	else if (!S_ISREG(st.st_mode))
		r = -EINVAL;
	else if (st.st_size > POLICY_MAX_BYTES)
		r = -EFBIG;
	if (r == 0 && (buf = malloc((size_t)st.st_size + 1)) == NULL)
		r = -ENOMEM;
	while (r == 0 && got < (size_t)st.st_size) {
		n = read(fd, buf + got, (size_t)st.st_size - got);
		if (n <= 0) {
			r = n < 0 ? -errno : -EIO;
			free(buf);
		} else
			got += (size_t)n;
	}
	close(fd);
	if (r == 0) {
		*out = buf;
		*len = got;
	}
	return r;
}

static int
parse(const char *text, size_t len, enum policy_layer layer,
    const char *file, const char *ws, struct policy **out,
    struct policy_diags *d)
{
	struct policy_ctx ctx = { layer, file, home_dir, ws };

	return policy_parse(text, len, &ctx, out, d);
}

int
policy_request_init(const char *path, const char *home, char *err,
    size_t errlen)
{
	struct policy_diags d = { 0 };
	struct policy *p = NULL;
	int r;

	if ((home_dir = strdup(home)) == NULL)
		return -ENOMEM;
	if (path == NULL)
		return 0;
	if ((r = read_file(path, &user_text, &user_len)) < 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(-r));
		return r;
	}
	if ((user_path = strdup(path)) == NULL)
		return -ENOMEM;
	/* Checked once against a stand-in workspace. */
	r = parse(user_text, user_len, POLICY_LAYER_USER, path, "/", &p, &d);
	if (r == -EINVAL)
		first_error(&d, err, errlen);
	policy_free(p);
	policy_diag_free(&d);
	return r;
}

void
policy_request_cleanup(void)
{
	free(user_text);
	free(user_path);
	free(home_dir);
	user_text = user_path = home_dir = NULL;
}

static int
flags_layer(const Sbx__PolicyOverrides *o, const char *ws, struct policy **out,
    struct policy_diags *d)
{
	struct policy_ctx ctx = { POLICY_LAYER_REQUEST, "--allow-domain",
	    home_dir, ws };
	struct policy *p = policy_new(POLICY_LAYER_REQUEST);
	size_t i;
	int r = 0;

	if (p == NULL)
		return -ENOMEM;
	for (i = 0; i < o->n_allow_domains && r == 0; i++)
		r = policy_rule_add_text(p, POLICY_ALLOWED_DOMAINS,
		    o->allow_domains[i], &ctx, d);
	if (r < 0) {
		policy_free(p);
		return r;
	}
	*out = p;
	return 0;
}

int
policy_request_build(const Sbx__PolicyOverrides *o, const char *workspace,
    struct policy **out, char *err, size_t errlen)
{
	struct policy_diags d = { 0 };
	struct policy *docs[3] = { NULL, NULL, NULL };
	size_t n = 0, i;
	const char *file;
	int r = 0;

	*out = NULL;
	if (o != NULL && (o->n_deny_read || o->n_allow_write)) {
		snprintf(err, errlen, "--deny-read and --allow-write are not "
		    "supported by this daemon yet");
		return -ENOTSUP;
	}
	if (user_text != NULL)
		r = parse(user_text, user_len, POLICY_LAYER_USER, user_path,
		    workspace, &docs[n++], &d);
	if (r == 0 && o != NULL && o->policy_json && o->policy_json[0]) {
		file = o->policy_file && o->policy_file[0] ? o->policy_file :
		    "--policy";
		r = parse(o->policy_json, strlen(o->policy_json),
		    POLICY_LAYER_REQUEST, file, workspace, &docs[n++], &d);
	}
	if (r == 0 && o != NULL && o->n_allow_domains)
		r = flags_layer(o, workspace, &docs[n++], &d);
	if (r == 0 && n > 0)
		r = policy_merge((const struct policy *const *)docs, n,
		    home_dir, out, &d);
	if (r == -EINVAL)
		first_error(&d, err, errlen);
	else if (r < 0)
		snprintf(err, errlen, "policy: %s", strerror(-r));
	for (i = 0; i < n; i++)
		policy_free(docs[i]);
	policy_diag_free(&d);
	return r;
}
