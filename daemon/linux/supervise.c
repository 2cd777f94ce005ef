/* The supervisor process of a Linux sandbox session: started beside the
 * command (linux_supervisor_fork), it takes the command's seccomp
 * listener and answers every notification: refused syscalls get EPERM and
 * a report to the daemon; file operations are performed here
 * (linux/emulate.c). It waits on the daemon only to hand it reports, and
 * not for long. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/seccomp.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <unistd.h>

#include "daemon/linux/landlock.h"
#include "daemon/linux/seccomp.h"
#include "daemon/linux/supervise.h"
#include "daemon/linux/linux.h"
#include "daemon/policy/protect.h"
#include "proto/fdpass.h"

void
sup_answer_send(struct sup *s, uint64_t id, int res,
		const struct sup_answer *a)
{
	struct seccomp_notif_resp resp = { .id = id };

	if (res >= 0 && a->is_fd) {
		struct seccomp_notif_addfd add = {
			.id = id,
			.srcfd = (uint32_t)res,
			.newfd_flags = a->cloexec ? O_CLOEXEC : 0,
		};
		int fd = ioctl(s->listener, SECCOMP_IOCTL_NOTIF_ADDFD, &add);

		/* Our copy is closed before the command goes on (not with
		 * SECCOMP_ADDFD_FLAG_SEND, after which we may wait for a
		 * CPU): the file is the command's alone, so a binary it
		 * wrote and closed runs at once instead of failing with
		 * ETXTBSY. It waits killably (WAIT_KILLABLE_RECV), so no
		 * signal restarts the call between the two ioctls. */
		res = fd < 0 ? -errno : fd;
		close((int)add.srcfd);
	}
	if (res < 0)
		resp.error = res;
	else
		resp.val = res;
	ioctl(s->listener, SECCOMP_IOCTL_NOTIF_SEND, &resp);
}

/* Waits while the daemon's end is full (a command refusing itself in a
 * loop goes at the daemon's pace, as when the daemon answered), but not
 * beyond SO_SNDTIMEO: then, or when the daemon is gone, the refusal
 * stands and is only unreported. */
static void
send_report(struct sup *s, const struct sup_report *rep)
{
	ssize_t n;

	do
		n = send(s->report, rep, sizeof(*rep), MSG_NOSIGNAL);
	while (n < 0 && errno == EINTR);
}

/* A report of kind about request r. */
static void
report_init(struct sup_report *rep, int kind, const struct sreq *r)
{
	memset(rep, 0, sizeof(*rep));
	rep->kind = kind;
	rep->pid = r->tid;
	rep->arch = r->n->data.arch;
	rep->nr = r->n->data.nr;
}

void
sup_report_protect(struct sup *s, struct sreq *r, int op, const char *path,
		   const char *rule, const char *detail)
{
	struct sup_report rep;

	report_init(&rep, SUP_REPORT_PROTECT, r);
	rep.op = op;
	snprintf(rep.path, sizeof(rep.path), "%s", path);
	snprintf(rep.rule, sizeof(rep.rule), "%s", rule ? rule : "");
	snprintf(rep.detail, sizeof(rep.detail), "%s", detail ? detail : "");
	send_report(s, &rep);
}

void
sup_report_landlock(struct sup *s, struct sreq *r, const char *access,
		    const char *path)
{
	const char *slash = strrchr(path, '/');
	struct sup_report rep;

	report_init(&rep, SUP_REPORT_LANDLOCK, r);
	snprintf(rep.access, sizeof(rep.access), "%s", access);
	snprintf(rep.path, sizeof(rep.path), "%.*s",
		 slash && slash != path ? (int)(slash - path) : 1, path);
	send_report(s, &rep);
}

void
sup_report_unix(struct sup *s, struct sreq *r, const char *path)
{
	struct sup_report rep;

	report_init(&rep, SUP_REPORT_UNIX, r);
	snprintf(rep.path, sizeof(rep.path), "%s", path);
	send_report(s, &rep);
}

static int
ident(int dirfd, const char *name, struct sup_ident *id)
{
	struct statx sx;

	if (statx(dirfd, name, AT_SYMLINK_NOFOLLOW | (name[0] ? 0 :
						       AT_EMPTY_PATH),
		  STATX_INO | STATX_BTIME, &sx) < 0)
		return -errno;
	memset(id, 0, sizeof(*id));
	id->dev = ((uint64_t)sx.stx_dev_major << 32) | sx.stx_dev_minor;
	id->ino = sx.stx_ino;
	if (sx.stx_mask & STATX_BTIME) {
		id->btime = sx.stx_btime.tv_sec;
		id->btime_ns = sx.stx_btime.tv_nsec;
	}
	return 0;
}

