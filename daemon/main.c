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
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "daemon/conn.h"
#include "daemon/daemon.h"
#include "daemon/log.h"
#include "daemon/policy-store.h"
#include "daemon/proxy.h"
#include "daemon/sandbox.h"
#include "daemon/server.h"
#include "daemon/session.h"
#include "daemon/svc.h"
#include "proto/rundir.h"

/* Grace between SIGTERM and SIGKILL for sandboxes at shutdown. */
#define SHUTDOWN_GRACE_MS 3000
/* How long a held connection waits for the client's approval. */
#define ASK_TIMEOUT_MS 60000
/* A proxy client must send a request head or first bytes within this. */
#define PROXY_HEAD_TIMEOUT_MS 30000

struct sbxd sbxd;

static char rundir_buf[PATH_MAX];
static char socket_buf[PATH_MAX];
static struct proxy_config proxy_cfg = { ASK_TIMEOUT_MS,
					 PROXY_HEAD_TIMEOUT_MS, NULL };
/* Autostarted by sbxctl: stderr is its pipe until READY, a log after. */
static bool log_after_ready;
static struct policy_store_opts store_opts;

uint64_t
sbxd_now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

void
sbxd_sessions_drained(void)
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
		"            [--ask-timeout SEC] [--proxy-timeout SEC]\n"
		"            [--foreground] [--version]\n"
		"  --socket PATH  listen here (default $XDG_RUNTIME_DIR/sbx/"
		"sbxd.sock)\n"
		"  --user NAME    privileged mode: run as root, serve NAME\n"
		"  --ready-fd N   write READY to fd N once listening\n"
		"  --policy FILE  user-layer policy (instead of "
		"~/.config/sbx/policy.json)\n"
		"  --org-dir DIR  org policies (default /etc/sbx/policy.d)\n"
		"  --hosts-file FILE  extra host entries for the proxy's "
		"resolver\n"
		"  --ask-timeout SEC  deny an unanswered approval after SEC "
		"(60)\n"
		"  --proxy-timeout SEC  a proxy client's time to send a "
		"request (30)\n");
}

static void
stop_cb(evutil_socket_t sig, short what, void *arg)
{
	if (sbxd.stopping)
		return;
	log_info("signal %d: stopping", (int)sig);
	sbxd.stopping = true;
	svc_notify("STOPPING=1");
	server_stop();
	session_shutdown_all(SHUTDOWN_GRACE_MS);
}

static void
watchdog_cb(evutil_socket_t fd, short what, void *arg)
{
	svc_notify("WATCHDOG=1");
}

/* The runtime dir holds the socket and the private temp dirs: it must be
 * the user's alone. */
static int
prepare_rundir(void)
{
	struct stat st;

	if (mkdir(sbxd.rundir, 0700) < 0 && errno != EEXIST)
		return -errno;
	if (lstat(sbxd.rundir, &st) < 0)
		return -errno;
	if (!S_ISDIR(st.st_mode))
		return -ENOTDIR;
	/* Privileged mode: root may own it (systemd makes it 0711 for the
	 * system socket unit); nobody else may write to it. */
	if (sbxd.privileged && st.st_uid == 0)
		return (st.st_mode & 022) ? -EPERM : 0;
	if (st.st_uid != sbxd.uid || (st.st_mode & 077))
		return -EPERM;
	return 0;
}

static void
redirect_log(void)
{
	char path[PATH_MAX];
	int fd;

	snprintf(path, sizeof(path), "%s/sbxd.log", sbxd.rundir);
	fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | O_NOFOLLOW,
		  0600);
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

