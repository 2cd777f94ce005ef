/* Golden tests of the layer merge: NAME.in layers -> NAME.out policy. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "daemon/policy/policy.h"
#include "daemon/policy/merge.h"
#include "daemon/policy/render.h"
#include "daemon/policy/rule.h"
#include "unit.h"
#include "golden.h"

#define GOLDEN "tests/golden/merge"
#define MAX_DOCS 16

/*
 * NAME.in: "#" comments, "@home DIR", "@workspace DIR", then sections:
 *   --- LAYER FILE	JSON text follows, parsed as FILE of LAYER
 *   --- LAYER < PATH	the document is the file PATH (from the repo root)
 *   --- flags LIST FLAG	one value per line, as request flags FLAG
 * NAME.out: {"diagnostics": [...], "policy": {...}} as canonical JSON.
 * SBX_GOLDEN_UPDATE=1 rewrites the .out files; review them with git diff.
 */
struct golden {
	char home[256];
	char workspace[256];
	struct policy *docs[MAX_DOCS];
	size_t n;
	struct policy_diags diags;
};

static int
layer_of(const char *name)
{
	static const char *const names[] = { "org", "user", "workspace",
	    "request" };
	size_t i;

	for (i = 0; i < 4; i++)
		if (strcmp(name, names[i]) == 0)
			return POLICY_LAYER_ORG + (int)i;
	return -1;
}

static void
add_doc(struct golden *g, struct policy *p)
{
	if (p != NULL && g->n < MAX_DOCS)
		g->docs[g->n++] = p;
	else
		policy_free(p);
}

static void
section_json(struct golden *g, int layer, const char *file, const char *text,
    size_t len)
{
	struct policy_ctx ctx = { layer, file, g->home, g->workspace };
	struct policy *p = NULL;
	char *buf = NULL;

	if (file[0] == '<') {
		file += strspn(file, "< ");
		ctx.file = file;
		text = buf = golden_slurp(file, &len);
		CHECK(buf != NULL);
	}
	if (text != NULL)
		policy_parse(text, len, &ctx, &p, &g->diags);
	add_doc(g, p);
	free(buf);
}

static void
section_flags(struct golden *g, const char *spec, char *lines)
{
	struct policy_ctx ctx = { POLICY_LAYER_REQUEST, NULL, g->home,
	    g->workspace };
	struct policy *p = policy_new(POLICY_LAYER_REQUEST);
	char list[64], flag[64], *line, *save = NULL;
	int i, which = -1;

	CHECK(sscanf(spec, "%63s %63s", list, flag) == 2);
	for (i = 0; i < POLICY_NLISTS; i++)
		if (strcmp(policy_list_info(i)->name, list) == 0)
			which = i;
	CHECK(which >= 0 && p != NULL);
	ctx.file = flag;
	for (line = strtok_r(lines, "\n", &save); line && which >= 0 && p;
	    line = strtok_r(NULL, "\n", &save))
		policy_rule_add_text(p, which, line, &ctx, &g->diags);
	add_doc(g, p);
}

/* The next line starting "--- " at or after p, or NULL. */
static char *
next_section(char *p)
{
	if (strncmp(p, "--- ", 4) == 0)
		return p;
	p = strstr(p, "\n--- ");
	return p ? p + 1 : NULL;
}

/* Splits the .in text into its sections and parses each. */
static void
golden_load(struct golden *g, char *text)
{
	static char empty[1];
	char *line, *nl, *body, *end, *sec, name[32];
	int layer;

	/* The header: @ lines before the first section. */
	sec = next_section(text);
	for (line = text; line != NULL && line != sec;
	    line = nl ? nl + 1 : NULL) {
		if ((nl = strchr(line, '\n')) != NULL)
			*nl = '\0';
		if (strncmp(line, "@home ", 6) == 0)
			snprintf(g->home, sizeof(g->home), "%s", line + 6);
		else if (strncmp(line, "@workspace ", 11) == 0)
			snprintf(g->workspace, sizeof(g->workspace), "%s",
			    line + 11);
	}
	while (sec != NULL) {
		line = sec + 4;
		body = line + strcspn(line, "\n");
		if (*body != '\0')
			*body++ = '\0';
		sec = next_section(body);
		end = sec;
		if (end != NULL && end > body)
			end[-1] = '\0';
		else if (end != NULL)
			body = empty;
		CHECK(sscanf(line, "%31s", name) == 1);
		if (strcmp(name, "flags") == 0)
			section_flags(g, line + 6, body);
		else if ((layer = layer_of(name)) >= 0)
			section_json(g, layer, line + strlen(name) + 1, body,
			    strlen(body));
		else
			CHECK(!"unknown section in golden file");
	}
}

static char *
golden_render(struct golden *g)
{
	struct policy *eff = NULL;
	json_t *root = json_object(), *diags = json_array(), *pol = NULL;
	char *out = NULL;
	size_t i;

	CHECK_INT(policy_merge((const struct policy *const *)g->docs, g->n,
	    g->home, &eff, &g->diags), 0);
	if (eff != NULL)
		CHECK_INT(policy_render_json(eff, &pol), 0);
	for (i = 0; i < g->diags.n; i++)
		json_array_append_new(diags, json_string(g->diags.v[i].msg));
	json_object_set_new(root, "diagnostics", diags);
	json_object_set_new(root, "policy", pol ? pol : json_null());
	out = json_dumps(root, JSON_INDENT(2) | JSON_SORT_KEYS);
	json_decref(root);
	policy_free(eff);
	return out;
}

static void
golden_run(const char *name, void *arg)
{
	struct golden g = { .n = 0 };
	char in[512], out[512], *text, *got, *file = NULL;
	size_t len, i;

	snprintf(in, sizeof(in), "%s/%s.in", GOLDEN, name);
	snprintf(out, sizeof(out), "%s/%s.out", GOLDEN, name);
	text = golden_slurp(in, &len);
	CHECK(text != NULL);
	if (text == NULL)
		return;
	golden_load(&g, text);
	got = golden_render(&g);
	CHECK(got != NULL && asprintf(&file, "%s\n", got) > 0);
	if (file != NULL)
		golden_check(out, file, strlen(file));
	free(file);
	for (i = 0; i < g.n; i++)
		policy_free(g.docs[i]);
	policy_diag_free(&g.diags);
	free(got);
	free(text);
}

static void
test_golden(void)
{
	CHECK(golden_each(GOLDEN, ".in", golden_run, NULL) >= 8);
}

int
main(void)
{
	test_golden();
	UNIT_DONE();
}
