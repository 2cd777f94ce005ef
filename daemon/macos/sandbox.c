/* The macOS backend of sandbox.h, its set-up half: the profile from the cache and the sandbox-exec command line. */
/*
 * Compiled on macOS only; the profile, its cache and the log parser it
 * uses are pure and tested on Linux. What only a Mac can check:
 *  - /usr/bin/sandbox-exec accepts "-D SBX_SESSION=TAG -f FILE -- CMD"
 *    (or -p TEXT), compiles every generated profile (tests/golden/
 *    seatbelt, the largest with long alternations), and (param
 *    "SBX_SESSION") inside (with message ...) reaches the report;
 *  - the profile's operation and filter names exist in the running
 *    release (file-link, vnode-type, unix-socket path-regex, ...), a
 *    rule denying one operation beats an allow of its family in either
 *    order, regexes match bytes as regcomp does, and paths are matched
 *    after /var, /tmp and /etc resolve, with the on-disk case of names
 *    that exist (read denies are not case-folded; write denies are);
 *  - the hard-link rule (file-link) is checked against the existing
 *    file, so linking a denied or protected file elsewhere fails;
 *  - arc4random_buf() and asprintf() as in the macOS libc.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "daemon/log.h"
#include "daemon/macos/macos.h"
#include "daemon/policy/merge.h"
#include "daemon/sandbox.h"
#include "daemon/seatbelt/cache.h"
#include "daemon/seatbelt/log.h"

#define SANDBOX_EXEC	"/usr/bin/sandbox-exec"

static struct {
	struct sandbox_config	 cfg;
	struct sandbox_caps	 caps;
	struct seatbelt_cache	*cache;
	char			 cache_dir[PATH_MAX];
	char			 prefix[SEATBELT_TAG_MAX];
	struct policy		*builtin;
} mb;

static void
degrade(const char *what)
{
	if (mb.caps.ndegraded < SANDBOX_DEGRADED_MAX)
		snprintf(mb.caps.degraded[mb.caps.ndegraded++],
		    sizeof(mb.caps.degraded[0]), "%s", what);
}

int
sandbox_init(const struct sandbox_config *cfg, char *err, size_t errlen)
{
	struct policy_diags d = { 0 };
	const char *home = getenv("HOME");
	uint64_t nonce;
	int r;

	mb.cfg = *cfg;
	mb.caps.backend = "macos-seatbelt";
	if (cfg->privileged || access(SANDBOX_EXEC, X_OK) < 0) {
		snprintf(err, errlen, cfg->privileged ? "privileged mode is "
		    "Linux-only: run sbxd as the user (its LaunchAgent)" :
		    SANDBOX_EXEC " is missing: refusing to run commands "
		    "unsandboxed");
		return cfg->privileged ? -EINVAL : -ENOENT;
	}
	if ((r = seatbelt_cache_dir(mb.cache_dir, sizeof(mb.cache_dir))) < 0 ||
	    (r = seatbelt_cache_new(mb.cache_dir, &mb.cache)) < 0 ||
	    (r = policy_merge(NULL, 0, home ? home : "/", &mb.builtin,
	    &d)) < 0) {
		snprintf(err, errlen, "profile cache: %s", strerror(-r));
		policy_diag_free(&d);
		return r;
	}
	policy_diag_free(&d);
	arc4random_buf(&nonce, sizeof(nonce));
	seatbelt_log_tag_prefix(nonce, mb.prefix, sizeof(mb.prefix));
	if (macos_logmon_start(mb.prefix) < 0)
		degrade("log stream failed: violations are not reported");
	degrade("no network namespace: the proxy's ports are the host's");
	degrade("no home overlay: home writes outside allowWrite fail");
	degrade("processes that leave the session's group outlive a kill");
	return 0;
}

const struct sandbox_caps *
sandbox_caps(void)
{
	return &mb.caps;
}

int
sandbox_peer_uid(int fd, uid_t *uid)
{
	/* Only asked with SANDBOX_NET_HOST_PORTS, which this backend does
	 * not use. */
	return -ENOTSUP;
}

/* No network namespace here: no host services, no published ports. */
int
sandbox_net_open(const struct sandbox_proc *p, int fds[2])
{
	return -ENOTSUP;
}

int
sandbox_net_socket(const int fds[2], int family)
{
	return -ENOTSUP;
}

int
sandbox_listen_tcp(const struct sandbox_listen *l)
{
	return -ENOTSUP;
}

int
sandbox_unprivileged_port_start(void)
{
	return 1024;
}

