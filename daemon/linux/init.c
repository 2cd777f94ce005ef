/* The session init (pid 1 of the session's pid namespace) and the command
 * it forks. Order, as STYLE.md asks: namespaces -> mounts (done by the
 * template, or here for a direct sandbox) -> Landlock ruleset -> the
 * supervisor, in a domain of that ruleset (started by the template's
 * child, or here) -> privileges dropped -> fork -> session ->
 * no_new_privs -> Landlock -> seccomp, listener to the supervisor -> the
 * job arrives (a warm sandbox waits here) -> Landlock's TCP layer (no
 * network namespace) -> template sync -> stdio -> cwd -> exec. Nothing
 * here allocates; every failure is written to the status channel as
 * {step, errno} before _exit. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <grp.h>
#include <linux/capability.h>
#include <linux/seccomp.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sched.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <linux/magic.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "daemon/policy/fsplan.h"
#include "daemon/linux/landlock.h"
#include "daemon/linux/netstat.h"
#include "daemon/linux/probe.h"
#include "daemon/linux/seccomp.h"
#include "daemon/linux/linux.h"
#include "daemon/usercred.h"
#include "daemon/sandbox.h"
#include "proto/fdpass.h"

#ifndef CLOSE_RANGE_CLOEXEC
#define CLOSE_RANGE_CLOEXEC (1U << 2)
#endif
/* The session init's umask, which its command process inherits. */
#define INIT_UMASK 022
#define SECBITS_LOCKDOWN 0x3f /* NOROOT, NO_SETUID_FIXUP, KEEP_CAPS + locks */
/* For what runs on the command's own stack (see struct command) and may
 * end the process there: ASan, told of a noreturn call, would warn on the
 * command's stderr about a stack it does not know. */
#define ON_COMMAND_STACK __attribute__((no_sanitize("address")))
#define COMMAND_STACK_EXIT __attribute__((noreturn)) ON_COMMAND_STACK

extern char **environ;

/* The direct-network counters of the sandbox's own network namespace
 * when the command started (net_base, valid when net_own). */
static uint64_t net_base;
static bool net_own;

/* Fills buf with what path holds (NUL-terminated); its length or -1. */
static ssize_t
slurp(const char *path, char *buf, size_t size)
{
	ssize_t n, got = 0;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return -1;
	while ((size_t)got < size - 1 &&
	       (n = read(fd, buf + got, size - 1 - (size_t)got)) > 0)
		got += n;
	close(fd);
	buf[got] = '\0';
	return got;
}

/* linux/netstat.h's count for this process's network namespace. */
static int
direct_net(uint64_t *out)
{
	char snmp[4096], snmp6[8192];
	ssize_t n = slurp("/proc/self/net/snmp", snmp, sizeof(snmp));
	ssize_t n6 = slurp("/proc/self/net/snmp6", snmp6, sizeof(snmp6));

	if (n < 0)
		return -1;
	return linux_netstat_direct(snmp, (size_t)n, n6 < 0 ? NULL : snmp6,
				    n6 < 0 ? 0 : (size_t)n6, out);
}

