/* Spawning a Linux sandbox: the plan is built in the daemon. A templated
 * sandbox (the usual case) comes from its workspace's template: a warm one
 * from the template's pool, else a fresh one its spawner clones; either
 * way the daemon only sends it its job. A -t sandbox is cloned directly:
 * clone3 makes the namespaces and a pidfd in one step; the daemon writes the
 * id maps and releases the child, which runs linux_session_main(). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/sched.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "daemon/policy/fsplan.h"
#include "daemon/linux/backend.h"
#include "daemon/linux/cgroup.h"
#include "daemon/linux/llonly.h"
#include "daemon/log.h"
#include "daemon/linux/template.h"
#include "daemon/linux/linux.h"
#include "proto/fdpass.h"

static const char *const step_names[STEP_MAX] = {
	[STEP_NONE] = "none",
	[STEP_SYNC] = "waiting for the daemon",
	[STEP_TEMPLATE] = "syncing with the workspace template",
	[STEP_JOIN] = "joining the template's namespaces",
	[STEP_UNSHARE] = "session namespaces",
	[STEP_PDEATHSIG] = "parent-death signal",
	[STEP_HOSTNAME] = "hostname",
	[STEP_LOOPBACK] = "loopback interface",
	[STEP_CAPTURE] = "network capture (routes, nftables)",
	[STEP_MOUNT_PRIVATE] = "private mount propagation",
	[STEP_MOUNT_CLONE] = "cloning workspace and devices",
	[STEP_MOUNT_READONLY] = "read-only root",
	[STEP_MOUNT_TMP] = "private /tmp",
	[STEP_MOUNT_WORKSPACE] = "workspace mount",
	[STEP_MOUNT_HOME] = "home overlay",
	[STEP_MOUNT_PROC] = "/proc",
	[STEP_MOUNT_SYS] = "/sys",
	[STEP_MOUNT_DEV] = "/dev",
	[STEP_MOUNT_TTY] = "terminal",
	[STEP_MOUNT_POLICY] = "applying the filesystem policy",
	[STEP_MOUNT_MASK] = "masking daemon state",
	[STEP_LANDLOCK_RULESET] = "Landlock ruleset",
	[STEP_SUPERVISOR] = "starting the session's supervisor",
	[STEP_PROXY_LISTEN] = "proxy listeners",
	[STEP_DROP_PRIVS] = "dropping privileges",
	[STEP_SIGNALS] = "signal setup",
	[STEP_FORK] = "fork",
	[STEP_SETSID] = "new session",
	[STEP_JOB] = "receiving the command",
	[STEP_TTY] = "controlling terminal",
	[STEP_STDIO] = "stdio",
	[STEP_CHDIR] = "working directory",
	[STEP_NO_NEW_PRIVS] = "no_new_privs",
	[STEP_LANDLOCK] = "Landlock",
	[STEP_SECCOMP] = "seccomp",
	[STEP_EXEC] = "exec",
	[STEP_HOST_LISTEN] = "listening for network.hostServices",
};

const char *
sandbox_step_name(int step)
{
	if (step < 0 || step >= STEP_MAX || !step_names[step])
		return "unknown step";
	return step_names[step];
}

static int
write_file(pid_t pid, const char *name, const char *text)
{
	char path[64];
	int fd, r = 0;
	size_t n = strlen(text);

	snprintf(path, sizeof(path), "/proc/%d/%s", (int)pid, name);
	fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (write(fd, text, n) != (ssize_t)n)
		r = -errno ? -errno : -EIO;
	close(fd);
	return r;
}

/* Maps the user to itself, so files keep their owners inside. */
int
linux_write_id_maps(pid_t pid, uid_t uid, gid_t gid)
{
	char map[64];
	int r;

	snprintf(map, sizeof(map), "%u %u 1\n", (unsigned)uid, (unsigned)uid);
	r = write_file(pid, "uid_map", map);
	if (r == 0)
		r = write_file(pid, "setgroups", "deny");
	snprintf(map, sizeof(map), "%u %u 1\n", (unsigned)gid, (unsigned)gid);
	if (r == 0)
		r = write_file(pid, "gid_map", map);
	return r;
}

void
linux_kill_reap(int pidfd)
{
	syscall(SYS_pidfd_send_signal, pidfd, SIGKILL, NULL, 0);
	waitid(P_PIDFD, (id_t)pidfd, &(siginfo_t){ 0 }, WEXITED);
	close(pidfd);
}

