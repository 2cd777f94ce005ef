/* Tests for daemon/linux/landlock.c on the running kernel: the TCP layer
 * a sandbox without a network namespace stacks on its filesystem layer
 * once its job names the session's ports. Skipped below Landlock ABI 4. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "daemon/linux/landlock.h"
#include "unit.h"

/* A listener on 127.0.0.1 at a port the kernel picks. */
static int
listener(uint16_t *port)
{
	struct sockaddr_in sa = { .sin_family = AF_INET,
				  .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t len = sizeof(sa);
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);

	if (fd < 0 || bind(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0 ||
	    listen(fd, 4) < 0 ||
	    getsockname(fd, (struct sockaddr *)&sa, &len) < 0)
		return -1;
	*port = ntohs(sa.sin_port);
	return fd;
}

/* 0 or the errno of a TCP connect (or bind, with bind_only) at port. */
static int
try_tcp(uint16_t port, int bind_only)
{
	struct sockaddr_in sa = { .sin_family = AF_INET,
				  .sin_port = htons(port),
				  .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0), r;

	if (fd < 0)
		return errno;
	r = bind_only ? bind(fd, (struct sockaddr *)&sa, sizeof(sa)) :
			connect(fd, (struct sockaddr *)&sa, sizeof(sa));
	r = r < 0 ? errno : 0;
	close(fd);
	return r;
}

/* In a child: the filesystem layer (no writes anywhere), then the TCP
 * layer allowing `allowed`; what each attempt gave, through out. */
static void
confined(int abi, uint16_t allowed, uint16_t other, int out)
{
	const uint16_t ports[2] = { allowed, 0 };
	int res[5] = { 0 }, fs, tcp, fd;

	fs = landlock_build(abi, NULL, NULL, NULL, -1);
	tcp = landlock_build_tcp(abi, ports);
	if (fs < 0 || tcp < 0 || prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0 ||
	    landlock_enforce(fs, false) < 0 || landlock_enforce(tcp, false) < 0)
		res[0] = errno ? errno : EINVAL;
	res[1] = try_tcp(allowed, 0);
	res[2] = try_tcp(other, 0);
	res[3] = try_tcp(0, 1);
	fd = open("/tmp/sbx-unit-landlock", O_WRONLY | O_CREAT | O_CLOEXEC, 0600);
	res[4] = fd < 0 ? errno : 0;
	if (fd >= 0) {
		close(fd);
		unlink("/tmp/sbx-unit-landlock");
	}
	_exit(write(out, res, sizeof(res)) == sizeof(res) ? 0 : 1);
}

int
main(void)
{
	int abi = landlock_probe_abi(), l1, l2, pipefd[2], res[5], st;
	uint16_t p1 = 0, p2 = 0;
	pid_t pid;

	if (abi < 4) {
		printf("%s: skipped (Landlock ABI %d < 4)\n", __FILE__, abi);
		return 0;
	}
	l1 = listener(&p1);
	l2 = listener(&p2);
	CHECK(l1 >= 0 && l2 >= 0);
	CHECK_INT(landlock_build_tcp(3, (const uint16_t[2]){ p1, 0 }),
		  -EOPNOTSUPP);
	CHECK(pipe2(pipefd, O_CLOEXEC) == 0);
	pid = fork();
	if (pid == 0)
		confined(abi, p1, p2, pipefd[1]);
	close(pipefd[1]);
	CHECK_INT(read(pipefd[0], res, sizeof(res)), sizeof(res));
	CHECK(waitpid(pid, &st, 0) == pid && WIFEXITED(st) &&
	      WEXITSTATUS(st) == 0);
	CHECK_INT(res[0], 0);      /* both layers enforced */
	CHECK_INT(res[1], 0);      /* the session's port */
	CHECK_INT(res[2], EACCES); /* any other */
	CHECK_INT(res[3], EACCES); /* no bind */
	CHECK_INT(res[4], EACCES); /* the filesystem layer still holds */
	close(pipefd[0]);
	close(l1);
	close(l2);
	UNIT_DONE();
}
