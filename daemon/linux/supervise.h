/* The per-session supervisor of a Linux sandbox (linux/supervise.c,
 * linux/resolve.c, linux/emulate.c): a process beside the command, with
 * its credentials, mount namespace and Landlock domain, that owns the
 * seccomp listener. It answers refused syscalls (EPERM, reported to the
 * daemon) and performs the command's file creations, writes, renames,
 * links and removals itself, on a path it read once, so protected paths
 * (policy/protect.c) are checked on what is really changed. */
#ifndef SBX_LINUX_SUPERVISE_H
#define SBX_LINUX_SUPERVISE_H

#include <linux/futex.h>
#include <linux/seccomp.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/types.h>

struct fsplan;
struct sandbox_plan;

/* The syscalls the supervisor performs for the command. */
enum sup_op {
	SUP_NONE = 0,
	SUP_OPEN, SUP_OPENAT, SUP_CREAT,
	SUP_MKDIR, SUP_MKDIRAT, SUP_MKNOD, SUP_MKNODAT,
	SUP_SYMLINK, SUP_SYMLINKAT, SUP_LINK, SUP_LINKAT,
	SUP_RENAME, SUP_RENAMEAT, SUP_RENAMEAT2,
	SUP_TRUNCATE, SUP_TRUNCATE64,
	/* Landlock-only mode's too (linux/guard.c): no read-only binds
	 * refuse them on existing protected paths. */
	SUP_UNLINK, SUP_UNLINKAT, SUP_RMDIR,
	SUP_CHMOD, SUP_FCHMOD, SUP_FCHMODAT, SUP_FCHMODAT2,
	SUP_UMASK,                 /* only noted: the kernel performs it */
	SUP_CONNECT,               /* handed on to the daemon, which makes
				      it (SANDBOX_NET_HOST_PORTS), or made
				      here (linux/sockconn.c) */
	SUP_NOPS
};

/* (audit arch, syscall number) -> operation, built in the daemon. */
struct sup_sys {
	uint32_t arch;
	int32_t nr;
	int32_t op;
};
#define SUP_MAX_SYS 96

/* Supervisor -> daemon, one SEQPACKET record per refusal. */
enum { SUP_REPORT_SYSCALL = 1, SUP_REPORT_PROTECT = 2,
       SUP_REPORT_LANDLOCK = 3,
       SUP_REPORT_CONNECT = 4,     /* a connect() for the daemon to make
				      and answer, with the caller's pidfd */
       SUP_REPORT_UNIX = 5 };      /* a Unix socket refused: path */
struct sup_report {
	int32_t kind;
	int32_t pid;
	uint32_t arch;
	int32_t nr;
	uint64_t id;               /* CONNECT: the notification's */
	uint64_t args[6];
	int32_t op;                /* enum protect_op (PROTECT) */
	int32_t pad;
	char rule[160];
	char detail[128];
	char access[24];           /* LANDLOCK: the right, "fs.make_reg" */
	char path[1024];
};

/* One notification being handled. */
struct sreq {
	struct seccomp_notif *n;
	pid_t tid;                 /* in our pid namespace, /proc's */
};

/* A path resolved the way the command's own syscall would resolve it. */
struct rpath {
	int parent;                /* O_PATH directory holding the name */
	int obj;                   /* O_PATH of what the name is, -1: absent */
	struct stat st;            /* of obj */
	char name[258];            /* last component, "/" kept if the path
				      ended in one ("" for "/") */
	char abs[4096];            /* parent's path + name, for the rules */
};

/* Which file: inode and birth time (an inode number is reused). */
struct sup_ident {
	uint64_t dev, ino;
	int64_t btime;
	uint32_t btime_ns;
};

/* linux/sup-lock.c: the lock's slots in the daemon's memfd. */
#define SUP_LOCK_SLOTS 64
struct sup_locks;
enum { SUP_UNLOCKED, SUP_LOCKED_SLOT, SUP_LOCKED_ALL };