int
linux_release(pid_t pid, int pidfd, int sync_w, const struct sandbox_plan *p)
{
	int r = 0;

	if (p->userns)
		r = linux_write_id_maps(pid, p->uid, p->gid);
	if (r == 0 && write(sync_w, "g", 1) != 1)
		r = -EPIPE;
	close(sync_w);
	if (r < 0)
		linux_kill_reap(pidfd); /* rare: leave nothing behind */
	return r;
}

int
linux_session_ns_flags(const struct sandbox_plan *p)
{
	return CLONE_NEWIPC | CLONE_NEWUTS |
	       (p->net == SANDBOX_NET_NAMESPACE ? CLONE_NEWNET : 0);
}

/* The home overlay of a -t sandbox is its workspace's template's (started
 * now if there is none, from the plan without its terminal), so one
 * overlay serves every session of the workspace: p->home_from gets the
 * socket it comes on, and *t the template, held for the session. */
static int
direct_home(struct sandbox_plan *p, struct ltemplate **t)
{
	char *tty_path = p->tty_path;
	int hs[2], r;

	*t = NULL;
	if (!p->home_layers || !fsplan_home(p->fs))
		return 0;
	p->tty = false;
	p->tty_path = NULL;
	r = ltemplate_get(p, t);
	p->tty = true;
	p->tty_path = tty_path;
	if (r < 0)
		return r;
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, hs) < 0)
		r = -errno;
	else {
		r = ltemplate_home(*t, hs[1]);
		close(hs[1]);
		p->home_from = hs[0];
	}
	if (r < 0) {
		ltemplate_put(*t);
		*t = NULL;
	}
	return r;
}

/* A -tty sandbox is built directly (its own namespaces, its own mounts):
 * the pty slave must be bound from the daemon's view of /dev/pts, which
 * only a fresh copy of that mount namespace has. Its home overlay is the
 * template's (direct_home). */
static int
spawn_direct(struct sandbox_plan *p, struct sandbox_proc *out)
{
	int sync[2], st[2], go[2], pidfd = -1, r = 0;
	struct lcg_join join = { .v2 = -1 };
	struct lcgroup *cg = NULL;
	struct clone_args a = { 0 };
	struct ltemplate *t;
	pid_t pid;

	if ((r = direct_home(p, &t)) < 0)
		return r;
	/* Made here: a -t sandbox has no warm one to be made ahead. */
	if (lcgroup_enabled() && lcgroup_new(&p->limits, &cg) == 0)
		lcgroup_join(cg, &join);
	/* SEQPACKET: records stay whole and may carry fds. */
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, st) < 0) {
		r = -errno;
		st[0] = st[1] = -1;
		goto out_st;
	}
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, go) < 0) {
		r = -errno;
		goto out_st;
	}
	if (pipe2(sync, O_CLOEXEC) < 0) {
		r = -errno;
		goto out_go;
	}
	a.flags = CLONE_NEWNS | CLONE_NEWPID | linux_session_ns_flags(p) |
		  CLONE_PIDFD | (p->userns ? CLONE_NEWUSER : 0);
	a.pidfd = (uint64_t)(uintptr_t)&pidfd;
	a.exit_signal = SIGCHLD;
	pid = lcgroup_clone3(&a, &join);
	if (pid == 0)
		linux_session_main(p, sync[0], st[1], go[0], NULL);
	/* v1: before it is released, so all it forks is inside. */
	if (pid > 0)
		lcgroup_attach_pid(&join, pid);
	close(sync[0]);
	r = pid < 0 ? -errno : linux_release(pid, pidfd, sync[1], p);
	if (r == 0 && (r = linux_job_send(go[1], p, -1)) < 0)
		linux_kill_reap(pidfd);
	if (r == 0) {
		out->pid = pid;
		out->pidfd = pidfd;
		out->own_child = true;
		out->status_fd = st[0];
		out->template = t;
		out->cgroup = cg;
		t = NULL;
		cg = NULL;
		st[0] = -1;
	}
	if (pid < 0)
		close(sync[1]);
out_go:
	close(go[0]);
	close(go[1]);
out_st:
	if (st[0] >= 0)
		close(st[0]);
	if (st[1] >= 0)
		close(st[1]);
	if (p->home_from >= 0)
		close(p->home_from); /* the sandbox has its copy */
	p->home_from = -1;
	if (t)
		ltemplate_put(t);
	lcg_join_close(&join);
	lcgroup_free(cg);
	return r;
}

