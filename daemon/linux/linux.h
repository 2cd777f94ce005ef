/* Private to the Linux backend (daemon/linux/): the spawn plan and the steps of
 * sandbox construction, in the order the child performs them. */
#ifndef SBX_LINUX_H
#define SBX_LINUX_H

#include <linux/filter.h>
#include <poll.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/types.h>

#include "daemon/sandbox.h"

/* sigqueue() value of a signal the daemon sends a session init for every
 * process of the sandbox (sandbox_signal_all), not the command alone. */
#define LINUX_SIG_ALL 0x5bca11

struct sup_sys;
struct walk_state;
struct walk_result;

enum linux_step {
	STEP_NONE = 0,
	STEP_SYNC,
	STEP_TEMPLATE,
	STEP_JOIN,
	STEP_UNSHARE,
	STEP_PDEATHSIG,
	STEP_HOSTNAME,
	STEP_LOOPBACK,
	STEP_CAPTURE,
	STEP_MOUNT_PRIVATE,
	STEP_MOUNT_CLONE,
	STEP_MOUNT_READONLY,
	STEP_MOUNT_TMP,
	STEP_MOUNT_WORKSPACE,
	STEP_MOUNT_HOME,
	STEP_MOUNT_PROC,
	STEP_MOUNT_SYS,
	STEP_MOUNT_DEV,
	STEP_MOUNT_TTY,
	STEP_MOUNT_POLICY,
	STEP_MOUNT_MASK,
	STEP_LANDLOCK_RULESET,
	STEP_SUPERVISOR,
	STEP_PROXY_LISTEN,
	STEP_DROP_PRIVS,
	STEP_SIGNALS,
	STEP_FORK,
	STEP_SETSID,
	STEP_JOB,
	STEP_TTY,
	STEP_STDIO,
	STEP_CHDIR,
	STEP_NO_NEW_PRIVS,
	STEP_LANDLOCK,
	STEP_SECCOMP,
	STEP_EXEC,
	STEP_HOST_LISTEN,
	STEP_MAX
};

#define LINUX_MAX_MASKS 8

/* Everything the child needs, built in the daemon before clone so the child
 * never allocates. Strings and arrays are owned by the plan. The job part
 * (argv, envp, cwd, stdio, umask, the proxy's ports) reaches the sandbox only in its go
 * message (linux/job.c); the rest builds the sandbox, and what of it a
 * templated sandbox uses must be covered by the template's key, since
 * warm sandboxes are made from the template's copy of its first plan. */
