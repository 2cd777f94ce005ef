/* The job server of a long-lived sandbox, inside it: the sandbox's command
 * process once its first job said so (linux/init.c, serve). It waits on
 * the go socket for further jobs; each is forked as a process of its own
 * (its own session and process group, then the same last steps as a run's
 * command: stdio, umask, cwd, exec), so it inherits exactly the server's
 * confinement: the sandbox's namespaces, Landlock domain, seccomp filter
 * (and so its listener, which the daemon or the supervisor already
 * serves), no_new_privs and no capabilities. Per job the server sends the
 * command's pidfd (STARTED) and its wait status (EXITED) on the job's own
 * status channel, and kills the job's process group when the daemon hangs
 * that channel up. Processes a job leaves behind (a server started with
 * `&`) go on: the sandbox's init reaps them. When the daemon closes go
 * the server exits, and the init kills the whole sandbox. Single-threaded,
 * poll only; nothing here allocates. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "daemon/linux/linux.h"
#include "daemon/sandbox.h"
#include "proto/fdpass.h"

/* Commands running at once in one sandbox; a job past this is refused. */
#define JOBS_MAX 64

struct job_slot {
	pid_t pid;       /* 0: free */
	int pidfd;
	int st;          /* the job's status channel */
	bool killed;     /* the daemon hung up: its group was killed */
};

static void
put_record(int st, const struct sandbox_status *rec, int fd)
{
	ssize_t n;

	do
		n = fdpass_send(st, rec, sizeof(*rec), fd >= 0 ? &fd : NULL,
				fd >= 0 ? 1 : 0);
	while (n == -EINTR);
}

static void
drop_job(struct linux_job *j)
{
	int i;

	for (i = 0; i < (j->tty ? 1 : 3); i++)
		close(j->stdio[i]);
	if (j->sync_fd >= 0)
		close(j->sync_fd);
	if (j->map)
		munmap(j->map, j->maplen);
	j->map = NULL;
}

/* Forks job j into slot s; its status channel is the slot's from now. */
static void
start(struct job_slot *s, struct linux_job *j)
{
	struct sandbox_status rec = { .kind = SANDBOX_STATUS_SETUP_FAILED,
				      .step = STEP_FORK };
	pid_t pid;

	pid = (pid_t)syscall(SYS_clone, SIGCHLD, 0, 0, 0, 0);
	if (pid == 0) {
		/* The server's 0-2 are free fds: the status channel may be
		 * one, which the command's stdio is about to take. */
		if (j->status_fd < 3 &&
		    (j->status_fd = fcntl(j->status_fd, F_DUPFD_CLOEXEC,
					  3)) < 0)
			_exit(125);
		/* Its own session, and the terminal as its controlling
		 * one (take_stdio), as a run's command has. */
		if (setsid() < 0) {
			rec.step = STEP_SETSID;
			rec.value = errno;
			put_record(j->status_fd, &rec, -1);
			_exit(125);
		}
		linux_job_exec(j, j->status_fd, -1);
	}
	if (pid < 0) {
		rec.value = errno;
		put_record(j->status_fd, &rec, -1);
		close(j->status_fd);
		drop_job(j);
		return;
	}
	s->pid = pid;
	s->st = j->status_fd;
	s->killed = false;
	s->pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
	rec.kind = SANDBOX_STATUS_STARTED;
	rec.step = 0;
	put_record(s->st, &rec, s->pidfd);
	drop_job(j);
}

/* Slot s's command exited: its status, with its own usage. */
static void
reap(struct job_slot *s)
{
	struct sandbox_status rec = { .kind = SANDBOX_STATUS_EXITED };
	struct rusage ru;
	int status;

	if (wait4(s->pid, &status, WNOHANG, &ru) <= 0)
		return;
	rec.value = status;
	rec.utime_us = (uint64_t)ru.ru_utime.tv_sec * 1000000u +
		       (uint64_t)ru.ru_utime.tv_usec;
	rec.stime_us = (uint64_t)ru.ru_stime.tv_sec * 1000000u +
		       (uint64_t)ru.ru_stime.tv_usec;
	rec.maxrss_kb = (uint64_t)ru.ru_maxrss;
	put_record(s->st, &rec, -1);
	close(s->st);
	if (s->pidfd >= 0)
		close(s->pidfd);
	s->pid = 0;
}

/* A job from go into a free slot; false once the daemon dropped go. */
static bool
take(int go, struct job_slot *slots)
{
	struct sandbox_status rec = { .kind = SANDBOX_STATUS_SETUP_FAILED,
				      .step = STEP_JOB, .value = EAGAIN };
	struct linux_job j;
	int e, i;

	memset(&j, 0, sizeof(j));
	e = linux_job_recv(go, &j);
	if (e == -ECONNRESET)
		return false;
	if (e < 0) {
		if (j.map)
			munmap(j.map, j.maplen);
		return e != -EPIPE && e != -ENOTCONN;
	}
	/* Further jobs carry their own status channel; the daemon sends
	 * no other kind. */
	if (j.status_fd < 0 || j.server) {
		if (j.status_fd >= 0)
			close(j.status_fd);
		drop_job(&j);
		return true;
	}
	for (i = 0; i < JOBS_MAX && slots[i].pid; i++)
		;
	if (i == JOBS_MAX) {
		put_record(j.status_fd, &rec, -1);
		close(j.status_fd);
		drop_job(&j);
		return true;
	}
	start(&slots[i], &j);
	return true;
}

void
linux_jobserver_main(int go, int sfd, struct linux_job *first)
{
	struct job_slot slots[JOBS_MAX];
	struct pollfd pfd[1 + 2 * JOBS_MAX];
	int n, i, at[2 * JOBS_MAX];

	/* The init's status channel is the init's to report on. */
	close(sfd);
	first->sync_fd = -1;
	drop_job(first);
	memset(slots, 0, sizeof(slots));
	for (;;) {
		pfd[0] = (struct pollfd){ .fd = go, .events = POLLIN };
		n = 1;
		for (i = 0; i < JOBS_MAX; i++) {
			if (!slots[i].pid)
				continue;
			at[n - 1] = i;
			pfd[n++] = (struct pollfd){ .fd = slots[i].pidfd,
						    .events = POLLIN };
			at[n - 1] = i;
			pfd[n++] = (struct pollfd){
				.fd = slots[i].killed ? -1 : slots[i].st };
		}
		if (poll(pfd, (nfds_t)n, -1) < 0) {
			if (errno == EINTR)
				continue;
			_exit(125);
		}
		for (i = 1; i < n; i++) {
			struct job_slot *s = &slots[at[i - 1]];

			if (!s->pid || !pfd[i].revents)
				continue;
			if (pfd[i].fd == s->pidfd) {
				reap(s);
			} else if (!s->killed) {
				/* The daemon dropped this command. */
				kill(-s->pid, SIGKILL);
				kill(s->pid, SIGKILL);
				s->killed = true;
			}
		}
		if (pfd[0].revents & POLLIN) {
			if (!take(go, slots))
				_exit(0);
		} else if (pfd[0].revents & (POLLHUP | POLLERR)) {
			_exit(0);
		}
	}
}
