/* Runs inside sandboxes in the tests: tries one operation and prints the
 * exact outcome ("ok" or the errno name), so tests can tell EROFS from
 * EACCES from EPERM. Usage: sbx-probe OP ARG..., or sbx-probe repeat N OP
 * ARG... (N tries, the outcome of the last printed), or sbx-probe
 * race-create|race-mkdir A B N (N tries while a thread flips the path
 * between A and B), or sbx-probe ids|hostname (prints them), or
 * sbx-probe handle-hex PATH (prints PATH's file handle, for handle-open),
 * or sbx-probe fill PATH MIB (writes MIB MiB to PATH, or until a write
 * fails: that write's errno). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <mqueue.h>
#include <sched.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/personality.h>
#include <sys/ptrace.h>
#include <sys/socket.h>
#include <sys/ioctl.h>
#include <sys/ipc.h>
#include <sys/msg.h>
#include <sys/sem.h>
#include <sys/shm.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <sys/uio.h>
#include <sys/un.h>
#include <sys/utsname.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <unistd.h>

/* ADDR (IPv4 or IPv6 literal) and PORT as a socket address; its length,
 * or 0 when ADDR is no address. */
static socklen_t
inet_addr_of(const char *addr, const char *port, struct sockaddr_in6 *out)
{
	struct sockaddr_in *in = (struct sockaddr_in *)out;

	memset(out, 0, sizeof(*out));
	if (inet_pton(AF_INET, addr, &in->sin_addr) == 1) {
		in->sin_family = AF_INET;
		in->sin_port = htons((uint16_t)atoi(port));
		return sizeof(*in);
	}
	if (inet_pton(AF_INET6, addr, &out->sin6_addr) == 1) {
		out->sin6_family = AF_INET6;
		out->sin6_port = htons((uint16_t)atoi(port));
		return sizeof(*out);
	}
	return 0;
}

/* OP ADDR PORT on a fresh TCP socket: connect, bind, or sendto with
 * MSG_FASTOPEN (a connect by another road). */
static int
inet_op(const char *op, const char *addr, const char *port)
{
	struct sockaddr_in6 sa;
	socklen_t len = inet_addr_of(addr, port, &sa);
	int s;

	if (!len) {
		errno = EINVAL;
		return -2;
	}
	s = socket(sa.sin6_family, SOCK_STREAM, 0);
	if (s < 0)
		return s;
	if (!strcmp(op, "connect"))
		return connect(s, (struct sockaddr *)&sa, len);
	if (!strcmp(op, "bind"))
		return bind(s, (struct sockaddr *)&sa, len);
	return (int)sendto(s, "probe\n", 6, MSG_FASTOPEN,
			   (struct sockaddr *)&sa, len);
}

/* connect-thread ADDR PORT: the connect made by a second thread (a task
 * that does not lead its thread group), errno carried back. */
struct thread_op {
	const char *addr, *port;
	int r, err;
};

static void *
thread_connect(void *arg)
{
	struct thread_op *t = arg;

	t->r = inet_op("connect", t->addr, t->port);
	t->err = errno;
	return NULL;
}

static int
in_thread(const char *addr, const char *port)
{
	struct thread_op t = { addr, port, -1, 0 };
	pthread_t th;

	if (pthread_create(&th, NULL, thread_connect, &t) != 0 ||
	    pthread_join(th, NULL) != 0)
		return -1;
	errno = t.err;
	return t.r;
}

static int
result(int r)
{
	if (r >= 0) {
		puts("ok");
		return 0;
	}
	printf("%s\n", strerrorname_np(errno) ? strerrorname_np(errno) : "?");
	return 1;
}

/* A syscall through another ABI of the CPU: "int80" is i386's (int 0x80),
 * "x32" x86-64's numbering with bit 30. Only x86-64 has them: elsewhere
 * it prints "unsupported" and exits 77. */