struct sandbox_plan {
	char **argv;               /* job */
	char **envp;               /* job */
	char *cwd;                 /* job */
	int stdio[3];              /* job; borrowed from the request */
	mode_t umask;              /* job */
	bool tty;                  /* job, and a direct sandbox */
	bool resident;             /* job: a long-lived sandbox, whose
				      command process serves further jobs */
	char *workspace;
	char *tmpdir;
	int tmp_fd;                /* tmpdir, opened by the daemon: mounted
				      from the fd, never looked up again */
	char *vartmpdir;           /* the same for /var/tmp, or NULL */
	int vartmp_fd;
	char *home_layers;         /* upper/ and work/ of the home overlay,
				      when fs overlays the home */
	int home_from;             /* a -t sandbox: where the template's
				      overlay comes (linux/homeshare.c), or
				      -1: a new overlay of home_layers */
	const struct fsplan *fs;   /* borrowed from the request */
	char *tty_path;            /* host path of the pty slave, or NULL */
	bool proxy;                /* make the proxy listeners inside */
	uint16_t proxy_ports[2];   /* job too: SANDBOX_NET_HOST_PORTS, the
				      session's ports on the host loopback */
	struct sandbox_listen listen[SANDBOX_LISTEN_MAX]; /* job */
	unsigned nlisten;
	const char *masks[LINUX_MAX_MASKS]; /* host paths hidden inside */
	int nmasks;
	const char *socket_mask;   /* daemon socket outside the masked dirs */
	/* daemon-wide, borrowed */
	uid_t uid;
	gid_t gid;
	const gid_t *groups;
	int ngroups;
	bool userns;
	enum sandbox_net net;
	bool capture;              /* NAMESPACE with caps.capture: every
				      connection captured (linux/capture.c) */
	int landlock_abi;
	const struct sock_fprog *seccomp;
	bool seccomp_notify;       /* the listener goes to the daemon, or
				      (emulate) to the supervisor */
	bool emulate;              /* a supervisor performs the file syscalls
				      (and gets the listener) */
	const struct sock_fprog *seccomp_super; /* the supervisor's own */
	const struct sup_sys *sys; /* emulated syscalls by ABI */
	size_t nsys;
	int lock_fd;               /* serialises the supervisors, or -1 */
	bool landlock_log;         /* audit the command's Landlock denials */
	/* Landlock-only mode (linux/llonly.c): no namespaces, the command
	 * runs under ll_ruleset (cached, borrowed) and a second filter;
	 * ll_dev, its /dev layer, is the session's (owned; linux/lldev.c). */
	bool llonly;
	int ll_ruleset;
	int ll_dev;
	struct sandbox_limits limits; /* for its cgroup (linux/cgroup.h) */
	const char *ca_pem;        /* daemon-wide, borrowed: added to the CA
				      bundles (linux/mount-ca.c), or NULL */
	const void *ca_jks;        /* daemon-wide, borrowed: the JDKs'
				      trust store (mount-ca.c), or NULL */
	size_t ca_jks_len;
};

/* What a session init is handed (-1: none): the Landlock ruleset, and the
 * supervisor's ends for the command's listener and for the daemon's
 * reports (linux_supervisor_prepare). */
struct linux_session_fds {
	int ruleset;
	int sup;
	int report;
	int proc;  /* a byte once the sandbox's /proc is mounted; -1: none */
};

/* Mount tree of the sandbox, built in place inside a fresh mount namespace
 * by pid 1 of a fresh pid namespace (a template, or a direct sandbox, which
 * also binds its pty slave). Returns 0 or the failing step with *err set
 * to the errno. A template keeps its walk's state, whose directories go to
 * watch as they are walked. */
struct walk_watch;
int linux_mount_build(const struct sandbox_plan *plan, int *err,
		      const struct walk_watch *watch, struct walk_state **keep);
/* A templated sandbox's /proc: clear takes an ended sandbox's off and
 * makes the template's copy under it private; own mounts a fresh one of
 * pid namespace pidns (-1: the caller's) over it, /proc/sys and the like
 * read-only. 0 or -errno. */
int linux_mount_proc_clear(void);
int linux_mount_own_proc(int pidns);
/* An overlay of directory lower (read-only) with upper and work, as a
 * detached mount (nosuid, nodev); userns: made in a user namespace. Layers
 * are fds (O_PATH will do), so no path is looked up twice. */
int linux_mount_overlay(int lower, int upper, int work, bool userns);
/* linux/homeshare.c: a template keeps the overlay it mounted (keep) and
 * answers a request for it with a detached clone on reply (answer); a -t
 * sandbox receives that clone (recv: the mount fd, or -errno). */
void linux_homeshare_keep(int mnt);
/* tmpfs.c: can a sandbox clone a detached tmpfs the daemon holds (Linux
 * 6.15)? Else /tmp stays a directory of the runtime dir. */
bool linux_tmpfs_probe(void);
/* homedisk.c: whether the home layers can go on a loop-mounted image
 * (caps->home_disk, and home_quota says how limits.home is enforced);
 * at exit the images this daemon mounted are unmounted. */
void linux_homedisk_probe(const struct sandbox_config *cfg,
			  struct sandbox_caps *caps);
