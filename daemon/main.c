/* sbxd: the per-user sandbox daemon. Parses options, prepares the runtime
 * directory and the sandbox backend, listens, and runs the event loop. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <event2/event.h>
#include <getopt.h>
#include <limits.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "daemon/conn.h"
#include "daemon/daemon.h"
#include "daemon/events.h"
#include "daemon/fdlimit.h"
#include "daemon/log.h"
#include "daemon/policy/org.h"
#include "daemon/policy/store.h"
#include "daemon/policy/watch.h"
#include "daemon/proxy/proxy.h"
#include "daemon/rpc/rpc.h"
#include "daemon/sandbox.h"
#include "daemon/server.h"
#include "daemon/session.h"
#include "daemon/sockwatch.h"
#include "daemon/svc.h"
#include "daemon/usercred.h"
#include "daemon/ws-clean.h"
#include "daemon/ws-tmp.h"
#include "proto/rundir.h"

/* Grace between SIGTERM and SIGKILL for sandboxes at shutdown. */
#define SHUTDOWN_GRACE_MS 3000
/* How long a held connection waits for the client's approval. */
#define ASK_TIMEOUT_MS 60000
/* A proxy client must send a request head or first bytes within this. */
#define PROXY_HEAD_TIMEOUT_MS 30000

static char rundir_buf[PATH_MAX];
static char socket_buf[PATH_MAX];
static char state_buf[PATH_MAX];
static const char *home_opt;
static struct proxy_config proxy_cfg = { ASK_TIMEOUT_MS,
					 PROXY_HEAD_TIMEOUT_MS, NULL, NULL,
					 NULL };
/* Autostarted by sbxctl: stderr is its pipe until READY, a log after. */
static bool log_after_ready;
/* --landlock-only: the mode of hosts without user namespaces, chosen even
 * where they work (to test it, or to compare). */
static bool landlock_only;
static struct policy_store_opts store_opts;
static struct policy_org_opts org_opts;
/* --no-netns: as if no network namespace could be made (tests). */
static bool no_netns;
/* --home-disks: the most loop-mounted home images (0: the backend's). */
static unsigned home_disks;

/* The last session is gone during shutdown (session_on_drained). */
static void
sessions_drained(void)
{
	conn_flush_all();
	event_base_loopexit(sbxd.base, NULL);
}

static void
usage(FILE *f)
{
	fprintf(f,
		"usage: sbxd [--socket PATH] [--user NAME] [--ready-fd N]\n"
		"            [--policy FILE] [--org-dir DIR] [--hosts-file FILE]\n"
		"            [--resolv-conf FILE]\n"
		"            [--upstream-ca FILE]\n"
		"            [--ask-timeout SEC] [--proxy-timeout SEC]\n"
		"            [--frame-timeout SEC] [--tmp-idle SEC] [--home-disks N]\n"
		"            [--no-netns] [--landlock-only] [--foreground] [--version]\n"
		"  --socket PATH  listen here (default $XDG_RUNTIME_DIR/sbx/"
		"sbxd.sock)\n"
		"  --user NAME    privileged mode: run as root, serve NAME\n"
		"  --landlock-only  no namespaces, Landlock and seccomp only "
		"(what sbxd falls\n"
		"                 back to without user namespaces; "
		"`sbxctl status` lists the losses)\n"
		"  --ready-fd N   write READY to fd N once listening\n"
		"  --log-stderr-after-ready  then send stderr to sbxd.log in "
		"the runtime dir\n"
		"  --policy FILE  user-layer policy (instead of "
		"~/.config/sbx/policy.json)\n"
		"  --org-dir DIR  org policies (default /etc/sbx/policy.d)\n"
		"  --trusted-keys DIR  keys for signed org pushes (default "
		"/etc/sbx/trusted-keys)\n"
		"  --state-dir DIR  pushed org policies (DIR/org) and home "
		"overlays (DIR/home)\n"
		"                 (default /var/lib/sbx as root, else "
		"$XDG_STATE_HOME/sbx)\n"
		"  --home DIR     the served user's home is DIR, not the "
		"passwd entry's (tests)\n"
		"  --hosts-file FILE  extra host entries for the proxy's "
		"resolver\n"
		"  --resolv-conf FILE  the proxy's name servers, not "
		"/etc/resolv.conf's (tests)\n"
		"  --upstream-ca FILE  PEM CA certificates trusted for "
		"inspected upstreams\n"
		"                 besides the system's roots (a corporate "
		"CA)\n"
		"  --ask-timeout SEC  deny an unanswered approval after SEC "
		"(60)\n"
		"  --proxy-timeout SEC  a proxy client's time to send a "
		"request (30)\n"
		"  --frame-timeout SEC  a client's time to finish a frame it "
		"began (5)\n"
		"  --tmp-idle SEC  drop a workspace's /tmp SEC after its "
		"last session ends (600)\n"
		"  --home-disks N  privileged mode: at most N workspaces' "
		"home images loop-mounted\n"
		"                 at once (32)\n"
		"  --no-netns     give sandboxes no network namespace, as on "
		"hosts that cannot\n"
		"                 make one: proxy on host loopback ports, "
		"Landlock TCP rules\n");
}

