/* Kernel probes of the Linux backend: each attempts the real operation in
 * a forked child, which reports the failing call as {step, errno} on a
 * pipe (the way sandbox setup reports its steps). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/seccomp.h>
#include <net/if.h>
#include <netinet/in.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "daemon/linux/landlock.h"
#include "daemon/linux/probe.h"
#include "daemon/linux/seccomp.h"
#include "daemon/linux/linux.h"
#include "daemon/sandbox.h"

/* How long a seccomp notification may take to arrive. */
#define PROBE_NOTIFY_MS 5000

typedef int (*probe_fn)(const void *arg, struct probe_fail *f);

/* Records a failure for the parent; returns -1 for `return step(...)`. */
static int
step(struct probe_fail *f, const char *what, int err)
{
	snprintf(f->step, sizeof(f->step), "%s", what);
	f->err = err;
	return -1;
}

static pid_t
wait_child(pid_t pid, int *st)
{
	pid_t r;

	while ((r = waitpid(pid, st, 0)) < 0 && errno == EINTR)
		;
	return r;
}

/* Runs fn in a child; its failure comes back through a pipe. A child
 * that dies without saying (a signal) fails too. */
static int
in_child(probe_fn fn, const void *arg, struct probe_fail *f)
{
	struct probe_fail cf = { "", 0 };
	ssize_t n;
	int p[2], st;
	pid_t pid;

	if (pipe2(p, O_CLOEXEC) < 0) {
		step(f, "pipe", errno);
		return -f->err;
	}
	pid = fork();
	if (pid < 0) {
		step(f, "fork", errno);
		close(p[0]);
		close(p[1]);
		return -f->err;
	}
	if (pid == 0) {
		close(p[0]);
		if (fn(arg, &cf) < 0 && write(p[1], &cf, sizeof(cf)) < 0)
			_exit(2);
		_exit(0); /* no atexit handlers: the parent's, not ours */
	}
	close(p[1]);
	while ((n = read(p[0], &cf, sizeof(cf))) < 0 && errno == EINTR)
		;
	close(p[0]);
	if (wait_child(pid, &st) < 0) {
		step(f, "waitpid", errno);
		return -f->err;
	}
	if (n == (ssize_t)sizeof(cf)) {
		cf.step[sizeof(cf.step) - 1] = '\0';
		*f = cf;
		return cf.err ? -cf.err : -EPROTO;
	}
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
		snprintf(f->step, sizeof(f->step), "probe process %s %d",
			 WIFSIGNALED(st) ? "killed by signal" : "exited",
			 WIFSIGNALED(st) ? WTERMSIG(st) : WEXITSTATUS(st));
		f->err = ECHILD;
		return -ECHILD;
	}
	return 0;
}

static int
userns_fn(const void *arg, struct probe_fail *f)
{
	int fs, mnt;

	if (unshare(CLONE_NEWUSER) < 0)
		return step(f, "unshare(CLONE_NEWUSER)", errno);
	/* Not net: a host may forbid that one alone (probe_netns), and
	 * sandboxes then do without it. */
	if (unshare(CLONE_NEWNS | CLONE_NEWPID | CLONE_NEWIPC |
		    CLONE_NEWUTS) < 0)
		return step(f, "unshare(mnt, pid, ipc, uts) in it", errno);
	fs = fsopen("tmpfs", FSOPEN_CLOEXEC);
	if (fs < 0)
		return step(f, "fsopen(tmpfs) in it", errno);
	if (fsconfig(fs, FSCONFIG_CMD_CREATE, NULL, NULL, 0) < 0)
		return step(f, "fsconfig(tmpfs) in it", errno);
	mnt = fsmount(fs, FSMOUNT_CLOEXEC, 0);
	if (mnt < 0)
		return step(f, "fsmount(tmpfs) in it", errno);
	return 0;
}

int
probe_userns(struct probe_fail *f)
{
	return in_child(userns_fn, NULL, f);
}

int
probe_mount_api(void)
{
	struct mount_attr a = { 0 };

	/* EBADF/EINVAL prove the syscall exists; ENOSYS means < 5.12. */
	if (mount_setattr(-1, "", 0, &a, sizeof(a)) < 0 && errno == ENOSYS)
		return -ENOSYS;
	return 0;
}

struct seccomp_arg {
	const struct sock_fprog *prog;
	bool notify;
};

/* The grandchild: keyctl with a command no kernel knows fails with
 * EOPNOTSUPP (or ENOSYS) unless the filter refuses it first. */
static void __attribute__((noreturn))
call_refused(void)
{
	long r = syscall(SYS_keyctl, INT_MAX, 0, 0, 0, 0);

	_exit(r < 0 && errno == EPERM ? 0 : r < 0 ? 3 : 4);
}

