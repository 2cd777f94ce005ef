/* Writes SBPL: quoted strings, filters, and rules that are dropped unless they have a filter. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/seatbelt/seatbelt.h"
#include "daemon/seatbelt/out.h"

void
seatbelt_out_quote(FILE *f, const char *s, size_t n)
{
	size_t i;

	fputc('"', f);
	for (i = 0; i < n; i++) {
		switch (s[i]) {
		case '"':
		case '\\':
			fputc('\\', f);
			fputc(s[i], f);
			break;
		case '\n':
			fputs("\\n", f);
			break;
		case '\t':
			fputs("\\t", f);
			break;
		case '\r':
			fputs("\\r", f);
			break;
		default:
			fputc(s[i], f);
		}
	}
	fputc('"', f);
}

void
seatbelt_out_begin(struct seatbelt_out *o, const char *head, bool tag)
{
	if (o->err < 0)
		return;
	o->rule_buf = NULL;
	o->rule_len = 0;
	o->nfilt = 0;
	o->head = head;
	o->tag = tag;
	if ((o->rule = open_memstream(&o->rule_buf, &o->rule_len)) == NULL)
		o->err = -ENOMEM;
}

void
seatbelt_out_end(struct seatbelt_out *o)
{
	if (o->rule == NULL)
		return;
	if (fclose(o->rule) != 0 && o->err == 0)
		o->err = -ENOMEM;
	o->rule = NULL;
	if (o->err == 0 && o->nfilt > 0) {
		fprintf(o->f, "(%s", o->head);
		fwrite(o->rule_buf, 1, o->rule_len, o->f);
		if (o->tag)
			fputs("\n  (with message (param \""
			    SEATBELT_PARAM_SESSION "\"))", o->f);
		fputs(")\n", o->f);
	}
	free(o->rule_buf);
	o->rule_buf = NULL;
}

void
seatbelt_out_line(struct seatbelt_out *o, int depth, const char *text)
{
	if (o->err < 0 || o->rule == NULL)
		return;
	fprintf(o->rule, "\n%*s%s", depth * 2, "", text);
}

void
seatbelt_out_text(struct seatbelt_out *o, const char *text)
{
	if (o->err == 0 && o->rule != NULL)
		fputs(text, o->rule);
}

void
seatbelt_out_filter(struct seatbelt_out *o)
{
	o->nfilt++;
}

void
seatbelt_out_regex(struct seatbelt_out *o, int depth,
    const struct seatbelt_rx *rx)
{
	if (o->err < 0 || o->rule == NULL)
		return;
	if (rx->over) {
		o->err = -ENAMETOOLONG;
		return;
	}
	if (depth > 0)
		fprintf(o->rule, "\n%*s(regex ", depth * 2, "");
	else
		fputs(" (regex ", o->rule);
	seatbelt_out_quote(o->rule, rx->s, rx->len);
	fputc(')', o->rule);
	if (depth == 1)
		o->nfilt++;
}

static void
one_path(struct seatbelt_out *o, const char *wrap, const char *filter,
    const char *path)
{
	if (strlen(path) > SEATBELT_STR_MAX) {
		o->err = -ENAMETOOLONG;
		return;
	}
	fprintf(o->rule, "\n  %s%s%s(%s ", wrap ? "(" : "", wrap ? wrap : "",
	    wrap ? " " : "", filter);
	seatbelt_out_quote(o->rule, path, strlen(path));
	fputs(wrap ? "))" : ")", o->rule);
	o->nfilt++;
}

void
seatbelt_out_path(struct seatbelt_out *o, const char *wrap,
    const char *filter, const char *path)
{
	char alias[SEATBELT_STR_MAX + 16];
	int r;

	if (o->err < 0 || o->rule == NULL)
		return;
	one_path(o, wrap, filter, path);
	if ((r = seatbelt_rx_alias(path, alias, sizeof(alias))) < 0)
		o->err = r;
	else if (r > 0)
		one_path(o, wrap, filter, alias);
}

void
seatbelt_out_comment(struct seatbelt_out *o, const char *text)
{
	if (o->err == 0)
		fprintf(o->f, "\n; %s\n", text);
}