static int
fresh_slot(const struct sup *s, const struct sup_ident *id)
{
	unsigned i;

	for (i = 0; i < s->nfresh; i++)
		if (!memcmp(&s->fresh[i], id, sizeof(*id)))
			return (int)i;
	return -1;
}

bool
sup_fresh(const struct sup *s, int dirfd, const char *name)
{
	struct sup_ident id;

	return ident(dirfd, name, &id) == 0 && fresh_slot(s, &id) >= 0;
}

/* What git's exceptions may touch again in this session; the oldest is
 * forgotten first (then it is only protected). */
void
sup_fresh_set(struct sup *s, int dirfd, const char *name, bool on)
{
	const unsigned cap = sizeof(s->fresh) / sizeof(s->fresh[0]);
	struct sup_ident id;
	int i;

	if (ident(dirfd, name, &id) < 0)
		return;
	if ((i = fresh_slot(s, &id)) >= 0) {
		if (!on)
			memset(&s->fresh[i], 0, sizeof(s->fresh[i]));
		return;
	}
	if (!on)
		return;
	i = (int)(s->nfresh < cap ? s->nfresh++ : s->next_fresh++ % cap);
	s->fresh[i] = id;
}

/* The directories this session made, an open-addressing set of
 * identities (sup_made_here), made at the first; when it is full the
 * rest count as made before the run (protected), never the reverse. */
#define MADE_CAP (1u << 16)

static uint32_t
made_hash(const struct sup_ident *id)
{
	uint64_t h = id->ino * 0x9e3779b97f4a7c15ull ^ id->dev ^
		     ((uint64_t)id->btime << 20) ^ id->btime_ns;

	return (uint32_t)(h ^ (h >> 29)) & (MADE_CAP - 1);
}

static bool
made_empty(const struct sup_ident *id)
{
	return !id->dev && !id->ino;
}

void
sup_made_add(struct sup *s, int dirfd, const char *name)
{
	struct sup_ident id;
	uint32_t i;

	if (s->nmade >= MADE_CAP / 2 || ident(dirfd, name, &id) < 0)
		return;
	if (!s->made && !(s->made = calloc(MADE_CAP, sizeof(*s->made))))
		return;
	for (i = made_hash(&id); !made_empty(&s->made[i]);
	     i = (i + 1) & (MADE_CAP - 1))
		if (!memcmp(&s->made[i], &id, sizeof(id)))
			return;
	s->made[i] = id;
	s->nmade++;
}

bool
sup_dir_made(const struct sup *s, int fd)
{
	struct sup_ident id;
	uint32_t i;

	if (!s->made || ident(fd, "", &id) < 0)
		return false;
	for (i = made_hash(&id); !made_empty(&s->made[i]);
	     i = (i + 1) & (MADE_CAP - 1))
		if (!memcmp(&s->made[i], &id, sizeof(id)))
			return true;
	return false;
}

bool
sup_made_here(const struct sup *s, int parent, const char *path)
{
	int up = protect_holder_up(path), fd, next;
	bool made;

	if (!s->made || up < 0 || (fd = fcntl(parent, F_DUPFD_CLOEXEC, 3)) < 0)
		return false;
	while (fd >= 0 && up-- > 0) {
		next = openat(fd, "..", O_PATH | O_DIRECTORY | O_CLOEXEC);
		close(fd);
		fd = next;
	}
	if (fd < 0)
		return false;
	made = sup_dir_made(s, fd);
	close(fd);
	return made;
}

static int
lookup(const struct sandbox_plan *p, uint32_t arch, int nr)
{
	size_t i;

	for (i = 0; i < p->nsys; i++)
		if (p->sys[i].arch == arch && p->sys[i].nr == nr)
			return p->sys[i].op;
	return SUP_NONE;
}

/* Without a network namespace the daemon makes the command's connect()
 * calls (linux/connect.c), with the listener the command gave it too: it
 * gets the notification and a pidfd of the caller (the pid we see is our
 * pid namespace's) and answers it itself. Failing that, refused. */
