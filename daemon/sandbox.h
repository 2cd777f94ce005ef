/* The sandbox backend interface: probe, plan, spawn. One implementation per
 * platform (daemon/linux/, daemon/macos/), chosen by the Makefile. */
#ifndef SBX_SANDBOX_H
#define SBX_SANDBOX_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/resource.h>
#include <sys/types.h>

struct event_base;
struct fsplan;

/* How sandboxes reach the network: always only through the daemon's proxy,
 * but the proxy's listeners sit in different places. */
enum sandbox_net {
	/* Each sandbox has a network namespace with only loopback; the
	 * listeners are made inside it (SANDBOX_*_PROXY_PORT), so whoever
	 * connects to them is that sandbox. */
	SANDBOX_NET_NAMESPACE = 0,
	/* No network namespace can be made: sandboxes share the host's.
	 * The daemon listens on the host's 127.0.0.1 at two ports per
	 * session (sandbox_request.proxy_ports); Landlock (ABI >= 4) lets
	 * the command connect to those two TCP ports only and bind none,
	 * and seccomp refuses every other IP socket, listen() and TCP Fast
	 * Open. Where it can (caps connect_mediated), the daemon makes every
	 * connect() itself, to 127.0.0.1 at those ports only: Landlock
	 * matches the port on any address. Connections are admitted by
	 * owner (sandbox_peer_uid). */
	SANDBOX_NET_HOST_PORTS,
	/* Neither a network namespace nor Landlock's TCP rules: IP sockets
	 * are refused altogether (no network, not even the proxy). */
	SANDBOX_NET_NONE,
};

#define SANDBOX_DEGRADED_MAX 16

/* What the kernel gives us, probed once at start-up. */
struct sandbox_caps {
	const char *backend;
	int landlock_abi;          /* 0: no Landlock */
	bool seccomp;
	bool seccomp_notify;
	bool protect_new;          /* creating protected paths is refused */
	bool landlock_audit;       /* Landlock denials read from audit */
	char landlock_audit_off[128]; /* if not, why ("": Landlock < 7) */
	bool userns;               /* unprivileged user namespaces usable */
	bool capture;              /* SANDBOX_NET_NAMESPACE: every TCP
				      connection and DNS query is captured
				      (linux/capture.c) */
	bool connect_mediated;     /* SANDBOX_NET_HOST_PORTS: the daemon
				      makes the command's connect() calls,
				      to the proxy's address only */
	bool privileged;           /* daemon is root serving target_uid */
	bool home_overlay;         /* the home can be seen as an overlay */
	bool private_tmpfs;        /* /tmp is a size-limited tmpfs per
				      workspace (sandbox_tmpfs_new) */
	bool home_disk;            /* the home layers can be put on a file
				      system of limits.home bytes
				      (sandbox_home_disk) */
	unsigned home_disks;       /* the most it mounts at once; past them
				      sandbox_home_disk is -EMLINK */
	char home_quota[200];      /* how limits.home is enforced */
	bool landlock_only;        /* no namespaces: Landlock + seccomp only */
	bool unix_sockets;         /* Unix stream sockets inside the sandbox
				      work: its supervisor makes connect()
				      (a network namespace keeps abstract
				      names the sandbox's own) */
	bool ptrace;               /* debuggers work within a sandbox (its
				      Landlock domain), unless the policy's
				      process.allowPtrace is false */
	enum sandbox_net net;
	const char *namespaces[8]; /* NULL-terminated */
	/* Resource limits: how they are enforced ("cgroup v2 (memory, pids,
	 * cpu, io)"), "" when they are not, and then why and the fix. */
	char cgroups[96];
	char cgroups_off[320];
	/* The machine, for the limits' defaults (0: unknown). */
	uint64_t machine_ram, machine_threads_max, machine_nproc;
	char degraded[SANDBOX_DEGRADED_MAX][320]; /* human-readable weakened
						     points */
	int ndegraded;
};