#if defined(__x86_64__)
static long
compat_syscall(const char *abi, long nr, long a0, long a1, long a2)
{
	long r;

	if (!strcmp(abi, "x32"))
		return syscall(nr | 0x40000000L, a0, a1, a2);
	__asm__ volatile("int $0x80"
			 : "=a"(r)
			 : "a"(nr), "b"(a0), "c"(a1), "d"(a2)
			 : "r8", "r9", "r10", "r11", "memory", "cc");
	if (r < 0 && r > -4096) {
		errno = (int)-r;
		return -1;
	}
	return r;
}
#else
static long
compat_syscall(const char *abi, long nr, long a0, long a1, long a2)
{
	puts("unsupported");
	exit(77);
}
#endif
/* The path a racing thread keeps rewriting (race-*). */
static char race_path[256];
static const char *race_alt[2];

static void *
flipper(void *arg)
{
	size_t i, n = strlen(race_alt[0]) + 1;

	for (i = 0;; i++)
		memcpy(race_path, race_alt[i & 1], n);
	return arg;
}

/* race-create A B N: N opens with O_CREAT of a path another thread flips
 * between A and B (same length); the host checks B never appeared. The
 * result is the last try's. */
static int
race(const char *op, const char *a, const char *b, long n)
{
	pthread_t t;
	long i;
	int r = 0;

	if (strlen(a) != strlen(b) || strlen(a) >= sizeof(race_path)) {
		errno = EINVAL;
		return -1;
	}
	race_alt[0] = a;
	race_alt[1] = b;
	memcpy(race_path, a, strlen(a) + 1);
	if (pthread_create(&t, NULL, flipper, NULL) != 0)
		return -1;
	for (i = 0; i < n; i++) {
		if (!strcmp(op, "race-create")) {
			r = open(race_path, O_WRONLY | O_CREAT, 0644);
			if (r >= 0)
				close(r);
			unlink(a);
		} else {
			r = mkdir(race_path, 0755);
			rmdir(a);
		}
	}
	return r;
}

/* File operations on (possibly) protected paths. */
static int
attempt_fs(const char *op, const char *a, const char *b)
{
	int fd;
	char self[64];

	if (!strcmp(op, "create"))
		return open(a, O_WRONLY | O_CREAT | O_EXCL, 0644);
	if (!strcmp(op, "create-open")) /* O_CREAT without O_EXCL */
		return open(a, O_WRONLY | O_CREAT, 0644);
	if (!strcmp(op, "open-write"))
		return open(a, O_WRONLY);
	if (!strcmp(op, "reopen-write")) {
		if ((fd = open(a, O_RDONLY)) < 0)
			return fd;
		snprintf(self, sizeof(self), "/proc/self/fd/%d", fd);
		return open(self, O_WRONLY);
	}
	if (!strcmp(op, "symlink"))
		return symlink(a, b);
	if (!strcmp(op, "link"))
		return link(a, b);
	if (!strcmp(op, "rename"))
		return rename(a, b);
	if (!strcmp(op, "exchange"))
		return (int)syscall(SYS_renameat2, AT_FDCWD, a, AT_FDCWD, b,
				    2 /* RENAME_EXCHANGE */);
	if (!strcmp(op, "truncate"))
		return truncate(a, 0);
	if (!strcmp(op, "rmdir"))
		return rmdir(a);
	if (!strcmp(op, "mknod"))
		return mknod(a, S_IFREG | 0644, 0);
	errno = EINVAL;
	return -2;
}

/* A file handle with room for any filesystem's (MAX_HANDLE_SZ). */
#define HANDLE_MAX 128
struct handle_buf {
	struct file_handle h;
	unsigned char b[HANDLE_MAX];
};

/* A Unix socket address: PATH, or an abstract name when PATH starts with
 * '@'; its length. */
static socklen_t
unix_addr_of(const char *path, struct sockaddr_un *sa)
{
	size_t n = strlen(path);

	memset(sa, 0, sizeof(*sa));
	sa->sun_family = AF_UNIX;
	if (n >= sizeof(sa->sun_path))
		n = sizeof(sa->sun_path) - 1;
	memcpy(sa->sun_path, path, n);
	if (path[0] == '@')
		sa->sun_path[0] = '\0';
	return (socklen_t)(offsetof(struct sockaddr_un, sun_path) + n);
}

/* Escape attempts that take more than one call: through a symlink or a
 * /proc/self/fd link made here, by file handle, into another namespace,
 * to host listeners over Unix and IP sockets. */
