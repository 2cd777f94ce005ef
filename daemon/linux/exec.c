/* Signals to a sandbox, and the further commands of a long-lived sandbox
 * (daemon side; the sandbox side is linux/jobserver.c). A further command
 * is a job like a run's, sent on the go socket the sandbox's command
 * process keeps reading, with a status channel of its own: the job server
 * forks it, sends its pidfd (STARTED) and its wait status (EXITED) there,
 * and kills its process group when the daemon hangs the channel up. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "daemon/linux/backend.h"
#include "daemon/linux/linux.h"
#include "daemon/linux/llonly.h"
#include "daemon/sandbox.h"

int
sandbox_exec(const struct sandbox_proc *sb, const struct sandbox_exec *x,
	     struct sandbox_proc *out)
{
	struct sandbox_plan p;
	int st[2], r;

	if (sb->go_fd < 0)
		return -ENOTSUP;
	/* Only the job's part of a plan is read by linux_job_send_exec. */
	memset(&p, 0, sizeof(p));
	p.argv = (char **)x->argv;
	p.envp = (char **)x->envp;
	p.cwd = (char *)x->cwd;
	memcpy(p.stdio, x->stdio, sizeof(p.stdio));
	p.tty = x->tty;
	p.umask = (mode_t)(x->umask & 0777);
	memcpy(p.proxy_ports, sb->proxy_ports, sizeof(p.proxy_ports));
	/* SEQPACKET: records stay whole and may carry fds. */
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, st) < 0)
		return -errno;
	r = linux_job_send_exec(sb->go_fd, &p, -1, st[1]);
	close(st[1]);
	if (r < 0) {
		close(st[0]);
		/* The job server is gone: the sandbox is ending. */
		return r == -EPIPE || r == -ECONNRESET ? -ESRCH : r;
	}
	fcntl(st[0], F_SETFL, O_NONBLOCK);
	memset(out, 0, sizeof(*out));
	out->pidfd = out->notify_fd = out->go_fd = -1;
	out->status_fd = st[0];
	out->exec_job = true;
	memcpy(out->proxy_ports, sb->proxy_ports, sizeof(out->proxy_ports));
	return 0;
}

int
sandbox_signal_all(const struct sandbox_proc *proc, int sig)
{
	siginfo_t si = { 0 };

	if (proc->pidfd < 0)
		return -EAGAIN;
	if (sig == SIGKILL || proc->exec_job)
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
	/* A further command is its own process group's leader (the job
	 * server made it one): the group, as an init relays to its
	 * command's. The session signals only until the command's exit is
	 * reported, which the job server does before it is reaped. */
	if (proc->exec_job && proc->pid > 0 && kill(-proc->pid, sig) == 0)
		return 0;
	if (sig == SIGKILL && linux_backend()->caps.landlock_only)
		sig = LLONLY_SIGKILL; /* the init kills the rest, then itself */
	if (syscall(SYS_pidfd_send_signal, proc->pidfd, sig, NULL, 0) < 0)
		return -errno;
	return 0;
}
