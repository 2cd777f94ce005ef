/* The job of a sandbox: what its command process is told to run once a
 * session takes the sandbox (argv, environment, cwd, umask, stdio, and the
 * end of a template sync to wait on). The sandbox is built and its command
 * process confined before the job exists, so everything that differs from
 * one run to the next travels here, and nothing of it is decided earlier.
 * Sent by the daemon as two records on the sandbox's go socket: the job
 * (its strings in a memfd) and the stdio fds. The receiving side runs in
 * the forked child and does not allocate. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "daemon/linux.h"
#include "proto/fdpass.h"

#define JOB_MAGIC 0x73627831u   /* the job record */
#define STDIO_MAGIC 0x73627832u /* the stdio record */
#define JOB_TTY 1u
#define JOB_SYNC 2u

struct job_rec {
	uint32_t magic;
	uint32_t flags;
	uint32_t umask;
	uint16_t tcp_ports[2];
	uint64_t size;  /* of the memfd's blob */
};

/* The memfd: this header, then the offsets of argv (argc + 1, the last 0)
 * and envp (envc + 1), then the strings. The receiver turns the offsets
 * into pointers in its private mapping. */
struct job_blob {
	uint64_t size;
	uint32_t argc;
	uint32_t envc;
	uint64_t cwd;
	uint64_t v[];
};

_Static_assert(sizeof(char *) == sizeof(uint64_t),
	       "the job blob keeps pointers where the offsets were");

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

static int
write_blob(const struct sandbox_plan *p, int *memfd, uint64_t *size)
{
	size_t bytes = strlen(p->cwd) + 1, argc, envc, n, off, i;
	struct job_blob *b;
	uint8_t *buf;
	ssize_t w;
	int fd, r = 0;

	argc = count(p->argv, &bytes);
	envc = count(p->envp, &bytes);
	n = sizeof(*b) + (argc + envc + 2) * sizeof(b->v[0]) + bytes;
	if (!(buf = calloc(1, n)))
		return -ENOMEM;
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
	fd = memfd_create("sbx-job", MFD_CLOEXEC);
	for (off = 0; fd >= 0 && off < n; off += (size_t)w)
		if ((w = write(fd, buf + off, n - off)) <= 0) {
			r = w < 0 ? -errno : -EIO;
			break;
		}
	if (fd < 0)
		r = -errno;
	free(buf);
	if (r < 0) {
		if (fd >= 0)
			close(fd);
		return r;
	}
	*memfd = fd;
	*size = n;
	return 0;
}

int
linux_job_send(int go, const struct sandbox_plan *p, int sync_fd)
{
	struct job_rec rec = { .magic = JOB_MAGIC };
	int fds[2] = { -1, sync_fd }, r;
	ssize_t n;

	if ((r = write_blob(p, &fds[0], &rec.size)) < 0)
		return r;
	rec.flags = (p->tty ? JOB_TTY : 0) | (sync_fd >= 0 ? JOB_SYNC : 0);
	rec.umask = p->umask;
	memcpy(rec.tcp_ports, p->proxy_ports, sizeof(rec.tcp_ports));
	n = fdpass_send(go, &rec, sizeof(rec), fds, sync_fd >= 0 ? 2 : 1);
	close(fds[0]);
	if (n != (ssize_t)sizeof(rec))
		return n < 0 ? (int)n : -EIO;
	/* With a terminal all three are the slave: it goes once. */
	rec = (struct job_rec){ .magic = STDIO_MAGIC };
	n = fdpass_send(go, &rec, sizeof(rec), p->stdio, p->tty ? 1 : 3);
	if (n != (ssize_t)sizeof(rec))
		return n < 0 ? (int)n : -EIO;
	return 0;
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

static int
map_blob(int memfd, uint64_t size, struct linux_job *j)
{
	struct job_blob *b;
	uint64_t lo;
	uint8_t *base;

	if (size < sizeof(*b) || size > (1u << 30))
		return -EBADMSG;
	base = mmap(NULL, size, PROT_READ | PROT_WRITE, MAP_PRIVATE, memfd, 0);
	if (base == MAP_FAILED)
		return -errno;
	j->map = base;
	j->maplen = size;
	b = (struct job_blob *)base;
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

int
linux_job_recv(int go, struct linux_job *j)
{
	struct job_rec rec;
	int fds[3], nfds, want, r;
	ssize_t n;

	j->map = NULL;
	n = fdpass_recv(go, &rec, sizeof(rec), fds, &nfds, 2);
	if (n == 0)
		return -ECONNRESET; /* the daemon dropped this sandbox */
	if (n < 0)
		return (int)n;
	want = (rec.flags & JOB_SYNC) ? 2 : 1;
	if (n != sizeof(rec) || rec.magic != JOB_MAGIC || nfds != want) {
		close_all(fds, nfds);
		return -EBADMSG;
	}
	r = map_blob(fds[0], rec.size, j);
	close(fds[0]);
	j->sync_fd = want == 2 ? fds[1] : -1;
	j->tty = rec.flags & JOB_TTY;
	j->umask = (mode_t)(rec.umask & 0777);
	memcpy(j->tcp_ports, rec.tcp_ports, sizeof(j->tcp_ports));
	if (r < 0)
		return r;
	want = j->tty ? 1 : 3;
	n = fdpass_recv(go, &rec, sizeof(rec), fds, &nfds, 3);
	if (n != sizeof(rec) || rec.magic != STDIO_MAGIC || nfds != want) {
		close_all(fds, n < 0 ? 0 : nfds);
		return n < 0 ? (int)n : -EBADMSG;
	}
	j->stdio[0] = fds[0];
	j->stdio[1] = fds[want == 3 ? 1 : 0];
	j->stdio[2] = fds[want == 3 ? 2 : 0];
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
	j->map = NULL;
	j->maplen = 0;
	memcpy(j->tcp_ports, p->proxy_ports, sizeof(j->tcp_ports));
}
