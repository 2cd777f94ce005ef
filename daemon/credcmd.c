/* Credential commands run beside the daemon's loop: the process, its pipe, pidfd and deadline as events, and the runs waiting on it. */
#define _GNU_SOURCE
#include <errno.h>
#include <event2/event.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "daemon/credcmd.h"
#include "daemon/daemon.h"
#include "daemon/log.h"
#include "daemon/usercred.h"

/* What is read of a command's output: a value of up to 1 KiB, its end of
 * line, and the NUL. */
#define CREDCMD_OUT (1024 + 2)

extern char **environ;

struct credcmd_waiter {
	struct credcmd *cmd;
	credcmd_fn done;
	void *arg;
	struct credcmd_waiter *next;
};

/*
 * One command, in the list until freed. It may be joined until it ends:
 * it has a result, or nobody waits (then it is killed). Freed from
 * free_ev once ended and reaped, never from one of its own callbacks.
 */
struct credcmd {
	char *key;		/* argv, PATH and HOME, each NUL-ended */
	size_t keylen;
	pid_t pid;
	int pidfd, out;
	struct event *out_ev, *pid_ev, *timer, *free_ev;
	char buf[CREDCMD_OUT];
	size_t len;
	bool eof, exited, ended;
	int status;
	struct credcmd_waiter *waiters;
	struct credcmd *next;
};

static struct credcmd *cmds;

/* The processes of cmds not reaped yet. */
static unsigned
running(void)
{
	const struct credcmd *k;
	unsigned n = 0;

	for (k = cmds; k; k = k->next)
		n += !k->exited;
	return n;
}

/* The child: stdin and stderr /dev/null, stdout the pipe, its own process
 * group (killed whole), the user for real, a clean environment. */
static void __attribute__((noreturn))
child(char *const *argv, char **cenv, int out, int null)
{
	sigset_t none;

	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
	signal(SIGPIPE, SIG_DFL);
	setpgid(0, 0);
	if (dup2(null, 0) < 0 || dup2(out, 1) < 0 || dup2(null, 2) < 0 ||
	    usercred_become() < 0)
		_exit(126);
	/* execvp looks the program up in the PATH of environ. */
	environ = cenv;
	execvp(argv[0], argv);
	_exit(127);
}

static int
make_key(char *const *argv, const char *path, const char *home, char **key,
    size_t *len)
{
	FILE *f;
	size_t i;

	if ((f = open_memstream(key, len)) == NULL)
		return -ENOMEM;
	for (i = 0; argv[i]; i++)
		fwrite(argv[i], 1, strlen(argv[i]) + 1, f);
	fprintf(f, "%cPATH=%s%cHOME=%s%c", 0, path, 0, home ? home : "", 0);
	return fclose(f) == 0 ? 0 : -ENOMEM;
}

static void
unlist(struct credcmd *k)
{
	struct credcmd **pp;

	for (pp = &cmds; *pp; pp = &(*pp)->next)
		if (*pp == k) {
			*pp = k->next;
			break;
		}
}

static void
free_cb(evutil_socket_t fd, short what, void *arg)
{
	struct credcmd *k = arg;

	unlist(k);
	if (k->out >= 0)
		close(k->out);
	if (k->pidfd >= 0)
		close(k->pidfd);
	if (k->out_ev)
		event_free(k->out_ev);
	if (k->pid_ev)
		event_free(k->pid_ev);
	if (k->timer)
		event_free(k->timer);
	if (k->free_ev)
		event_free(k->free_ev);
	explicit_bzero(k->buf, sizeof(k->buf));
	free(k->key);
	free(k);
}

/* Nobody will be told anything more: the group is killed, the pipe
 * closed, and k freed once reaped. (Once reaped, pid_cb has killed the
 * group already, and its id may be another's by now.) */
