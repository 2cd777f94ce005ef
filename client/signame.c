/* Parsing signal names as kill(1) accepts them. */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "client/signame.h"

static const struct {
	const char *name;
	int sig;
} names[] = {
	{ "HUP", SIGHUP },   { "INT", SIGINT },   { "QUIT", SIGQUIT },
	{ "KILL", SIGKILL }, { "USR1", SIGUSR1 }, { "USR2", SIGUSR2 },
	{ "PIPE", SIGPIPE }, { "ALRM", SIGALRM }, { "TERM", SIGTERM },
	{ "CONT", SIGCONT }, { "TSTP", SIGTSTP }, { "WINCH", SIGWINCH },
};

int
signame_parse(const char *s)
{
	char *end;
	long n;
	size_t i;

	if (!s || !*s)
		return -1;
	if (*s >= '0' && *s <= '9') {
		n = strtol(s, &end, 10);
		return *end || n <= 0 || n >= NSIG ? -1 : (int)n;
	}
	if (!strncasecmp(s, "SIG", 3))
		s += 3;
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcasecmp(s, names[i].name))
			return names[i].sig;
	return -1;
}