static void
hand_on_connect(struct sup *s, const struct seccomp_notif *n)
{
	struct sup_answer a = { 0 };
	struct sup_report rep;
	int pidfd = linux_pidfd_open_tid((pid_t)n->pid);
	ssize_t r = -1;

	memset(&rep, 0, sizeof(rep));
	rep.kind = SUP_REPORT_CONNECT;
	rep.pid = (int32_t)n->pid;
	rep.arch = n->data.arch;
	rep.nr = n->data.nr;
	rep.id = n->id;
	memcpy(rep.args, n->data.args, sizeof(rep.args));
	if (pidfd >= 0) {
		do
			r = fdpass_send(s->report, &rep, sizeof(rep), &pidfd, 1);
		while (r == -EINTR);
		close(pidfd);
	}
	if (r != (ssize_t)sizeof(rep))
		sup_answer_send(s, n->id, -EACCES, &a);
}

static void
handle(struct sup *s, const struct sandbox_plan *p, struct seccomp_notif *n)
{
	int op = p->emulate ? lookup(p, n->data.arch, n->data.nr) : SUP_NONE;
	struct sreq r = { .n = n, .tid = (pid_t)n->pid };
	struct sup_answer a = { 0 };
	struct sup_report rep;
	int e;

	if (op == SUP_UMASK) {
		/* No path, only a number: letting the kernel do it races
		 * with nothing. We only forget what we knew. */
		struct seccomp_notif_resp resp = {
			.id = n->id, .flags = SECCOMP_USER_NOTIF_FLAG_CONTINUE
		};

		sup_umask_changed(s);
		ioctl(s->listener, SECCOMP_IOCTL_NOTIF_SEND, &resp);
		return;
	}
	if (op == SUP_CONNECT && p->net != SANDBOX_NET_NAMESPACE) {
		hand_on_connect(s, n);
		return;
	}
	if (op == SUP_CONNECT) {
		if ((e = sockconn_run(s, &r)) != -EINPROGRESS)
			sup_answer_send(s, n->id, e, &a);
		return;
	}
	if (op == SUP_NONE) {
		/* The filter refuses it (the deny set): say so, before the
		 * command goes on (and maybe exits). */
		memset(&rep, 0, sizeof(rep));
		rep.kind = SUP_REPORT_SYSCALL;
		rep.pid = (int32_t)n->pid;
		rep.arch = n->data.arch;
		rep.nr = n->data.nr;
		memcpy(rep.args, n->data.args, sizeof(rep.args));
		send_report(s, &rep);
		sup_answer_send(s, n->id, -EPERM, &a);
		return;
	}
	e = emu_run(s, &r, op, &a);
	if (e != -EINPROGRESS)
		sup_answer_send(s, n->id, e, &a);
}

/* The command is gone. The session init, when this process started it,
 * goes first: it reports the exit status the client waits on, and this
 * process's own teardown (and the daemon's at the end of its reports)
 * should not take the CPU from it. (FIFO workers die with us.) */
static void __attribute__((noreturn))
finish(pid_t init)
{
	while (init > 0 && waitpid(init, NULL, 0) < 0 && errno == EINTR)
		;
	_exit(0);
}

static bool
recv_notif(struct sup *s, struct seccomp_notif *n, size_t size)
{
	memset(n, 0, size);
	return ioctl(s->listener, SECCOMP_IOCTL_NOTIF_RECV, n) == 0;
}

static void __attribute__((noreturn))
serve(struct sup *s, const struct sandbox_plan *p, pid_t init)
{
	static union {
		struct seccomp_notif n;
		char buf[4096];
	} u;
	struct seccomp_notif_sizes sz;
	struct pollfd pfd = { .fd = s->listener, .events = POLLIN };
	bool recv_waits;

	if (syscall(SYS_seccomp, SECCOMP_GET_NOTIF_SIZES, 0, &sz) < 0 ||
	    sz.seccomp_notif > sizeof(u))
		_exit(1);
	/* The command waits while we work: hand the CPU over directly both
	 * ways, instead of queueing for it on a busy machine (Linux 6.6;
	 * older ones just wake us the ordinary way). The kernels that take
	 * it also end a waiting RECV once no task uses the filter (ENOENT,
	 * with POLLHUP): no poll is needed before each, a syscall less per
	 * notification. */
	recv_waits = ioctl(s->listener, SECCOMP_IOCTL_NOTIF_SET_FLAGS,
			   SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP) == 0;

	for (;;) {
		while (s->workers && waitpid(-1, NULL, WNOHANG) > 0)
			s->workers--;
		if (recv_waits && recv_notif(s, &u.n, sz.seccomp_notif)) {
			/* A .git file written since the last call is
			 * complete (linux/gitlink.c). */
			gitlink_settle(s, false);
			handle(s, p, &u.n);
			continue;
		}
		/* Then (EINTR, a call gone meanwhile, the end), or on older
		 * kernels before each RECV: is anything filtered left? */
		if (poll(&pfd, 1, recv_waits ? 0 : -1) < 0) {
			if (errno == EINTR)
				continue;
			_exit(1);
		}
		gitlink_settle(s, false);
		if (!(pfd.revents & POLLIN)) {
			if (recv_waits && !(pfd.revents & POLLHUP))
				continue;
			gitlink_settle(s, true);
			finish(init); /* nothing filtered is left */
		}
		/* Failing: gone meanwhile (ENOENT), or EINTR. */
		if (recv_notif(s, &u.n, sz.seccomp_notif))
			handle(s, p, &u.n);
	}
}

