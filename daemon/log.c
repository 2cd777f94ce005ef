/* Where the daemon's messages go, decided once at start-up. */
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

#include "daemon/log.h"
#include "daemon/svc.h"

static bool to_journal;
static int max_priority = LOG_INFO;

void
log_init(void)
{
	const char *v = getenv("SBXD_DEBUG");

	to_journal = svc_journal();
	if (v && *v == '1')
		max_priority = LOG_DEBUG;
}

static void __attribute__((format(printf, 3, 0)))
log_v(int priority, const char *const *fields, const char *fmt, va_list ap)
{
	static const char *const names[] = { "emerg", "alert", "crit", "error",
					     "warning", "notice", "info",
					     "debug" };
	char buf[1024];

	if (priority > max_priority)
		return;
	vsnprintf(buf, sizeof(buf), fmt, ap);
	if (to_journal) {
		if (fields)
			svc_log_fields(priority, buf, fields);
		else
			svc_log(priority, buf);
		return;
	}
	fprintf(stderr, "sbxd[%d]: %s: %s\n", (int)getpid(),
		names[priority & 7], buf);
}

void
log_msg(int priority, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	log_v(priority, NULL, fmt, ap);
	va_end(ap);
}

void
log_fields(int priority, const char *const *fields, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	log_v(priority, fields, fmt, ap);
	va_end(ap);
}
