/* A run's file and command credentials, read as the served user: a run whose commands are not in yet is held until they are; the values are never logged. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "daemon/conn.h"
#include "daemon/credcmd.h"
#include "daemon/log.h"
#include "daemon/policy/policy.h"
#include "daemon/policy/reqrule.h"
#include "daemon/policy/store.h"
#include "daemon/policy/watch.h"
#include "daemon/proxy/cred.h"
#include "daemon/session-int.h"
#include "daemon/session.h"
#include "daemon/usercred.h"

/* One command credential of a held run: what it waits for, then its
 * result (r: the value's length or -errno). */
struct cred_slot {
	struct cred_wait *wait;
	char *key;		/* the credential's id and argv, NUL-ended */
	size_t keylen;
	struct credcmd_waiter *w;	/* NULL once in */
	int r;
	char value[POLICY_CRED_MAX + 2];
};

/* A connection's request held for its command credentials (its reading
 * pauses meanwhile, so one at a time), and then the results its second
 * dispatch takes. */
struct cred_wait {
	struct conn *c;
	uint64_t req;
	struct cred_slot *v;
	size_t n, left;
	struct cred_wait *next;
};

static struct cred_wait *waits;

/* Runs held for their commands at once, all clients together: each
 * holds its frame (up to a MiB) and its fds until its commands are in. */
#define CRED_HELD_MAX 64

static unsigned
held(void)
{
	const struct cred_wait *w;
	unsigned n = 0;

	for (w = waits; w; w = w->next)
		n += w->left > 0;
	return n;
}

/* A credential's file, read with the user's rights (the first
 * size - 1 bytes, NUL-ended): its length, or -errno. */
static int
cred_file(const char *path, char *buf, size_t size)
{
	struct stat st;
	ssize_t n = -1;
	int fd, e;

	usercred_enter();
	fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	e = errno;
	usercred_leave();
	if (fd < 0)
		return -e;
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode))
		n = read(fd, buf, size - 1);
	close(fd);
	if (n < 0)
		return -EINVAL;
	buf[n] = '\0';
	return (int)n;
}

static const char *
env_value(char *const *env, size_t nenv, const char *name)
{
	size_t i, k = strlen(name);

	for (i = 0; i < nenv; i++)
		if (!strncmp(env[i], name, k) && env[i][k] == '=')
			return env[i] + k + 1;
	return NULL;
}

/* Said in the daemon's log and on the run's stderr (arg: its fd). */
static void __attribute__((format(printf, 3, 4)))
skipped(const struct policy_cred *pc, int fd, const char *fmt, ...)
{
	char why[256], line[512];
	va_list ap;
	int n;

	va_start(ap, fmt);
	vsnprintf(why, sizeof(why), fmt, ap);
	va_end(ap);
	log_warn("credential %s skipped: %s", pc->id, why);
	n = snprintf(line, sizeof(line), "sbx: credential %s skipped: %s\n",
	    pc->id, why);
	if (fd >= 0 && n > 0)
		(void)!write(fd, line, (size_t)n < sizeof(line) ? (size_t)n :
		    sizeof(line) - 1);
}

/* A command credential's id and argv: what a result is found by. */
static int
slot_key(const struct policy_cred *pc, char **key, size_t *len)
{
	FILE *f;
	size_t i;

	if ((f = open_memstream(key, len)) == NULL)
		return -ENOMEM;
	fwrite(pc->id, 1, strlen(pc->id) + 1, f);
	for (i = 0; pc->command[i]; i++)
		fwrite(pc->command[i], 1, strlen(pc->command[i]) + 1, f);
	return fclose(f) == 0 ? 0 : -ENOMEM;
}

static struct cred_wait *
wait_of(const struct conn *c)
{
	struct cred_wait *w;

	for (w = waits; w && w->c != c; w = w->next)
		;
	return w;
}

static struct cred_slot *
slot_of(struct cred_wait *w, const struct policy_cred *pc)
{
	struct cred_slot *found = NULL;
	char *key;
	size_t i, len;

	if (!w || slot_key(pc, &key, &len) < 0)
		return NULL;
	for (i = 0; i < w->n && !found; i++)
		if (w->v[i].keylen == len && !memcmp(w->v[i].key, key, len))
			found = &w->v[i];
	free(key);
	return found;
}

/* w's commands still running are left (killed when nobody else waits),
 * its values wiped. */
static void
wait_free(struct cred_wait *w)
{
	struct cred_wait **pp;
	size_t i;

	if (!w)
		return;
	for (pp = &waits; *pp; pp = &(*pp)->next)
		if (*pp == w) {
			*pp = w->next;
			break;
		}
	for (i = 0; i < w->n; i++) {
		if (w->v[i].w && credcmd_cancel(w->v[i].w))
			log_info("credential %s: its command killed: no run "
			    "waits for it", w->v[i].key /* the id first */);
		explicit_bzero(w->v[i].value, sizeof(w->v[i].value));
		free(w->v[i].key);
	}
	free(w->v);
	free(w);
}

static void
slot_done(void *arg, int r, const char *value)
{
	struct cred_slot *sl = arg;

	sl->w = NULL;
	sl->r = r;
	if (r >= 0)
		snprintf(sl->value, sizeof(sl->value), "%s", value);
	if (--sl->wait->left == 0)
		conn_resume(sl->wait->c);
}

static bool
is_command(const struct policy_cred *pc)
{
	return !pc->env && !pc->file && pc->command;
}

/* Every command credential of p has its result in w. */
static bool
all_in(struct cred_wait *w, const struct policy *p)
{
	struct cred_slot *sl;
	size_t i;

	for (i = 0; i < p->l7->ncred; i++)
		if (is_command(&p->l7->cred[i]) &&
		    (!(sl = slot_of(w, &p->l7->cred[i])) || sl->w))
			return false;
	return true;
}

