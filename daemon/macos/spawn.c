/* The macOS backend of sandbox.h, its running half: one session init per command, its records and signals. */
/*
 * Compiled on macOS only. What only a Mac can check:
 *  - TIOCSCTTY on the pty slave works after setsid(), and writes
 *    through the inherited pty need no more than the profile's
 *    /dev/ttys and file-ioctl rules;
 *  - the session init's pipe, not a pidfd, tells the event loop the
 *    session is over, and SIGKILL to the process group ends it (a
 *    process that made its own group or session outlives it: there are
 *    no cgroups);
 *  - a 40-byte record written to the AF_UNIX stream socket arrives whole
 *    (macOS has no SOCK_SEQPACKET for AF_UNIX);
 *  - ru_maxrss is in bytes, not kilobytes.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "daemon/macos/macos.h"
#include "daemon/sandbox.h"

static void
put_record(int fd, int kind, int step, int value, const struct rusage *ru)
{
	struct sandbox_status rec = { .kind = kind, .step = step,
	    .value = value };

	if (ru != NULL) {
		rec.utime_us = (uint64_t)ru->ru_utime.tv_sec * 1000000u +
		    (uint64_t)ru->ru_utime.tv_usec;
		rec.stime_us = (uint64_t)ru->ru_stime.tv_sec * 1000000u +
		    (uint64_t)ru->ru_stime.tv_usec;
		rec.maxrss_kb = (uint64_t)ru->ru_maxrss / 1024u;
	}
	(void)!write(fd, &rec, sizeof(rec));
}

/* The command's process, after fork: only async-signal-safe calls. */
static void
run_command(const struct sandbox_plan *p, int st)
{
	sigset_t none;
	int i;

	for (i = 1; i < NSIG; i++)
		signal(i, SIG_DFL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	for (i = 0; i < 3; i++) {
		if (p->stdio[i] == i)
			fcntl(i, F_SETFD, 0);
		else if (dup2(p->stdio[i], i) < 0)
			goto fail;
	}
	if (chdir(p->cwd) < 0)
		goto fail;
	umask((mode_t)p->umask);
	execve(p->argv[0], p->argv, p->envp);
fail:
	put_record(st, SANDBOX_STATUS_EXEC_FAILED, 0, errno, NULL);
	_exit(127);
}

/*
 * The init never execs, so it would keep every descriptor the daemon had
 * (another session's stdin pipe would then never see EOF): it keeps only
 * its own.
 */
static void
close_others(const struct sandbox_plan *p, int st, int death)
{
	int fd, max = getdtablesize();

	for (fd = 3; fd < max; fd++)
		if (fd != st && fd != death && fd != p->stdio[0] &&
		    fd != p->stdio[1] && fd != p->stdio[2])
			close(fd);
}

/*
 * The session init: leads the command's session and process group,
 * outlives signals meant for the command, and reports how it ended. Its
 * end closes death, the pipe the daemon watches in place of a pidfd.
 */
static void
session_init(const struct sandbox_plan *p, int st, int death)
{
	struct rusage ru;
	int status, step = MACOS_STEP_SETSID;
	pid_t pid;

	close_others(p, st, death);
	if (setsid() < 0)
		goto fail;
	step = MACOS_STEP_TTY;
	if (p->tty && ioctl(p->stdio[0], TIOCSCTTY, 0) < 0)
		goto fail;
	signal(SIGINT, SIG_IGN);
	signal(SIGTERM, SIG_IGN);
	signal(SIGHUP, SIG_IGN);
	signal(SIGQUIT, SIG_IGN);
	step = MACOS_STEP_FORK;
	if ((pid = fork()) < 0)
		goto fail;
	if (pid == 0)
		run_command(p, st);
	while (wait4(pid, &status, 0, &ru) < 0)
		if (errno != EINTR)
			_exit(1);
	put_record(st, SANDBOX_STATUS_EXITED, 0, status, &ru);
	_exit(0);
fail:
	put_record(st, SANDBOX_STATUS_SETUP_FAILED, step, errno, NULL);
	_exit(1);
}

static void
cloexec(int fd)
{
	fcntl(fd, F_SETFD, FD_CLOEXEC);
}

int
sandbox_spawn(struct sandbox_plan *p, struct sandbox_proc *out)
{
	int st[2], death[2];
	pid_t pid;

	if (socketpair(AF_UNIX, SOCK_STREAM, 0, st) < 0)
		return -errno;
	if (pipe(death) < 0) {
		close(st[0]);
		close(st[1]);
		return -errno;
	}
	cloexec(st[0]);
	cloexec(st[1]);
	cloexec(death[0]);
	cloexec(death[1]);
	if ((pid = fork()) == 0) {
		session_init(p, st[1], death[1]);
	}
	close(st[1]);
	close(death[1]);
	if (pid < 0) {
		close(st[0]);
		close(death[0]);
		return -errno;
	}
	fcntl(st[0], F_SETFL, O_NONBLOCK);
	memset(out, 0, sizeof(*out));
	/* The session, for forgetting its profile at release. */
	if ((out->template = malloc(sizeof(p->session))) != NULL)
		memcpy(out->template, &p->session, sizeof(p->session));
	out->pid = pid;
	out->pidfd = death[0];
	out->status_fd = st[0];
	out->own_child = true;
	return 0;
}

int
sandbox_status_read(int fd, struct sandbox_status *st, int *fds, int *nfds)
{
	ssize_t n = read(fd, st, sizeof(*st));

	*nfds = 0;
	if (n < 0)
		return errno == EAGAIN || errno == EINTR ? -EAGAIN : -errno;
	if (n == 0)
		return 0;
	return n == (ssize_t)sizeof(*st) ? 1 : -EBADMSG;
}

/* Spawns are direct: nothing is handed over later. */
int
sandbox_proc_started(struct sandbox_proc *p, int fd)
{
	close(fd);
	return -EALREADY;
}

/* No seccomp here: no DENIALS records, nothing to read from. */
int
sandbox_proc_denials(struct sandbox_proc *p, int *fds, int nfds)
{
	int i;

	for (i = 0; i < nfds; i++)
		close(fds[i]);
	return -1;
}

int
sandbox_denial_read(struct sandbox_proc *p, int fd,
    struct sandbox_denial *out)
{
	return -ENOTSUP;
}

void
sandbox_reap(struct sandbox_proc *p)
{
	if (p->own_child && p->pid > 0)
		waitpid(p->pid, NULL, WNOHANG);
}

void
sandbox_net_recycle(struct sandbox_proc *p, int listener)
{
	/* Seatbelt has no network namespaces to keep. */
}

const char *
sandbox_setup_problem(const struct sandbox_proc *p)
{
	return NULL;
}

void
sandbox_proc_release(struct sandbox_proc *p)
{
	if (p->pidfd >= 0)
		close(p->pidfd);
	if (p->status_fd >= 0)
		close(p->status_fd);
	if (p->template != NULL)
		macos_logmon_forget(*(uint64_t *)p->template);
	free(p->template);
	p->template = NULL;
	p->pidfd = p->status_fd = -1;
}

unsigned
sandbox_templates(void)
{
	return 0;
}

/* No templates, and no home overlay on macOS (Seatbelt cannot make one). */
int
sandbox_retire_workspace(const char *ws)
{
	return 0;
}

/* Seatbelt has no mounts: /tmp is a directory of the daemon's. */
int
sandbox_tmpfs_new(uint64_t size, int *mnt_out)
{
	return -EOPNOTSUPP;
}

/* No loop devices: limits.home is measured (home-overlay.c). */
int
sandbox_home_disk(int dfd, uint64_t size)
{
	return -EOPNOTSUPP;
}

int
sandbox_home_disk_drop(int dfd)
{
	return 0;
}

void
sandbox_cleanup(void)
{
}

/* The session init leads the command's group; it ignores all but KILL. */
/* No cgroups on macOS: nothing measured. */
void
sandbox_usage(const struct sandbox_proc *p, struct sandbox_usage *u)
{
	memset(u, 0, sizeof(*u));
}

int
sandbox_oom_fd(const struct sandbox_proc *p)
{
	return -1;
}

int
sandbox_signal(const struct sandbox_proc *proc, int sig)
{
	if (proc->pid <= 0)
		return -EAGAIN;
	return kill(-proc->pid, sig) < 0 ? -errno : 0;
}

/* Long-lived sandboxes need a sandbox that runs further commands inside
 * it: not made on macOS yet (CreateSandbox answers SANDBOX). */
int
sandbox_exec(const struct sandbox_proc *sb, const struct sandbox_exec *x,
	     struct sandbox_proc *out)
{
	return -ENOTSUP;
}

/* The group is the whole sandbox here. */
int
sandbox_signal_all(const struct sandbox_proc *proc, int sig)
{
	return sandbox_signal(proc, sig);
}

const char *
sandbox_step_name(int step)
{
	switch (step) {
	case MACOS_STEP_SETSID:
		return "new session";
	case MACOS_STEP_TTY:
		return "controlling terminal";
	case MACOS_STEP_FORK:
		return "fork";
	}
	return "unknown step";
}