static void
retire(struct credcmd *k)
{
	k->ended = true;
	if (!k->exited)
		kill(-k->pid, SIGKILL);
	event_del(k->out_ev);
	event_del(k->timer);
	if (k->out >= 0)
		close(k->out);
	k->out = -1;
	explicit_bzero(k->buf, sizeof(k->buf));
	if (k->exited)
		event_active(k->free_ev, EV_TIMEOUT, 0);
}

/* The result goes to every waiter, which is then freed. */
static void
finish(struct credcmd *k, int r)
{
	struct credcmd_waiter *w;

	k->ended = true;
	while ((w = k->waiters)) {
		k->waiters = w->next;
		w->done(w->arg, r, r >= 0 ? k->buf : "");
		free(w);
	}
	retire(k);
}

/* Both the output and the exit are in. */
static void
settle(struct credcmd *k)
{
	int st = k->status;

	if (!k->eof || !k->exited || k->ended)
		return;
	k->buf[k->len] = '\0';
	if (WIFEXITED(st) && WEXITSTATUS(st) >= 126)
		finish(k, -ENOEXEC);
	else if (!WIFEXITED(st) || WEXITSTATUS(st) != 0)
		finish(k, -EIO);
	else if (strcspn(k->buf, "\r\n") == 0)
		finish(k, -ENODATA);
	else
		finish(k, (int)k->len);
}

static void
out_cb(evutil_socket_t fd, short what, void *arg)
{
	struct credcmd *k = arg;
	ssize_t n = read(fd, k->buf + k->len, sizeof(k->buf) - 1 - k->len);

	if (n < 0 && (errno == EAGAIN || errno == EINTR))
		return;
	if (n > 0)
		k->len += (size_t)n;
	/* The end, or enough: the rest is not read. */
	if (n <= 0 || k->len == sizeof(k->buf) - 1 ||
	    memchr(k->buf, '\n', k->len)) {
		k->eof = true;
		event_del(k->out_ev);
		settle(k);
	}
}

static void
pid_cb(evutil_socket_t fd, short what, void *arg)
{
	struct credcmd *k = arg;

	/* A zombie still holds its pid, so the group is its own: what it
	 * left running in it is killed before it is reaped. */
	kill(-k->pid, SIGKILL);
	while (waitpid(k->pid, &k->status, 0) < 0 && errno == EINTR)
		;
	k->exited = true;
	if (k->ended)
		event_active(k->free_ev, EV_TIMEOUT, 0);
	else
		settle(k);
}

static void
timer_cb(evutil_socket_t fd, short what, void *arg)
{
	finish(arg, -ETIMEDOUT);
}

/* A fork of the daemon with its stdout a pipe: k's process. */
static int
start(struct credcmd *k, char *const *argv, const char *path,
    const char *home)
{
	char *cenv[3] = { NULL, NULL, NULL };
	int p[2] = { -1, -1 }, null = -1, r = -ENOMEM;

	if (asprintf(&cenv[0], "PATH=%s", path) < 0 ||
	    (home && asprintf(&cenv[1], "HOME=%s", home) < 0)) {
		cenv[0] = cenv[1] = NULL;
		goto out;
	}
	if (pipe2(p, O_CLOEXEC) < 0 ||
	    (null = open("/dev/null", O_RDWR | O_CLOEXEC)) < 0) {
		r = -errno;
		goto out;
	}
	k->pid = fork();
	if (k->pid == 0)
		child(argv, cenv, p[1], null);
	if (k->pid < 0) {
		r = -errno;
		goto out;
	}
	/* The child makes its group too, but maybe only after a kill of
	 * the group (its client gone at once, the daemon stopping) has
	 * missed it: it would then run on unwatched. Set from both sides,
	 * the group exists before anything can signal it. */
	setpgid(k->pid, k->pid);
	k->out = p[0];
	p[0] = -1;
	fcntl(k->out, F_SETFL, O_NONBLOCK);
	k->pidfd = (int)syscall(SYS_pidfd_open, k->pid, 0);
	r = k->pidfd < 0 ? -errno : 0;
	if (r < 0) {
		/* Cannot be watched: not left running. */
		kill(-k->pid, SIGKILL);
		while (waitpid(k->pid, NULL, 0) < 0 && errno == EINTR)
			;
	}
out:
	if (p[0] >= 0)
		close(p[0]);
	if (p[1] >= 0)
		close(p[1]);
	if (null >= 0)
		close(null);
	free(cenv[0]);
	free(cenv[1]);
	return r;
}

