/* The form of a client's environment entry; which entries pass is the
 * policy's (policy_explain_env, policy/envsecret.c). */
#include <string.h>

#include "daemon/envfilter.h"

bool
envfilter_valid(const char *entry)
{
	const char *eq = strchr(entry, '=');

	return eq && eq != entry;
}