static int
attempt_escape(const char *op, const char *a, const char *b)
{
	struct sockaddr_un su;
	struct sockaddr_in6 si;
	socklen_t len;
	char self[64];
	int fd, s, sv[2];

	if (!strcmp(op, "symlink-write")) { /* TARGET LINK */
		if (symlink(a, b) < 0)
			return -1;
		return open(b, O_WRONLY | O_TRUNC);
	}
	if (!strcmp(op, "fd-read")) { /* O_PATH, then /proc/self/fd/N */
		if ((fd = open(a, O_PATH)) < 0)
			return fd;
		snprintf(self, sizeof(self), "/proc/self/fd/%d", fd);
		return open(self, O_RDONLY);
	}
	if (!strcmp(op, "handle-read")) { /* PATH: name_to_handle_at */
		struct handle_buf fh = { .h.handle_bytes = HANDLE_MAX };
		int mnt;

		if (name_to_handle_at(AT_FDCWD, a, &fh.h, &mnt, 0) < 0)
			return -1;
		return open_by_handle_at(AT_FDCWD, &fh.h, O_RDONLY);
	}
	if (!strcmp(op, "handle-open")) { /* DIR HEX (a handle made outside) */
		struct handle_buf fh;
		size_t i, n = strlen(b) / 2;
		unsigned v;

		if (n < 8 || n - 8 > HANDLE_MAX ||
		    (fd = open(a, O_RDONLY)) < 0) {
			errno = EINVAL;
			return -1;
		}
		for (i = 0; i < n; i++) {
			sscanf(b + 2 * i, "%2x", &v);
			((unsigned char *)&fh)[i] = (unsigned char)v;
		}
		return open_by_handle_at(fd, &fh.h, O_RDONLY);
	}
	if (!strcmp(op, "setns")) { /* PATH of a namespace */
		if ((fd = open(a, O_RDONLY)) < 0)
			return fd;
		return setns(fd, 0);
	}
	if (!strcmp(op, "unix-stream") || !strcmp(op, "unix-dgram")) {
		/* PATH or @ABSTRACT: connect, or send a datagram */
		len = unix_addr_of(a, &su);
		s = socket(AF_UNIX, op[5] == 's' ? SOCK_STREAM : SOCK_DGRAM, 0);
		if (s < 0)
			return s;
		if (op[5] == 's')
			return connect(s, (struct sockaddr *)&su, len);
		return (int)sendto(s, "probe\n", 6, 0, (struct sockaddr *)&su,
				   len);
	}
	if (!strcmp(op, "pair-dgram")) {
		/* A socketpair's datagram end addressed to PATH or @NAME: the
		 * kernel sends to the address given, connected or not. */
		if (socketpair(AF_UNIX, SOCK_DGRAM, 0, sv) < 0)
			return -1;
		len = unix_addr_of(a, &su);
		return (int)sendto(sv[0], "probe\n", 6, 0,
				   (struct sockaddr *)&su, len);
	}
	if (!strcmp(op, "udp")) { /* ADDR PORT: one datagram */
		if (!(len = inet_addr_of(a, b, &si))) {
			errno = EINVAL;
			return -1;
		}
		if ((s = socket(si.sin6_family, SOCK_DGRAM, 0)) < 0)
			return s;
		return (int)sendto(s, "probe\n", 6, 0, (struct sockaddr *)&si,
				   len);
	}
	if (!strcmp(op, "tcp-send")) { /* ADDR PORT: connect, send */
		if (!(len = inet_addr_of(a, b, &si))) {
			errno = EINVAL;
			return -1;
		}
		if ((s = socket(si.sin6_family, SOCK_STREAM, 0)) < 0)
			return s;
		if (connect(s, (struct sockaddr *)&si, len) < 0)
			return -1;
		return (int)send(s, "probe\n", 6, 0);
	}
	errno = EINVAL;
	return -2;
}

/* Privilege and kernel-interface attempts: mounts and roots, keys, other
 * processes, terminals, devices, mode bits, the host name. */
