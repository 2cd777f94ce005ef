/* Golden tests of the Seatbelt generator (NAME.json -> NAME.sb), each profile read back and checked. */
#include <errno.h>

#include <jansson.h>

#include "daemon/policy/ignore.h"
#include "daemon/policy/merge.h"
#include "daemon/seatbelt/seatbelt.h"
#include "daemon/seatbelt/rx.h"
#include "unit.h"
#include "golden.h"
#include "sbpl.h"

#define GOLDEN	"tests/golden/seatbelt"
#define MAXDOCS	8
#define MAXIGN	8

/*
 * NAME.json: {"home", "workspace", "tmpdir", "hidden": [...],
 *   "ports": {"http", "socks"},
 *   "layers": [{"layer": "user", "file": "policies/default.json"} or
 *		{"layer": "workspace", "policy": {...}}, ...],
 *   "ignore": [{"dir": "", "name": ".sbxignore", "text": "..."}],
 *   "warnings": N, "expect": [{"op", "path" | "ip" | "socket", "dir",
 *   "allow"}]}
 * NAME.sb is the profile, byte for byte. SBX_GOLDEN_UPDATE=1 rewrites
 * the .sb files; review them with git diff. Every profile is also read
 * back (sexp.h), must pass sbpl_check(), and must decide each "expect"
 * as written in both readings of Seatbelt's rule order.
 */
struct golden {
	json_t			*in;
	struct policy		*docs[MAXDOCS];
	size_t			 ndocs;
	struct policy		*eff;
	struct ignore_set	*set;
	const char		*hidden[8];
	struct seatbelt_input	 sin;
};

static int
layer_of(const char *name)
{
	static const char *const names[] = { "org", "user", "workspace",
	    "request" };
	size_t i;

	for (i = 0; name != NULL && i < 4; i++)
		if (strcmp(name, names[i]) == 0)
			return POLICY_LAYER_ORG + (int)i;
	return -1;
}

static void
load_layer(struct golden *g, json_t *l)
{
	struct policy_diags d = { 0 };
	struct policy_ctx ctx = { 0 };
	const char *file = json_string_value(json_object_get(l, "file"));
	char *text = NULL;
	size_t len;
	int layer = layer_of(json_string_value(json_object_get(l, "layer")));

	CHECK(layer >= 0 && g->ndocs < MAXDOCS);
	if (layer < 0 || g->ndocs == MAXDOCS)
		return;
	if (file != NULL)
		text = golden_slurp(file, &len);
	else
		text = json_dumps(json_object_get(l, "policy"), 0);
	CHECK(text != NULL);
	ctx.layer = (enum policy_layer)layer;
	ctx.file = file ? file : "golden.json";
	ctx.home = json_string_value(json_object_get(g->in, "home"));
	ctx.workspace = g->sin.workspace;
	if (text != NULL && policy_parse(text, strlen(text), &ctx,
	    &g->docs[g->ndocs], &d) == 0)
		g->ndocs++;
	else
		CHECK(!"golden layer parses");
	policy_diag_free(&d);
	free(text);
}

static void
load_ignores(struct golden *g, json_t *a)
{
	struct ignore_file *f;
	struct ignore_error err;
	json_t *e;
	size_t i;
	const char *text;

	CHECK_INT(ignore_set_new(&g->set), 0);
	json_array_foreach(a, i, e) {
		text = json_string_value(json_object_get(e, "text"));
		CHECK_INT(ignore_parse(
		    json_string_value(json_object_get(e, "dir")),
		    json_string_value(json_object_get(e, "name")), text,
		    strlen(text), &f, &err), 0);
		CHECK_INT(ignore_set_add(g->set, f), 0);
	}
}

static bool
golden_load(struct golden *g, const char *path)
{
	struct policy_diags d = { 0 };
	json_error_t jerr;
	json_t *e, *ports;
	size_t i;

	g->in = json_load_file(path, 0, &jerr);
	if (g->in == NULL) {
		fprintf(stderr, "%s:%d: %s\n", path, jerr.line, jerr.text);
		CHECK(!"golden input is JSON");
		return false;
	}
	g->sin.workspace = json_string_value(json_object_get(g->in,
	    "workspace"));
	g->sin.tmpdir = json_string_value(json_object_get(g->in, "tmpdir"));
	json_array_foreach(json_object_get(g->in, "hidden"), i, e)
		if (i < 7)
			g->hidden[i] = json_string_value(e);
	g->sin.hidden = g->hidden;
	ports = json_object_get(g->in, "ports");
	g->sin.http_port = (unsigned)json_integer_value(
	    json_object_get(ports, "http"));
	g->sin.socks_port = (unsigned)json_integer_value(
	    json_object_get(ports, "socks"));
	json_array_foreach(json_object_get(g->in, "layers"), i, e)
		load_layer(g, e);
	load_ignores(g, json_object_get(g->in, "ignore"));
	CHECK_INT(policy_merge((const struct policy *const *)g->docs,
	    g->ndocs, json_string_value(json_object_get(g->in, "home")),
	    &g->eff, &d), 0);
	policy_diag_free(&d);
	g->sin.policy = g->eff;
	g->sin.ignores = g->set;
	return g->eff != NULL;
}

static void
golden_free(struct golden *g)
{
	size_t i;

	for (i = 0; i < g->ndocs; i++)
		policy_free(g->docs[i]);
	policy_free(g->eff);
	ignore_set_free(g->set);
	json_decref(g->in);
}