static int
seccomp_fn(const void *varg, struct probe_fail *f)
{
	const struct seccomp_arg *a = varg;
	struct sandbox_denial d;
	struct pollfd pfd = { .events = POLLIN };
	int st, r;
	pid_t pid;

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
		return step(f, "prctl(PR_SET_NO_NEW_PRIVS)", errno);
	pfd.fd = seccomp_load_prog(a->prog, a->notify ?
				   SECCOMP_FILTER_FLAG_NEW_LISTENER : 0);
	if (pfd.fd < 0)
		return step(f, a->notify ? "seccomp(SET_MODE_FILTER, "
			    "FLAG_NEW_LISTENER)" : "seccomp(SET_MODE_FILTER)",
			    -pfd.fd);
	pid = fork();
	if (pid < 0)
		return step(f, "fork under the filter", errno);
	if (pid == 0)
		call_refused();
	if (a->notify) {
		r = poll(&pfd, 1, PROBE_NOTIFY_MS);
		if (r <= 0 || !(pfd.revents & POLLIN)) {
			kill(pid, SIGKILL);
			wait_child(pid, &st);
			return step(f, "waiting for the notification",
				    r < 0 ? errno : ETIMEDOUT);
		}
		if ((r = seccomp_notify_answer(pfd.fd, false, NULL, &d)) < 0) {
			kill(pid, SIGKILL);
			wait_child(pid, &st);
			return step(f, "SECCOMP_IOCTL_NOTIF_RECV/SEND", -r);
		}
	}
	if (wait_child(pid, &st) < 0)
		return step(f, "waitpid", errno);
	if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
		return step(f, "keyctl under the filter was not refused "
			    "with EPERM", 0);
	return 0;
}

int
probe_seccomp(const struct sock_fprog *prog, bool notify,
	      struct probe_fail *f)
{
	struct seccomp_arg a = { prog, notify };

	return in_child(seccomp_fn, &a, f);
}

/* A listener (of a filter that allows everything) takes the flag. */
static int
notify_sync_fn(const void *arg, struct probe_fail *f)
{
	struct sock_filter allow = BPF_STMT(BPF_RET | BPF_K,
					    SECCOMP_RET_ALLOW);
	struct sock_fprog prog = { 1, &allow };
	int fd;

	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
		return step(f, "prctl(PR_SET_NO_NEW_PRIVS)", errno);
	if ((fd = seccomp_load_prog(&prog, SECCOMP_FILTER_FLAG_NEW_LISTENER)) <
	    0)
		return step(f, "seccomp(SET_MODE_FILTER, FLAG_NEW_LISTENER)",
			    -fd);
	if (ioctl(fd, SECCOMP_IOCTL_NOTIF_SET_FLAGS,
		  SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP) < 0)
		return step(f, "SECCOMP_IOCTL_NOTIF_SET_FLAGS", errno);
	return 0;
}

int
probe_notify_sync(struct probe_fail *f)
{
	return in_child(notify_sync_fn, NULL, f);
}

int
probe_loopback_up(void)
{
	struct ifreq ifr;
	int s = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0), r = 0;

	if (s < 0)
		return -errno;
	memset(&ifr, 0, sizeof(ifr));
	strcpy(ifr.ifr_name, "lo");
	/* A network namespace used again has it up: then no change to
	 * make under the host-wide rtnl lock. */
	if (ioctl(s, SIOCGIFFLAGS, &ifr) < 0) {
		r = -errno;
	} else if (!(ifr.ifr_flags & IFF_UP)) {
		ifr.ifr_flags |= IFF_UP | IFF_RUNNING;
		r = ioctl(s, SIOCSIFFLAGS, &ifr) < 0 ? -errno : 1;
	}
	close(s);
	return r;
}

static int
netns_fn(const void *arg, struct probe_fail *f)
{
	struct sockaddr_in sa = { .sin_family = AF_INET };
	socklen_t len = sizeof(sa);
	bool userns = *(const bool *)arg;
	int l, c, r;

	if (unshare(CLONE_NEWNET | (userns ? CLONE_NEWUSER : 0)) < 0)
		return step(f, userns ? "unshare(CLONE_NEWUSER | CLONE_NEWNET)"
			    : "unshare(CLONE_NEWNET)", errno);
	if ((r = probe_loopback_up()) < 0)
		return step(f, "bringing lo up (SIOCSIFFLAGS)", -r);
	sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	l = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	c = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (l < 0 || c < 0)
		return step(f, "socket(AF_INET)", errno);
	if (bind(l, (struct sockaddr *)&sa, sizeof(sa)) < 0 ||
	    listen(l, 1) < 0 ||
	    getsockname(l, (struct sockaddr *)&sa, &len) < 0)
		return step(f, "listening on 127.0.0.1", errno);
	if (connect(c, (struct sockaddr *)&sa, sizeof(sa)) < 0)
		return step(f, "connecting to 127.0.0.1", errno);
	if (accept4(l, NULL, NULL, SOCK_CLOEXEC) < 0)
		return step(f, "accepting on 127.0.0.1", errno);
	return 0;
}

