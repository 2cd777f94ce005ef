/* Stopping the daemon when its socket is removed from under it. */
#ifndef SBX_SOCKWATCH_H
#define SBX_SOCKWATCH_H

#include <stdbool.h>

struct event_base;

/* Calls gone() once when the socket at path (which exists now) is no longer
 * there, or is another file: removed, renamed, its directory removed. */
int sockwatch_start(struct event_base *base, const char *path,
		    void (*gone)(void));
void sockwatch_stop(void);

#endif