static int
attempt_priv(const char *op, const char *a, const char *b)
{
	if (!strcmp(op, "umount"))
		return umount2(a, MNT_DETACH);
	if (!strcmp(op, "pivot-root")) /* NEW OLD */
		return (int)syscall(SYS_pivot_root, a, b);
	if (!strcmp(op, "chroot"))
		return chroot(a);
	if (!strcmp(op, "fsopen"))
		return (int)syscall(SYS_fsopen, "tmpfs", 0);
	if (!strcmp(op, "open-tree"))
		return (int)syscall(SYS_open_tree, AT_FDCWD, a, 1 /* CLONE */);
	if (!strcmp(op, "unshare-mnt"))
		return unshare(CLONE_NEWNS);
	if (!strcmp(op, "add-key"))
		return (int)syscall(SYS_add_key, "user", "sbx-probe", "x", 1,
				    -2 /* KEY_SPEC_PROCESS_KEYRING */);
	if (!strcmp(op, "attach")) /* PID: PTRACE_ATTACH */
		return (int)ptrace(PTRACE_ATTACH, atoi(a), NULL, NULL);
	if (!strcmp(op, "vm-read")) { /* PID ADDR */
		char buf[8];
		struct iovec l = { buf, sizeof(buf) };
		struct iovec r = { (void *)strtoul(b, NULL, 0), sizeof(buf) };

		return (int)process_vm_readv(atoi(a), &l, 1, &r, 1, 0);
	}
	if (!strcmp(op, "pidfd-open"))
		return (int)syscall(SYS_pidfd_open, atoi(a), 0);
	if (!strcmp(op, "signal")) /* PID: SIGKILL */
		return kill(atoi(a), SIGKILL);
	if (!strcmp(op, "tioclinux")) {
		char sub = 7; /* TIOCL_GETSHIFTSTATE: the request is refused
			       * whatever the subcode */

		return ioctl(0, TIOCLINUX, &sub);
	}
	if (!strcmp(op, "chmod")) /* PATH OCTAL */
		return chmod(a, (mode_t)strtoul(b, NULL, 8));
	if (!strcmp(op, "create-mode")) /* PATH OCTAL: open(O_CREAT) */
		return open(a, O_WRONLY | O_CREAT | O_EXCL,
			    (mode_t)strtoul(b, NULL, 8));
	if (!strcmp(op, "mknod-chr")) /* PATH: /dev/null's numbers */
		return mknod(a, S_IFCHR | 0666, makedev(1, 3));
	if (!strcmp(op, "sethostname"))
		return sethostname(a, strlen(a));
	if (!strcmp(op, "tmpdir-write")) { /* NAME in $TMPDIR */
		char path[4096];

		if (!getenv("TMPDIR")) {
			errno = ENOENT;
			return -1;
		}
		snprintf(path, sizeof(path), "%s/%s", getenv("TMPDIR"), a);
		return open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	}
	if (!strcmp(op, "personality")) /* ADDR_NO_RANDOMIZE, read back */
		return personality(ADDR_NO_RANDOMIZE) < 0 ? -1 :
		       personality(0xffffffff) & ADDR_NO_RANDOMIZE ? 0 :
		       (errno = EINVAL, -1);
	errno = EINVAL;
	return -2;
}

/* SysV IPC on a host process's objects (ARG: the key of a *get, else the
 * id, as /proc/sysvipc lists them) and POSIX message queues (ARG: the
 * name). Each that succeeds changes what the host sees. */