static int
parse_args(int argc, char **argv, const char **user, int *ready_fd)
{
	static const struct option opts[] = {
		{ "socket", required_argument, NULL, 's' },
		{ "user", required_argument, NULL, 'u' },
		{ "ready-fd", required_argument, NULL, 'r' },
		{ "foreground", no_argument, NULL, 'f' },
		{ "log-stderr-after-ready", no_argument, NULL, 'L' },
		{ "policy", required_argument, NULL, 'p' },
		{ "org-dir", required_argument, NULL, 'o' },
		{ "hosts-file", required_argument, NULL, 'H' },
		{ "ask-timeout", required_argument, NULL, 'A' },
		{ "proxy-timeout", required_argument, NULL, 'T' },
		{ "version", no_argument, NULL, 'V' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	while ((c = getopt_long(argc, argv, "s:u:r:fVh", opts, NULL)) != -1) {
		switch (c) {
		case 's':
			sbxd.socket_path = optarg;
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
		case 'p':
			store_opts.user_file = optarg;
			break;
		case 'o':
			store_opts.org_dir = optarg;
			store_opts.org_dir_explicit = true;
			break;
		case 'H':
			proxy_cfg.hosts_file = optarg;
			break;
		case 'A':
		case 'T':
			if (!seconds_ms(optarg)) {
				fprintf(stderr, "sbxd: bad number of seconds: "
					"%s\n", optarg);
				return -EINVAL;
			}
			if (c == 'A')
				proxy_cfg.ask_timeout_ms = seconds_ms(optarg);
			else
				proxy_cfg.head_timeout_ms = seconds_ms(optarg);
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
	return 0;
}

/* The served user's home, from the password database (not $HOME, which
 * belongs to whoever started us). */
static int
set_home(void)
{
	struct passwd *pw = getpwuid(sbxd.uid);

	if (!pw || pw->pw_dir[0] != '/' ||
	    !(store_opts.home = strdup(pw->pw_dir))) {
		fprintf(stderr, "sbxd: uid %u has no home directory\n",
			(unsigned)sbxd.uid);
		return -ENOENT;
	}
	return 0;
}

/* The proxy holds two sockets per connection: use the whole fd limit. */
static void
raise_nofile(void)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
}

static int
setup(int ready_fd)
{
	struct sandbox_config cfg = { 0 };
	char err[512] = "";
	int r;

	if (rundir_dir(sbxd.uid, rundir_buf, sizeof(rundir_buf)) < 0)
		return -ENAMETOOLONG;
	sbxd.rundir = rundir_buf;
	if ((r = prepare_rundir()) < 0) {
		log_error("runtime dir %s: %s (must be a directory of uid %u, "
			  "mode 0700)", sbxd.rundir, strerror(-r),
			  (unsigned)sbxd.uid);
		return r;
	}
	if (!sbxd.socket_path) {
		snprintf(socket_buf, sizeof(socket_buf), "%s/%s", sbxd.rundir,
			 RUNDIR_SOCKET_NAME);
		sbxd.socket_path = socket_buf;
	}
	cfg.uid = sbxd.uid;
	cfg.gid = sbxd.gid;
	cfg.privileged = sbxd.privileged;
	cfg.rundir = sbxd.rundir;
	cfg.socket_path = sbxd.socket_path;
	if ((r = sandbox_init(&cfg, err, sizeof(err))) < 0) {
		log_error("sandbox backend: %s", err);
		return r;
	}
	/* Optional (privileged mode): its absence is in the degraded list. */
	sandbox_audit_start(sbxd.base, session_audit_denied, NULL);
	raise_nofile();
	if ((r = proxy_init(&proxy_cfg, err, sizeof(err))) < 0) {
		log_error("%s", err);
		return r;
	}
	if ((r = server_start(svc_listen_fd(), err, sizeof(err))) < 0) {
		log_error("%s", err);
		return r;
	}
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
	if (set_identity(user) < 0 || set_home() < 0)
		return 1;
	policy_store_init(&store_opts);
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
	log_info("sbxd %s serving uid %u on %s (%s mode)", SBX_VERSION,
		 (unsigned)sbxd.uid, sbxd.socket_path,
		 sbxd.privileged ? "privileged" : "user");
	svc_notify("READY=1\nSTATUS=serving");
	if (ready_fd >= 0) {
		if (write(ready_fd, "READY\n", 6) != 6)
			log_warn("ready fd %d: %s", ready_fd, strerror(errno));
		close(ready_fd);
	}
	if (log_after_ready)
		redirect_log();
	event_base_dispatch(sbxd.base);
	server_stop();
	conn_close_all();
	session_cleanup();
	sandbox_cleanup();
	sandbox_audit_stop();
	policy_store_cleanup();
	free((char *)store_opts.home);
	proxy_cleanup();
	event_free(sigterm);
	event_free(sigint);
	if (wd)
		event_free(wd);
	event_base_free(sbxd.base);
	log_info("stopped");
	return 0;
}
