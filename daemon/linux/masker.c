/* A template's masker: a child in the template's mount namespace that
 * mounts the masks its walk decides while the walk goes on. Reading the
 * workspace (open, getdents, stat, inotify) and mounting the masks
 * (open_tree, move_mount) then share two CPUs instead of taking turns:
 * with 10,000 masked files they were about equal halves of a build. The
 * walk streams records ('d' or 'f', the path, NUL) over a stream socket;
 * the masker applies each in order and exits with 0 or the errno of the
 * first mask that failed. */
#define _GNU_SOURCE
#include <errno.h>
#include <signal.h>
#include <stdbool.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "daemon/linux/linux.h"

/* Room for one path of any length (the walk's limit) and its type. */
#define MASKER_REC_MAX (4096 + 2)

static int
apply(const char *rec)
{
	return linux_mount_mask_as(rec + 1, rec[0] == 'd');
}

static void __attribute__((noreturn))
masker_main(int fd)
{
	static char buf[MASKER_BUF + MASKER_REC_MAX];
	size_t len = 0, off;
	ssize_t n;
	char *end;
	int r;

	prctl(PR_SET_NAME, "sbx-masker");
	for (;;) {
		n = read(fd, buf + len, sizeof(buf) - len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			_exit(errno);
		if (n == 0)
			_exit(len ? EBADMSG : 0); /* a record cut short */
		len += (size_t)n;
		for (off = 0; (end = memchr(buf + off, '\0', len - off));
		     off = (size_t)(end - buf) + 1)
			if ((r = apply(buf + off)) < 0)
				_exit(-r);
		memmove(buf, buf + off, len - off);
		len -= off;
		if (len == sizeof(buf))
			_exit(ENAMETOOLONG);
	}
}

int
linux_masker_start(struct linux_masker *m)
{
	int sv[2];
	pid_t pid;

	m->fd = -1;
	m->len = 0;
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0)
		return -errno;
	/* Not fork(): no atfork handler (linux/lean.c). */
	pid = _Fork();
	if (pid == 0) {
		close(sv[0]);
		masker_main(sv[1]);
	}
	close(sv[1]);
	if (pid < 0) {
		close(sv[0]);
		return -errno;
	}
	m->fd = sv[0];
	m->pid = pid;
	return 0;
}

static int
flush(struct linux_masker *m)
{
	size_t off = 0;
	ssize_t n;

	while (off < m->len) {
		n = send(m->fd, m->buf + off, m->len - off, MSG_NOSIGNAL);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno; /* it stopped at a failed mask */
		off += (size_t)n;
	}
	m->len = 0;
	return 0;
}

int
linux_masker_send(const char *abs, bool dir, void *arg)
{
	struct linux_masker *m = arg;
	size_t n = strlen(abs) + 1;
	int r;

	if (n + 1 > MASKER_REC_MAX)
		return -ENAMETOOLONG;
	if (m->len + n + 1 > sizeof(m->buf) && (r = flush(m)) < 0)
		return r;
	m->buf[m->len++] = dir ? 'd' : 'f';
	memcpy(m->buf + m->len, abs, n);
	m->len += n;
	return 0;
}

int
linux_masker_finish(struct linux_masker *m, bool ok)
{
	int status, r = ok ? flush(m) : 0;
	pid_t w;

	if (!ok)
		kill(m->pid, SIGKILL);
	close(m->fd);
	m->fd = -1;
	do
		w = waitpid(m->pid, &status, 0);
	while (w < 0 && errno == EINTR);
	if (w < 0)
		return -errno;
	/* Its own error first: a failed send only says it stopped. */
	if (WIFEXITED(status) && WEXITSTATUS(status) != 0)
		return -WEXITSTATUS(status);
	if (!WIFEXITED(status))
		return ok ? -EIO : 0;
	return r;
}