static int
attempt_ipc(const char *op, const char *a)
{
	struct {
		long type;
		char text[8];
	} msg = { 1, "sandbox" };
	struct sembuf up = { 0, 1, IPC_NOWAIT };
	struct timespec now = { 0, 0 };
	int id = atoi(a);
	void *m;
	mqd_t q;

	if (!strcmp(op, "shmget"))
		return shmget((key_t)id, 0, 0);
	if (!strcmp(op, "msgget"))
		return msgget((key_t)id, 0);
	if (!strcmp(op, "semget"))
		return semget((key_t)id, 0, 0);
	if (!strcmp(op, "shm-write")) { /* shmat, then write into it */
		if ((m = shmat(id, NULL, 0)) == (void *)-1)
			return -1;
		memcpy(m, "sandbox", 8);
		return shmdt(m);
	}
	if (!strcmp(op, "shm-rmid"))
		return shmctl(id, IPC_RMID, NULL);
	if (!strcmp(op, "msgsnd"))
		return msgsnd(id, &msg, sizeof(msg.text), IPC_NOWAIT);
	if (!strcmp(op, "msgrcv"))
		return (int)msgrcv(id, &msg, sizeof(msg.text), 0, IPC_NOWAIT);
	if (!strcmp(op, "msg-rmid"))
		return msgctl(id, IPC_RMID, NULL);
	if (!strcmp(op, "semop"))
		return semop(id, &up, 1);
	if (!strcmp(op, "semtimedop"))
		return semtimedop(id, &up, 1, &now);
	if (!strcmp(op, "semctl-setval"))
		return semctl(id, 0, SETVAL, 0);
	if (!strcmp(op, "mq-unlink")) /* the syscall: libc says EACCES */
		return (int)syscall(SYS_mq_unlink, a[0] == '/' ? a + 1 : a);
	if (!strcmp(op, "mq-send")) {
		if ((q = mq_open(a, O_WRONLY | O_NONBLOCK)) == (mqd_t)-1)
			return -1;
		return mq_send(q, "sandbox", 7, 0);
	}
	errno = EINVAL;
	return -2;
}

/* One try of OP; the syscall's result, errno set on failure. */
/* Writes mib MiB of zeros (a disk quota's test): 0, or -1 with the errno
 * of the first write that failed. */
static int
fill(const char *path, long mib)
{
	static char buf[1 << 16];
	long long left = (long long)mib << 20;
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0644), e;
	ssize_t n;

	if (fd < 0)
		return -1;
	/* A short write is followed by one that says why. */
	for (; left > 0; left -= n)
		if ((n = write(fd, buf, left < (long long)sizeof(buf) ?
			       (size_t)left : sizeof(buf))) < 0) {
			e = errno;
			close(fd);
			errno = e;
			return -1;
		}
	return close(fd);
}

static int
attempt(int argc, char **argv)
{
	const char *op = argc > 1 ? argv[1] : "";
	const char *a = argc > 2 ? argv[2] : "";
	int r;

	if (!strncmp(op, "race-", 5) && argc > 4)
		return race(op, a, argv[3], atol(argv[4]));
	if ((r = attempt_fs(op, a, argc > 3 ? argv[3] : "")) != -2 ||
	    errno != EINVAL)
		return r;
	if ((r = attempt_escape(op, a, argc > 3 ? argv[3] : "")) != -2 ||
	    errno != EINVAL)
		return r;
	if ((r = attempt_priv(op, a, argc > 3 ? argv[3] : "")) != -2 ||
	    errno != EINVAL)
		return r;
	if ((r = attempt_ipc(op, a)) != -2 || errno != EINVAL)
		return r;

	if (!strcmp(op, "fill") && argc > 3)
		return fill(a, atol(argv[3]));
	if (!strcmp(op, "write"))
		return open(a, O_WRONLY | O_CREAT | O_TRUNC, 0644);
	if (!strcmp(op, "read"))
		return open(a, O_RDONLY);
	if (!strcmp(op, "mkdir"))
		return mkdir(a, 0755);
	if (!strcmp(op, "unlink"))
		return unlink(a);
	if (!strcmp(op, "mount"))
		return mount("none", a, "tmpfs", 0, NULL);
	if (!strcmp(op, "unshare-user"))
		return unshare(CLONE_NEWUSER);
	if (!strcmp(op, "ptrace"))
		return (int)ptrace(PTRACE_TRACEME, 0, NULL, NULL);
	if (!strcmp(op, "kill"))
		return kill(atoi(a), 0);
	if (!strcmp(op, "unix-socket"))
		return socket(AF_UNIX, SOCK_STREAM, 0);
	if (!strcmp(op, "socket")) /* socket FAMILY TYPE PROTO */
		return socket(atoi(a), argc > 3 ? atoi(argv[3]) : 1,
			      argc > 4 ? atoi(argv[4]) : 0);
	if (!strcmp(op, "io_uring"))
		return (int)syscall(425 /* io_uring_setup */, 1, NULL);
	if (!strcmp(op, "bpf"))
		return (int)syscall(SYS_bpf, 0, NULL, 0);
	if (!strcmp(op, "keyctl"))
		return (int)syscall(SYS_keyctl, 0, 0, 0, 0, 0);
	if (!strcmp(op, "perf"))
		return (int)syscall(SYS_perf_event_open, NULL, 0, -1, -1, 0);
	if (!strcmp(op, "userfaultfd"))
		return (int)syscall(SYS_userfaultfd, 0);
	if (!strcmp(op, "int80") || !strcmp(op, "x32")) /* NR [A0 A1 A2] */
		return compat_syscall(op, atol(a), argc > 3 ? atol(argv[3]) : 0,
				      argc > 4 ? atol(argv[4]) : 0,
				      argc > 5 ? atol(argv[5]) : 0) < 0 ? -1 : 0;
	if (!strcmp(op, "tiocsti")) {
		char c = 'x';

		return ioctl(0, TIOCSTI, &c);
	}
	if (!strcmp(op, "socketpair")) {
		int sv[2];

		return socketpair(AF_UNIX, SOCK_STREAM, 0, sv);
	}
	if (!strcmp(op, "connect") || !strcmp(op, "bind") ||
	    !strcmp(op, "fastopen")) /* OP ADDR PORT */
		return inet_op(op, a, argc > 3 ? argv[3] : "0");
	if (!strcmp(op, "connect-thread")) /* ADDR PORT */
		return in_thread(a, argc > 3 ? argv[3] : "0");
	if (!strcmp(op, "listen")) { /* on an unbound TCP socket */
		int s = socket(AF_INET, SOCK_STREAM, 0);

		return s < 0 ? s : listen(s, 1);
	}
	if (!strcmp(op, "connect-unix")) {
		struct sockaddr_un sa = { .sun_family = AF_UNIX };
		int s = socket(AF_UNIX, SOCK_STREAM, 0);

		if (s < 0)
			return s;
		snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", a);
		return connect(s, (struct sockaddr *)&sa, sizeof(sa));
	}
	errno = EINVAL;
	return -2;
}

