/* Which client environment variables reach a sandboxed command. */
#ifndef SBX_ENVFILTER_H
#define SBX_ENVFILTER_H

#include <stdbool.h>

/* "NAME=value" -> whether it may pass. Secrets by well-known name (tokens,
 * passwords, cloud credentials, agent sockets) and variables that steer
 * service managers are dropped. Pure. */
bool envfilter_pass(const char *entry);

/* Validates one "NAME=value" entry: non-empty portable-ish name, '='. */
bool envfilter_valid(const char *entry);

#endif
