/* Spawning a Linux sandbox: the plan is built in the daemon, then clone3
 * makes the namespaces and a pidfd in one step; the daemon writes the id
 * maps and releases the child, which runs linux_init_main(). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "daemon/linux-backend.h"
#include "daemon/linux.h"
#include "proto/fdpass.h"

static const char *const step_names[STEP_MAX] = {
	[STEP_NONE] = "none",
	[STEP_SYNC] = "waiting for the daemon",
	[STEP_PDEATHSIG] = "parent-death signal",
	[STEP_HOSTNAME] = "hostname",
	[STEP_LOOPBACK] = "loopback interface",
	[STEP_MOUNT_PRIVATE] = "private mount propagation",
	[STEP_MOUNT_CLONE] = "cloning workspace and devices",
	[STEP_MOUNT_READONLY] = "read-only root",
	[STEP_MOUNT_TMP] = "private /tmp",
	[STEP_MOUNT_WORKSPACE] = "workspace mount",
	[STEP_MOUNT_PROC] = "/proc",
	[STEP_MOUNT_SYS] = "/sys",
	[STEP_MOUNT_DEV] = "/dev",
	[STEP_MOUNT_TTY] = "terminal",
	[STEP_MOUNT_MASK] = "masking daemon state",
	[STEP_LANDLOCK_RULESET] = "Landlock ruleset",
	[STEP_PROXY_LISTEN] = "proxy listeners",
	[STEP_DROP_PRIVS] = "dropping privileges",
	[STEP_SIGNALS] = "signal setup",
	[STEP_FORK] = "fork",
	[STEP_SETSID] = "new session",
	[STEP_TTY] = "controlling terminal",
	[STEP_STDIO] = "stdio",
	[STEP_CHDIR] = "working directory",
	[STEP_NO_NEW_PRIVS] = "no_new_privs",
	[STEP_LANDLOCK] = "Landlock",
	[STEP_SECCOMP] = "seccomp",
	[STEP_EXEC] = "exec",
};

const char *
sandbox_step_name(int step)
{
	if (step < 0 || step >= STEP_MAX || !step_names[step])
		return "unknown step";
	return step_names[step];
}

static char **
strv_dup(char *const *v)
{
	size_t n = 0, i;
	char **out;

	while (v[n])
		n++;
	out = calloc(n + 1, sizeof(*out));
	if (!out)
		return NULL;
	for (i = 0; i < n; i++)
		if (!(out[i] = strdup(v[i])))
			goto fail;
	return out;
fail:
	while (i--)
		free(out[i]);
	free(out);
	return NULL;
}

static void
strv_free(char **v)
{
	size_t i;

	for (i = 0; v && v[i]; i++)
		free(v[i]);
	free(v);
}

void
sandbox_plan_free(struct sandbox_plan *p)
{
	if (!p)
		return;
	strv_free(p->argv);
	strv_free(p->envp);
	free(p->cwd);
	free(p->workspace);
	free(p->tmpdir);
	free(p->tty_path);
	free(p);
}

/* The slave's path as the daemon's mount namespace sees it; the sandbox
 * re-binds exactly that inode under its own /dev/pts. */
static int
tty_path(int fd, char **out)
{
	char link[64], buf[256];
	ssize_t n;

	snprintf(link, sizeof(link), "/proc/self/fd/%d", fd);
	n = readlink(link, buf, sizeof(buf) - 1);
	if (n < 0)
		return -errno;
	buf[n] = '\0';
	if (strncmp(buf, "/dev/pts/", 9) || !buf[9] || strchr(buf + 9, '/'))
		return -ENOTTY;
	return (*out = strdup(buf)) ? 0 : -ENOMEM;
}

static bool
under(const char *path, const char *dir)
{
	size_t n = strlen(dir);

	return !strncmp(path, dir, n) && (path[n] == '/' || !path[n]);
}

