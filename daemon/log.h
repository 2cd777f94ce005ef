/* Daemon logging: the journal under systemd, else stderr; a line that
 * repeats is limited per call site (log.c says how). */
#ifndef SBX_LOG_H
#define SBX_LOG_H

#include <syslog.h>

struct event_base;

void log_init(void);
/* Lines left out by the rate limit are summarised from a timer on base;
 * log_detach writes what is still untold. */
void log_attach(struct event_base *base);
void log_detach(void);
void log_msg(int priority, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* log_msg with structured fields for the journal ("NAME=value",
 * NULL-terminated); elsewhere only the message is written. */
void log_fields(int priority, const char *const *fields, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#define log_error(...) log_msg(LOG_ERR, __VA_ARGS__)
#define log_warn(...) log_msg(LOG_WARNING, __VA_ARGS__)
#define log_info(...) log_msg(LOG_INFO, __VA_ARGS__)
#define log_debug(...) log_msg(LOG_DEBUG, __VA_ARGS__)

#endif