static void
report(int fd, int kind, int step, int value)
{
	struct sandbox_status s;
	uint64_t now;
	ssize_t n;

	memset(&s, 0, sizeof(s));
	s.kind = kind;
	s.step = step;
	s.value = value;
	if (kind == SANDBOX_STATUS_EXITED) {
		/* Everything this init reaped: the command and its tree. */
		struct rusage ru;

		if (getrusage(RUSAGE_CHILDREN, &ru) == 0) {
			s.utime_us = (uint64_t)ru.ru_utime.tv_sec * 1000000u +
				     (uint64_t)ru.ru_utime.tv_usec;
			s.stime_us = (uint64_t)ru.ru_stime.tv_sec * 1000000u +
				     (uint64_t)ru.ru_stime.tv_usec;
			s.maxrss_kb = (uint64_t)ru.ru_maxrss;
		}
		/* Said only after a failure; reading the counters costs
		 * some 50 us, which a success does not wait for. */
		if (net_own && value != 0 && direct_net(&now) == 0 &&
		    now > net_base)
			s.direct_net = now - net_base > UINT32_MAX ?
				       UINT32_MAX : (uint32_t)(now - net_base);
	}

	do
		n = write(fd, &s, sizeof(s));
	while (n < 0 && errno == EINTR);
	/* All that is left is this process's exit, and tearing down a pid
	 * namespace's init costs a few hundred microseconds. The write woke
	 * the daemon on this CPU (a socket write is a "sync" wake-up: the
	 * kernel expects the writer to sleep), where it would wait behind
	 * that teardown: yielding, the daemon runs first and relays the
	 * status. Not at idle priority: on a busy machine (runs back to back)
	 * the teardown then waited for an idle CPU, and with it the spawner's
	 * use of this sandbox's mount namespace (linux/mntns.c), which it
	 * copied anew instead (10-20 ms with 10,000 masks). */
	if (kind == SANDBOX_STATUS_EXITED)
		sched_yield();
}

static void COMMAND_STACK_EXIT
fail(int fd, int step, int err)
{
	report(fd, SANDBOX_STATUS_SETUP_FAILED, step, err);
	_exit(125);
}

void
linux_drop_bounding(void)
{
	int cap, in;

	/* Each drop copies the process's credentials (and runs what the
	 * host hooked on that): only the ones still in the set, which in a
	 * template's sandboxes are none (linux/spawner.c). A drop the
	 * caller may not make (EPERM) leaves the cap: Landlock-only mode
	 * never had it. */
	for (cap = 0; cap < 64; cap++) {
		if ((in = prctl(PR_CAPBSET_READ, cap, 0, 0, 0)) < 0)
			break; /* past the last one the kernel knows */
		if (in == 1)
			prctl(PR_CAPBSET_DROP, cap, 0, 0, 0);
	}
}

/* Leaves the calling process with no capabilities it could ever regain. */
int
linux_drop_privs(const struct sandbox_plan *p)
{
	struct __user_cap_header_struct h = { _LINUX_CAPABILITY_VERSION_3, 0 };
	struct __user_cap_data_struct d[2];
	uid_t ru, eu, su;
	gid_t rg, eg, sg;

	if (prctl(PR_SET_SECUREBITS, SECBITS_LOCKDOWN) < 0 && errno != EPERM)
		return -errno;
	if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) < 0 &&
	    errno != EINVAL)
		return -errno;
	linux_drop_bounding();
	/* (Landlock-only mode runs as the user already, with none; so does
	 * a direct sandbox's supervisor, forked after its init dropped.) */
	if (getresuid(&ru, &eu, &su) < 0 || getresgid(&rg, &eg, &sg) < 0)
		return -errno;
	if (!p->userns && !p->llonly &&
	    !(ru == p->uid && eu == p->uid && su == p->uid &&
	      rg == p->gid && eg == p->gid && sg == p->gid)) {
		/* Privileged mode: from root to the user; no caps survive. */
		if (setgroups((size_t)p->ngroups, p->groups) < 0 ||
		    setresgid(p->gid, p->gid, p->gid) < 0 ||
		    setresuid(p->uid, p->uid, p->uid) < 0)
			return -errno;
	}
	memset(d, 0, sizeof(d));
	if (syscall(SYS_capset, &h, d) < 0)
		return -errno;
	return 0;
}

/* Waits for the template to mask what appeared before this run (a cwd
 * taken before a mask went over it would keep the unmasked directory). */
static int
wait_template(int fd)
{
	ssize_t n;
	char c;

	if (fd < 0)
		return 0;
	do
		n = read(fd, &c, 1);
	while (n < 0 && errno == EINTR);
	close(fd);
	return n == 1 ? 0 : -EPIPE;
}

