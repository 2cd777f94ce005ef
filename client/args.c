/* sbxctl's global options, taken from before the verb or among the verb's
 * own arguments, with the verb's getopt table telling its words apart. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "client/args.h"

enum { G_JSON, G_SOCKET, G_NOAUTO, G_TIMEOUT, G_HELP, G_VERSION };

static const struct option globals[] = {
	{ "json", no_argument, NULL, G_JSON },
	{ "socket", required_argument, NULL, G_SOCKET },
	{ "no-autostart", no_argument, NULL, G_NOAUTO },
	{ "connect-timeout", required_argument, NULL, G_TIMEOUT },
	{ "help", no_argument, NULL, G_HELP },
	{ "version", no_argument, NULL, G_VERSION },
	{ NULL, 0, NULL, 0 },
};

int
args_timeout(const char *s, unsigned *ms)
{
	char *end;
	double secs = strtod(s, &end);

	if (end == s || *end || !(secs >= 0) || secs > 86400)
		return -EINVAL;
	*ms = (unsigned)(secs * 1000);
	if (secs > 0 && *ms == 0)
		*ms = 1;
	return 0;
}

/* getopt_long's rule over the globals and the verb's table together: an
 * exact name wins, else a prefix of exactly one option. NULL: unknown or
 * ambiguous (the verb's getopt then says so). */
static const struct option *
find_long(const char *name, size_t len, const struct option *opts,
	  bool *global)
{
	const struct option *tables[2] = { globals, opts }, *hit = NULL, *o;
	int t, n = 0;

	for (t = 0; t < 2; t++)
		for (o = tables[t]; o && o->name; o++) {
			if (strncmp(o->name, name, len))
				continue;
			if (!o->name[len]) {
				*global = t == 0;
				return o;
			}
			n++;
			hit = o;
			*global = t == 0;
		}
	return n == 1 ? hit : NULL;
}

static int
apply(int code, const char *val, struct cmd_ctx *ctx, const char **bad)
{
	switch (code) {
	case G_JSON:
		ctx->json = true;
		return 0;
	case G_SOCKET:
		ctx->socket = val;
		return 0;
	case G_NOAUTO:
		ctx->no_autostart = true;
		return 0;
	case G_TIMEOUT:
		if (args_timeout(val, &ctx->connect_timeout_ms) < 0) {
			*bad = val;
			return -EINVAL;
		}
		return 0;
	case G_HELP:
		return ARGS_HELP;
	default:
		return ARGS_VERSION;
	}
}

/* The long option at argv[i]: *span is how many words it takes; returns
 * the ARGS_* bits of a global (>= 0, *taken set) or -EINVAL. */
static int
take_long(char **argv, int argc, int i, const struct option *opts,
	  struct cmd_ctx *ctx, int *span, bool *taken, const char **bad)
{
	const char *name = argv[i] + 2, *eq = strchr(name, '=');
	size_t len = eq ? (size_t)(eq - name) : strlen(name);
	const struct option *o;
	bool global = false;

	*span = 1;
	*taken = false;
	if (!(o = find_long(name, len, opts, &global)))
		return 0;
	if (o->has_arg == required_argument && !eq)
		*span = 2;
	if (!global)
		return 0;
	*bad = argv[i];
	if ((o->has_arg == no_argument && eq) || i + *span > argc)
		return -EINVAL;
	*taken = true;
	return apply(o->val, o->has_arg == no_argument ? NULL :
			     eq ? eq + 1 : argv[i + 1], ctx, bad);
}

/* A cluster of short options at argv[i] ("-tq", "-C dir", "-h"). It is
 * taken only when every letter is a global one; a letter of the verb's that
 * takes a value ends the cluster (the rest, or the next word, is that). */
static int
take_short(char **argv, int argc, int i, const char *shortopts,
	   unsigned flags, struct cmd_ctx *ctx, int *span, bool *taken,
	   const char **bad)
{
	const char *w = argv[i], *p, *sock = NULL;
	bool mine = false, unknown = false, json = false;
	int j, bits = 0;

	*span = 1;
	for (j = 1; w[j]; j++) {
		p = shortopts && w[j] != ':' && w[j] != '+' ?
			    strchr(shortopts, w[j]) : NULL;
		if (p) {
			mine = true;
			if (p[1] == ':') {
				*span = w[j + 1] ? 1 : 2;
				break;
			}
		} else if (w[j] == 'h') {
			bits |= ARGS_HELP;
		} else if ((flags & ARGS_SHORT) && w[j] == 'j') {
			json = true;
		} else if ((flags & ARGS_SHORT) && w[j] == 's') {
			*span = w[j + 1] ? 1 : 2;
			sock = w[j + 1] ? w + j + 1 : argv[i + 1];
			break;
		} else {
			unknown = true;
		}
	}
	/* A word with a letter not ours stays whole, for the verb (or for
	 * main, which refuses an unknown option before the verb). */
	*taken = !mine && !unknown;
	if (!*taken)
		return bits;
	if (i + *span > argc) {
		*bad = w;
		return -EINVAL;
	}
	ctx->json |= json;
	if (sock)
		ctx->socket = sock;
	return bits;
}

int
args_take_globals(int *argc, char **argv, const struct option *opts,
		  const char *shortopts, unsigned flags, struct cmd_ctx *ctx,
		  const char **bad)
{
	bool stop = shortopts && shortopts[0] == '+', taken;
	int n = *argc, i = 1, out = 1, found = 0, span, r, k;

	while (i < n && strcmp(argv[i], "--")) {
		if (argv[i][0] != '-' || !argv[i][1]) {
			if (stop)
				break;
			argv[out++] = argv[i++];
			continue;
		}
		if (argv[i][1] == '-')
			r = take_long(argv, n, i, opts, ctx, &span, &taken, bad);
		else
			r = take_short(argv, n, i, shortopts, flags, ctx, &span,
				       &taken, bad);
		if (r < 0)
			return r;
		found |= r;
		for (k = 0; k < span && i < n; k++, i++)
			if (!taken)
				argv[out++] = argv[i];
	}
	while (i < n)
		argv[out++] = argv[i++];
	argv[out] = NULL;
	*argc = out;
	return found;
}