static int
arm(struct credcmd *k)
{
	struct timeval tv = { CREDCMD_MS / 1000, CREDCMD_MS % 1000 * 1000 };

	k->out_ev = event_new(sbxd.base, k->out, EV_READ | EV_PERSIST, out_cb,
	    k);
	k->pid_ev = event_new(sbxd.base, k->pidfd, EV_READ, pid_cb, k);
	k->timer = evtimer_new(sbxd.base, timer_cb, k);
	k->free_ev = event_new(sbxd.base, -1, 0, free_cb, k);
	if (!k->out_ev || !k->pid_ev || !k->timer || !k->free_ev ||
	    event_add(k->out_ev, NULL) < 0 || event_add(k->pid_ev, NULL) < 0 ||
	    evtimer_add(k->timer, &tv) < 0)
		return -ENOMEM;
	return 0;
}

static struct credcmd *
spawn(char *key, size_t keylen, char *const *argv, const char *path,
    const char *home, int *err)
{
	struct credcmd *k = calloc(1, sizeof(*k));

	*err = -ENOMEM;
	if (!k) {
		free(key);
		return NULL;
	}
	k->key = key;
	k->keylen = keylen;
	k->out = k->pidfd = -1;
	if ((*err = start(k, argv, path, home)) < 0) {
		free_cb(-1, 0, k);
		return NULL;
	}
	if ((*err = arm(k)) < 0) {
		kill(-k->pid, SIGKILL);
		while (waitpid(k->pid, NULL, 0) < 0 && errno == EINTR)
			;
		free_cb(-1, 0, k);
		return NULL;
	}
	k->next = cmds;
	cmds = k;
	return k;
}

int
credcmd_run(char *const *argv, const char *path, const char *home,
    credcmd_fn done, void *arg, struct credcmd_waiter **out)
{
	struct credcmd_waiter *w = calloc(1, sizeof(*w));
	struct credcmd *k;
	char *key = NULL;
	size_t keylen;
	int r;

	if (!w || make_key(argv, path, home, &key, &keylen) < 0) {
		free(w);
		free(key);
		return -ENOMEM;
	}
	for (k = cmds; k; k = k->next)
		if (!k->ended && k->keylen == keylen && !memcmp(k->key, key, keylen))
			break;
	if (k)
		free(key);
	else if (running() >= CREDCMD_MAX) {
		free(key);
		free(w);
		return -EAGAIN;
	} else if (!(k = spawn(key, keylen, argv, path, home, &r))) {
		free(w);
		return r;
	}
	w->cmd = k;
	w->done = done;
	w->arg = arg;
	w->next = k->waiters;
	k->waiters = w;
	*out = w;
	return 0;
}

bool
credcmd_cancel(struct credcmd_waiter *w)
{
	struct credcmd *k = w->cmd;
	struct credcmd_waiter **pp;

	for (pp = &k->waiters; *pp; pp = &(*pp)->next)
		if (*pp == w) {
			*pp = w->next;
			break;
		}
	free(w);
	if (k->waiters || k->ended)
		return false;
	retire(k);
	return true;
}

void
credcmd_shutdown(void)
{
	struct credcmd *k;

	/* Running or killed and not yet reaped: reaped here (after SIGKILL,
	 * promptly) and freed. */
	while ((k = cmds)) {
		while (k->waiters)
			credcmd_cancel(k->waiters);
		if (!k->ended)
			retire(k);
		if (!k->exited)
			while (waitpid(k->pid, NULL, 0) < 0 && errno == EINTR)
				;
		free_cb(-1, 0, k);
	}
}
