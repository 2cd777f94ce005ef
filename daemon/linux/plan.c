/* A sandbox's plan: what the daemon hands the Linux backend for one
 * spawn, copied out of the request (which the caller frees) and completed
 * with the backend's capabilities, masks and seccomp programs. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "daemon/policy/fsplan.h"
#include "daemon/linux/backend.h"
#include "daemon/linux/linux.h"
#include "daemon/linux/llonly.h"

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
	if (p->tmp_fd >= 0)
		close(p->tmp_fd);
	free(p->vartmpdir);
	if (p->vartmp_fd >= 0)
		close(p->vartmp_fd);
	free(p->home_layers);
	if (p->home_from >= 0)
		close(p->home_from);
	free(p->tty_path);
	if (p->llonly && p->ll_dev >= 0)
		close(p->ll_dev);
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
	struct sandbox_plan *p;
	int r;

	if (req->resident && lb->caps.landlock_only) {
		snprintf(err, errlen, "long-lived sandboxes need namespaces "
			 "(this daemon runs in Landlock-only mode)");
		return -ENOTSUP;
	}
	if (!(p = calloc(1, sizeof(*p))))
		return -ENOMEM;
	p->tmp_fd = p->vartmp_fd = p->home_from = -1;
	p->argv = strv_dup(req->argv);
	p->envp = strv_dup(req->envp);
	p->cwd = strdup(req->cwd);
	p->workspace = strdup(req->workspace);
	p->tmpdir = strdup(req->tmpdir);
	p->tmp_fd = fcntl(req->tmp_fd, F_DUPFD_CLOEXEC, 3);
	if (req->vartmpdir) {
		p->vartmpdir = strdup(req->vartmpdir);
		p->vartmp_fd = fcntl(req->vartmp_fd, F_DUPFD_CLOEXEC, 3);
	}
	p->home_layers = req->home_layers ? strdup(req->home_layers) : NULL;
	if (!p->argv || !p->envp || !p->cwd || !p->workspace || !p->tmpdir ||
	    p->tmp_fd < 0 ||
	    (req->vartmpdir && (!p->vartmpdir || p->vartmp_fd < 0)) ||
	    (req->home_layers && !p->home_layers)) {
		sandbox_plan_free(p);
		return -ENOMEM;
	}
	memcpy(p->stdio, req->stdio, sizeof(p->stdio));
	p->tty = req->tty;
	p->resident = req->resident;
	p->proxy = req->proxy && lb->caps.net == SANDBOX_NET_NAMESPACE;
	memcpy(p->proxy_ports, req->proxy_ports, sizeof(p->proxy_ports));
	if (p->proxy && req->nlisten <= SANDBOX_LISTEN_MAX) {
		p->nlisten = req->nlisten;
		memcpy(p->listen, req->listen, sizeof(p->listen));
	}
	p->fs = req->fs;
	p->limits = req->limits;
	p->ca_pem = req->ca_pem;
	p->ca_jks = req->ca_pem ? req->ca_jks : NULL;
	p->ca_jks_len = req->ca_jks_len;
	p->umask = (mode_t)(req->umask & 0777);
	if (req->tty && (r = tty_path(req->stdio[0], &p->tty_path)) < 0) {
		snprintf(err, errlen, "the terminal is not a /dev/pts "
			 "pseudo-terminal the daemon can reach");
		sandbox_plan_free(p);
		return r;
	}
	p->masks[p->nmasks++] = lb->cfg.rundir;
	/* The daemon's state holds every workspace's home overlay layers;
	 * a state dir holding the workspace only loses its home/. */
	if (lb->cfg.statedir)
		p->masks[p->nmasks++] = under(p->workspace, lb->cfg.statedir) ?
					lb->layers_dir : lb->cfg.statedir;
	if (lb->cfg.socket_path && !under(lb->cfg.socket_path, lb->cfg.rundir))
		p->socket_mask = lb->cfg.socket_path;
	p->uid = lb->cfg.uid;
	p->gid = lb->cfg.gid;
	p->groups = lb->groups;
	p->ngroups = lb->ngroups;
	p->userns = !lb->cfg.privileged;
	p->net = lb->caps.net;
	p->capture = p->net == SANDBOX_NET_NAMESPACE && lb->caps.capture;
	p->landlock_abi = lb->caps.landlock_abi;
	p->seccomp = !lb->have_seccomp ? NULL :
		     lb->caps.ptrace && req->fs->no_ptrace ?
		     &lb->seccomp_noptrace : &lb->seccomp;
	p->seccomp_notify = lb->caps.seccomp_notify;
	p->emulate = lb->caps.protect_new;
	p->seccomp_super = lb->have_seccomp ? &lb->seccomp_super : NULL;
	p->sys = lb->sys;
	p->nsys = lb->nsys;
	p->lock_fd = lb->lock_fd;
	p->landlock_log = lb->caps.landlock_audit;
	p->ll_ruleset = -1;
	p->ll_dev = -1;
	if (lb->caps.landlock_only &&
	    (r = llonly_plan(p, req, err, errlen)) < 0) {
		sandbox_plan_free(p);
		return r;
	}
	*out = p;
	return 0;
}