/* The session init, in its own network (unless the host cannot make one),
 * IPC, UTS, pid and mount namespaces, in one clone3, handed f (NULL:
 * none); its pidfd, or why it could not be made, goes to the daemon, and
 * first, with its pid, to handback (-1: none). Returns its pid, or -1. */
static pid_t
start_init(const struct sandbox_plan *p, int sfd, int go,
	   const struct linux_session_fds *f, int netns, int mntns,
	   const struct lcg_join *cg, int handback)
{
	struct clone_args a = { 0 };
	int pidfd = -1, e;
	pid_t pid;

	/* A mount namespace of its own, for a /proc of its own: the one
	 * the spawner entered (linux/mntns.c), else a copy made here. */
	a.flags = linux_session_ns_flags(p) | CLONE_NEWPID | CLONE_PIDFD |
		  (mntns < 0 ? CLONE_NEWNS : 0);
	/* A network namespace the template lent: cloned inside it. */
	if (netns >= 0 && linux_netns_enter(netns) == 0)
		a.flags &= ~(uint64_t)CLONE_NEWNET;
	else
		netns = -1;
	a.pidfd = (uint64_t)(uintptr_t)&pidfd;
	a.exit_signal = SIGCHLD;
	pid = lcgroup_clone3(&a, cg);
	if (pid == 0)
		linux_session_main(p, -1, sfd, go, f);
	e = errno;
	/* v1: the init only waits for its job yet, forks nothing. */
	if (pid > 0 && cg)
		lcgroup_attach_pid(cg, pid);
	if (netns >= 0)
		linux_netns_leave();
	if (pid > 0 && handback >= 0)
		fdpass_send(handback, &pid, sizeof(pid), &pidfd, 1);
	linux_send_started(sfd, pid, pidfd, STEP_UNSHARE, e);
	return pid;
}

void
linux_send_started(int sfd, pid_t pid, int pidfd, int step, int err)
{
	struct sandbox_status s = { .kind = SANDBOX_STATUS_STARTED };

	if (pid < 0) {
		s.kind = SANDBOX_STATUS_SETUP_FAILED;
		s.step = step;
		s.value = err;
		if (write(sfd, &s, sizeof(s)) < 0)
			s.kind = 0; /* nobody to tell */
	} else if (fdpass_send(sfd, &s, sizeof(s), &pidfd, 1) < 0) {
		/* The daemon dropped it already. */
		syscall(SYS_pidfd_send_signal, pidfd, SIGKILL, NULL, 0);
	}
	if (pidfd >= 0)
		close(pidfd);
}

/* With a supervisor, a child of the spawner does the start: it builds
 * the command's Landlock ruleset and restricts itself with it (the
 * template must not be), makes the supervisor's sockets, starts the init
 * handed them, then becomes the supervisor itself (in the template's pid
 * and mount namespaces, walking paths from the init's root; after the
 * init, so a warm sandbox is not held up; one process fewer to fork and
 * tear down per sandbox). The init is its child, which it reaps before
 * it exits. The init's /proc, which neither may mount in that domain, is
 * the spawner's to mount (linux/mntns.c): the init's pidfd goes back on
 * handback, and the init waits for a byte on proc_r. */
static void __attribute__((noreturn))
start_supervised(const struct sandbox_plan *p, int sfd, int go, int netns,
		 int mntns, int proc_r, int handback)
{
	struct sandbox_status s = { .kind = SANDBOX_STATUS_SETUP_FAILED };
	struct linux_session_fds f = { -1, -1, -1, proc_r };
	int own[3] = { -1, -1, -1 }, r;
	pid_t init;

	if (p->landlock_abi > 0 && (f.ruleset = linux_landlock_ruleset(p)) < 0) {
		s.step = STEP_LANDLOCK_RULESET;
		s.value = -f.ruleset;
	} else if ((r = linux_supervisor_prepare(p, &f, own)) < 0) {
		s.step = STEP_SUPERVISOR;
		s.value = -r;
	} else {
		init = start_init(p, sfd, go, &f, netns, mntns, NULL, handback);
		close(handback);
		if (mntns >= 0)
			linux_mntns_leave(); /* the supervisor's /proc */
		close(f.proc);
		linux_supervise(p, own, init);
	}
	if (write(sfd, &s, sizeof(s)) < 0)
		_exit(1);
	_exit(0);
}

/* The supervised start (start_supervised) in a child, the init's /proc
 * mounted here meanwhile. Its pid, or -1 with errno set. */
