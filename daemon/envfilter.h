/* The form of a client's environment entries. */
#ifndef SBX_ENVFILTER_H
#define SBX_ENVFILTER_H

#include <stdbool.h>

/* Validates one "NAME=value" entry: non-empty portable-ish name, '='. */
bool envfilter_valid(const char *entry);

#endif
