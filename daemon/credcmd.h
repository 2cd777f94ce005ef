/* Credential commands run beside the daemon's loop: one process per argv, PATH and HOME at a time, shared by whoever waits for it. */
#ifndef SBX_CREDCMD_H
#define SBX_CREDCMD_H

#include <stdbool.h>
#include <stddef.h>

/* How long a command may take before its process group is killed: a run
 * waits for it before it starts, and clients give up on an answer after
 * 5 s by default, so well under that. */
#define CREDCMD_MS 3000
/* Commands running (or killed and not yet reaped) at once: each is a
 * process the daemon forked, which a client asks for with every run it
 * sends (a PATH of its own is a command of its own), so there is a bound
 * past which a run is refused until some end. */
#define CREDCMD_MAX 32

struct credcmd_waiter;

/*
 * A command's result for one waiter: r is the length of value (its first
 * line, at most 1 KiB, NUL-ended, valid during the call only) or
 * -ETIMEDOUT (killed), -ENOEXEC (could not run), -EIO (failed),
 * -ENODATA (an empty first line), -ENOMEM. Called from the loop, never
 * from within credcmd_run; the waiter is freed after it returns.
 */
typedef void (*credcmd_fn)(void *arg, int r, const char *value);

/*
 * Runs argv outside the sandbox as the served user (its own process
 * group, stdin and stderr /dev/null, an environment of PATH and HOME
 * only, home NULL for none), or joins the run of the same argv, PATH and
 * HOME already going. *out: this waiter, for credcmd_cancel until done
 * is called. 0 or -errno: -EAGAIN when CREDCMD_MAX commands run already
 * (joining one is always possible).
 */
int credcmd_run(char *const *argv, const char *path, const char *home,
    credcmd_fn done, void *arg, struct credcmd_waiter **out);

/* w's done will not be called and w is freed. True when w was the last
 * waiter: its command was killed (the process group) and is reaped from
 * the loop. */
bool credcmd_cancel(struct credcmd_waiter *w);

/* At exit: every command still running or unreaped killed and reaped. */
void credcmd_shutdown(void);

#endif