void linux_homedisk_cleanup(void);
void linux_homeshare_answer(int reply);
int linux_homeshare_recv(int sock);
/* linux/userpath.c: the served user's paths, looked up with the user's
 * file-system rights (no magic link followed). open: an fd of path
 * (O_PATH and flags, resolve: RESOLVE_* more), or -errno. clone: a
 * detached clone of the tree at path (extra: AT_RECURSIVE), or -errno.
 * target: an O_PATH fd to mount src onto at path, the very name (no link
 * followed) or, through links, only src's own inode (else -EXDEV); with
 * make, a missing path is made as the user. attach: src mounted there. */
int linux_userpath_open(const char *path, int flags, uint64_t resolve);
/* For a caller that holds the user's credentials already (a policy's
 * masks and read-only paths): an O_PATH fd of path (flags: O_NOFOLLOW);
 * a path the user cannot reach is looked up by root, through no link, only
 * when each directory the user cannot search on the way is the user's own
 * (else -ENOENT: absent). */
int linux_userpath_policy(const char *path, int flags);
/* With the caller's credentials (root's, for a path the daemon took from
 * mountinfo): an O_PATH fd of path through no link at all, or -errno
 * (-ELOOP: a link in the way, put there since by the user). */
int linux_userpath_nolink(const char *path);
/* Also for such a caller: name in dfd (no link followed), looked at by
 * root (O_PATH) and opened with flags only if it is the user's own, which
 * the user could open after a chmod anyway (what the user-mode walk reads
 * through its namespace's capabilities), and a directory (O_DIRECTORY in
 * flags) or else a regular file: -EACCES when it is another's, -EINVAL
 * when of another type (a device is never opened). */
int linux_userpath_owned(int dfd, const char *name, int flags);
/* lstat of name in dfd as the user, or as root when the user may not
 * search dfd but dfd is the user's own. */
int linux_userpath_lstat(int dfd, const char *name, struct stat *st);
int linux_userpath_clone(const char *path, unsigned extra);
int linux_userpath_target(const char *path, int src, bool make);
int linux_userpath_attach(int src, const char *path, bool make);
/* The same from fds: a clone of the tree at src (an O_PATH fd, closed;
 * -errno passed on), and src mounted onto to (closed; -errno passed on). */
int linux_userpath_clone_fd(int src, unsigned extra);
int linux_userpath_move(int src, int to);
/* Masks / protects one path in the current mount tree (absent: no-op),
 * a path of the user's: the caller holds the user's credentials. */
int linux_mount_mask(const char *path);
int linux_mount_read_only(const char *path);
int linux_mount_apply(const struct walk_result *w);

/* A template's life after its build: applies masks for what appears later
 * (inotify on the walked directories), answers sync requests on ctl_fd,
 * starts sandboxes from plan on request (linux_spawn_session), reaps;
 * with plan->emulate, git's protected paths that appear are left to the
 * sessions' supervisors (protect_late_bind);
 * inotify_fd (the daemon polls it too) and shared say how far it is. A
 * template whose build failed (built->step) answers every start with that
 * failure. Never returns. */
struct ltemplate_state;
struct ltemplate_shared;
/* A walk's mask of path, its type known (dir or not): no stat; one that
 * changed type or went meanwhile is looked at again. */
int linux_mount_mask_as(const char *path, bool dir);

/* linux/masker.c: a child of the template that mounts masks while the
 * walk decides them. start forks it; send (a walk hook, arg the masker)
 * queues one; finish (ok: the walk succeeded, else the masker is killed)
 * sends the rest, waits for it and returns the first failure. */
#define MASKER_BUF (64 * 1024)
struct linux_masker {
	int fd;
	pid_t pid;
	size_t len;
	char buf[MASKER_BUF];
};
int linux_masker_start(struct linux_masker *m);
int linux_masker_send(const char *abs, bool dir, void *arg);
int linux_masker_finish(struct linux_masker *m, bool ok);

/* The template's watches (inotify_fd; -1: none), for its walk; what it
 * leaves unwatched is counted in sh. */
struct walk_watch linux_watch_hook(int inotify_fd,
				   struct ltemplate_shared *sh);
/* After the build: masks what appears, answers the daemon's requests on
 * ctl_fd, and hands those for sandboxes to the spawner on spawner_fd. */
