/* The umask the supervisor creates with: the command's thread's, read
 * from /proc and remembered per thread (linux/emulate.c's creations and
 * linux/gitlink.c's writes use it). */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "daemon/linux/linux.h"
#include "daemon/linux/supervise.h"

/* The command's umask, for what we create in its name, from its
 * /proc/TID/status (slow: it formats the whole file), remembered per
 * thread while that thread lives (a pidfd tells) and until any umask()
 * call in the sandbox, which comes here too (sup_umask_changed). */
/* Ours set to m: a syscall only when it changes, which in a session is
 * seldom (every creation needs it). */
static void
set_umask(struct sup *s, mode_t m)
{
	if (!s->umask_known || s->umask_now != m)
		umask(m);
	s->umask_now = m;
	s->umask_known = true;
}

int
sup_use_umask(struct sup *s, struct sreq *r)
{
	const unsigned cap = sizeof(s->umasks) / sizeof(s->umasks[0]);
	struct pollfd pfd = { .events = POLLIN };
	unsigned i;
	mode_t m;
	int e;

	for (i = 0; i < s->numasks; i++) {
		if (s->umasks[i].tid != r->tid)
			continue;
		pfd.fd = s->umasks[i].pidfd;
		if (poll(&pfd, 1, 0) == 0) {
			set_umask(s, s->umasks[i].mask);
			return 0;
		}
		/* That thread is gone; TID names another now. */
		close(s->umasks[i].pidfd);
		s->umasks[i] = s->umasks[--s->numasks];
		break;
	}
	if ((e = res_status(r->tid, &m, NULL)) < 0)
		return e;
	set_umask(s, m);
	if (s->numasks < cap)
		i = s->numasks++;
	else
		close(s->umasks[i = s->next_umask++ % cap].pidfd);
	s->umasks[i].tid = r->tid;
	s->umasks[i].mask = m;
	s->umasks[i].pidfd = (int)syscall(SYS_pidfd_open, r->tid,
					  PIDFD_THREAD);
	if (s->umasks[i].pidfd < 0) /* Linux < 6.9: no remembering */
		s->umasks[i] = s->umasks[--s->numasks];
	return 0;
}

void
sup_umask_changed(struct sup *s)
{
	while (s->numasks > 0)
		close(s->umasks[--s->numasks].pidfd);
}
