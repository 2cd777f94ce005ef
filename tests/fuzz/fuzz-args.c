/* libFuzzer target for client/args.c: NUL-separated words as argv, split
 * with tables shaped as run's and events', and before a verb. What is left
 * is the input in order minus the words taken, a "--" left stands before
 * the input's untouched tail, and argv stays NULL-terminated. */
#include <stdlib.h>
#include <string.h>

#include "client/args.h"
#include "client/cmd.h"

int	LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Shaped as run's and events' (the verbs themselves link the daemon). */
static const struct option run_opts[] = {
	{ "tty", no_argument, NULL, 't' },
	{ "env", required_argument, NULL, 'e' },
	{ "workspace", required_argument, NULL, 'w' },
	{ "on-ask", required_argument, NULL, 'a' },
	{ NULL, 0, NULL, 0 },
};
static const struct option events_opts[] = {
	{ "session", required_argument, NULL, 's' },
	{ "count", required_argument, NULL, 'n' },
	{ NULL, 0, NULL, 0 },
};
static const struct cmd_entry run_e = { .opts = run_opts,
					.shortopts = "+te:C:q" };
static const struct cmd_entry events_e = { .opts = events_opts,
					   .shortopts = "s:jn:" };

static void
one(char **words, int n, const struct cmd_entry *e, unsigned flags)
{
	char *argv[65];
	struct cmd_ctx ctx = { 0 };
	const char *bad = NULL;
	int argc = n, i, j, r;

	memcpy(argv, words, sizeof(char *) * (size_t)n);
	argv[n] = NULL;
	r = args_take_globals(&argc, argv, e ? e->opts : NULL,
			      e ? e->shortopts : "+", flags, &ctx, &bad);
	if (r < 0 ? !bad : argc > n || argc < 1 || argv[argc])
		abort();
	if (r < 0)
		return;
	for (i = 0, j = 0; i < argc; i++, j++) {
		while (j < n && words[j] != argv[i])
			j++;
		if (j == n)
			abort(); /* not a subsequence of the input */
	}
	/* A "--" that is no option's value (the word before it is not an
	 * option) ends the search: the input's tail from there is left
	 * whole, and no earlier "--" was. */
	for (j = 1; j < n && strcmp(words[j], "--"); j++)
		;
	if (j == n || (j > 1 && words[j - 1][0] == '-'))
		return;
	for (i = 0; i < argc && argv[i] != words[j]; i++)
		;
	if (argc - i != n - j)
		abort();
	for (; i < argc; i++, j++)
		if (argv[i] != words[j])
			abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *buf = malloc(size + 1), *words[64], *p;
	int n = 0;

	if (!buf)
		return 0;
	memcpy(buf, data, size);
	buf[size] = '\0';
	words[n++] = (char *)"sbxctl";
	for (p = buf; p < buf + size && n < 64; p += strlen(p) + 1)
		words[n++] = p;
	one(words, n, &run_e, 0);
	one(words, n, &events_e, 0);
	one(words, n, NULL, ARGS_SHORT);
	free(buf);
	return 0;
}