/* The job's stdio on 0-2 (with a terminal as the controlling one); nothing
 * else of ours survives the exec. */
static int
take_stdio(const struct linux_job *j, int *step)
{
	int tmp[3], i;

	*step = STEP_STDIO;
	/* Copy above 2 first: the fds may overlap the targets. */
	for (i = 0; i < 3; i++)
		if ((tmp[i] = fcntl(j->stdio[i], F_DUPFD_CLOEXEC, 10)) < 0)
			return -errno;
	if (j->tty && ioctl(tmp[0], TIOCSCTTY, 0) < 0) {
		*step = STEP_TTY;
		return -errno;
	}
	for (i = 0; i < 3; i++)
		if (dup2(tmp[i], i) < 0)
			return -errno;
	/* Whatever the daemon had open never reaches the command. */
	if (syscall(SYS_close_range, 3, ~0U, CLOSE_RANGE_CLOEXEC) < 0)
		return -errno;
	return 0;
}

/* The command process is cloned with CLONE_VM | CLONE_VFORK: it runs on a
 * stack of its own in the init's memory until it execs or exits, and the
 * init waits until then, so nothing is copied for a process that is about
 * to replace its memory (that copy and its teardown were a quarter of
 * what a sandbox cost). It changes nothing of the init's but these
 * fields (what it mapped for its job, left to the init to unmap) and
 * environ, which the init does not use. */
#define COMMAND_STACK (256 * 1024)

struct command {
	const struct sandbox_plan *p;
	struct linux_session_fds f;
	int sfd, go, sigfd;
	void *job_map;
	size_t job_len;
	pid_t sup;       /* a supervisor that is not our ancestor, or 0 */
	pid_t server;    /* set by the command: a long-lived sandbox's job
			    server, which the init watches in its place */
};

/* What the daemon gets once the job is in: our pidfd (its audit records
 * name our pid, since we make the command's Landlock domain) and either
 * the listener, to answer (EPERM) and report each refusal itself, or,
 * when a supervisor emulates file syscalls, the supervisor's reports, the
 * listener going to it; then without a network namespace the daemon gets
 * the listener too, to answer the connect() calls the supervisor hands
 * on. Not sent while the sandbox waits warm: a Unix socket in flight
 * (the reports) makes the kernel queue its socket garbage collector on
 * every close of any Unix socket on the host, for as long as it stays
 * in flight. */
struct denials {
	int fds[3], n;
};

static void ON_COMMAND_STACK
hand_listener(const struct sandbox_plan *p, const struct linux_session_fds *f,
	      int listener, int sfd, struct denials *d)
{
	d->fds[0] = p->emulate ? f->report : listener;
	d->fds[1] = (int)syscall(SYS_pidfd_open, getpid(), 0);
	d->fds[2] = listener;
	d->n = d->fds[1] < 0 ? 1 :
	       p->emulate && p->net == SANDBOX_NET_HOST_PORTS ? 3 : 2;
	if (d->n == 1 && p->emulate && p->net == SANDBOX_NET_HOST_PORTS)
		fail(sfd, STEP_SECCOMP, errno);
	if (p->emulate && fdpass_send(f->sup, "l", 1, &listener, 1) < 0)
		fail(sfd, STEP_SECCOMP, errno);
}

static void ON_COMMAND_STACK
send_denials(struct denials *d, int sfd)
{
	struct sandbox_status rec = { .kind = SANDBOX_STATUS_DENIALS };
	int i;

	if (d->n == 0)
		return;
	if (fdpass_send(sfd, &rec, sizeof(rec), d->fds, d->n) < 0)
		fail(sfd, STEP_SECCOMP, errno);
	for (i = 0; i < 3; i++)
		if (d->fds[i] >= 0 && (i == 0 || d->fds[i] != d->fds[0]))
			close(d->fds[i]);
	d->n = 0;
}

