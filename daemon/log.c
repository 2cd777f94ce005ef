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

void
log_msg(int priority, const char *fmt, ...)
{
	static const char *const names[] = { "emerg", "alert", "crit", "error",
					     "warning", "notice", "info",
					     "debug" };
	char buf[1024];
	va_list ap;

	if (priority > max_priority)
		return;
	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	if (to_journal) {
		svc_log(priority, buf);
		return;
	}
	fprintf(stderr, "sbxd[%d]: %s: %s\n", (int)getpid(),
		names[priority & 7], buf);
}