/* Daemon-wide settings the backend needs. */
struct sandbox_config {
	uid_t uid;                 /* whose commands run */
	gid_t gid;
	bool privileged;           /* root daemon, --user mode */
	bool no_netns;             /* behave as if no network namespace could
				      be made (sbxd --no-netns, for tests) */
	bool landlock_only;        /* --landlock-only: no user namespaces
				      even where they work (tests) */
	const char *rundir;        /* daemon state: masked inside sandboxes */
	const char *statedir;      /* masked too (home overlay layers) */
	const char *home;          /* the served user's home */
	const char *socket_path;   /* masked too when outside rundir */
	unsigned home_disks;       /* --home-disks: the most home images
				      mounted at once (0: the default) */
};

struct ignore_set;
struct policy;

/* What one sandbox may use (the policy's limits, resolved): its cgroup's
 * pids.max, memory.max (memory.high an eighth below it, no swap), and
 * cpu.weight (io.weight the same). */
struct sandbox_limits {
	uint64_t pids;
	uint64_t memory;           /* bytes */
	uint64_t cpu_weight;       /* 1-10000; the host's default is 100 */
};

/* What a sandbox used, from its cgroup (measured false: none). */
struct sandbox_usage {
	bool measured;
	uint64_t mem_peak;         /* bytes; 0: not known */
	uint64_t cpu_us;           /* user + system, every process */
	bool memory_hit;           /* something was OOM-killed in it */
	bool memory_oom;           /* an OOM is being handled in it now
				      (v1: its kill may not be counted
				      yet) */
	bool pids_hit;             /* a fork or clone was refused */
};

/* A TCP address inside the sandbox's network namespace where its command
 * process listens before it runs anything (network.hostServices); the
 * listeners go to the daemon in a HOST_LISTENERS record, in this order. */
#define SANDBOX_LISTEN_MAX 8 /* FDPASS_SEND_MAX: one record */
struct sandbox_listen {
	uint8_t family;            /* AF_INET, AF_INET6 */
	uint8_t addr[16];          /* network order */
	uint16_t port;
};

/* One command to run; strings are borrowed until sandbox_plan_new returns. */
struct sandbox_request {
	char *const *argv;
	char *const *envp;
	const char *cwd;           /* absolute */
	const char *workspace;     /* absolute, writable */
	const char *tmpdir;        /* host dir mounted as the sandbox's /tmp */
	int tmp_fd;                /* that dir, opened: what is mounted (the
				      plan takes a copy) */
	const char *vartmpdir;     /* the same for /var/tmp (NULL: none) */
	int vartmp_fd;
	const char *home_layers;   /* holds upper/ and work/ of the home
				      overlay when fs overlays the home */
	int stdio[3];              /* fds for 0,1,2; with tty all are the slave */
	bool tty;
	unsigned umask;            /* for the command */
	bool proxy;                /* create proxy listeners inside */
	uint16_t proxy_ports[2];   /* SANDBOX_NET_HOST_PORTS: the daemon's
				      HTTP and SOCKS5 listeners on the
				      host's 127.0.0.1, the only TCP ports
				      the command may connect to */
	const struct fsplan *fs;   /* writable, read-only and masked paths */
	const struct policy *policy;      /* effective; NULL: built-in only */
	const struct ignore_set *ignores; /* the workspace's, or NULL */
	uint64_t session;          /* names the session in violation logs */
	struct sandbox_limits limits;
	bool resident;             /* a long-lived sandbox: its command
				      process stays and runs further
				      commands (sandbox_exec) */
	struct sandbox_listen listen[SANDBOX_LISTEN_MAX];
	unsigned nlisten;          /* SANDBOX_NET_NAMESPACE only */
	const char *ca_pem;        /* TLS inspection is on: this CA (PEM)
				      is added to the distribution's CA
				      bundles inside; NULL: none */
	const void *ca_jks;        /* and Java's trust store with it (JKS,
				      ca_jks_len bytes) over the JDKs', or
				      NULL */
	size_t ca_jks_len;
};

/* A further command for a long-lived sandbox; borrowed during the call. */
struct sandbox_exec {
	char *const *argv;
	char *const *envp;
	const char *cwd;           /* absolute, as seen inside */
	int stdio[3];              /* with tty all are the slave */
	bool tty;
	unsigned umask;
};