static void
stop(void)
{
	if (sbxd.stopping)
		return;
	sbxd.stopping = true;
	svc_notify("STOPPING=1");
	server_stop();
	session_shutdown_all(SHUTDOWN_GRACE_MS);
}

static void
stop_cb(evutil_socket_t sig, short what, void *arg)
{
	if (!sbxd.stopping)
		log_info("signal %d: stopping", (int)sig);
	stop();
}

static void
watchdog_cb(evutil_socket_t fd, short what, void *arg)
{
	svc_notify("WATCHDOG=1");
}

#define DIR_FLAGS (O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)

/* Directory name in dfd, made with mode if missing, opened without
 * following a link, and accepted only when owned by owner and writable by
 * nobody else. */
static int
own_dir(int dfd, const char *name, uid_t owner, mode_t mode)
{
	struct stat st;
	int fd;

	if (mkdirat(dfd, name, mode) < 0 && errno != EEXIST)
		return -errno;
	fd = openat(dfd, name, DIR_FLAGS);
	if (fd < 0)
		return errno == ELOOP ? -ENOTDIR : -errno;
	if (fstat(fd, &st) < 0 || st.st_uid != owner ||
	    (st.st_mode & (mode == 0700 ? 077 : 022))) {
		close(fd);
		return -EPERM;
	}
	/* The umask took the others' x of a 0711 dir. */
	if ((st.st_mode & 07777) != mode && fchmod(fd, mode) < 0) {
		int e = -errno;

		close(fd);
		return e;
	}
	return fd;
}

/* A root daemon's runtime dir, /run/sbx/UID: root's all the way down, so
 * the user can rename nothing in it, and 0711, so the user reaches the
 * socket (the user's, 0600) by name. What the user may change is below
 * it, in directories the daemon made itself (workspace.c). */
static int
prepare_priv_rundir(void)
{
	char name[32];
	int top, fd;

	top = own_dir(AT_FDCWD, RUNDIR_PRIV_ROOT, 0, 0711);
	if (top < 0)
		return top;
	snprintf(name, sizeof(name), "%u", (unsigned)sbxd.uid);
	fd = own_dir(top, name, 0, 0711);
	close(top);
	return fd;
}

/* The runtime dir holds the socket and the private temp dirs: it must be
 * the user's alone. Returns its fd. */
static int
prepare_rundir(void)
{
	int r;

	if (sbxd.privileged) {
		if ((r = rundir_priv_dir(sbxd.uid, rundir_buf,
					 sizeof(rundir_buf))) < 0)
			return r;
		sbxd.rundir = rundir_buf;
		return prepare_priv_rundir();
	}
	r = rundir_dir(sbxd.uid, rundir_buf, sizeof(rundir_buf));
	sbxd.rundir = rundir_buf;
	if (r < 0)
		return r;
	/* Made and checked through one fd: a directory someone else put
	 * there first is refused, not used. */
	return own_dir(AT_FDCWD, sbxd.rundir, sbxd.uid, 0700);
}

static void
redirect_log(void)
{
	int fd = openat(sbxd.rundir_fd, "sbxd.log", O_WRONLY | O_CREAT |
			O_APPEND | O_CLOEXEC | O_NOFOLLOW, 0600);

	if (fd < 0)
		fd = open("/dev/null", O_WRONLY | O_CLOEXEC);
	if (fd >= 0) {
		dup2(fd, 2);
		close(fd);
	}
}

/* Seconds (fractions allowed) as milliseconds; 0 when not a positive
 * number of at most a day. */
static unsigned
seconds_ms(const char *s)
{
	char *end;
	double v = strtod(s, &end);

	if (*s == '\0' || *end || !(v > 0) || v > 86400)
		return 0;
	return (unsigned)(v * 1000) ? (unsigned)(v * 1000) : 1;
}

/* A path argument, absolute: the daemon changes to / once it has started,
 * and a relative --policy would then name another file. NULL when the
 * working directory cannot be told (the caller refuses to start). */