/* Body of the supervisor. The forker restricted itself with the
 * command's Landlock ruleset already; here the rest of what the command
 * is: its user, no capabilities, no new privileges. Not dumpable, so the
 * command cannot read or write this process. */
void
linux_supervise(const struct sandbox_plan *p, int own[3], pid_t init)
{
	int sup_fd = own[0], rep = own[1];
	struct sup s = { .fs = p->fs, .report = rep, .lock = p->lock_fd,
			 .listener = -1, .ws = own[2], .ws_path = p->workspace };
	int keep[4] = { sup_fd, rep, own[2], p->lock_fd }, fds[1], nfds = 0;
	char c, root[32] = "/";

	linux_close_fds_except(keep, p->lock_fd >= 0 ? 4 : 3);
	sup_lock_attach(&s);
	prctl(PR_SET_NAME, "sbx-supervise");
	if (setsockopt(rep, SOL_SOCKET, SO_SNDTIMEO,
		       &(struct timeval){ 2, 0 }, sizeof(struct timeval)) < 0)
		_exit(1);
	signal(SIGPIPE, SIG_IGN);
	/* Paths from the command's root: in a template's session its mount
	 * namespace (its /proc) is not ours. Opened while we may. */
	if (init > 0)
		snprintf(root, sizeof(root), "/proc/%d/root", (int)init);
	if ((s.root = open(root, O_PATH | O_DIRECTORY | O_CLOEXEC)) < 0)
		_exit(1);
	if (linux_drop_privs(p) < 0 || prctl(PR_SET_DUMPABLE, 0) < 0 ||
	    prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
		_exit(1);
	/* The command sends its listener once its filter is loaded; EOF:
	 * it never got that far. */
	if (fdpass_recv(sup_fd, &c, 1, fds, &nfds, 1) <= 0 || nfds != 1)
		_exit(0);
	close(sup_fd);
	s.listener = fds[0];
	/* Our own filter only now: loading one costs the CPU the spawn is
	 * waiting for; nothing the command sends is read before it. */
	if (p->seccomp_super && seccomp_load_prog(p->seccomp_super, 0) < 0)
		_exit(1);
	serve(&s, p, init);
}

int
linux_supervisor_prepare(const struct sandbox_plan *p,
			 struct linux_session_fds *f, int own[3])
{
	int sup[2], rep[2], e;

	/* The command's own domain will nest in this one: the supervisor
	 * may then read its memory and /proc entries, and it cannot touch
	 * the supervisor. */
	if (f->ruleset >= 0 &&
	    (e = landlock_enforce_quiet(f->ruleset, p->landlock_abi)) < 0)
		return e;
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sup) < 0)
		return -errno;
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, rep) < 0) {
		e = -errno;
		close(sup[0]);
		close(sup[1]);
		return e;
	}
	f->sup = sup[0];
	f->report = rep[0];
	own[0] = sup[1];
	own[1] = rep[1];
	/* The workspace without the binds on it, cloned while the caller
	 * may (before it drops its capabilities; -1 where it cannot, as in
	 * Landlock-only mode, which has no binds): the supervisor writes a
	 * bound .git/config there (linux/gitcfg.c). */
	own[2] = linux_mntns_workspace(p);
	return 0;
}

pid_t
linux_supervisor_fork(const struct sandbox_plan *p, int own[3])
{
	/* A failed fork leaves the command no one to hand its listener
	 * to: its setup fails there (fail closed). */
	/* Not fork(): no atfork handler (linux/lean.c). */
	pid_t pid = _Fork();

	if (pid == 0)
		linux_supervise(p, own, 0);
	close(own[0]);
	close(own[1]);
	if (own[2] >= 0)
		close(own[2]);
	own[0] = own[1] = own[2] = -1;
	return pid;
}