/* Where the sandbox's proxy listeners sit inside its network namespace. */
#define SANDBOX_HTTP_PROXY_PORT 3128
#define SANDBOX_SOCKS_PROXY_PORT 1080
/* Transparent capture (caps.capture): the namespace's nftables send every
 * other TCP connection leaving it to SANDBOX_CAPTURE_PORT on loopback, and
 * every DNS query to the stub resolver at SANDBOX_DNS_PORT. */
#define SANDBOX_CAPTURE_PORT 3127
/* The sandbox's host name (its own UTS namespace); its stub resolver
 * answers it with loopback, as nss-myhostname would. */
#define SANDBOX_HOSTNAME "sbx"
#define SANDBOX_DNS_PORT 53

/* A spawned sandbox; its fds belong to the caller until
 * sandbox_proc_release(). The session init's pidfd arrives in a STARTED
 * record unless the spawn was direct (then pidfd is set at once); the end
 * of the records before a STARTED one means the sandbox did not start.
 * Closing status_fd takes down a sandbox still running. */
struct sandbox_connect;
struct sandbox_proc {
	pid_t pid;                 /* host pid of the session init, or 0 */
	int pidfd;                 /* session init, -1 until started */
	int status_fd;             /* sandbox_status records (SEQPACKET) */
	bool own_child;            /* pidfd is our child: reap it */
	pid_t cmd_pid;             /* host pid of the command, once its
				      DENIALS record came; 0 before */
	void *template;            /* backend's, for release */
	uint16_t proxy_ports[2];   /* the request's */
	struct sandbox_connect *connects; /* backend's: connect() calls it
					     is making for the command */
	int notify_fd;             /* backend's: the command's seccomp
				      listener, when its supervisor hands
				      connect() calls on; -1 */
	void *cgroup;              /* backend's: the sandbox's cgroups */
	int go_fd;                 /* a long-lived sandbox: where further
				      commands go (backend's); -1 */
	bool exec_job;             /* a command sandbox_exec started: pidfd
				      is the command's, not an init's */
};

/* Records the sandbox writes on status_fd (atomic, < PIPE_BUF). */
enum sandbox_status_kind {
	SANDBOX_STATUS_SETUP_FAILED = 1, /* step + err: sandbox not built */
	SANDBOX_STATUS_EXEC_FAILED = 2,  /* err from execve */
	SANDBOX_STATUS_EXITED = 3,       /* value: wait status of the command */
	SANDBOX_STATUS_LISTENERS = 4,    /* fds: HTTP and SOCKS5 listeners */
	SANDBOX_STATUS_STARTED = 5,      /* fd: pidfd of the session init */
	SANDBOX_STATUS_DENIALS = 6,      /* fds: the supervisor's reports
					    of refusals (or the command's
					    seccomp listener), the command's
					    pidfd, and without a network
					    namespace its listener */
	SANDBOX_STATUS_HOST_LISTENERS = 7, /* fds: the listeners of
					      sandbox_request.listen */
};
/* The most fds a record carries: a job's host listeners (SANDBOX_LISTEN_MAX)
 * or the proxy's listeners record (7 with capture). */
#define SANDBOX_STATUS_MAXFDS SANDBOX_LISTEN_MAX

/* A syscall the sandbox refused (seccomp user notification), or a change
 * to a protected path its supervisor refused (operation set). */
struct sandbox_denial {
	pid_t pid;                 /* as the daemon (or supervisor) sees it */
	char syscall[32];
	uint64_t args[6];
	char addr[128];            /* a refused connect(): "host:port" */
	const char *operation;     /* "create", "write", ...; NULL: syscall */
	char path[1024];
	char detail[128];          /* why, beyond the rule; may be "" */
	char access[24];           /* set: a creation in directory path that
				      Landlock refused, seen by the
				      supervisor ("fs.make_reg", ...) */
};

struct sandbox_status {
	int32_t kind;
	int32_t step;
	int32_t value;
	uint32_t direct_net;       /* EXITED: packets the sandbox's own
				      network namespace had no route or,
				      on loopback, no UDP port for (a name
				      lookup or a connection that ignored
				      the proxy), counted when the command
				      failed; 0 without a namespace */
	uint64_t utime_us;         /* EXITED: the session's children */
	uint64_t stime_us;
	uint64_t maxrss_kb;
};

