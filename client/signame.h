/* Signal names and numbers for the command line ("TERM", "SIGINT", "9"). */
#ifndef SBX_SIGNAME_H
#define SBX_SIGNAME_H

/* Signal number for a name or number, or -1. Pure. */
int signame_parse(const char *s);

#endif