/* A slot for each command credential of p, each started or joined. */
static int
wait_start(struct cred_wait *w, const struct policy *p, char *const *env,
    size_t nenv)
{
	const char *path = env_value(env, nenv, "PATH");
	const struct policy_cred *pc;
	struct cred_slot *sl;
	size_t i;
	int r;

	if (!(w->v = calloc(p->l7->ncred, sizeof(*w->v))))
		return -ENOMEM;
	for (i = 0; i < p->l7->ncred; i++) {
		pc = &p->l7->cred[i];
		if (!is_command(pc))
			continue;
		sl = &w->v[w->n++];
		sl->wait = w;
		if ((r = slot_key(pc, &sl->key, &sl->keylen)) < 0)
			return r;
		sl->r = credcmd_run(pc->command, path ? path :
		    "/usr/local/bin:/usr/bin:/bin", env_value(env, nenv,
		    "HOME"), slot_done, sl, &sl->w);
		if (sl->r == -EAGAIN)
			return -EAGAIN; /* the run is refused, not started
					 * without the credential */
		if (sl->r == 0) {
			w->left++;
			log_info("client pid %d: its run waits for the command "
			    "of credential %s", (int)w->c->pid, pc->id);
		}
	}
	return 0;
}

/*
 * 0 when p has no command credentials or c's request (c->req) has their
 * results; else their commands are started or joined, the request is
 * held with fds (conn_hold: dispatched again once they are in) and
 * -EINPROGRESS returned. -errno on failure (fds are the caller's still).
 */
static int
cred_wait(struct conn *c, const struct policy *p, char *const *env,
    size_t nenv, int *fds, int nfds)
{
	struct cred_wait *w = wait_of(c);
	size_t i;
	int r;

	for (i = 0; p->l7 && i < p->l7->ncred; i++)
		if (is_command(&p->l7->cred[i]))
			break;
	if (!p->l7 || i == p->l7->ncred) {
		wait_free(w);
		return 0;
	}
	/* This request's second dispatch: its results are in. */
	if (w && w->req == c->req && !w->left && all_in(w, p))
		return 0;
	wait_free(w);
	if (held() >= CRED_HELD_MAX)
		return -EBUSY;
	if (!(w = calloc(1, sizeof(*w))))
		return -ENOMEM;
	w->c = c;
	w->req = c->req;
	w->next = waits;
	waits = w;
	if ((r = wait_start(w, p, env, nenv)) < 0) {
		wait_free(w);
		return r;
	}
	/* None could start: their errors are the results. */
	if (w->left == 0)
		return 0;
	if ((r = conn_hold(c, fds, nfds)) < 0) {
		wait_free(w);
		return r;
	}
	return -EINPROGRESS;
}

int
session_cred_policy(struct conn *c, const Sbx__RunRequest *req,
    const struct policy *request, bool resident, int *fds, int nfds,
    struct policy **pol, char *err, size_t errlen)
{
	int r, i;

	/* Edits made before this request are seen (and watched from now). */
	policy_watch_workspace(req->workspace);
	r = policy_store_effective(req->workspace, request, pol, err, errlen);
	if (r == 0) {
		r = cred_wait(c, *pol, req->env, req->n_env, fds,
		    resident ? 0 : nfds);
		if (r == -EAGAIN || r == -EBUSY) {
			snprintf(err, errlen, "credential commands: %s (at "
			    "most %d at once); retry once some are done",
			    r == -EAGAIN ? "too many running" :
			    "too many runs waiting for theirs", r == -EAGAIN ?
			    CREDCMD_MAX : CRED_HELD_MAX);
			log_warn("client pid %d: run refused: %s",
			    (int)c->pid, err);
		} else if (r < 0 && r != -EINPROGRESS)
			snprintf(err, errlen, "credential commands: %s",
			    strerror(-r));
	}
	if (r < 0) {
		policy_free(*pol);
		*pol = NULL;
		for (i = 0; i < nfds; i++)
			if (r != -EINPROGRESS || resident)
				close(fds[i]);
	}
	return r;
}

void
session_cred_conn_gone(struct conn *c)
{
	wait_free(wait_of(c));
}

void
session_cred_done(struct conn *c)
{
	wait_free(wait_of(c));
}

/* A command credential's result, taken from the connection's wait. */
static int
cred_command(const struct policy_cred *pc, struct conn *c, char *buf,
    size_t size)
{
	struct cred_slot *sl = slot_of(wait_of(c), pc);

	if (!sl || sl->w)
		return -EIO;
	if (sl->r >= 0)
		snprintf(buf, size, "%s", sl->value);
	return sl->r;
}

int
session_cred_read(const struct policy_cred *pc, char *const *env,
    size_t nenv, char *buf, size_t size, void *arg)
{
	const struct session_cred_arg *a = arg;
	int fd = a->fd, r;

	if (pc->file) {
		if ((r = cred_file(pc->file, buf, size)) < 0)
			skipped(pc, fd, "cannot read %s: %s", pc->file,
			    strerror(-r));
		return r;
	}
	r = cred_command(pc, a->c, buf, size);
	if (r == -ETIMEDOUT)
		skipped(pc, fd, "its command %s did not finish in %d s: killed",
		    pc->command[0], CREDCMD_MS / 1000);
	else if (r == -ENOEXEC)
		skipped(pc, fd, "its command %s could not be run",
		    pc->command[0]);
	else if (r == -ENODATA)
		skipped(pc, fd, "its command %s printed nothing",
		    pc->command[0]);
	else if (r < 0)
		skipped(pc, fd, "its command %s failed", pc->command[0]);
	return r;
}
