/* What the macOS backend's files share: the plan, and the violation monitor's interface. */
#ifndef SBX_MACOS_H
#define SBX_MACOS_H

#include <stdbool.h>
#include <stdint.h>

/* Built by macos/sandbox.c before fork, only read by macos/spawn.c. */
struct sandbox_plan {
	char		**argv;		/* sandbox-exec ... -- command */
	char		**envp;
	char		 *cwd;
	int		  stdio[3];
	bool		  tty;
	unsigned	  umask;
	uint64_t	  session;
};

/* Where a session init can fail (sandbox_step_name()). */
enum macos_step {
	MACOS_STEP_SETSID = 1,
	MACOS_STEP_TTY,
	MACOS_STEP_FORK,
};

/*
 * Starts one `log stream --style ndjson` for every tag starting with
 * prefix (seatbelt/log.h) on the daemon's event base; each violation it
 * reads is logged with its session and the hash of the session's
 * profile. Returns 0 or -errno (the caller reports the backend degraded).
 */
int	macos_logmon_start(const char *prefix);
/* Which profile a session runs under (hash: 64 hex digits, copied). */
void	macos_logmon_watch(uint64_t session, const char *hash);
void	macos_logmon_forget(uint64_t session);

#endif
