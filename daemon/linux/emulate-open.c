/* Opens the supervisor performs for the command whose object a path does
 * not settle alone: a FIFO (whose open blocks) and /dev/tty (the opener's
 * controlling terminal). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "daemon/linux/supervise.h"

/* Opening a FIFO blocks until the other end opens: a child waits, so the
 * supervisor keeps serving (the other end may need it first). */
int
emu_open_fifo(struct sup *s, struct sreq *r, int obj, int flags, bool cloexec)
{
	struct sup_answer a = { .is_fd = true, .cloexec = cloexec };
	/* Not fork(): no atfork handler (linux/lean.c). */
	pid_t pid = _Fork();
	int fd;

	if (pid < 0)
		return -errno;
	if (pid > 0) {
		s->workers++;
		return -EINPROGRESS;
	}
	prctl(PR_SET_PDEATHSIG, SIGKILL);
	fd = res_reopen(obj, flags);
	sup_answer_send(s, r->n->id, fd, &a);
	_exit(0);
}

/* /dev/tty is the opener's controlling terminal: the command's, which is
 * one of the sandbox's /dev/pts (or none: ENXIO). */
int
emu_open_ctty(struct sup *s, struct sreq *r, int flags)
{
	char path[64], buf[1024], *p;
	unsigned long tty = 0;
	struct stat st;
	int fd;

	if ((fd = res_proc_read(r->tid, "stat", buf, sizeof(buf))) < 0)
		return fd;
	/* pid (comm) state ppid pgrp session tty_nr: after the last ')'. */
	if (!(p = strrchr(buf, ')')) ||
	    sscanf(p + 1, " %*c %*d %*d %*d %lu", &tty) != 1)
		return -EIO;
	if (tty == 0)
		return -ENXIO;
	if (major(tty) < 136 || major(tty) > 143)
		return -ENXIO; /* not a pty: none is in the sandbox */
	snprintf(path, sizeof(path), "dev/pts/%u",
		 (major(tty) - 136) * 256 + minor(tty));
	fd = openat(s->root, path, flags | O_NOFOLLOW | O_NOCTTY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0 || st.st_rdev != (dev_t)tty) {
		close(fd);
		return -ENXIO;
	}
	return fd;
}
