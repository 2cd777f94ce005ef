/* What the daemon does to a running Linux sandbox from outside: signals
 * through its pidfd, and its cgroup's use and OOM fd. */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "daemon/linux/backend.h"
#include "daemon/linux/cgroup.h"
#include "daemon/linux/linux.h"
#include "daemon/linux/llonly.h"
#include "daemon/sandbox.h"

void
sandbox_usage(const struct sandbox_proc *p, struct sandbox_usage *u)
{
	lcgroup_usage(p->cgroup, u);
}

int
sandbox_oom_fd(const struct sandbox_proc *p)
{
	return lcgroup_oom_fd(p->cgroup);
}

int
sandbox_signal_all(const struct sandbox_proc *proc, int sig)
{
	siginfo_t si = { 0 };

	if (proc->pidfd < 0)
		return -EAGAIN;
	if (sig == SIGKILL)
		return sandbox_signal(proc, sig);
	/* The init tells it from a signal for the command by its value. */
	si.si_signo = sig;
	si.si_code = SI_QUEUE;
	si.si_pid = getpid();
	si.si_uid = getuid();
	si.si_value.sival_int = LINUX_SIG_ALL;
	if (syscall(SYS_pidfd_send_signal, proc->pidfd, sig, &si, 0) < 0)
		return -errno;
	return 0;
}

int
sandbox_signal(const struct sandbox_proc *proc, int sig)
{
	if (proc->pidfd < 0)
		return -EAGAIN; /* not started yet: caller retries at start */
	if (sig == SIGKILL && linux_backend()->caps.landlock_only)
		sig = LLONLY_SIGKILL; /* the init kills the rest, then itself */
	if (syscall(SYS_pidfd_send_signal, proc->pidfd, sig, NULL, 0) < 0)
		return -errno;
	return 0;
}