/* The supervisor's state; one per session, one process. */
struct sup {
	const struct fsplan *fs;
	int listener, report, lock, root;
	/* The lock's slots mapped (NULL: the memfd's record lock), the
	 * robust futex list that frees them if this process dies, its tid,
	 * the slot it reads under and what it holds (SUP_LOCKED_*). */
	struct sup_locks *locks;
	struct robust_list_head robust;
	pid_t tid;
	unsigned slot;
	int locked;
	struct sup_ident fresh[256]; /* .git dirs and configs made here */
	/* The workspace's mount without the template's binds (an
	 * open_tree clone made at the start, -1 when it could not be),
	 * and its path: where a bound .git/config is rewritten
	 * (linux/gitcfg.c). */
	int ws;
	const char *ws_path;
	/* Directories this session made (sup_made_add), a set of
	 * identities allocated at the first. */
	struct sup_ident *made;
	unsigned nmade;
	unsigned nfresh, next_fresh;
	/* Linked worktrees whose gitdir git wrote and whose .git file it
	 * has not made yet (linux/gitlink.c): the .git/worktrees/ID
	 * directory (O_PATH) and the anonymous file git wrote. */
	struct { int dir, memfd; } wt[8];
	unsigned nwt, next_wt;
	/* Submodules' .git files git is writing (linux/gitlink.c): the
	 * directory (O_PATH), its path as the command sees it, the
	 * anonymous file git writes, and the call, for a report. */
	struct sup_gitlink {
		int dir, memfd;
		mode_t mode;
		char path[4096];
		struct seccomp_notif n;
		pid_t tid;
	} gl[4];
	unsigned ngl;
	unsigned workers;            /* FIFO openers not reaped yet */
	struct { pid_t tid; int pidfd; mode_t mask; } umasks[64];
	unsigned numasks, next_umask;
	mode_t umask_now;            /* ours, once umask_known */
	bool umask_known;
};

/* linux/resolve.c */
int res_read_string(struct sreq *r, uint64_t addr, char *buf, size_t len);
/* Where a path relative to dirfd starts: /, the cwd, or the fd. */
int res_base(struct sup *s, struct sreq *r, int dirfd, const char *path);
/* From base (taken over): follow, the last component too if a symlink.
 * 0 or -errno. */
int res_walk(struct sup *s, struct sreq *r, int base, const char *path,
	     bool follow, struct rpath *out);
/* Both steps, for a path argument at addr. */
int res_path(struct sup *s, struct sreq *r, int dirfd, uint64_t addr,
	     bool follow, struct rpath *out);
/* For a name to be made (mkdir, mknod, symlink): res_path without
 * following the last component, and -EEXIST, cheaply, when it exists
 * (the kernel's answer, before any permission or rule: the lookup was
 * the command's own); out->abs is left empty for res_abs. */
int res_path_new(struct sup *s, struct sreq *r, int dirfd, uint64_t addr,
		 struct rpath *out);
/* For a file to be made: the directory and the last name, not looked
 * up (out->obj -1, out->st unset); -EAGAIN when that name is ".", ".."
 * or ends in "/" (res_path then). */
int res_path_parent(struct sup *s, struct sreq *r, int dirfd, uint64_t addr,
		    struct rpath *out);
/* The existing object a call acting on one names (linkat's source,
 * fchmodat): the path at addr from dirfd, or with empty_path
 * (AT_EMPTY_PATH) and an empty path dirfd itself; into out->obj and
 * out->st. 0 or -errno (ENOENT: nothing there). */
int res_object(struct sup *s, struct sreq *r, int dirfd, uint64_t addr,
	       bool empty_path, bool follow, struct rpath *out);
void res_close(struct rpath *p);
/* p->abs from p->parent's path now and p->name. 0 or -errno. */
int res_abs(struct rpath *p);
/* The absolute path of fd (without " (deleted)"). */
int res_fd_path(int fd, char *buf, size_t len);
/* Reopens an O_PATH fd with open(2) flags. */
int res_reopen(int fd, int flags);
bool res_is_dot(const char *name);
/* /proc/TID/NAME into buf (NUL-terminated). */
int res_proc_read(pid_t tid, const char *name, char *buf, size_t len);
/* The pidfd kept with thread tid's umask (PIDFD_THREAD, linux/emulate.c),
 * or -1: it names that very thread or one that is gone, never another. */
int res_tid_pidfd(const struct sup *s, pid_t tid);
/* Umask and thread group of the target, from /proc/TID/status. */
int res_status(pid_t tid, mode_t *umask, pid_t *tgid);

/* linux/emulate.c: each returns the syscall's result (>= 0 or -errno);
 * an fd result is handed to the target by the caller. -EINPROGRESS: a
 * worker answers. */
struct sup_answer {
	long long val;             /* result, or the fd to install */
	bool is_fd;
	bool cloexec;
};
int emu_run(struct sup *s, struct sreq *r, int op, struct sup_answer *a);
/* Sets our umask to the command's thread's (linux/sup-umask.c): 0 or
 * -errno. */
int sup_use_umask(struct sup *s, struct sreq *r);
/* emulate-open.c: a FIFO opened by a child, so the supervisor keeps
 * serving (-EINPROGRESS: the child answers); /dev/tty as the opener's
 * controlling terminal, one of the sandbox's /dev/pts (or -ENXIO). */
int emu_open_fifo(struct sup *s, struct sreq *r, int obj, int flags,
		  bool cloexec);
