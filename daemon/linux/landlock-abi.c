/* The Landlock features sbx uses, by the ABI that brought them. */
#include <stdio.h>

#include "daemon/linux/landlock-abi.h"

static const struct {
	int abi;
	const char *name;
} features[] = {
	/* Below ABI 2 a ruleset refuses every rename or link between
	 * directories, in the workspace too. */
	{ 2, "REFER" },
	{ 3, "TRUNCATE" },
	{ 4, "TCP rules" },
	{ 5, "IOCTL_DEV" },
	{ 6, "scoping of abstract sockets and signals" },
	{ 7, "audit logging" },
};

int
landlock_abi_missing(int abi, int upto, char *buf, size_t len)
{
	size_t i, off = 0;
	int n = 0, w;

	if (len)
		buf[0] = '\0';
	for (i = 0; i < sizeof(features) / sizeof(features[0]); i++) {
		if (features[i].abi <= abi || features[i].abi > upto)
			continue;
		w = snprintf(off < len ? buf + off : NULL,
			     off < len ? len - off : 0, "%sno %s (ABI %d)",
			     n ? ", " : "", features[i].name, features[i].abi);
		if (w > 0)
			off += (size_t)w;
		n++;
	}
	return n;
}