/* The command process's own confinement, as the command will have it:
 * its own session, no_new_privs, Landlock, seccomp (its listener to the
 * daemon or the supervisor). A warm sandbox waits for its job confined
 * like this. */
static void ON_COMMAND_STACK
confine(const struct sandbox_plan *p, const struct linux_session_fds *f,
	int sfd, struct denials *d)
{
	unsigned flags = 0;
	int i, e = -1;

	/* Dispositions the daemon inherited or chose (SIGPIPE, SIGHUP
	 * ignored) must not leak into the command: an ignored SIGPIPE or
	 * SIGQUIT changes how tools behave. The relayed signals stay blocked
	 * until the job is in: one sent earlier is delivered then. */
	for (i = 1; i < NSIG; i++)
		if (i != SIGKILL && i != SIGSTOP)
			signal(i, SIG_DFL);
	if (setsid() < 0)
		fail(sfd, STEP_SETSID, errno);
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
		fail(sfd, STEP_NO_NEW_PRIVS, errno);
	if (f->ruleset >= 0 &&
	    (e = landlock_enforce(f->ruleset, p->landlock_log)) < 0)
		fail(sfd, STEP_LANDLOCK, -e);
	if (f->ruleset >= 0)
		close(f->ruleset);
	if (p->seccomp && p->seccomp_notify)
		flags = SECCOMP_FILTER_FLAG_NEW_LISTENER |
			(p->emulate ? SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV : 0);
	if (p->seccomp && (e = seccomp_load_prog(p->seccomp, flags)) < 0)
		fail(sfd, STEP_SECCOMP, -e);
	*d = (struct denials){ { -1, -1, -1 }, 0 };
	if (p->seccomp && p->seccomp_notify)
		hand_listener(p, f, e, sfd, d);
	if (f->sup >= 0)
		close(f->sup);
	/* The reports go to the daemon with the job (send_denials). */
	if (f->report >= 0 && d->fds[0] != f->report)
		close(f->report);
}

/* Without a network namespace the TCP ports the command may connect to
 * are its session's (the proxy's on the host loopback), known only once
 * the job is: they are a Landlock layer of their own, on top of the
 * filesystem one, made for each run. */
static void ON_COMMAND_STACK
confine_tcp(const struct sandbox_plan *p, const struct linux_job *j, int sfd)
{
	int rs, e;

	if (p->net != SANDBOX_NET_HOST_PORTS || p->landlock_abi <= 0)
		return;
	if ((rs = landlock_build_tcp(p->landlock_abi, j->tcp_ports)) < 0)
		fail(sfd, STEP_LANDLOCK_RULESET, -rs);
	if ((e = landlock_enforce(rs, p->landlock_log)) < 0)
		fail(sfd, STEP_LANDLOCK, -e);
	close(rs);
}

/* The job: what the daemon gets (send_denials), the per-run Landlock
 * layer, the template sync, stdio, umask
 * (unless it is already the one the process has, had: -1 when unknown;
 * with a supervisor, umask() is a round trip to it), cwd, environment,
 * argv. */
static void COMMAND_STACK_EXIT
run_job(const struct sandbox_plan *p, struct linux_job *j, int sfd, int had,
	struct denials *d)
{
	int e;

	send_denials(d, sfd);
	confine_tcp(p, j, sfd);
	if ((e = linux_host_listeners(j, sfd)) < 0)
		fail(sfd, STEP_HOST_LISTEN, -e);
	if (wait_template(j->sync_fd) < 0)
		fail(sfd, STEP_TEMPLATE, EPIPE);
	linux_job_exec(j, sfd, had);
}

