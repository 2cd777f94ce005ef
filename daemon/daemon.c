/* The daemon's context object and clock: a leaf every folder may read
 * (daemon.h), so no subsystem links back to main.c for them. */
#include <time.h>

#include "daemon/daemon.h"

struct sbxd sbxd = { .rundir_fd = -1 };

uint64_t
sbxd_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}