void linux_watch_run(struct walk_state *st, int ctl_fd, int inotify_fd,
		     struct ltemplate_shared *shared,
		     const struct sandbox_plan *plan, int spawner_fd,
		     const struct ltemplate_state *built)
	__attribute__((noreturn));
/* Forks the template's spawner (linux/spawner.c), which makes sandboxes
 * from plan on the requests sent to *fd. 0 or -errno. */
int linux_spawner_start(const struct sandbox_plan *plan, int *fd);
/* The template's and the spawner's loop: SIGCHLD blocked and read from
 * the returned signalfd; poll of pfd[0..n-1] (pfd[n-1] that signalfd,
 * drained) for up to timeout_ms (-1: no limit) after reaping every
 * exited child. poll's result. */
int linux_chld_fd(void);
int linux_poll_reaping(struct pollfd *pfd, nfds_t n, int timeout_ms);
/* Reaps every exited child now (what linux_poll_reaping does first;
 * linux/mntns.c, whose namespaces they free). */
void linux_mntns_reap(void);

/* Body of the session init: (with sync_fd >= 0, a direct sandbox: waits
 * for the id maps, builds the mounts and starts the supervisor itself;
 * fds is NULL then), makes the command process, which confines itself and
 * waits on go_fd for its job; relays signals, reaps, reports. Never
 * returns. */
void linux_session_main(const struct sandbox_plan *plan, int sync_fd,
			int status_fd, int go_fd,
			const struct linux_session_fds *fds)
	__attribute__((noreturn));

/* The command's Landlock ruleset, for the mount tree the caller sees
 * (the sandbox's): fd or -errno. */
int linux_landlock_ruleset(const struct sandbox_plan *p);

/* Leaves the caller with the command's user and no capabilities. */
int linux_drop_privs(const struct sandbox_plan *p);
/* Empties the caller's capability bounding set, as far as it may. */
void linux_drop_bounding(void);

/* The session's supervisor (linux/supervise.c), in two steps so it stays
 * off the command's way. prepare restricts the caller with f->ruleset
 * (>= 0) and makes the sockets: f->sup, where the command sends its
 * listener, f->report, the daemon's end for refusals, and own[] the
 * supervisor's: its two ends and a clone of the workspace's mount without
 * the binds on it (-1 when the caller may not clone one). fork starts it, from a process in the pid namespace the
 * sandbox's /proc shows and in the Landlock domain the command's own
 * nests in, and closes own[]; returns its pid (-1: none). */
int linux_supervisor_prepare(const struct sandbox_plan *p,
			     struct linux_session_fds *f, int own[3]);
pid_t linux_supervisor_fork(const struct sandbox_plan *p, int own[3]);
/* The caller becomes the supervisor (what linux_supervisor_fork's child
 * runs); init: the session init it started (its child), reaped before it
 * exits, or 0. */
void linux_supervise(const struct sandbox_plan *p, int own[3], pid_t init)
	__attribute__((noreturn));

/* Tells the daemon of the session init a start process cloned: STARTED
 * with its pidfd (which is closed), or, pid < 0, SETUP_FAILED at step
 * with err. An init the daemon no longer waits for is killed. */
void linux_send_started(int sfd, pid_t pid, int pidfd, int step, int err);

/* In a template's spawner: a sandbox's own network, IPC, UTS and pid
 * namespaces and its session init, child of the spawner; STARTED (its pidfd) or
 * SETUP_FAILED goes to status_fd. Closes status_fd and go_fd. */
struct lcg_join;
void linux_spawn_session(const struct sandbox_plan *plan, int status_fd,
			 int go_fd, const struct lcg_join *cgroups);

/* A template's network namespaces (linux/netns.c). lend: an fd of one for
 * a new sandbox, made or used again, or -errno (then the sandbox makes its
 * own). return: the daemon gives back the namespace of a session that
 * ended cleanly, through one of its proxy listeners (closed here); one the
 * template did not lend is refused. enter / leave: the caller joins a lent
 * namespace to clone the sandbox in it, and goes back to the template's. */