static pid_t
spawn_supervised(const struct sandbox_plan *p, int sfd, int go, int netns,
		 int mntns, const struct lcg_join *cg)
{
	int proc[2], hb[2], e;
	pid_t pid;

	if (pipe2(proc, O_CLOEXEC) < 0)
		return -1;
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, hb) < 0) {
		e = errno;
		close(proc[0]);
		close(proc[1]);
		errno = e;
		return -1;
	}
	/* Not fork(): no atfork handler (linux/lean.c). In the sandbox's
	 * cgroups: what the supervisor does for the command counts. */
	if ((pid = lcgroup_fork(cg)) == 0) {
		close(proc[1]);
		close(hb[0]);
		start_supervised(p, sfd, go, netns, mntns, proc[0], hb[1]);
	}
	e = errno;
	close(proc[0]);
	close(hb[1]);
	if (pid > 0)
		linux_mntns_proc(hb[0], proc[1], mntns >= 0);
	close(hb[0]);
	close(proc[1]);
	errno = e;
	return pid;
}

/* In a template's spawner (the template's user, mount and pid
 * namespaces): a sandbox for the daemon, its session init a child of the
 * spawner (or reparented to the template), which reaps it. */
void
linux_spawn_session(const struct sandbox_plan *p, int sfd, int go,
		    const struct lcg_join *cg)
{
	int netns = p->net == SANDBOX_NET_NAMESPACE ? linux_netns_lend() : -1;
	int mntns, e;
	pid_t pid;

	/* Its supervisor's copy of the workspace: made once, here. */
	if (p->emulate)
		linux_mntns_hold_workspace(p);
	mntns = linux_mntns_enter();

	/* The supervisor, and so the init it starts, in the sandbox's
	 * cgroups: what it does for the command counts against them. */
	if (!p->emulate)
		pid = start_init(p, sfd, go, NULL, netns, mntns, cg, -1);
	else
		pid = spawn_supervised(p, sfd, go, netns, mntns, cg);
	e = errno;
	if (mntns >= 0) {
		linux_mntns_leave();
		linux_mntns_started(pid, mntns);
		linux_mntns_stock();
	}
	if (pid < 0 && p->emulate) {
		struct sandbox_status s = {
			.kind = SANDBOX_STATUS_SETUP_FAILED,
			.step = STEP_FORK, .value = e,
		};

		if (write(sfd, &s, sizeof(s)) < 0)
			s.kind = 0; /* nobody to tell */
	}
	if (netns >= 0)
		close(netns);
	close(sfd);
	close(go);
}

/* A sandbox from the template's pool (or a fresh one) is given its job,
 * with the end of a template sync to wait on before it looks at anything,
 * so a file created before this run is masked for it (unless the template
 * has no file event queued or in hand: then there is nothing to wait for). */
static int
spawn_templated(struct sandbox_plan *p, struct sandbox_proc *out)
{
	struct ltemplate *t;
	int sync[2] = { -1, -1 }, status = -1, go = -1, r;
	struct lcgroup *cg = NULL;
	bool warm;

	if ((r = ltemplate_get(p, &t)) < 0)
		return r;
	if (!ltemplate_quiet(t) &&
	    socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sync) < 0) {
		r = -errno;
		ltemplate_put(t);
		return r;
	}
	for (;;) {
		if ((r = ltemplate_sandbox(t, &status, &go, &cg, &warm)) < 0)
			break;
		/* Nothing to write unless this run's limits differ from
		 * those the warm sandbox was made with. */
		if (cg && lcgroup_apply(cg, &p->limits) < 0)
			log_warn("sandbox cgroup: the run's limits could not "
				 "be applied; the template's hold");
		r = linux_job_send(go, p, sync[0]);
		/* A long-lived sandbox takes its further commands there. */
		if (r == 0 && p->resident)
			out->go_fd = go;
		else
			close(go);
		if (r == 0)
			break;
		close(status);
		lcgroup_free(cg);
		cg = NULL;
		status = -1;
		/* A warm sandbox that died meanwhile: take the next. */
		if (!warm || (r != -EPIPE && r != -ECONNRESET))
			break;
	}
	if (sync[0] >= 0) {
		close(sync[0]);
		if (r == 0)
			ltemplate_sync(t, sync[1]);
		close(sync[1]);
	}
	if (r < 0) {
		ltemplate_put(t);
		return r;
	}
	/* The job woke the sandbox's command on this CPU (a sync wake-up,
	 * see session_send_end): yielding, it goes on to its exec, and what
	 * the daemon still does for the run (its records, the client's
	 * replies) waits, off the command's way. */
	sched_yield();
	out->pid = 0;
	out->pidfd = -1;
	out->status_fd = status;
	if (!p->resident)
		out->go_fd = -1;
	out->template = t;
	out->cgroup = cg;
	return 0;
}