int
main(int argc, char **argv)
{
	const char *op = argc > 1 ? argv[1] : "";
	long n, i;
	int r = 0;

	if (!strcmp(op, "repeat") && argc > 3) {
		/* A tight loop of the same try (rate-limit tests). */
		n = atol(argv[2]);
		for (i = 0; i < n; i++)
			if ((r = attempt(argc - 2, argv + 2)) > 2)
				close(r);
		return result(r);
	}
	if (!strcmp(op, "ids")) {
		/* Who runs: real and effective ids, capabilities, and what
		 * no_new_privs says. */
		char line[256];
		FILE *f = fopen("/proc/self/status", "r");

		printf("uid %d euid %d gid %d egid %d", (int)getuid(),
		       (int)geteuid(), (int)getgid(), (int)getegid());
		while (f && fgets(line, sizeof(line), f))
			if (!strncmp(line, "CapEff:", 7) ||
			    !strncmp(line, "CapBnd:", 7) ||
			    !strncmp(line, "NoNewPrivs:", 11))
				printf(" %.*s", (int)strcspn(line, "\n"), line);
		puts("");
		return 0;
	}
	if (!strcmp(op, "hostname")) {
		struct utsname u;

		uname(&u);
		puts(u.nodename);
		return 0;
	}
	if (!strcmp(op, "handle-hex")) {
		/* PATH's file handle as hex (made outside, for
		 * handle-open). */
		struct handle_buf fh = { .h.handle_bytes = HANDLE_MAX };
		size_t k;
		int mnt;

		if (argc < 3 ||
		    name_to_handle_at(AT_FDCWD, argv[2], &fh.h, &mnt, 0) < 0)
			return result(-1);
		for (k = 0; k < 8 + fh.h.handle_bytes; k++)
			printf("%02x", ((unsigned char *)&fh)[k]);
		puts("");
		return 0;
	}
	if (!strcmp(op, "fds")) {
		/* Prints every open fd number (to check nothing leaked in). */
		int fd;

		for (fd = 0; fd < 1024; fd++)
			if (fcntl(fd, F_GETFD) >= 0)
				printf("%d\n", fd);
		return 0;
	}
	if ((r = attempt(argc, argv)) == -2 && errno == EINVAL) {
		fprintf(stderr, "usage: sbx-probe OP ARG\n");
		return 2;
	}
	return result(r);
}
