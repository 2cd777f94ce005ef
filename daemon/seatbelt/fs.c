/* The policy's filesystem lists (and the daemon's own state) as Seatbelt file rules. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/seatbelt/fs.h"

/* Devices a shell writes to whatever the policy says. */
static const char *const dev_literals[] = {
	"/dev/null", "/dev/zero", "/dev/tty", "/dev/dtracehelper",
	"/dev/stdout", "/dev/stderr",
};
static const char *const dev_regexes[] = {
	"^/dev/ttys[0-9]+$", "^/dev/fd/[0-9]+$",
};

/* What rule r covers: r's path and everything below it. */
static void
rx_rule(struct seatbelt_rx *rx, const struct policy_rule *r, bool fold)
{
	seatbelt_rx_init(rx);
	if (r->flags & POLICY_RULE_GLOB)
		seatbelt_rx_glob(rx, r->value, fold);
	else
		seatbelt_rx_anchor(rx, r->value, fold);
	seatbelt_rx_str(rx, "(/.*)?$");
}

/* One filter for rule r at depth: (subpath) for a plain path, else regex. */
static void
filter_rule(struct seatbelt_out *o, int depth, const struct policy_rule *r,
    bool fold)
{
	struct seatbelt_rx rx;

	if (!(r->flags & POLICY_RULE_GLOB) && !fold && depth == 1) {
		seatbelt_out_path(o, NULL, "subpath", r->value);
		return;
	}
	rx_rule(&rx, r, fold);
	if (!rx.never)
		seatbelt_out_regex(o, depth, &rx);
}

static void
allow_rules(struct seatbelt_out *o, const struct seatbelt_input *in)
{
	const struct policy_rules *w = &in->policy->lists[POLICY_ALLOW_WRITE];
	struct seatbelt_rx rx;
	size_t i;

	seatbelt_out_comment(o, "Reads everywhere, writes to allowWrite and "
	    "the workspace's temp dir; the denies below cut into both.");
	fputs("(allow file-read*)\n", o->f);
	seatbelt_out_begin(o, "allow file-write*", false);
	for (i = 0; i < w->n; i++)
		filter_rule(o, 1, &w->v[i], false);
	seatbelt_out_path(o, NULL, "subpath", in->tmpdir);
	seatbelt_out_end(o);
	seatbelt_out_begin(o, "allow file-write-data file-ioctl", false);
	for (i = 0; i < sizeof(dev_literals) / sizeof(dev_literals[0]); i++)
		seatbelt_out_path(o, NULL, "literal", dev_literals[i]);
	for (i = 0; i < sizeof(dev_regexes) / sizeof(dev_regexes[0]); i++) {
		seatbelt_rx_init(&rx);
		seatbelt_rx_str(&rx, dev_regexes[i]);
		seatbelt_out_regex(o, 1, &rx);
	}
	seatbelt_out_end(o);
}

/*
 * denyRead, one filter per layer: a layer's allowRead re-opens only what
 * that layer's own denyRead closed (policy/explain.c's read_denial()).
 */
static void
deny_read(struct seatbelt_out *o, const struct policy *p)
{
	const struct policy_rules *d = &p->lists[POLICY_DENY_READ];
	const struct policy_rules *a = &p->lists[POLICY_ALLOW_READ];
	size_t i, na, nd;
	int l;

	seatbelt_out_begin(o, "deny file-read* file-write* file-link", true);
	for (l = 0; l < POLICY_NLAYERS; l++) {
		for (i = na = 0; i < a->n; i++)
			na += (int)a->v[i].origin.layer == l;
		for (i = nd = 0; i < d->n; i++)
			nd += (int)d->v[i].origin.layer == l;
		if (nd == 0)
			continue;
		if (na > 0) {
			seatbelt_out_line(o, 1, "(require-all");
			seatbelt_out_line(o, 2, "(require-any");
		}
		for (i = 0; i < d->n; i++)
			if ((int)d->v[i].origin.layer == l)
				filter_rule(o, na > 0 ? 3 : 1, &d->v[i], false);
		if (na == 0)
			continue;
		seatbelt_out_text(o, ")");
		seatbelt_out_line(o, 2, "(require-not (require-any");
		for (i = 0; i < a->n; i++)
			if ((int)a->v[i].origin.layer == l)
				filter_rule(o, 3, &a->v[i], false);
		seatbelt_out_text(o, ")))");
		seatbelt_out_filter(o);
	}
	seatbelt_out_end(o);
}

/* The daemon's socket and state: not readable, writable or connectable. */
static void
hidden(struct seatbelt_out *o, const char *const *h)
{
	size_t i;

	seatbelt_out_begin(o, "deny file-read* file-write* file-link", true);
	for (i = 0; h != NULL && h[i] != NULL; i++)
		seatbelt_out_path(o, NULL, "subpath", h[i]);
	seatbelt_out_end(o);
	seatbelt_out_begin(o, "deny network-outbound", true);
	for (i = 0; h != NULL && h[i] != NULL; i++)
		seatbelt_out_path(o, "remote unix-socket", "subpath", h[i]);
	seatbelt_out_end(o);
	seatbelt_out_begin(o, "deny network-bind", true);
	for (i = 0; h != NULL && h[i] != NULL; i++)
		seatbelt_out_path(o, "local unix-socket", "subpath", h[i]);
	seatbelt_out_end(o);
}