static const char *
abs_arg(const char *arg)
{
	char cwd[PATH_MAX], *out;

	if (arg[0] == '/')
		return arg;
	if (!getcwd(cwd, sizeof(cwd)) ||
	    asprintf(&out, "%s/%s", strcmp(cwd, "/") ? cwd : "", arg) < 0)
		return NULL;
	return out; /* kept for the daemon's life */
}

static int
parse_args(int argc, char **argv, const char **user, int *ready_fd)
{
	static const struct option opts[] = {
		{ "socket", required_argument, NULL, 's' },
		{ "user", required_argument, NULL, 'u' },
		{ "ready-fd", required_argument, NULL, 'r' },
		{ "foreground", no_argument, NULL, 'f' },
		{ "log-stderr-after-ready", no_argument, NULL, 'L' },
		{ "landlock-only", no_argument, NULL, 'l' },
		{ "policy", required_argument, NULL, 'p' },
		{ "org-dir", required_argument, NULL, 'o' },
		{ "trusted-keys", required_argument, NULL, 'k' },
		{ "state-dir", required_argument, NULL, 'S' },
		{ "home", required_argument, NULL, 'O' },
		{ "hosts-file", required_argument, NULL, 'H' },
		{ "resolv-conf", required_argument, NULL, 'R' },
		{ "upstream-ca", required_argument, NULL, 'C' },
		{ "ask-timeout", required_argument, NULL, 'A' },
		{ "proxy-timeout", required_argument, NULL, 'T' },
		{ "frame-timeout", required_argument, NULL, 'F' },
		{ "no-netns", no_argument, NULL, 'N' },
		{ "tmp-idle", required_argument, NULL, 'I' },
		{ "home-disks", required_argument, NULL, 'D' },
		{ "version", no_argument, NULL, 'V' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	const char *path = NULL;
	int c;

	while ((c = getopt_long(argc, argv, "s:u:r:fVh", opts, NULL)) != -1) {
		if (c > 0 && strchr("spokSOHRC", c) && !(path = abs_arg(optarg))) {
			fprintf(stderr, "sbxd: %s: cannot make it absolute: "
				"%s\n", optarg, strerror(errno));
			return -EINVAL;
		}
		switch (c) {
		case 's':
			sbxd.socket_path = path;
			break;
		case 'u':
			*user = optarg;
			break;
		case 'r':
			*ready_fd = atoi(optarg);
			break;
		case 'f':
			break;
		case 'L':
			log_after_ready = true;
			break;
		case 'l':
			landlock_only = true;
			break;
		case 'p':
			store_opts.user_file = path;
			break;
		case 'o':
			store_opts.org_dir = path;
			store_opts.org_dir_explicit = true;
			break;
		case 'k':
			org_opts.keys_dir = path;
			org_opts.keys_dir_explicit = true;
			break;
		case 'S':
			org_opts.state_dir = path;
			break;
		case 'O':
			home_opt = path;
			break;
		case 'H':
			proxy_cfg.hosts_file = path;
			break;
		case 'R':
			proxy_cfg.resolv_conf = path;
			break;
		case 'C':
			proxy_cfg.upstream_ca = path;
			break;
		case 'A':
		case 'T':
		case 'F':
			if (!seconds_ms(optarg)) {
				fprintf(stderr, "sbxd: bad number of seconds: "
					"%s\n", optarg);
				return -EINVAL;
			}
			if (c == 'A')
				proxy_cfg.ask_timeout_ms = seconds_ms(optarg);
			else if (c == 'T')
				proxy_cfg.head_timeout_ms = seconds_ms(optarg);
			else
				conn_set_frame_timeout(seconds_ms(optarg));
			break;
		case 'N':
			no_netns = true;
			break;
		case 'I':
			if (!seconds_ms(optarg)) {
				fprintf(stderr, "sbxd: bad number of seconds: "
					"%s\n", optarg);
				return -EINVAL;
			}
			ws_tmp_set_idle(seconds_ms(optarg));
			break;
		case 'D':
			if (sscanf(optarg, "%u%c", &home_disks, &(char){ 0 }) !=
			    1 || home_disks == 0) {
				fprintf(stderr, "sbxd: bad number of home "
					"images: %s\n", optarg);
				return -EINVAL;
			}
			break;
		case 'V':
			printf("sbxd %s\n", SBX_VERSION);
			exit(0);
		case 'h':
			usage(stdout);
			exit(0);
		default:
			usage(stderr);
			return -EINVAL;
		}
	}
	return optind == argc ? 0 : -EINVAL;
}

static int
set_identity(const char *user)
{
	struct passwd *pw;

	if (!user) {
		sbxd.uid = getuid();
		sbxd.gid = getgid();
		return 0;
	}
	if (geteuid() != 0) {
		fprintf(stderr, "sbxd: --user needs root (privileged mode)\n");
		return -EPERM;
	}
	pw = getpwnam(user);
	if (!pw && user[0] >= '0' && user[0] <= '9') {
		/* Unit templates name the user by uid (sbxd@1000). */
		char *end;
		unsigned long uid = strtoul(user, &end, 10);

		if (!*end)
			pw = getpwuid((uid_t)uid);
	}
	if (!pw) {
		fprintf(stderr, "sbxd: no such user: %s\n", user);
		return -ENOENT;
	}
	sbxd.uid = pw->pw_uid;
	sbxd.gid = pw->pw_gid;
	sbxd.privileged = pw->pw_uid != 0;
	if (usercred_init(sbxd.uid, sbxd.gid, sbxd.privileged) < 0) {
		fprintf(stderr, "sbxd: cannot read the groups of %s\n", user);
		return -EPERM;
	}
	return 0;
}

/* The served user's home, from the password database (not $HOME, which
 * belongs to whoever started us), or --home. */
static int
set_home(void)
{
	struct passwd *pw = getpwuid(sbxd.uid);
	const char *home = home_opt ? home_opt : pw ? pw->pw_dir : "";
	char real[PATH_MAX];

	/* Canonical, as workspace paths are: the home overlay is placed by
	 * comparing the two. */
	if (home[0] == '/' && realpath(home, real))
		home = real;
	if (home[0] != '/' || !(store_opts.home = strdup(home))) {
		fprintf(stderr, "sbxd: uid %u has no home directory\n",
			(unsigned)sbxd.uid);
		return -ENOENT;
	}
	return 0;
}

/* --state-dir, else /var/lib/sbx for a root daemon, else the user's
 * $XDG_STATE_HOME/sbx (default ~/.local/state/sbx). */
static int
set_state_dir(void)
{
	const char *xdg = getenv("XDG_STATE_HOME");
	int n;

	if (org_opts.state_dir)
		n = snprintf(state_buf, sizeof(state_buf), "%s",
			     org_opts.state_dir);
	else if (geteuid() == 0)
		n = snprintf(state_buf, sizeof(state_buf), "%s",
			     POLICY_ORG_ROOT_STATE);
	else if (xdg && xdg[0] == '/')
		n = snprintf(state_buf, sizeof(state_buf), "%s/sbx", xdg);
	else
		n = snprintf(state_buf, sizeof(state_buf),
			     "%s/.local/state/sbx", store_opts.home);
	if (n < 0 || (size_t)n >= sizeof(state_buf) - 128 ||
	    state_buf[0] != '/') {
		fprintf(stderr, "sbxd: bad state directory: %s\n", state_buf);
		return -EINVAL;
	}
	sbxd.statedir = org_opts.state_dir = state_buf;
	return 0;
}

static int
setup(int ready_fd)
{
	struct sandbox_config cfg = { 0 };
	char err[512] = "";
	struct stat st;
	int r;

	if ((r = prepare_rundir()) < 0) {
		if (r == -EPERM && !sbxd.privileged &&
		    (lstat(sbxd.rundir, &st) < 0 || !S_ISDIR(st.st_mode) ||
		     st.st_uid != sbxd.uid)) {
			rundir_refusal(sbxd.rundir, err, sizeof(err));
			fprintf(stderr, "sbxd: %s\n", err);
		} else
			log_error("runtime dir %s: %s (must be a directory of "
				  "uid %u, mode %s)", sbxd.rundir, strerror(-r),
				  sbxd.privileged ? 0u : (unsigned)sbxd.uid,
				  sbxd.privileged ? "0711" : "0700");
		return r;
	}
	sbxd.rundir_fd = r;
	if (!sbxd.socket_path) {
		snprintf(socket_buf, sizeof(socket_buf), "%s/%s", sbxd.rundir,
			 RUNDIR_SOCKET_NAME);
		sbxd.socket_path = socket_buf;
	}
	cfg.uid = sbxd.uid;
	cfg.gid = sbxd.gid;
	cfg.privileged = sbxd.privileged;
	cfg.no_netns = no_netns;
	cfg.landlock_only = landlock_only;
	cfg.home_disks = home_disks;
	cfg.rundir = sbxd.rundir;
	cfg.statedir = sbxd.statedir;
	cfg.home = store_opts.home;
	cfg.socket_path = sbxd.socket_path;
	if ((r = sandbox_init(&cfg, err, sizeof(err))) < 0) {
		log_error("sandbox backend: %s", err);
		return r;
	}
	if ((r = session_id_init(sbxd.statedir)) < 0)
		log_warn("%s/session-ids: %s: session ids come from the clock",
			 sbxd.statedir, strerror(-r));
	/* Optional (privileged mode): its absence is in the degraded list. */
	sandbox_audit_start(sbxd.base, session_audit_denied, NULL);
	/* Policy problems are reported, never fatal: the last good policy
	 * (or the defaults) stays in force, runs fail with the reason, and
	 * pushes say why they fail. */
	org_opts.home = store_opts.home;
	if (policy_org_init(&org_opts, err, sizeof(err)) < 0)
		log_warn("%s: org policies cannot be pushed", err);
	if ((r = policy_watch_start()) < 0)
		log_warn("inotify: %s: policy edits show at the next run",
			 strerror(-r));
	if ((r = fdlimit_init(sbxd.base)) < 0) {
		log_error("file descriptors: %s", strerror(-r));
		return r;
	}
	if ((r = proxy_init(&proxy_cfg, err, sizeof(err))) < 0) {
		log_error("%s", err);
		return r;
	}
	if ((r = server_start(svc_listen_fd(), err, sizeof(err))) < 0) {
		log_error("%s", err);
		return r;
	}
	if ((r = sockwatch_start(sbxd.base, sbxd.socket_path, stop)) < 0)
		log_warn("%s: cannot watch it (%s): the daemon outlives its "
			 "removal", sbxd.socket_path, strerror(-r));
	return 0;
}

int
main(int argc, char **argv)
{
	struct event *sigterm, *sigint, *wd = NULL;
	const char *user = NULL;
	int ready_fd = -1, r;
	uint64_t wd_usec;

	if (parse_args(argc, argv, &user, &ready_fd) < 0)
		return 2;
	if (landlock_only && user) {
		fprintf(stderr, "sbxd: --landlock-only is for unprivileged "
			"daemons; --user is privileged mode\n");
		return 2;
	}
	if (set_identity(user) < 0 || set_home() < 0 || set_state_dir() < 0)
		return 1;
	policy_store_init(&store_opts);
	policy_store_on_change(events_policy_changed);
	session_on_drained(sessions_drained);
	conn_on_request(rpc_dispatch);
	umask(077);
	if (chdir("/") < 0)
		return 1;
	signal(SIGPIPE, SIG_IGN);
	signal(SIGHUP, SIG_IGN);
	log_init();
	sbxd.start_ms = sbxd_now_ms();
	sbxd.base = event_base_new();
	if (!sbxd.base)
		return 1;
	log_attach(sbxd.base);
	if ((r = setup(ready_fd)) < 0)
		return 1;
	sigterm = evsignal_new(sbxd.base, SIGTERM, stop_cb, NULL);
	sigint = evsignal_new(sbxd.base, SIGINT, stop_cb, NULL);
	event_add(sigterm, NULL);
	event_add(sigint, NULL);
	if ((wd_usec = svc_watchdog_usec()) > 0) {
		struct timeval tv = { (time_t)(wd_usec / 2000000u),
				      (suseconds_t)(wd_usec / 2 % 1000000u) };

		wd = event_new(sbxd.base, -1, EV_PERSIST, watchdog_cb, NULL);
		event_add(wd, &tv);
	}
	/* Before READY: a workspace deleted while no daemon ran is cleaned
	 * before anything can run in its place. */
	ws_clean_start();
	log_info("sbxd %s serving uid %u on %s (%s mode)", SBX_VERSION,
		 (unsigned)sbxd.uid, sbxd.socket_path,
		 sbxd.privileged ? "privileged" :
		 sandbox_caps()->landlock_only ? "landlock-only" : "user");
	svc_notify("READY=1\nSTATUS=serving");
	if (ready_fd >= 0) {
		if (write(ready_fd, "READY\n", 6) != 6)
			log_warn("ready fd %d: %s", ready_fd, strerror(errno));
		close(ready_fd);
	}
	if (log_after_ready)
		redirect_log();
	event_base_dispatch(sbxd.base);
	sockwatch_stop();
	server_stop();
	conn_close_all();
	session_cleanup();
	sandbox_cleanup();
	sandbox_audit_stop();
	policy_watch_stop();
	policy_org_cleanup();
	policy_store_cleanup();
	free((char *)store_opts.home);
	proxy_cleanup();
	fdlimit_cleanup();
	event_free(sigterm);
	event_free(sigint);
	if (wd)
		event_free(wd);
	log_detach();
	event_base_free(sbxd.base);
	log_info("stopped");
	return 0;
}