/* linux/mntns.c, in a spawner: a sandbox mount namespace entered (one
 * whose sandbox ended, or a new copy of the template's), its fd or
 * -errno; then back in the template's; the sandbox's process that holds
 * it, and, once that process is reaped, the namespace free again.
 * linux_mntns_reused: the one entered holds an ended sandbox's /proc. */
extern bool linux_mntns_reused;
int linux_mntns_enter(void);
void linux_mntns_leave(void);
void linux_mntns_started(pid_t pid, int fd);
/* Once, after the spawner's first sandbox: copies of the template's made
 * ahead, for the sandboxes that start before the ended ones are reaped. */
void linux_mntns_stock(void);
void linux_mntns_reaped(pid_t pid);
/* In the spawner, once it forked the start of a supervised sandbox: the
 * sandbox's /proc, which its init, in the supervisor's Landlock domain,
 * may not mount. The init's pid and pidfd come on handback (nothing: the
 * start failed), a byte goes to done_w once mounted. entered: the caller
 * is in the sandbox's mount namespace (linux_mntns_enter), else the init
 * made a copy of the template's. */
void linux_mntns_proc(int handback, int done_w, bool entered);
/* The workspace's mount without the binds on it (-1: none, or the caller
 * may not clone it), for a supervisor (linux/gitcfg.c): a copy of the one
 * a spawner holds (hold_workspace, before it forks a start), else a new
 * clone. */
void linux_mntns_hold_workspace(const struct sandbox_plan *p);
int linux_mntns_workspace(const struct sandbox_plan *p);
int linux_netns_lend(void);
/* Makes the proxy's sockets in the calling process's network namespace
 * (with capture its capture and DNS ones too) and sends them to the
 * daemon on sfd (linux/listeners.c). 0 or -errno. */
int linux_send_listeners(int sfd, bool capture);
/* In a fresh network namespace with lo up: every address local, TCP and
 * DNS leaving for anything but loopback redirected to the capture and DNS
 * ports (linux/capture.c). 0; 1: IPv4 only (no IPv6 here); -errno. */
int linux_capture_setup(void);
void linux_netns_return(int listener);
int linux_netns_enter(int nsfd);
void linux_netns_leave(void);

/* The job of one sandbox, as its command process receives it: pointers
 * into a private mapping, fds received. */
struct linux_job {
	char **argv;
	char **envp;
	const char *cwd;
	mode_t umask;
	bool tty;
	int stdio[3];              /* with tty, all the slave */
	int sync_fd;               /* one byte once the template is synced;
				      -1: no template */
	int status_fd;             /* a further job of a long-lived sandbox:
				      its own status channel; else -1 */
	bool server;               /* the job of a long-lived sandbox's
				      command process: serve further jobs */
	uint16_t tcp_ports[2];     /* SANDBOX_NET_HOST_PORTS: the session's
				      proxy ports, all the TCP it may reach */
	struct sandbox_listen listen[SANDBOX_LISTEN_MAX]; /* made before
				      the exec, sent to the daemon */
	unsigned nlisten;
	void *map;                 /* the private mapping, NULL if none */
	size_t maplen;
};

/* Daemon side: sends plan's job, and sync_fd (or -1) to wait on. */
int linux_job_send(int go_fd, const struct sandbox_plan *plan, int sync_fd);
/* The same, with a status channel of its own (status_fd, or -1): a
 * further job for a long-lived sandbox's job server. */
int linux_job_send_exec(int go_fd, const struct sandbox_plan *plan,
			int sync_fd, int status_fd);
/* Command side, before exec: receives it without allocating. -ECONNRESET
 * when the daemon dropped the sandbox instead. */
int linux_job_recv(int go_fd, struct linux_job *job);
/* The job of a sandbox that runs its plan's command itself (Landlock-only
 * mode): pointers into plan. */
