/* What each Landlock ABI adds that sbx uses, so sbxd's degraded list and
 * `sbxctl doctor` name the same losses. Pure. */
#ifndef SBX_LANDLOCK_ABI_H
#define SBX_LANDLOCK_ABI_H

#include <stddef.h>

/* Highest ABI whose features sbx uses. */
#define LANDLOCK_ABI_USED 7

/* Writes "no X (ABI n), no Y (ABI m)" into buf for every feature sbx uses
 * that appears after abi, up to ABI upto. Returns how many there were. */
int landlock_abi_missing(int abi, int upto, char *buf, size_t len);

#endif