void COMMAND_STACK_EXIT
linux_job_exec(const struct linux_job *j, int sfd, int had)
{
	sigset_t none;
	int e, step;

	if ((e = take_stdio(j, &step)) < 0)
		fail(sfd, step, -e);
	if ((int)j->umask != had)
		umask(j->umask);
	if (chdir(j->cwd) < 0)
		fail(sfd, STEP_CHDIR, errno);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	environ = j->envp;
	execvp(j->argv[0], j->argv);
	e = errno;
	report(sfd, SANDBOX_STATUS_EXEC_FAILED, STEP_EXEC, e);
	_exit(e == ENOENT || e == ENOTDIR ? 127 : 126);
}

/* A long-lived sandbox: the command process, confined as a run's command
 * is, becomes its job server (linux/jobserver.c), which forks each
 * further command, so every command has exactly this confinement (the
 * same Landlock domain, seccomp filter and listener, no capabilities)
 * and lives in the sandbox's namespaces. It forks a copy of itself with
 * memory of its own (this process shares the init's until it exits) and
 * leaves; the init watches the copy as its command (c->server). */
static void COMMAND_STACK_EXIT
serve(struct command *c, struct linux_job *j, int sfd, struct denials *d)
{
	pid_t pid;
	int e;

	send_denials(d, sfd);
	confine_tcp(c->p, j, sfd);
	if ((e = linux_host_listeners(j, sfd)) < 0)
		fail(sfd, STEP_HOST_LISTEN, -e);
	if (wait_template(j->sync_fd) < 0)
		fail(sfd, STEP_TEMPLATE, EPIPE);
	/* The raw system call: no fork handlers run in the init's memory. */
	pid = (pid_t)syscall(SYS_clone, SIGCHLD, 0, 0, 0, 0);
	if (pid < 0)
		fail(sfd, STEP_FORK, errno);
	if (pid == 0)
		linux_jobserver_main(c->go, sfd, j);
	c->server = pid;
	_exit(0);
}

/* The command process. It confines itself before it knows what to run,
 * so a warm sandbox waits fully built; then it takes its job from go. */
static void COMMAND_STACK_EXIT
command_main(struct command *c)
{
	struct linux_job j;
	struct denials d;
	int sfd = c->sfd, e;

	/* The status channel must outlive the dup2 onto 0-2. */
	if (sfd < 3 && (sfd = fcntl(sfd, F_DUPFD_CLOEXEC, 3)) < 0)
		_exit(125);
	/* A direct sandbox's supervisor is our sibling: where Yama allows
	 * ptrace of descendants only (Ubuntu's default), it could not read
	 * our syscalls' arguments without this. No Yama: EINVAL, nothing
	 * to allow. */
	if (c->sup > 0)
		prctl(PR_SET_PTRACER, (unsigned long)c->sup, 0, 0, 0);
	confine(c->p, &c->f, sfd, &d);
	e = linux_job_recv(c->go, &j);
	c->job_map = j.map;
	c->job_len = j.maplen;
	if (e == -ECONNRESET)
		_exit(125); /* dropped unused: nobody to tell */
	if (e < 0)
		fail(sfd, STEP_JOB, -e);
	/* The daemon hangs up the channel of a run whose client left while
	 * the job waited (a template still building): nobody wants it. */
	if (poll(&(struct pollfd){ .fd = sfd }, 1, 0) == 1)
		_exit(125);
	if (j.server)
		serve(c, &j, sfd, &d);
	close(c->go);
	run_job(c->p, &j, sfd, INIT_UMASK, &d);
}

static int COMMAND_STACK_EXIT
command_entry(void *arg)
{
	struct command *c = arg;

	close(c->sigfd);
	command_main(c);
}

static void
forward(pid_t cmd, int sig)
{
	if (kill(-cmd, sig) < 0)
		kill(cmd, sig);
}

/* Relays signals to the command's process group and reaps everything; when
 * the command exits, the rest of the sandbox is killed with it, and all of
 * it goes when the daemon closes the status channel (it dropped the
 * sandbox: unused from a pool, or a session it can no longer watch). */