int
probe_netns(bool userns, struct probe_fail *f)
{
	return in_child(netns_fn, &userns, f);
}

/* A fresh namespace set up as a captured sandbox's: a connection to a
 * made-up address must reach the capture port, which must tell where it
 * was going. */
static int
capture_fn(const void *arg, struct probe_fail *f)
{
	struct sockaddr_in sa = { .sin_family = AF_INET,
				  .sin_port = htons(SANDBOX_CAPTURE_PORT),
				  .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	struct sockaddr_in to = { .sin_family = AF_INET,
				  .sin_port = htons(443),
				  .sin_addr.s_addr = htonl(0xc6120001) };
	struct sockaddr_in orig;
	socklen_t len = sizeof(orig);
	bool userns = *(const bool *)arg;
	int l, c, a, r;

	if (unshare(CLONE_NEWNET | (userns ? CLONE_NEWUSER : 0)) < 0)
		return step(f, "unshare(CLONE_NEWNET)", errno);
	if ((r = probe_loopback_up()) < 0)
		return step(f, "bringing lo up (SIOCSIFFLAGS)", -r);
	if ((r = linux_capture_setup()) < 0)
		return step(f, "routes and nftables rules (netlink)", -r);
	l = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	c = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (l < 0 || c < 0 || bind(l, (struct sockaddr *)&sa, sizeof(sa)) < 0 ||
	    listen(l, 1) < 0)
		return step(f, "listening on the capture port", errno);
	if (connect(c, (struct sockaddr *)&to, sizeof(to)) < 0)
		return step(f, "connecting to 198.18.0.1:443", errno);
	if ((a = accept4(l, NULL, NULL, SOCK_CLOEXEC)) < 0)
		return step(f, "accepting the captured connection", errno);
	if (getsockopt(a, SOL_IP, 80 /* SO_ORIGINAL_DST */, &orig, &len) < 0)
		return step(f, "SO_ORIGINAL_DST", errno);
	if (orig.sin_addr.s_addr != to.sin_addr.s_addr ||
	    orig.sin_port != to.sin_port)
		return step(f, "SO_ORIGINAL_DST names another address", 0);
	return 0;
}

int
probe_capture(bool userns, struct probe_fail *f)
{
	return in_child(capture_fn, &userns, f);
}

/* buf (PATH_MAX bytes) = dir/name; -ENAMETOOLONG when it does not fit. */
static int
join(char *buf, const char *dir, const char *name)
{
	int n = snprintf(buf, PATH_MAX, "%s/%s", dir, name);

	return n < 0 || n >= PATH_MAX ? -ENAMETOOLONG : 0;
}

struct overlay_arg {
	const char *dir;
	const char *lower;
	bool userns;
	uid_t uid;
	gid_t gid;
};

static int
write_file(const char *path, const char *text)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
	ssize_t n, len = (ssize_t)strlen(text);

	if (fd < 0)
		return -errno;
	n = write(fd, text, (size_t)len);
	if (n != len) {
		int e = n < 0 ? errno : EIO;

		close(fd);
		return -e;
	}
	return close(fd) < 0 ? -errno : 0;
}

static int
enter_userns(uid_t uid, gid_t gid, struct probe_fail *f)
{
	char map[64];
	int r;

	if (unshare(CLONE_NEWUSER | CLONE_NEWNS) < 0)
		return step(f, "unshare(CLONE_NEWUSER | CLONE_NEWNS)", errno);
	snprintf(map, sizeof(map), "%u %u 1", (unsigned)uid, (unsigned)uid);
	if ((r = write_file("/proc/self/uid_map", map)) < 0)
		return step(f, "writing uid_map", -r);
	if ((r = write_file("/proc/self/setgroups", "deny")) < 0)
		return step(f, "writing setgroups", -r);
	snprintf(map, sizeof(map), "%u %u 1", (unsigned)gid, (unsigned)gid);
	if ((r = write_file("/proc/self/gid_map", map)) < 0)
		return step(f, "writing gid_map", -r);
	return 0;
}