/* The request's environment with TMPDIR pointing at the temp dir. */
static char **
plan_env(const struct sandbox_request *req)
{
	size_t n = 0, i, k = 0;
	char **env;

	while (req->envp[n] != NULL)
		n++;
	if ((env = calloc(n + 2, sizeof(*env))) == NULL)
		return NULL;
	for (i = 0; i < n; i++)
		if (strncmp(req->envp[i], "TMPDIR=", 7) != 0 &&
		    (env[k++] = strdup(req->envp[i])) == NULL)
			goto fail;
	if (asprintf(&env[k], "TMPDIR=%s/", req->tmpdir) < 0) {
		env[k] = NULL;
		goto fail;
	}
	return env;
fail:
	for (i = 0; env[i] != NULL; i++)
		free(env[i]);
	free(env);
	return NULL;
}

/* sandbox-exec -D SBX_SESSION=TAG (-f FILE | -p TEXT) -- ARGV... */
static char **
plan_argv(const struct sandbox_request *req,
    const struct seatbelt_cached *prof)
{
	char tag[SEATBELT_TAG_MAX + 16], **argv;
	size_t n = 0, i, k = 0;

	while (req->argv[n] != NULL)
		n++;
	if ((argv = calloc(n + 8, sizeof(*argv))) == NULL)
		return NULL;
	snprintf(tag, sizeof(tag), "%s=%s%llu", SEATBELT_PARAM_SESSION,
	    mb.prefix, (unsigned long long)req->session);
	argv[k++] = strdup(SANDBOX_EXEC);
	argv[k++] = strdup("-D");
	argv[k++] = strdup(tag);
	argv[k++] = strdup(prof->path != NULL ? "-f" : "-p");
	argv[k++] = strdup(prof->path != NULL ? prof->path : prof->text);
	argv[k++] = strdup("--");
	for (i = 0; i < n; i++)
		argv[k++] = strdup(req->argv[i]);
	for (i = 0; i < k; i++)
		if (argv[i] == NULL)
			break;
	if (i == k)
		return argv;
	for (i = 0; i < k; i++)
		free(argv[i]);
	free(argv);
	return NULL;
}

void
sandbox_plan_free(struct sandbox_plan *p)
{
	size_t i;

	if (p == NULL)
		return;
	for (i = 0; p->argv != NULL && p->argv[i] != NULL; i++)
		free(p->argv[i]);
	for (i = 0; p->envp != NULL && p->envp[i] != NULL; i++)
		free(p->envp[i]);
	free(p->argv);
	free(p->envp);
	free(p->cwd);
	free(p);
}

/* The profile for req, from the cache; its warnings go to the log once. */
static int
profile(const struct sandbox_request *req, struct seatbelt_cached *out,
    char *err, size_t errlen)
{
	/* launchd's socket lives outside the run dir (svc-launchd.c). */
	const char *state[] = { mb.cfg.rundir, mb.cache_dir,
	    mb.cfg.socket_path, getenv("SBX_SOCKET") }, *hidden[5];
	struct seatbelt_input in = { req->policy ? req->policy : mb.builtin,
	    req->ignores, req->workspace, req->tmpdir, hidden,
	    req->proxy ? SANDBOX_HTTP_PROXY_PORT : 0,
	    req->proxy ? SANDBOX_SOCKS_PROXY_PORT : 0 };
	struct policy_diags d = { 0 };
	size_t i, n = 0;
	int r;

	for (i = 0; i < 4; i++)
		if (state[i] != NULL && state[i][0] == '/')
			hidden[n++] = state[i];
	hidden[n] = NULL;

	r = seatbelt_cache_get(mb.cache, &in, out, &d);
	for (i = 0; i < d.n; i++)
		log_warn("%s: %s", req->workspace, d.v[i].msg);
	policy_diag_free(&d);
	if (r < 0)
		snprintf(err, errlen, "no Seatbelt profile for %s: %s",
		    req->workspace, strerror(-r));
	else if (out->path == NULL)
		log_warn("profile %s not written (%s): passing it inline",
		    out->hash, strerror(-out->file_err));
	return r;
}

int
sandbox_plan_new(const struct sandbox_request *req, struct sandbox_plan **out,
    char *err, size_t errlen)
{
	struct seatbelt_cached prof;
	struct sandbox_plan *p;
	int r;

	if (req->resident) {
		snprintf(err, errlen, "long-lived sandboxes are not made on "
			 "macOS yet");
		return -ENOTSUP;
	}
	if ((r = profile(req, &prof, err, errlen)) < 0)
		return r;
	if ((p = calloc(1, sizeof(*p))) == NULL ||
	    (p->argv = plan_argv(req, &prof)) == NULL ||
	    (p->envp = plan_env(req)) == NULL ||
	    (p->cwd = strdup(req->cwd)) == NULL) {
		sandbox_plan_free(p);
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	memcpy(p->stdio, req->stdio, sizeof(p->stdio));
	p->tty = req->tty;
	p->umask = req->umask;
	p->session = req->session;
	macos_logmon_watch(req->session, prof.hash);
	*out = p;
	return 0;
}