static void
deny_write(struct seatbelt_out *o, const struct policy *p)
{
	static const enum policy_list lists[] = {
		POLICY_PROTECT, POLICY_DENY_WRITE
	};
	const struct policy_rules *l;
	size_t i, k;

	seatbelt_out_begin(o, "deny file-write* file-link", true);
	for (k = 0; k < sizeof(lists) / sizeof(lists[0]); k++)
		for (l = &p->lists[lists[k]], i = 0; i < l->n; i++)
			filter_rule(o, 1, &l->v[i], true);
	seatbelt_out_end(o);
}

/* Filter texts ("L" path or "R" regex), sorted and written once each. */
struct anc {
	char	**v;
	size_t	  n, cap;
	int	  err;
};

static void
anc_add(struct anc *a, char kind, const char *s, size_t n)
{
	char **v, *t;

	if (a->err < 0)
		return;
	if (a->n == a->cap) {
		a->cap = a->cap ? a->cap * 2 : 64;
		if ((v = realloc(a->v, a->cap * sizeof(*v))) == NULL) {
			a->err = -ENOMEM;
			return;
		}
		a->v = v;
	}
	if ((t = malloc(n + 2)) == NULL) {
		a->err = -ENOMEM;
		return;
	}
	t[0] = kind;
	memcpy(t + 1, s, n);
	t[n + 1] = '\0';
	a->v[a->n++] = t;
}

/*
 * The directories above what rule r covers whose renaming would move it
 * out from under its filter: each plain ancestor, and each glob prefix
 * that does not end in "**" (a "**" matches wherever it is moved).
 */
static void
anc_rule(struct anc *a, const struct policy_rule *r)
{
	const char *v = r->value, *end = v;
	char prefix[SEATBELT_STR_MAX + 1];
	struct seatbelt_rx rx;
	bool glob = false;
	size_t n;

	while (*end == '/') {
		n = strcspn(end + 1, "/");
		if (end[1 + n] == '\0')
			break;
		glob |= (r->flags & POLICY_RULE_GLOB) &&
		    strcspn(end + 1, "*?[") < n;
		end += 1 + n;
		if (n == 2 && end[-1] == '*' && end[-2] == '*')
			continue;
		if (!glob) {
			anc_add(a, 'L', v, (size_t)(end - v));
			continue;
		}
		if ((size_t)(end - v) >= sizeof(prefix))
			return;
		memcpy(prefix, v, (size_t)(end - v));
		prefix[end - v] = '\0';
		seatbelt_rx_init(&rx);
		seatbelt_rx_glob(&rx, prefix, false);
		seatbelt_rx_str(&rx, "$");
		if (!rx.over && !rx.never)
			anc_add(a, 'R', rx.s, rx.len);
	}
}

static int
cmp_str(const void *x, const void *y)
{
	return strcmp(*(char *const *)x, *(char *const *)y);
}

static void
deny_moves(struct seatbelt_out *o, const struct seatbelt_input *in)
{
	static const enum policy_list lists[] = {
		POLICY_DENY_READ, POLICY_DENY_WRITE, POLICY_PROTECT
	};
	const struct policy_rules *l;
	struct policy_rule h = { 0 };
	struct anc a = { 0 };
	struct seatbelt_rx rx;
	size_t i, k;

	for (k = 0; k < sizeof(lists) / sizeof(lists[0]); k++)
		for (l = &in->policy->lists[lists[k]], i = 0; i < l->n; i++)
			anc_rule(&a, &l->v[i]);
	for (i = 0; in->hidden != NULL && in->hidden[i] != NULL; i++) {
		h.value = (char *)in->hidden[i];
		anc_rule(&a, &h);
	}
	if (a.n > 0)
		qsort(a.v, a.n, sizeof(*a.v), cmp_str);
	seatbelt_out_begin(o, "deny file-write-unlink", true);
	for (i = 0; a.err == 0 && i < a.n; i++) {
		if (i > 0 && strcmp(a.v[i], a.v[i - 1]) == 0)
			continue;
		if (a.v[i][0] == 'L') {
			seatbelt_out_path(o, NULL, "literal", a.v[i] + 1);
			continue;
		}
		seatbelt_rx_init(&rx);
		seatbelt_rx_str(&rx, a.v[i] + 1);
		seatbelt_out_regex(o, 1, &rx);
	}
	seatbelt_out_end(o);
	for (i = 0; i < a.n; i++)
		free(a.v[i]);
	free(a.v);
	if (a.err < 0 && o->err == 0)
		o->err = a.err;
}

int
seatbelt_fs_rules(struct seatbelt_out *o, const struct seatbelt_input *in)
{
	allow_rules(o, in);
	seatbelt_out_comment(o, "denyRead: no reads, writes or hard links; "
	    "a layer's allowRead re-opens only that layer's denies.");
	deny_read(o, in->policy);
	seatbelt_out_comment(o, "The daemon's own state.");
	hidden(o, in->hidden);
	seatbelt_out_comment(o, "protect and denyWrite, existing or not, in "
	    "any case; and no renaming the directories above a denied path.");
	deny_write(o, in->policy);
	deny_moves(o, in);
	return o->err;
}