static int
overlay_fn(const void *varg, struct probe_fail *f)
{
	const struct overlay_arg *a = varg;
	static const char *const sub[] = { "upper", "work", "merged",
					   "lower" };
	char p[5][PATH_MAX];
	int fd[3], i, r, mnt;
	struct stat st;

	if (a->userns && enter_userns(a->uid, a->gid, f) < 0)
		return -1;
	if (!a->userns && unshare(CLONE_NEWNS) < 0)
		return step(f, "unshare(CLONE_NEWNS)", errno);
	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0)
		return step(f, "making mounts private", errno);
	if (mount("tmpfs", a->dir, "tmpfs", 0, "mode=0700") < 0)
		return step(f, "mount(tmpfs)", errno);
	for (i = 0; i < (a->lower ? 3 : 4); i++) {
		if ((r = join(p[i], a->dir, sub[i])) < 0)
			return step(f, "directory name", -r);
		if (mkdir(p[i], 0700) < 0)
			return step(f, "mkdir on the tmpfs", errno);
	}
	if (!a->lower && ((r = join(p[4], p[3], "f")) < 0 ||
			  (r = write_file(p[4], "lower\n")) < 0))
		return step(f, "writing the lower file", -r);
	fd[0] = open(a->lower ? a->lower : p[3], O_PATH | O_DIRECTORY |
		     O_CLOEXEC);
	fd[1] = open(p[0], O_PATH | O_DIRECTORY | O_CLOEXEC);
	fd[2] = open(p[1], O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (fd[0] < 0 || fd[1] < 0 || fd[2] < 0)
		return step(f, "opening the layers", errno);
	if ((mnt = linux_mount_overlay(fd[0], fd[1], fd[2], a->userns)) < 0)
		return step(f, "fsopen/fsconfig/fsmount(overlay)", -mnt);
	if (move_mount(mnt, "", AT_FDCWD, p[2], MOVE_MOUNT_F_EMPTY_PATH) < 0)
		return step(f, "move_mount(overlay)", errno);
	if ((r = join(p[4], p[2], ".sbx-overlay-probe")) < 0 ||
	    (r = write_file(p[4], "upper\n")) < 0)
		return step(f, "writing through the overlay", -r);
	if ((r = join(p[4], p[0], ".sbx-overlay-probe")) < 0)
		return step(f, "directory name", -r);
	if (stat(p[4], &st) < 0)
		return step(f, "finding the copy in the upper directory",
			    errno);
	return 0;
}

int
probe_overlay(const char *dir, const char *lower, bool userns, uid_t uid,
	      gid_t gid, struct probe_fail *f)
{
	struct overlay_arg a = { dir, lower, userns, uid, gid };

	return in_child(overlay_fn, &a, f);
}

struct landlock_arg {
	int abi;
	const char *dir;
};

static int
landlock_fn(const void *varg, struct probe_fail *f)
{
	const struct landlock_arg *a = varg;
	char allowed[PATH_MAX], path[PATH_MAX];
	const char *rw[] = { allowed, NULL };
	const char *must[] = { allowed, NULL };
	int rs, fd;

	if ((rs = join(allowed, a->dir, "allowed")) < 0)
		return step(f, "directory name", -rs);
	if (mkdir(allowed, 0700) < 0 && errno != EEXIST)
		return step(f, "mkdir", errno);
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
		return step(f, "prctl(PR_SET_NO_NEW_PRIVS)", errno);
	if ((rs = landlock_build(a->abi, rw, must, NULL, -1)) < 0)
		return step(f, "landlock_create_ruleset/add_rule", -rs);
	if ((fd = landlock_enforce(rs, false)) < 0)
		return step(f, "landlock_restrict_self", -fd);
	if ((fd = join(path, allowed, "f")) < 0)
		return step(f, "directory name", -fd);
	fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
	if (fd < 0)
		return step(f, "creating a file where writes are allowed",
			    errno);
	close(fd);
	if ((fd = join(path, a->dir, "denied")) < 0)
		return step(f, "directory name", -fd);
	fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
	if (fd >= 0)
		return step(f, "a file where writes are denied was created",
			    0);
	if (errno != EACCES)
		return step(f, "creating a file where writes are denied "
			    "(want EACCES)", errno);
	return 0;
}

int
probe_landlock(int abi, const char *dir, struct probe_fail *f)
{
	struct landlock_arg a = { abi, dir };

	return in_child(landlock_fn, &a, f);
}

bool
probe_initial_userns(void)
{
	unsigned a, b, n;
	bool r = false;
	FILE *f = fopen("/proc/self/uid_map", "re");

	if (f) {
		r = fscanf(f, "%u %u %u", &a, &b, &n) == 3 && a == 0 &&
		    b == 0 && n == 4294967295u;
		fclose(f);
	}
	return r;
}