int emu_open_ctty(struct sup *s, struct sreq *r, int flags);

/* linux/gitlink.c: git worktree add's files that tie a linked worktree
 * to its repository, written by the supervisor; each returns the fd the
 * command gets (an anonymous file) or -errno. mode: the file's, the
 * command's umask applied. */
int gitlink_gitdir(struct sup *s, const struct rpath *p);
int gitlink_commondir(struct sup *s, const struct rpath *p, mode_t mode);
/* -EPERM when no worktree's gitdir names p. */
int gitlink_dotgit(struct sup *s, const struct rpath *p, mode_t mode);
/* A submodule's .git file, new (existing: a rewrite of one this session
 * made) in a directory this session made: git writes an anonymous file,
 * whose content gitlink_settle() checks and writes; -EPERM otherwise. */
int gitlink_submodule(struct sup *s, struct sreq *r, const struct rpath *p,
		      mode_t mode, bool existing);
/* Each pending .git file git has written: written when it names a
 * submodule's repository in a .git this session made, refused (reported)
 * otherwise; all of them, finished or not, when the command is gone
 * (last). */
void gitlink_settle(struct sup *s, bool last);
/* linux/gitcfg.c: config.lock renamed onto .git/config (dst), checked
 * as a whole config when fresh (the repository is this session's), else
 * for what it changes; 0 or -errno (EPERM reported). */
int gitcfg_rename(struct sup *s, struct sreq *r, struct rpath *src,
		  struct rpath *dst, unsigned flags, bool fresh);
/* linux/guard.c: unlink, rmdir and the chmod family (SUP_UNLINK ...
 * SUP_FCHMODAT2), for sandboxes with no read-only binds. */
int guard_run(struct sup *s, struct sreq *r, int op);
/* The .git directory path (absolute, normalised) lies in, the last one,
 * as an O_PATH fd reached from parent (path's directory) by "..": -1 when
 * path has no .git component above its last. */
int guard_git_dir(int parent, const char *path);

/* linux/sockconn.c: a connect() in a sandbox with a network namespace,
 * made here on the command's socket: a named Unix socket only inside the
 * writable paths and private temp dirs or named by allowUnixSockets
 * (EACCES, reported, otherwise). The result of a call refused before
 * any connect, or -EINPROGRESS: answered already (the connect's own
 * result, EINPROGRESS included), or by a worker. */
int sockconn_run(struct sup *s, struct sreq *r);

/* linux/supervise.c */
/* Answers notification id with res: an error, a value, or (a->is_fd) the
 * fd res installed in the target, which is closed here. */
void sup_answer_send(struct sup *s, uint64_t id, int res,
		     const struct sup_answer *a);
/* A umask() call: every remembered umask may be stale. */
void sup_umask_changed(struct sup *s);
/* Whether fd is the root of a mount (emulate.c): a pinned .git, a bind. */
bool sup_mount_root(int fd);
/* Records a refusal for the daemon (never blocks). */
/* A creation at path Landlock refused (EACCES outside the trees the
 * command may create in): reported as the kernel's audit record would be,
 * naming the directory, since the supervisor's own domain logs nothing. */
void sup_report_landlock(struct sup *s, struct sreq *r, const char *access,
			 const char *path);
/* A connect() to the Unix socket at path refused. */
void sup_report_unix(struct sup *s, struct sreq *r, const char *path);
void sup_report_protect(struct sup *s, struct sreq *r, int op,
			const char *path, const char *rule,
			const char *detail);
/* Whether dirfd/name (name "" for dirfd itself) is one of the .git
 * directories or configs this session made; marks or forgets it. */
bool sup_fresh(const struct sup *s, int dirfd, const char *name);
void sup_fresh_set(struct sup *s, int dirfd, const char *name, bool on);
/* Whether the directory holding the .vscode, .idea or .gitmodules path
 * lies in (path's directory is parent) is one this session made, by
 * mkdir (sup_made_add, of dirfd/name): PROTECT_NEW_DIR's condition. Not
 * by time: a directory the user makes on the host while a run goes on
 * (and opens in an editor) is not the run's. */
void sup_made_add(struct sup *s, int dirfd, const char *name);
bool sup_made_here(const struct sup *s, int parent, const char *path);
/* Whether directory fd is one this session made. */
bool sup_dir_made(const struct sup *s, int fd);
/* linux/sup-lock.c: the daemon's memfd for the lock (zeroed slots), or
 * -errno; a supervisor's mapping of it, at its start; the lock, shared
 * (a check and its change) or exclusive (a rename). */
int sup_lock_create(void);
void sup_lock_attach(struct sup *s);
void sup_lock(struct sup *s, bool exclusive);
void sup_unlock(struct sup *s);

#endif
