/* The daemon's one context object, defined in daemon.c and filled by
 * main.c before the event loop starts; read-only afterwards except
 * `stopping`. Every folder may read it (tests/layout.sh). */
#ifndef SBX_DAEMON_H
#define SBX_DAEMON_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "proto/wire.h" /* SBX_VERSION */

struct sbxd {
	struct event_base *base;
	const char *socket_path;
	const char *rundir;
	int rundir_fd;             /* rundir, opened once */
	const char *statedir;      /* org store, home overlay layers */
	uid_t uid;                 /* served user */
	gid_t gid;
	bool privileged;
	bool stopping;
	uint64_t start_ms;         /* CLOCK_MONOTONIC */
};

extern struct sbxd sbxd;

uint64_t sbxd_now_ms(void);

#endif