/* Landlock-only mode: the session init is the daemon's child
 * (linux/llonly.c). */
static int
spawn_llonly(struct sandbox_plan *p, struct sandbox_proc *out)
{
	int st[2], r;

	/* SEQPACKET: records stay whole and may carry fds. */
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, st) < 0)
		return -errno;
	r = llonly_spawn(p, out, st);
	close(st[1]);
	if (r < 0)
		close(st[0]);
	else
		out->status_fd = st[0];
	return r;
}

int
sandbox_spawn(struct sandbox_plan *p, struct sandbox_proc *out)
{
	struct sandbox_proc proc = { .pidfd = -1, .status_fd = -1,
				     .notify_fd = -1, .go_fd = -1 };
	int r;

	/* Further commands go to a templated sandbox's command process. */
	if (p->resident && (p->llonly || p->tty))
		return -ENOTSUP;
	r = p->llonly ? spawn_llonly(p, &proc) :
	    p->tty ? spawn_direct(p, &proc) : spawn_templated(p, &proc);
	if (r < 0)
		return r;
	fcntl(proc.status_fd, F_SETFL, O_NONBLOCK);
	memcpy(proc.proxy_ports, p->proxy_ports, sizeof(proc.proxy_ports));
	*out = proc;
	return 0;
}

int
sandbox_proc_started(struct sandbox_proc *p, int fd)
{
	if (p->pidfd >= 0) {
		close(fd);
		return -EALREADY;
	}
	p->pidfd = fd;
	p->pid = linux_pidfd_pid(fd);
	return 0;
}

int
sandbox_proc_denials(struct sandbox_proc *p, int *fds, int nfds)
{
	int i;

	if (nfds >= 2 && !p->cmd_pid)
		p->cmd_pid = linux_pidfd_pid(fds[1]);
	/* The third: the listener, for connect() calls the supervisor hands
	 * on (SANDBOX_NET_HOST_PORTS). */
	if (nfds >= 3 && p->notify_fd < 0) {
		p->notify_fd = fds[2];
		nfds = 2;
	}
	for (i = 1; i < nfds; i++)
		close(fds[i]);
	return nfds >= 1 ? fds[0] : -1;
}

void
sandbox_reap(struct sandbox_proc *p)
{
	if (p->own_child && p->pidfd >= 0)
		waitid(P_PIDFD, (id_t)p->pidfd, &(siginfo_t){ 0 },
		       WEXITED | WNOHANG);
}

void
sandbox_net_recycle(struct sandbox_proc *p, int listener)
{
	/* A -t sandbox's namespace is its own, not the template's. */
	if (p->template && !p->own_child)
		ltemplate_netns_return(p->template, listener);
}

const char *
sandbox_setup_problem(const struct sandbox_proc *p)
{
	return p->template ? ltemplate_problem(p->template) : NULL;
}

void
sandbox_proc_release(struct sandbox_proc *p)
{
	if (p->pidfd >= 0)
		close(p->pidfd);
	if (p->status_fd >= 0)
		close(p->status_fd);
	if (p->template)
		ltemplate_put(p->template);
	lcgroup_free(p->cgroup);
	p->cgroup = NULL;
	linux_connect_release(p);
	if (p->notify_fd >= 0)
		close(p->notify_fd);
	if (p->go_fd >= 0)
		close(p->go_fd);
	p->pidfd = p->status_fd = p->notify_fd = p->go_fd = -1;
	p->template = NULL;
}

unsigned
sandbox_templates(void)
{
	return ltemplate_count();
}

void
sandbox_cleanup(void)
{
	ltemplate_kill_all();
	lcgroup_cleanup();
	linux_homedisk_cleanup();
}

int
sandbox_retire_workspace(const char *ws)
{
	return ltemplate_retire(ws);
}

int
sandbox_status_read(int fd, struct sandbox_status *st, int *fds, int *nfds)
{
	ssize_t n = fdpass_recv(fd, st, sizeof(*st), fds, nfds,
				SANDBOX_STATUS_MAXFDS);

	if (n == -EAGAIN || n == -EINTR)
		return -EAGAIN;
	if (n < 0 && *nfds == 0)
		return (int)n;
	if (n != sizeof(*st)) {
		while (*nfds > 0)
			close(fds[--*nfds]);
		return n == 0 ? 0 : -EBADMSG;
	}
	return 1;
}