void linux_job_of_plan(const struct sandbox_plan *plan, struct linux_job *job);

/* linux/init.c, for the Landlock-only session (linux/llonly.c): the
 * command's last steps (session, stdio, no_new_privs, Landlock, seccomp,
 * exec), and the EXITED record. */
void linux_exec_command(const struct sandbox_plan *p,
			const struct linux_session_fds *f, int sfd)
	__attribute__((noreturn));
void linux_report_exited(int sfd, int status);
/* The last steps of a job's command process (stdio, umask unless it is
 * had already, cwd, environment, exec); an exec failure is reported on
 * sfd. */
void linux_job_exec(const struct linux_job *j, int sfd, int had)
	__attribute__((noreturn));
/* linux/jobserver.c: a long-lived sandbox's command process from its
 * first job on: runs each further job from go in a process of its own,
 * until the daemon closes go. */
void linux_jobserver_main(int go, int sfd, struct linux_job *first)
	__attribute__((noreturn));

/* linux/netsock.c: the job's host service listeners, made and sent to
 * the daemon (a HOST_LISTENERS record on sfd): 0, or -errno. On the
 * command's stack. */
int linux_host_listeners(const struct linux_job *j, int sfd);

/* Closes every fd but keep[] (which it sorts). */
/* Closes every fd but the n in keep (at most LINUX_KEEP_MAX) and
 * linux_host_pts. */
#define LINUX_KEEP_MAX 16
void linux_close_fds_except(int *keep, int n);
/* The host's devpts (the daemon's /dev/pts, opened by a template or a
 * direct sandbox before its /dev is covered; -1: none, or no Landlock).
 * The sandbox has no path into it; its rulesets grant writes beneath it,
 * so that a terminal the command was given (its stdio: sbxctl's own, or
 * a -t session's pty) can be opened again through /proc/self/fd
 * (/dev/stderr). */
extern int linux_host_pts;
void linux_host_pts_open(const struct sandbox_plan *p);
/* In a template: its children get none of the daemon's shared libraries
 * but libc's (linux/lean.c), and no signal handler of theirs. */
void linux_lean_children(void);
struct seccomp_notif;
struct sandbox_denial;
struct sandbox_proc;
/* linux/connect.c: makes the connect() of notification req (taken from
 * listener) for the command when it is to p's proxy, answering it (1);
 * else answers EACCES and describes it in out (0). */
int linux_connect_mediate(struct sandbox_proc *p, int listener,
			  const struct seccomp_notif *req,
			  struct sandbox_denial *out);
/* Drops the connects still under way for p (its session is over). */
void linux_connect_release(struct sandbox_proc *p);
/* Can this daemon take a child's fd and read its memory? 0 or -errno. */
int linux_connect_probe(void);
#ifndef PIDFD_THREAD
#define PIDFD_THREAD O_EXCL /* Linux 6.9 */
#endif
/* A pidfd of thread tid (of the caller's pid namespace), whether or not it
 * leads its thread group: PIDFD_THREAD (Linux 6.9), else a plain pidfd,
 * which only a leader has. -1 with errno on failure. */
int linux_pidfd_open_tid(pid_t tid);
/* The pid behind a pidfd, in the caller's pid namespace; 0 if unknown. */
pid_t linux_pidfd_pid(int fd);

/* CLONE_NEW* flags of the namespaces a sandbox gets besides user, mount
 * and pid: ipc, uts, and net unless the host cannot make one. */
int linux_session_ns_flags(const struct sandbox_plan *p);
/* Releases a just-cloned child waiting on sync_w: writes its id maps
 * (user namespace) first. On failure the child is killed and reaped. */
int linux_release(pid_t pid, int pidfd, int sync_w,
		  const struct sandbox_plan *p);
/* SIGKILL and reap a child by pidfd, and close the pidfd. */
void linux_kill_reap(int pidfd);
/* Maps uid and gid to themselves in pid's fresh user namespace. */
int linux_write_id_maps(pid_t pid, uid_t uid, gid_t gid);

#endif