struct sandbox_plan;

int sandbox_init(const struct sandbox_config *cfg, char *err, size_t errlen);
const struct sandbox_caps *sandbox_caps(void);

/* Builds everything that can be built before fork (strings, arrays, rules).
 * On failure *err says why. */
int sandbox_plan_new(const struct sandbox_request *req,
		     struct sandbox_plan **out, char *err, size_t errlen);
void sandbox_plan_free(struct sandbox_plan *plan);

/* Starts the sandbox; the command runs once setup succeeds. */
int sandbox_spawn(struct sandbox_plan *plan, struct sandbox_proc *out);

/* Starts a further command in the long-lived sandbox sb (spawned with
 * sandbox_request.resident) as out: its status_fd gives the STARTED record
 * (the command's pidfd) and EXITED/EXEC_FAILED like a sandbox's; closing
 * it kills the command's process group. -ENOTSUP: sb is not long-lived. */
int sandbox_exec(const struct sandbox_proc *sb, const struct sandbox_exec *x,
		 struct sandbox_proc *out);

/* Reads one record from status_fd; fds sent with it land in fds[] (at most
 * SANDBOX_STATUS_MAXFDS, count in *nfds). 1: a record, 0: end of records, -EAGAIN: none yet. */
int sandbox_status_read(int fd, struct sandbox_status *st, int *fds,
			int *nfds);

/* A STARTED record arrived with pidfd fd: the session init is running. */
int sandbox_proc_started(struct sandbox_proc *p, int fd);
/* The session init's pidfd became readable: reap it if it is ours. */
void sandbox_reap(struct sandbox_proc *p);
/* Closes everything and lets the backend drop what the spawn held. */
void sandbox_proc_release(struct sandbox_proc *p);
/* After a SETUP_FAILED record: what failed, "file: reason" (a refused
 * ignore file), when the backend knows more than the step and errno. */
const char *sandbox_setup_problem(const struct sandbox_proc *p);
/* The session ended cleanly (its EXITED record: nothing of it runs) and
 * listener is one of its proxy listeners: the backend may use that
 * network namespace again for another sandbox of the same kind. The
 * caller still closes listener, before it frees the sandbox. */
void sandbox_net_recycle(struct sandbox_proc *p, int listener);
/* A DENIALS record arrived: fds[0] is the socket to read denials from
 * (returned, or -1), fds[1] the command's pidfd, which sets p->cmd_pid. */
int sandbox_proc_denials(struct sandbox_proc *p, int *fds, int nfds);
/* Reads one denial from a DENIALS fd of p, answering it: 0, or -EAGAIN
 * when none waits (never blocks), -EPIPE once nothing is filtered any
 * more. With caps connect_mediated the command's connect() calls come
 * this way too: those to p's proxy ports are made (1: nothing to report),
 * the rest refused (0: a denial naming out->addr). */
int sandbox_denial_read(struct sandbox_proc *p, int fd,
			struct sandbox_denial *out);
/*
 * Denials the kernel reports for sandboxes (Linux: Landlock audit records,
 * kernel >= 6.15 with audit enabled, a daemon allowed to read them;
 * macOS: Seatbelt reports from `log stream`): filesystem writes and
 * creations with their path, abstract Unix sockets, signals. The sandbox is
 * named by session id, or else by creator, the sandbox_proc.cmd_pid of the
 * command that made its Landlock domain. Strings are valid during the
 * callback only.
 */
struct sandbox_audit_denial {
	uint64_t session;          /* 0: see creator */
	pid_t creator;
	int kind;                  /* enum violation_kind */
	const char *access;        /* "fs.write_file", "scope.signal", ... */
	const char *target;        /* path, or what the record names */
};
typedef void (*sandbox_audit_fn)(const struct sandbox_audit_denial *d,
				 void *arg);
/* Starts reading them on base (after sandbox_init; sets caps
 * landlock_audit). 0, or -errno when this daemon or kernel cannot (the
 * reason joins the degraded list). */
int sandbox_audit_start(struct event_base *base, sandbox_audit_fn fn,
			void *arg);