static void __attribute__((noreturn))
supervise(pid_t cmd, int sigfd, int sfd)
{
	struct pollfd pfd[2] = { { .fd = sigfd, .events = POLLIN },
				 { .fd = sfd, .events = 0 } };
	struct signalfd_siginfo si;
	int status = 0, st;
	bool done = false, killed = false;
	pid_t w;

	for (;;) {
		if (poll(pfd, 2, -1) < 0 && errno != EINTR) {
			kill(-1, SIGKILL);
			_exit(125);
		}
		if (pfd[1].revents & (POLLHUP | POLLERR)) {
			kill(-1, SIGKILL);
			_exit(125);
		}
		if (!(pfd[0].revents & POLLIN))
			continue;
		if (read(sigfd, &si, sizeof(si)) != sizeof(si)) {
			if (errno == EINTR || errno == EAGAIN)
				continue;
			kill(-1, SIGKILL);
			_exit(125);
		}
		if (si.ssi_signo != SIGCHLD) {
			/* From the daemon, for all of the sandbox. (A
			 * process of the sandbox could send it too, and
			 * reach no more than its own kill(-1) does.) */
			if (!done && si.ssi_code == SI_QUEUE &&
			    si.ssi_int == LINUX_SIG_ALL)
				kill(-1, (int)si.ssi_signo);
			else if (!done)
				forward(cmd, (int)si.ssi_signo);
			continue;
		}
		while ((w = waitpid(-1, &st, WNOHANG)) > 0) {
			if (w == cmd && !done) {
				status = st;
				done = true;
			}
		}
		if (!done)
			continue;
		/* The command went: the rest of the sandbox goes with it.
		 * With no child left nothing is: every process here descends
		 * from us (orphans come to us). Then no kill(-1), which
		 * looks at every process on the host. */
		if (w < 0 && errno == ECHILD) {
			report(sfd, SANDBOX_STATUS_EXITED, 0, status);
			_exit(0);
		}
		if (!killed) {
			kill(-1, SIGKILL);
			killed = true;
		}
	}
}

int linux_host_pts = -1;

