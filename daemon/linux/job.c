/* The job of a sandbox: what its command process is told to run once a
 * session takes the sandbox (argv, environment, cwd, umask, stdio, and the
 * end of a template sync to wait on). The sandbox is built and its command
 * process confined before the job exists, so everything that differs from
 * one run to the next travels here, and nothing of it is decided earlier.
 * Sent by the daemon as one record on the sandbox's go socket, with the
 * stdio (and sync) fds: its strings follow the header in the record, or,
 * past JOB_INLINE_MAX, are in a memfd sent along. One message, so one
 * wake-up of the waiting sandbox. The receiving side runs in the forked
 * child and does not allocate (it maps). */
#define _GNU_SOURCE
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "daemon/linux/linux.h"
#include "proto/fdpass.h"

#define JOB_MAGIC 0x73627833u
#define JOB_TTY 1u
#define JOB_SYNC 2u
#define JOB_MEMFD 4u /* the strings are in a memfd, the first fd */
#define JOB_SERVER 8u /* a long-lived sandbox: its command process stays,
			 taking further jobs (linux/jobserver.c) */
#define JOB_STATUS 16u /* a further job: its own status channel, after
			  the sync fd */
/* Strings up to this size go in the record itself (a Unix socket takes a
 * record this big with the default buffer sizes). */
#define JOB_INLINE_MAX (60u * 1024)
#define JOB_MAX_FDS 6 /* memfd, sync, status, stdio */

struct job_rec {
	uint32_t magic;
	uint32_t flags;
	uint32_t umask;
	uint16_t tcp_ports[2];
	uint32_t nlisten;
	uint32_t pad;
	struct sandbox_listen listen[SANDBOX_LISTEN_MAX];
	uint64_t size;  /* of the blob */
};

/* The blob: this header, then the offsets of argv (argc + 1, the last 0)
 * and envp (envc + 1), then the strings. The receiver turns the offsets
 * into pointers in its private copy. */
struct job_blob {
	uint64_t size;
	uint32_t argc;
	uint32_t envc;
	uint64_t cwd;
	uint64_t v[];
};

_Static_assert(sizeof(char *) == sizeof(uint64_t),
	       "the job blob keeps pointers where the offsets were");
_Static_assert(sizeof(struct job_rec) % 8 == 0,
	       "an inline blob after the record stays aligned");

static size_t
count(char *const *v, size_t *bytes)
{
	size_t n;

	for (n = 0; v[n]; n++)
		*bytes += strlen(v[n]) + 1;
	return n;
}

static size_t
put(uint8_t *buf, size_t off, const char *s)
{
	size_t n = strlen(s) + 1;

	memcpy(buf + off, s, n);
	return off + n;
}

/* The record's header and blob in one buffer (*out, malloc'd; the blob
 * at sizeof(struct job_rec)); *size: the blob's. */
static int
build(const struct sandbox_plan *p, uint8_t **out, size_t *size)
{
	size_t bytes = strlen(p->cwd) + 1, argc, envc, n, off, i;
	struct job_blob *b;
	uint8_t *buf;

	argc = count(p->argv, &bytes);
	envc = count(p->envp, &bytes);
	n = sizeof(*b) + (argc + envc + 2) * sizeof(b->v[0]) + bytes;
	if (!(*out = calloc(1, sizeof(struct job_rec) + n)))
		return -ENOMEM;
	buf = *out + sizeof(struct job_rec);
	b = (struct job_blob *)buf;
	b->size = n;
	b->argc = (uint32_t)argc;
	b->envc = (uint32_t)envc;
	off = sizeof(*b) + (argc + envc + 2) * sizeof(b->v[0]);
	b->cwd = off;
	off = put(buf, off, p->cwd);
	for (i = 0; i < argc; i++) {
		b->v[i] = off;
		off = put(buf, off, p->argv[i]);
	}
	for (i = 0; i < envc; i++) {
		b->v[argc + 1 + i] = off;
		off = put(buf, off, p->envp[i]);
	}
	*size = n;
	return 0;
}

