/* Service-manager integration (systemd on Linux, launchd on macOS). */
#ifndef SBX_SVC_H
#define SBX_SVC_H

#include <stdbool.h>
#include <stdint.h>

/* The listening socket handed over by socket activation, or -1. */
int svc_listen_fd(void);
/* Sends a state string ("READY=1", "STATUS=...", "STOPPING=1"); no-op when
 * not supervised. */
void svc_notify(const char *state);
/* Watchdog interval in microseconds, 0 when none was requested. */
uint64_t svc_watchdog_usec(void);
/* True when stderr is connected to the journal. */
bool svc_journal(void);
/* Logs one message to the journal. */
void svc_log(int priority, const char *msg);
/* The same with extra structured fields, each "NAME=value" (NAME in
 * upper case, as the journal wants), NULL-terminated. */
void svc_log_fields(int priority, const char *msg, const char *const *fields);

#endif