int
sandbox_plan_new(const struct sandbox_request *req, struct sandbox_plan **out,
		 char *err, size_t errlen)
{
	const struct linux_backend *lb = linux_backend();
	struct sandbox_plan *p = calloc(1, sizeof(*p));
	int r;

	if (!p)
		return -ENOMEM;
	p->argv = strv_dup(req->argv);
	p->envp = strv_dup(req->envp);
	p->cwd = strdup(req->cwd);
	p->workspace = strdup(req->workspace);
	p->tmpdir = strdup(req->tmpdir);
	if (!p->argv || !p->envp || !p->cwd || !p->workspace || !p->tmpdir) {
		sandbox_plan_free(p);
		return -ENOMEM;
	}
	memcpy(p->stdio, req->stdio, sizeof(p->stdio));
	p->tty = req->tty;
	p->proxy = req->proxy;
	p->umask = (mode_t)(req->umask & 0777);
	if (req->tty && (r = tty_path(req->stdio[0], &p->tty_path)) < 0) {
		snprintf(err, errlen, "the terminal is not a /dev/pts "
			 "pseudo-terminal the daemon can reach");
		sandbox_plan_free(p);
		return r;
	}
	p->masks[p->nmasks++] = lb->cfg.rundir;
	if (lb->cfg.socket_path && !under(lb->cfg.socket_path, lb->cfg.rundir))
		p->socket_mask = lb->cfg.socket_path;
	p->uid = lb->cfg.uid;
	p->gid = lb->cfg.gid;
	p->groups = lb->groups;
	p->ngroups = lb->ngroups;
	p->userns = !lb->cfg.privileged;
	p->landlock_abi = lb->caps.landlock_abi;
	p->seccomp = lb->have_seccomp ? &lb->seccomp : NULL;
	*out = p;
	return 0;
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
static int
write_id_maps(pid_t pid, uid_t uid, gid_t gid)
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

int
sandbox_spawn(struct sandbox_plan *p, struct sandbox_proc *out)
{
	int sync[2], st[2], pidfd = -1, r = 0;
	struct clone_args a = { 0 };
	pid_t pid;

	if (pipe2(sync, O_CLOEXEC) < 0)
		return -errno;
	/* SEQPACKET: records stay whole and may carry fds (listeners). */
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, st) < 0) {
		r = -errno;
		close(sync[0]);
		close(sync[1]);
		return r;
	}
	a.flags = CLONE_NEWNS | CLONE_NEWPID | CLONE_NEWIPC | CLONE_NEWUTS |
		  CLONE_NEWNET | CLONE_PIDFD | (p->userns ? CLONE_NEWUSER : 0);
	a.pidfd = (uint64_t)(uintptr_t)&pidfd;
	a.exit_signal = SIGCHLD;
	pid = (pid_t)syscall(SYS_clone3, &a, sizeof(a));
	if (pid == 0) {
		close(sync[1]);
		close(st[0]);
		linux_init_main(p, sync[0], st[1]);
	}
	if (pid < 0)
		r = -errno;
	close(sync[0]);
	close(st[1]);
	if (r == 0 && p->userns)
		r = write_id_maps(pid, p->uid, p->gid);
	if (r == 0 && write(sync[1], "g", 1) != 1)
		r = -EPIPE;
	close(sync[1]);
	if (r < 0) {
		if (pid > 0) {
			/* Rare: reap here so nothing is left behind. */
			siginfo_t si;

			syscall(SYS_pidfd_send_signal, pidfd, SIGKILL, NULL, 0);
			waitid(P_PIDFD, (id_t)pidfd, &si, WEXITED);
			close(pidfd);
		}
		close(st[0]);
		return r;
	}
	fcntl(st[0], F_SETFL, O_NONBLOCK);
	out->pid = pid;
	out->pidfd = pidfd;
	out->status_fd = st[0];
	return 0;
}

int
sandbox_status_read(int fd, struct sandbox_status *st, int *fds, int *nfds)
{
	ssize_t n = fdpass_recv(fd, st, sizeof(*st), fds, nfds, 2);

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

int
sandbox_signal(const struct sandbox_proc *proc, int sig)
{
	if (syscall(SYS_pidfd_send_signal, proc->pidfd, sig, NULL, 0) < 0)
		return -errno;
	return 0;
}
