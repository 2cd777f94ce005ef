/* Effective policy -> filesystem plan. Allow lists are already intersected
 * by the merge; here rules are only sorted into what the mount code and
 * the workspace walk consume, and the plan gets its identity key. */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/crypto.h"
#include "daemon/policy/fsplan.h"
#include "daemon/policy/path.h"

int
fsplan_push(struct fsplan_list *l, const char *s)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		if (!strcmp(l->v[i], s))
			return 0;
	return fsplan_append(l, s);
}

int
fsplan_append(struct fsplan_list *l, const char *s)
{
	char **v;

	v = realloc(l->v, (l->n + 2) * sizeof(*v));
	if (!v)
		return -ENOMEM;
	l->v = v;
	if (!(v[l->n] = strdup(s)))
		return -ENOMEM;
	v[++l->n] = NULL;
	return 0;
}

static int
cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Paths go to the plain list, globs to the walk's list. */
static int
sort_paths(const struct policy_rules *r, struct fsplan_list *plain,
	   struct fsplan_list *globs)
{
	size_t i;
	int e;

	for (i = 0; i < r->n; i++) {
		bool glob = r->v[i].flags & POLICY_RULE_GLOB;

		if ((e = fsplan_push(glob ? globs : plain, r->v[i].value)) < 0)
			return e;
	}
	return 0;
}

static int
make_key(struct fsplan *p, const char *workspace)
{
	size_t cap = strlen(workspace) + 2, len, k, i;
	char *buf, *w;
	int r;

	for (k = 0; k < FSPLAN_NKINDS; k++)
		for (i = 0; i < p->l[k].n; i++)
			cap += strlen(p->l[k].v[i]) + 2;
	buf = malloc(cap + FSPLAN_NKINDS + 1);
	if (!buf)
		return -ENOMEM;
	w = buf;
	/* What the sandbox's seccomp program depends on: a template's warm
	 * sandboxes have it loaded. */
	*w++ = p->no_ptrace ? 'p' : 'P';
	len = strlen(workspace);
	memcpy(w, workspace, len + 1);
	w += len + 1;
	for (k = 0; k < FSPLAN_NKINDS; k++) {
		*w++ = (char)('A' + k);
		for (i = 0; i < p->l[k].n; i++) {
			len = strlen(p->l[k].v[i]);
			memcpy(w, p->l[k].v[i], len + 1);
			w += len + 1;
		}
	}
	r = crypto_sha256_hex(buf, (size_t)(w - buf), p->key);
	free(buf);
	return r;
}

/* The overlay serves a home that is partly writable or readable: not one
 * the policy makes writable or masks as a whole. */
static int
plan_home(struct fsplan *p, const struct policy *eff, const char *home)
{
	size_t k, i;

	if (!home || home[0] != '/' ||
	    policy_setting_value(eff, POLICY_HOME) != POLICY_HOME_OVERLAY)
		return 0;
	/* allowWrite, then denyRead */
	for (k = FSPLAN_WRITE; k <= FSPLAN_DENY_READ; k++)
		for (i = 0; i < p->l[k].n; i++)
			if (policy_path_covers(p->l[k].v[i], home))
				return 0;
	return fsplan_push(&p->l[FSPLAN_OVERLAY], home);
}

const char *
fsplan_home(const struct fsplan *p)
{
	return p->l[FSPLAN_OVERLAY].n ? p->l[FSPLAN_OVERLAY].v[0] : NULL;
}

int
fsplan_build(const struct policy *eff, const char *workspace,
	     const char *home, struct fsplan **out)
{
	static const char *const ignore_default[] = FSPLAN_DEFAULT_IGNORE_FILES;
	struct fsplan *p = calloc(1, sizeof(*p));
	const struct policy_rules *ign = &eff->lists[POLICY_IGNORE_FILES];
	size_t i, k;
	int r = 0;

	if (!p)
		return -ENOMEM;
	/* The workspace is writable through the user layer (policy/store.c),
	 * so a run's --allow-write can narrow it. */
	r = sort_paths(&eff->lists[POLICY_ALLOW_WRITE], &p->l[FSPLAN_WRITE],
		       &p->l[FSPLAN_WRITE]);
	if (r == 0)
		r = sort_paths(&eff->lists[POLICY_DENY_READ],
			       &p->l[FSPLAN_DENY_READ], &p->l[FSPLAN_DENY_GLOBS]);
	if (r == 0)
		r = sort_paths(&eff->lists[POLICY_DENY_WRITE],
			       &p->l[FSPLAN_READ_ONLY], &p->l[FSPLAN_RO_GLOBS]);
	if (r == 0)
		r = sort_paths(&eff->lists[POLICY_PROTECT],
			       &p->l[FSPLAN_READ_ONLY], &p->l[FSPLAN_RO_GLOBS]);
	for (i = 0; r == 0 && i < 2; i++)
		r = fsplan_push(&p->l[FSPLAN_IGNORE], ignore_default[i]);
	for (i = 0; r == 0 && i < ign->n; i++)
		r = fsplan_push(&p->l[FSPLAN_IGNORE], ign->v[i].value);
	if (r == 0)
		r = plan_home(p, eff, home);
	if (r == 0)
		r = sort_paths(&eff->lists[POLICY_UNIX_SOCKETS],
			       &p->l[FSPLAN_UNIX_SOCKETS],
			       &p->l[FSPLAN_UNIX_SOCKETS]);
	if (r == 0 && policy_setting_value(eff, POLICY_ALL_UNIX_SOCKETS) ==
	    POLICY_YES)
		r = fsplan_push(&p->l[FSPLAN_UNIX_SOCKETS], "/");
	p->no_ptrace = policy_setting_value(eff, POLICY_PTRACE) == POLICY_NO;
	/* Order must not change the key. */
	for (k = 0; r == 0 && k < FSPLAN_NKINDS; k++)
		if (p->l[k].n > 1)
			qsort(p->l[k].v, p->l[k].n, sizeof(char *), cmp);
	if (r == 0)
		r = make_key(p, workspace);
	if (r < 0) {
		fsplan_free(p);
		return r;
	}
	*out = p;
	return 0;
}

void
fsplan_list_free(struct fsplan_list *l)
{
	size_t i;

	for (i = 0; i < l->n; i++)
		free(l->v[i]);
	free(l->v);
	l->v = NULL;
	l->n = 0;
}

void
fsplan_free(struct fsplan *p)
{
	size_t k;

	if (!p)
		return;
	for (k = 0; k < FSPLAN_NKINDS; k++)
		fsplan_list_free(&p->l[k]);
	free(p);
}