static int
to_memfd(const uint8_t *buf, size_t n)
{
	int fd = memfd_create("sbx-job", MFD_CLOEXEC), e;
	size_t off;
	ssize_t w;

	for (off = 0; fd >= 0 && off < n; off += (size_t)w)
		if ((w = write(fd, buf + off, n - off)) <= 0) {
			e = w < 0 ? -errno : -EIO;
			close(fd);
			return e;
		}
	return fd < 0 ? -errno : fd;
}

/* The record in buf (its header first, then size bytes of strings): the
 * strings inline, or in a memfd sent along. */
static int
send_job(int go, const struct sandbox_plan *p, int sync_fd, int status_fd,
	 uint8_t *buf, size_t size, bool inl)
{
	struct job_rec rec = { .magic = JOB_MAGIC, .size = size };
	int fds[JOB_MAX_FDS], nfds = 0, memfd = -1, i;
	size_t len = sizeof(rec) + (inl ? size : 0);
	ssize_t n;

	rec.flags = (p->tty ? JOB_TTY : 0) | (sync_fd >= 0 ? JOB_SYNC : 0) |
		    (p->resident ? JOB_SERVER : 0) |
		    (status_fd >= 0 ? JOB_STATUS : 0);
	if (!inl) {
		if ((memfd = to_memfd(buf + sizeof(rec), size)) < 0)
			return memfd;
		rec.flags |= JOB_MEMFD;
		fds[nfds++] = memfd;
	}
	if (sync_fd >= 0)
		fds[nfds++] = sync_fd;
	if (status_fd >= 0)
		fds[nfds++] = status_fd;
	/* With a terminal all three are the slave: it goes once. */
	for (i = 0; i < (p->tty ? 1 : 3); i++)
		fds[nfds++] = p->stdio[i];
	rec.umask = p->umask;
	memcpy(rec.tcp_ports, p->proxy_ports, sizeof(rec.tcp_ports));
	rec.nlisten = p->nlisten;
	memcpy(rec.listen, p->listen, sizeof(rec.listen));
	memcpy(buf, &rec, sizeof(rec));
	n = fdpass_send(go, buf, len, fds, nfds);
	if (memfd >= 0)
		close(memfd);
	if (n != (ssize_t)len)
		return n < 0 ? (int)n : -EIO;
	return 0;
}

int
linux_job_send(int go, const struct sandbox_plan *p, int sync_fd)
{
	return linux_job_send_exec(go, p, sync_fd, -1);
}

int
linux_job_send_exec(int go, const struct sandbox_plan *p, int sync_fd,
		    int status_fd)
{
	uint8_t *buf;
	size_t size;
	int r;

	if ((r = build(p, &buf, &size)) < 0)
		return r;
	r = send_job(go, p, sync_fd, status_fd, buf, size,
		     size <= JOB_INLINE_MAX);
	/* A host whose socket buffers are smaller than the record takes the
	 * strings in a memfd. */
	if (r == -EMSGSIZE)
		r = send_job(go, p, sync_fd, status_fd, buf, size, false);
	free(buf);
	return r;
}

static void
close_all(const int *fds, int n)
{
	while (n-- > 0)
		close(fds[n]);
}

/* Offsets to pointers, checking that each names a string inside. */
static int
resolve(uint8_t *base, uint64_t size, uint64_t *v, size_t n, uint64_t lo)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (v[i] < lo || v[i] >= size)
			return -EBADMSG;
		v[i] = (uint64_t)(uintptr_t)(base + v[i]);
	}
	if (v[n] != 0)
		return -EBADMSG;
	return 0;
}

/* The blob at base (writable, size bytes), checked, as the job's. */
static int
parse_blob(uint8_t *base, uint64_t size, struct linux_job *j)
{
	struct job_blob *b = (struct job_blob *)base;
	uint64_t lo;

	if (size < sizeof(*b))
		return -EBADMSG;
	lo = sizeof(*b) + ((uint64_t)b->argc + b->envc + 2) * sizeof(b->v[0]);
	if (b->size != size || b->argc == 0 || lo > size || base[size - 1] ||
	    b->cwd < lo || b->cwd >= size ||
	    resolve(base, size, b->v, b->argc, lo) < 0 ||
	    resolve(base, size, b->v + b->argc + 1, b->envc, lo) < 0)
		return -EBADMSG;
	j->cwd = (const char *)base + b->cwd;
	j->argv = (char **)b->v;
	j->envp = (char **)(b->v + b->argc + 1);
	return 0;
}