/* Calls done(arg) once every denial the kernel queued before this call
 * has been delivered (or after a short timeout). -ENOTSUP when audit is
 * not read: nothing to wait for. */
int sandbox_audit_barrier(void (*done)(void *arg), void *arg);
/* Forgets a barrier whose arg is going away. */
void sandbox_audit_cancel(void *arg);
/* Do this sandbox's kernel-reported denials reach the daemon? */
bool sandbox_audit_watched(const struct sandbox_proc *p);
void sandbox_audit_stop(void);
/* Number of held templates (status). */
unsigned sandbox_templates(void);
/* Drops the held templates of workspace ws (they hold its home overlay
 * mounted). 0, or -EBUSY when one still serves a session or a spawn. */
int sandbox_retire_workspace(const char *ws);
/* A fresh tmpfs of at most size bytes, mode 0700, owned by the daemon's
 * user (a root daemon: root), as a detached mount fd (fsmount) that the
 * backend's sandboxes clone from: nothing of it is mounted on the host.
 * -EOPNOTSUPP where the backend has no such thing. */
int sandbox_tmpfs_new(uint64_t size, int *mnt_out);
/* Mounts on dfd's "fs" (made if missing) a file system of size bytes
 * kept in dfd's image file, made and formatted if missing; 0 at once when
 * it is mounted already (its size is the one it was made with). Root's:
 * dfd is the daemon's own directory. -EOPNOTSUPP without home_disk. */
int sandbox_home_disk(int dfd, uint64_t size);
/* Unmounts dfd's "fs" if it is mounted (lazily: templates that hold it
 * let go as they end). 0 or -errno. */
int sandbox_home_disk_drop(int dfd);

/*
 * SANDBOX_NET_HOST_PORTS: the owner of the socket at the far end of fd, a
 * TCP connection accepted on a host-loopback listener (Linux: looked up by
 * its addresses with NETLINK_SOCK_DIAG). -errno when it cannot be told
 * (the peer already closed, or a uid this daemon cannot name).
 */
int sandbox_peer_uid(int fd, uid_t *uid);
/* The network namespace of sandbox p (a session init's, started), and its
 * owning user namespace unless it is the daemon's own (else -1), as fds
 * for sandbox_net_socket: 0, or -errno. */
int sandbox_net_open(const struct sandbox_proc *p, int fds[2]);
/* A TCP socket of family (non-blocking, close-on-exec) made in the
 * network namespace sandbox_net_open gave: the fd, or -errno. */
int sandbox_net_socket(const int fds[2], int family);
/* A TCP listener at l (non-blocking, close-on-exec, SO_REUSEADDR; IPv6
 * only for an IPv6 address) in the caller's network namespace: the fd, or
 * -errno. */
int sandbox_listen_tcp(const struct sandbox_listen *l);
/* The lowest TCP port a user without CAP_NET_BIND_SERVICE may bind in the
 * daemon's network namespace: a root daemon binds nothing below it for
 * an unprivileged served user (--publish). */
int sandbox_unprivileged_port_start(void);
/* At exit, after the sessions: ends what the backend still holds
 * (templates, their namespaces and processes) and waits until it is
 * gone. */
void sandbox_cleanup(void);

/* What p used so far (peak memory, CPU time, limits hit), read from its
 * cgroup; u->measured is false when it has none. */
void sandbox_usage(const struct sandbox_proc *p, struct sandbox_usage *u);

/* Readable after the kernel OOM-killed a process in a sandbox where it
 * does not take the whole sandbox down itself (cgroup v1); the same fd
 * for every such sandbox: the caller kills p if sandbox_usage() says p
 * hit its memory limit. -1: nothing to watch. The fd is the backend's. */
int sandbox_oom_fd(const struct sandbox_proc *p);

/* Sends sig to the command (SIGKILL: to the whole sandbox). */
int sandbox_signal(const struct sandbox_proc *p, int sig);
/* Sends sig to every process of the sandbox but its init. -EAGAIN: not
 * started yet. */
int sandbox_signal_all(const struct sandbox_proc *p, int sig);

/* Human-readable name of a setup step (for error messages). */
const char *sandbox_step_name(int step);

#endif
