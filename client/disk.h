/* How sbxctl shows a workspace's private disk (/tmp and the home layer):
 * "1.2M/64M", shared by ps and status. */
#ifndef SBX_CLIENT_DISK_H
#define SBX_CLIENT_DISK_H

#include <stddef.h>
#include <stdint.h>

/* used/limit, each rounded to one decimal in the largest unit below it;
 * limit 0: "1.2M/-" (none kept or enforced). */
void disk_text(uint64_t used, uint64_t limit, char *buf, size_t len);

#endif
