/* Seatbelt violations as `log stream --style ndjson` prints them: session tags, the predicate, the line parser. */
#ifndef SBX_SEATBELT_LOG_H
#define SBX_SEATBELT_LOG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The kinds of violation (docs/architecture.md, "Violations"). */
enum seatbelt_kind {
	SEATBELT_FS_READ = 1,
	SEATBELT_FS_WRITE,
	SEATBELT_NETWORK,
	SEATBELT_IPC,
	SEATBELT_SYSCALL,
};

/*
 * The tag every deny of a session's profile carries (seatbelt.h): "sbx-"
 * NONCE "-" SESSION, NONCE being 16 hex digits a daemon draws at start so
 * its predicate sees its own sessions only, SESSION the session id in
 * decimal. The kernel appends it as the last line of the message.
 */
#define SEATBELT_TAG_MAX	64

int	seatbelt_log_tag(uint64_t nonce, uint64_t session, char *buf,
	    size_t len);
/* "sbx-NONCE-": what every tag of one daemon starts with. */
int	seatbelt_log_tag_prefix(uint64_t nonce, char *buf, size_t len);
/* The session of a tag with this prefix: 0, or -EINVAL. */
int	seatbelt_log_tag_session(const char *tag, const char *prefix,
	    uint64_t *session);

/*
 * The predicate for `log stream --predicate`: messages from the kernel
 * (processID 0: a sandboxed process can log text of its own, never as
 * the kernel) that carry one of this daemon's tags.
 */
int	seatbelt_log_predicate(const char *prefix, char *buf, size_t len);

/*
 * One violation. Strings are NUL-terminated and cut at their size. The
 * process name is the program's own choice (up to 32 bytes on macOS);
 * the target is a path, "host:port", a service or sysctl name, and
 * "<private>" where the log redacted it.
 */
struct seatbelt_violation {
	enum seatbelt_kind	 kind;
	bool			 denied;	/* false: "allow" with report */
	unsigned		 count;		/* deny(N), or N duplicates */
	int			 pid;		/* 0 in a duplicates line */
	char			 process[33];
	char			 op[64];
	char			 target[1024];
	char			 tag[SEATBELT_TAG_MAX];	/* "" if none */
	char			 time[40];	/* as logged */
};

/*
 * Parses one line of `log stream --style ndjson` output. Returns 1 and
 * fills *out for a sandbox violation the kernel logged; 0 for any other
 * line (the "Filtering the log data" header, the closing count object,
 * other messages, and lines not from the kernel); -EINVAL for a kernel
 * sandbox line that does not read as a violation.
 */
int	seatbelt_log_parse(const char *line, size_t len,
	    struct seatbelt_violation *out);

/* "fs-read", "fs-write", "network", "ipc", "syscall". */
const char *seatbelt_log_kind_name(enum seatbelt_kind kind);

#endif
