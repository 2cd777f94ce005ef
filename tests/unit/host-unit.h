/* Shared by the proxy unit tests: a canonical host from text. */
#ifndef SBX_HOST_UNIT_H
#define SBX_HOST_UNIT_H

#include <string.h>

#include "daemon/proxy/host.h"
#include "unit.h"

static inline struct host
H(const char *s)
{
	struct host h;
	const char *why;

	memset(&h, 0, sizeof(h));
	CHECK_INT(host_canon(s, strlen(s), &h, &why), 0);
	return h;
}

#endif