void
linux_host_pts_open(const struct sandbox_plan *p)
{
	struct statfs sf;
	int fd;

	/* Without Landlock nothing refuses the reopen, and nothing would
	 * keep the command from this fd in its init (/proc/1/fd). */
	if (linux_host_pts >= 0 || p->landlock_abi <= 0)
		return;
	fd = open("/dev/pts", O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (fd >= 0 && (fstatfs(fd, &sf) < 0 || sf.f_type != DEVPTS_SUPER_MAGIC))
		close(fd);
	else
		linux_host_pts = fd;
}

void
linux_close_fds_except(int *keep, int n)
{
	int i, j, t, lo = 0, all[LINUX_KEEP_MAX + 1];

	/* The host's devpts goes wherever a ruleset may be built. */
	for (i = 0; i < n && i < LINUX_KEEP_MAX; i++)
		all[i] = keep[i];
	all[i] = linux_host_pts;
	n = i + 1;
	keep = all;
	for (i = 0; i < n; i++)
		for (j = i + 1; j < n; j++)
			if (keep[j] < keep[i]) {
				t = keep[i];
				keep[i] = keep[j];
				keep[j] = t;
			}
	for (i = 0; i < n; i++) {
		if (keep[i] < lo)
			continue;
		if (keep[i] > lo)
			syscall(SYS_close_range, lo, keep[i] - 1, 0);
		lo = keep[i] + 1;
	}
	syscall(SYS_close_range, lo, ~0U, 0);
}

int
linux_landlock_ruleset(const struct sandbox_plan *p)
{
	/* The sandbox's own /tmp, /var/tmp and /dev/shm (POSIX shared
	 * memory and semaphores: Python's multiprocessing needs them) are
	 * writable, and so is the home overlay; the real home is not
	 * reachable. */
	const char *must[5] = { "/tmp", "/dev/shm", "/var/tmp",
				fsplan_home(p->fs), NULL };
	int rs;

	/* The writable paths are the user's: opened with the user's rights,
	 * a link of the user's grants nothing the user could not reach. */
	usercred_enter();
	rs = landlock_build(p->landlock_abi,
			    (const char *const *)p->fs->l[FSPLAN_WRITE].v,
			    must, "/dev", linux_host_pts);
	usercred_leave();
	return rs;
}

void
linux_session_main(const struct sandbox_plan *p, int sync_fd, int sfd, int go,
		   const struct linux_session_fds *fds)
{
	static const int relayed[] = { SIGCHLD, SIGHUP, SIGINT, SIGQUIT,
				       SIGTERM, SIGUSR1, SIGUSR2, SIGWINCH,
				       SIGCONT, SIGTSTP, SIGALRM };
	bool direct = sync_fd >= 0;
	struct linux_session_fds f = fds ? *fds :
		(struct linux_session_fds){ -1, -1, -1, -1 };
	/* A direct sandbox checks its pty slave against the one it binds. */
	int slave = direct && p->tty_path ? p->stdio[0] : -1;
	int keep[12] = { sync_fd, sfd, go, slave, f.ruleset, f.sup, f.report,
			 fds ? -1 : p->lock_fd, direct ? p->tmp_fd : -1,
			 direct ? p->vartmp_fd : -1,
			 direct ? p->home_from : -1, f.proc };
	int own[3] = { -1, -1, -1 }, sigfd, err = 0, step;
	pid_t sup = 0;
	struct command c;
	sigset_t set;
	char *stack, ch;
	size_t i;
	pid_t cmd;

	/* The clone copied every fd of its parent (the daemon's sessions and
	 * clients, a template's watches): keep only what this sandbox uses. */
	linux_close_fds_except(keep, 12);
	prctl(PR_SET_NAME, "sbx-init");
	/* Mount points made inside must be traversable by the user. */
	umask(INIT_UMASK);
	/* We die with our parent: the daemon (a direct sandbox), the
	 * spawner or the supervisor; none of our processes is left when
	 * the spawner reaps the one that held our mount namespace, which a
	 * later sandbox then uses (linux/mntns.c). */
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0)
		fail(sfd, STEP_PDEATHSIG, errno);
	if (direct) {
		if (read(sync_fd, &ch, 1) != 1)
			_exit(125); /* the daemon gave up on us */
		close(sync_fd);
	}
	if (sethostname(SANDBOX_HOSTNAME, strlen(SANDBOX_HOSTNAME)) < 0)
		fail(sfd, STEP_HOSTNAME, errno);
	if (p->net == SANDBOX_NET_NAMESPACE && (err = probe_loopback_up()) < 0)
		fail(sfd, STEP_LOOPBACK, -err);
	/* A namespace used again (linux/netns.c) had its loopback brought
	 * up, and its capture made, by the first session in it. */
	if (p->capture && err == 1 && (err = linux_capture_setup()) < 0)
		fail(sfd, STEP_CAPTURE, -err);
	if (direct)
		linux_host_pts_open(p);
	if (direct && (step = linux_mount_build(p, &err, NULL, NULL)) != 0)
		fail(sfd, step, err);
	/* A templated sandbox's mount namespace is a copy of the
	 * template's, whose /proc shows the template's pid namespace (the
	 * other sessions, the spawner): a fresh one, for ours, mounted here
	 * while warm, or, when a supervisor's Landlock domain (which forbids
	 * mounting) is ours already, by the spawner (awaited below). */
	if (!direct && !fds && ((err = linux_mount_proc_clear()) < 0 ||
				(err = linux_mount_own_proc(-1)) < 0))
		fail(sfd, STEP_MOUNT_PROC, -err);
	if (slave >= 0)
		close(slave); /* the command gets it with its job */
	if (chdir("/") < 0)
		fail(sfd, STEP_CHDIR, errno);
	if (f.ruleset < 0 && p->landlock_abi > 0 &&
	    (f.ruleset = linux_landlock_ruleset(p)) < 0)
		fail(sfd, STEP_LANDLOCK_RULESET, -f.ruleset);
	/* A direct sandbox's /proc is its own pid namespace's: the
	 * supervisor is started from here. */
	if (direct && p->emulate &&
	    (err = linux_supervisor_prepare(p, &f, own)) < 0)
		fail(sfd, STEP_SUPERVISOR, -err);
	if (p->proxy && (err = linux_send_listeners(sfd, p->capture)) < 0)
		fail(sfd, STEP_PROXY_LISTEN, -err);
	if ((err = linux_drop_privs(p)) < 0)
		fail(sfd, STEP_DROP_PRIVS, -err);
	/* Credential changes clear the parent-death signal: set it again. */
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0)
		fail(sfd, STEP_PDEATHSIG, errno);
	sigemptyset(&set);
	for (i = 0; i < sizeof(relayed) / sizeof(relayed[0]); i++)
		sigaddset(&set, relayed[i]);
	if (sigprocmask(SIG_BLOCK, &set, NULL) < 0 ||
	    (sigfd = signalfd(-1, &set, SFD_CLOEXEC)) < 0)
		fail(sfd, STEP_SIGNALS, errno);
	stack = mmap(NULL, COMMAND_STACK, PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS | MAP_STACK, -1, 0);
	if (stack == MAP_FAILED || mprotect(stack, 4096, PROT_NONE) < 0)
		fail(sfd, STEP_FORK, errno);
	/* Before the command: we wait for its exec, and what it does before
	 * that (umask) already goes to the supervisor. */
	if (own[0] >= 0)
		sup = linux_supervisor_fork(p, own);
	/* The command must not run before its /proc is there. */
	if (f.proc >= 0 && (read(f.proc, &ch, 1) != 1 || close(f.proc) < 0))
		fail(sfd, STEP_MOUNT_PROC, EPIPE);
	/* The network namespace may be one an earlier session used
	 * (linux/netns.c): its counters go on, so the run's are a difference
	 * from here, read while warm from our own /proc (the one before it
	 * may be a used mount namespace's, of a gone pid namespace). */
	if (p->proxy && !p->capture)
		net_own = direct_net(&net_base) == 0;
	c = (struct command){ p, f, sfd, go, sigfd, NULL, 0, sup, 0 };
	cmd = clone(command_entry, stack + COMMAND_STACK,
		    CLONE_VM | CLONE_VFORK | SIGCHLD, &c);
	if (cmd < 0)
		fail(sfd, STEP_FORK, errno);
	/* It has exec'd or exited: its stack and job mapping are ours,
	 * freed at our exit. Unmapped only by a long-lived sandbox's init:
	 * an unmap flushes the TLB of every CPU the command ran on with our
	 * memory, an interrupt to the one that runs it now. */
	if (c.server > 0) {
		cmd = c.server;
		munmap(stack, COMMAND_STACK);
		if (c.job_map)
			munmap(c.job_map, c.job_len);
	}
	/* Only the command waits for the job: a closed go is its EOF. */
	close(go);
	if (f.ruleset >= 0)
		close(f.ruleset);
	if (f.sup >= 0)
		close(f.sup);
	if (f.report >= 0)
		close(f.report);
	supervise(cmd, sigfd, sfd);
}

void
linux_exec_command(const struct sandbox_plan *p,
		   const struct linux_session_fds *f, int sfd)
{
	struct linux_job j;
	struct denials d;

	if (sfd < 3 && (sfd = fcntl(sfd, F_DUPFD_CLOEXEC, 3)) < 0)
		_exit(125);
	confine(p, f, sfd, &d);
	linux_job_of_plan(p, &j);
	run_job(p, &j, sfd, -1, &d);
}

void
linux_report_exited(int sfd, int status)
{
	report(sfd, SANDBOX_STATUS_EXITED, 0, status);
}