/* Every decision the golden file states, in both readings of the order. */
static void
check_expect(struct golden *g, struct sx *top, const char *name)
{
	struct sbpl_q q;
	json_t *e;
	size_t i;
	bool want, a, b;

	json_array_foreach(json_object_get(g->in, "expect"), i, e) {
		q.op = json_string_value(json_object_get(e, "op"));
		q.path = json_string_value(json_object_get(e, "path"));
		q.ip = json_string_value(json_object_get(e, "ip"));
		q.sock = json_string_value(json_object_get(e, "socket"));
		q.is_dir = json_is_true(json_object_get(e, "dir"));
		want = json_is_true(json_object_get(e, "allow"));
		a = sbpl_allows(top, &q, false);
		b = sbpl_allows(top, &q, true);
		if (a == want && b == want)
			continue;
		fprintf(stderr, "%s: expect %zu (%s %s%s%s): got %d/%d\n",
		    name, i, q.op, q.path ? q.path : "", q.ip ? q.ip : "",
		    q.sock ? q.sock : "", a, b);
		CHECK(!"golden expectation");
	}
}

/* Paths the generator may write as literal or subpath strings. */
struct paths {
	char	*v[4096];
	size_t	 n;
};

static void
paths_add(struct paths *p, const char *path)
{
	char *s, *slash, alias[8192];

	if (path == NULL || p->n + 2 >= 4096)
		return;
	if (seatbelt_rx_alias(path, alias, sizeof(alias)) > 0)
		p->v[p->n++] = strdup(alias);
	p->v[p->n++] = s = strdup(path);
	/* Ancestors: the rename rules name them. */
	if ((slash = strrchr(s, '/')) != NULL && slash != s) {
		*slash = '\0';
		paths_add(p, s);
		*slash = '/';
	}
}

static bool
paths_has(const struct paths *p, const char *s)
{
	size_t i;

	for (i = 0; i < p->n; i++)
		if (strcmp(p->v[i], s) == 0)
			return true;
	return false;
}

/* Each literal and subpath string decodes to a path the inputs hold. */
static void
check_strings(const struct paths *p, struct sx *x, const char *name)
{
	size_t i;

	if (x->kind != SX_LIST)
		return;
	if ((sx_head(x, "literal") || sx_head(x, "subpath")) &&
	    !paths_has(p, x->v[1]->s)) {
		fprintf(stderr, "%s: string \"%s\" is no input path\n", name,
		    x->v[1]->s);
		CHECK(!"string round-trips to an input path");
	}
	for (i = 0; i < x->n; i++)
		check_strings(p, x->v[i], name);
}

static void
check_paths(struct golden *g, struct sx *top, const char *name)
{
	static const char *const dev[] = { "/dev/null", "/dev/zero",
	    "/dev/tty", "/dev/dtracehelper", "/dev/stdout", "/dev/stderr" };
	const struct policy_rules *l;
	static struct paths p;
	char buf[8192];
	size_t i, k;

	p.n = 0;
	paths_add(&p, g->sin.workspace);
	paths_add(&p, g->sin.tmpdir);
	for (i = 0; g->hidden[i] != NULL; i++)
		paths_add(&p, g->hidden[i]);
	for (i = 0; i < sizeof(dev) / sizeof(dev[0]); i++)
		paths_add(&p, dev[i]);
	for (k = 0; k < POLICY_NLISTS; k++) {
		if (policy_list_info((enum policy_list)k)->kind !=
		    POLICY_VALUE_PATH)
			continue;
		for (l = &g->eff->lists[k], i = 0; i < l->n; i++)
			paths_add(&p, l->v[i].value);
	}
	for (i = 0; ignore_set_file(g->set, i) != NULL; i++) {
		snprintf(buf, sizeof(buf), "%s/%s", g->sin.workspace,
		    ignore_set_file(g->set, i)->dir);
		paths_add(&p, buf);
	}
	check_strings(&p, top, name);
	for (i = 0; i < p.n; i++)
		free(p.v[i]);
}

static void
golden_run(const char *name, void *arg)
{
	struct golden g = { .in = NULL };
	struct policy_diags d = { 0 };
	char in[512], out[512], err[160];
	char *text = NULL;
	const char *why;
	struct sx *top;
	size_t len, i;

	snprintf(in, sizeof(in), "%s/%s.json", GOLDEN, name);
	snprintf(out, sizeof(out), "%s/%s.sb", GOLDEN, name);
	if (!golden_load(&g, in))
		goto done;
	CHECK_INT(seatbelt_profile(&g.sin, &text, &len, &d), 0);
	if ((json_int_t)d.warnings != json_integer_value(json_object_get(g.in,
	    "warnings"))) {
		for (i = 0; i < d.n; i++)
			fprintf(stderr, "%s: %s\n", name, d.v[i].msg);
		CHECK(!"golden warning count");
	}
	if (text == NULL)
		goto done;
	golden_check(out, text, len);
	if ((top = sx_parse(text, len, err, sizeof(err))) == NULL) {
		fprintf(stderr, "%s: %s\n", out, err);
		CHECK(!"profile reads back");
		goto done;
	}
	if ((why = sbpl_check(top)) != NULL) {
		fprintf(stderr, "%s: %s\n", out, why);
		CHECK(!"profile structure");
	}
	check_expect(&g, top, name);
	check_paths(&g, top, name);
	sx_free(top);
done:
	policy_diag_free(&d);
	free(text);
	golden_free(&g);
}

static void
test_golden(void)
{
	size_t n = golden_each(GOLDEN, ".json", golden_run, NULL);

	CHECK(n >= 12);
	printf("golden: %zu profiles\n", n);
}

int
main(void)
{
	test_golden();
	UNIT_DONE();
}
