/* Formats a ViolationEvent as the one line sbxctl prints for it. */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "client/violation.h"

static const char *
str(const char *s)
{
	return s ? s : "";
}

/* Terminals and agents read this: no control bytes from the daemon. */
static void
scrub(char *s)
{
	for (; *s; s++)
		if ((unsigned char)*s < 0x20 || *s == 0x7f)
			*s = '?';
}

size_t
violation_format(const Sbx__ViolationEvent *ev, char *buf, size_t size)
{
	size_t n = 0;
	int w;

#define OUT(...) do {							\
	w = snprintf(buf + n, n < size ? size - n : 0, __VA_ARGS__);	\
	n += w > 0 ? (size_t)w : 0;					\
} while (0)
	if (size == 0)
		return 0;
	OUT("sbx: blocked %s %s (%s", str(ev->kind), str(ev->target),
	    ev->rule && ev->rule[0] ? ev->rule : "sbx");
	if (ev->layer && ev->layer[0])
		OUT(", %s policy%s%s", ev->layer, ev->file && ev->file[0] ?
		    " " : "", str(ev->file));
	if (ev->detail && ev->detail[0])
		OUT(": %s", ev->detail);
	OUT(")");
	if (ev->remediation && ev->remediation[0])
		OUT(" \u2014 %s", ev->remediation);
#undef OUT
	if (n >= size)
		n = size - 1;
	buf[n] = '\0';
	scrub(buf);
	return n;
}

void
violation_print(const Sbx__ViolationEvent *ev)
{
	char line[2048];
	size_t n = violation_format(ev, line, sizeof(line) - 1);

	line[n++] = '\n';
	if (write(2, line, n) < 0)
		return;
}
