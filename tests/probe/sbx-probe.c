/* Runs inside sandboxes in the tests: tries one operation and prints the
 * exact outcome ("ok" or the errno name), so tests can tell EROFS from
 * EACCES from EPERM. Usage: sbx-probe OP ARG... */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/ptrace.h>
#include <sys/socket.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <unistd.h>

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

int
main(int argc, char **argv)
{
	const char *op = argc > 1 ? argv[1] : "";
	const char *a = argc > 2 ? argv[2] : "";

	if (!strcmp(op, "write"))
		return result(open(a, O_WRONLY | O_CREAT | O_TRUNC, 0644));
	if (!strcmp(op, "read"))
		return result(open(a, O_RDONLY));
	if (!strcmp(op, "mkdir"))
		return result(mkdir(a, 0755));
	if (!strcmp(op, "unlink"))
		return result(unlink(a));
	if (!strcmp(op, "mount"))
		return result(mount("none", a, "tmpfs", 0, NULL));
	if (!strcmp(op, "unshare-user"))
		return result(unshare(CLONE_NEWUSER));
	if (!strcmp(op, "ptrace"))
		return result((int)ptrace(PTRACE_TRACEME, 0, NULL, NULL));
	if (!strcmp(op, "kill"))
		return result(kill(atoi(a), 0));
	if (!strcmp(op, "unix-socket"))
		return result(socket(AF_UNIX, SOCK_STREAM, 0));
	if (!strcmp(op, "socket")) /* socket FAMILY TYPE PROTO */
		return result(socket(atoi(a), argc > 3 ? atoi(argv[3]) : 1,
				     argc > 4 ? atoi(argv[4]) : 0));
	if (!strcmp(op, "io_uring"))
		return result((int)syscall(425 /* io_uring_setup */, 1, NULL));
	if (!strcmp(op, "bpf"))
		return result((int)syscall(SYS_bpf, 0, NULL, 0));
	if (!strcmp(op, "keyctl"))
		return result((int)syscall(SYS_keyctl, 0, 0, 0, 0, 0));
	if (!strcmp(op, "perf"))
		return result((int)syscall(SYS_perf_event_open, NULL, 0, -1, -1, 0));
	if (!strcmp(op, "userfaultfd"))
		return result((int)syscall(SYS_userfaultfd, 0));
	if (!strcmp(op, "tiocsti")) {
		char c = 'x';

		return result(ioctl(0, TIOCSTI, &c));
	}
	if (!strcmp(op, "socketpair")) {
		int sv[2];

		return result(socketpair(AF_UNIX, SOCK_STREAM, 0, sv));
	}
	if (!strcmp(op, "connect-unix")) {
		struct sockaddr_un sa = { .sun_family = AF_UNIX };
		int s = socket(AF_UNIX, SOCK_STREAM, 0);

		if (s < 0)
			return result(s);
		snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", a);
		return result(connect(s, (struct sockaddr *)&sa, sizeof(sa)));
	}
	if (!strcmp(op, "fds")) {
		/* Prints every open fd number (to check nothing leaked in). */
		int fd;

		for (fd = 0; fd < 1024; fd++)
			if (fcntl(fd, F_GETFD) >= 0)
				printf("%d\n", fd);
		return 0;
	}
	fprintf(stderr, "usage: sbx-probe OP ARG\n");
	return 2;
}