/* The blob in memfd, privately mapped in place of the receive buffer. */
static int
map_memfd(int memfd, uint64_t size, struct linux_job *j)
{
	uint8_t *base;

	if (size > (1u << 30))
		return -EBADMSG;
	base = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE, memfd, 0);
	if (base == MAP_FAILED)
		return -errno;
	munmap(j->map, j->maplen);
	j->map = base;
	j->maplen = size;
	return parse_blob(base, size, j);
}

int
linux_job_recv(int go, struct linux_job *j)
{
	struct job_rec rec;
	int fds[JOB_MAX_FDS], nfds, want, k = 0, r;
	size_t len = sizeof(rec) + JOB_INLINE_MAX;
	uint8_t *buf;
	ssize_t n;

	/* Anonymous memory, touched only as far as the record fills it. */
	buf = mmap(NULL, len, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (buf == MAP_FAILED)
		return -errno;
	j->map = buf;
	j->maplen = len;
	n = fdpass_recv(go, buf, len, fds, &nfds, JOB_MAX_FDS);
	if (n == 0)
		return -ECONNRESET; /* the daemon dropped this sandbox */
	if (n < 0) {
		close_all(fds, nfds);
		return (int)n;
	}
	memcpy(&rec, buf, sizeof(rec));
	want = ((rec.flags & JOB_MEMFD) ? 1 : 0) +
	       ((rec.flags & JOB_SYNC) ? 1 : 0) +
	       ((rec.flags & JOB_STATUS) ? 1 : 0) +
	       ((rec.flags & JOB_TTY) ? 1 : 3);
	if ((size_t)n < sizeof(rec) || rec.magic != JOB_MAGIC ||
	    nfds != want || rec.nlisten > SANDBOX_LISTEN_MAX ||
	    (!(rec.flags & JOB_MEMFD) && (rec.size > JOB_INLINE_MAX ||
					  (size_t)n != sizeof(rec) + rec.size)) ||
	    ((rec.flags & JOB_MEMFD) && (size_t)n != sizeof(rec))) {
		close_all(fds, nfds);
		return -EBADMSG;
	}
	if (rec.flags & JOB_MEMFD) {
		r = map_memfd(fds[0], rec.size, j);
		close(fds[k++]);
	} else {
		r = parse_blob(buf + sizeof(rec), rec.size, j);
	}
	if (r < 0) {
		close_all(fds + k, nfds - k);
		return r;
	}
	j->sync_fd = (rec.flags & JOB_SYNC) ? fds[k++] : -1;
	j->status_fd = (rec.flags & JOB_STATUS) ? fds[k++] : -1;
	j->server = rec.flags & JOB_SERVER;
	j->tty = rec.flags & JOB_TTY;
	j->umask = (mode_t)(rec.umask & 0777);
	memcpy(j->tcp_ports, rec.tcp_ports, sizeof(j->tcp_ports));
	j->nlisten = rec.nlisten;
	memcpy(j->listen, rec.listen, sizeof(j->listen));
	j->stdio[0] = fds[k];
	j->stdio[1] = fds[j->tty ? k : k + 1];
	j->stdio[2] = fds[j->tty ? k : k + 2];
	return 0;
}

void
linux_job_of_plan(const struct sandbox_plan *p, struct linux_job *j)
{
	j->argv = p->argv;
	j->envp = p->envp;
	j->cwd = p->cwd;
	j->umask = p->umask;
	j->tty = p->tty;
	memcpy(j->stdio, p->stdio, sizeof(j->stdio));
	j->sync_fd = -1;
	j->status_fd = -1;
	j->server = false;
	j->map = NULL;
	j->maplen = 0;
	memcpy(j->tcp_ports, p->proxy_ports, sizeof(j->tcp_ports));
	j->nlisten = p->nlisten;
	memcpy(j->listen, p->listen, sizeof(j->listen));
}
