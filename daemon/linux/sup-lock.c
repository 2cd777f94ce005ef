/* The lock that orders every supervisor of a daemon (sup_lock): a check
 * and the change it allows are not separated by another sandbox's
 * directory rename, which takes it exclusively. It lives in a memfd the
 * daemon makes at start (sup_lock_create) and every supervisor maps:
 * SUP_LOCK_SLOTS futex words, each a robust lock. A supervisor reads
 * under the slot its pid and pid namespace name (a slot two share
 * orders them against each other too, which is only less parallel); a
 * rename takes every slot, in order. Taking a free slot and giving it
 * back are two atomic operations, no syscall: a system call only when
 * someone waits. The
 * kernel's robust futex list (set_robust_list) frees a slot whose holder
 * died, as POSIX record locks are freed: a killed supervisor wedges no
 * other sandbox. The list is this file's own, not glibc's (no robust
 * pthread mutex is used in a supervisor): glibc's records the tid it
 * cached, which a process started by a raw clone does not have, and
 * then the kernel would not see a dead holder's lock as its. Where the
 * memfd cannot be mapped or the list not registered, the memfd's POSIX
 * record lock (one byte, shared or exclusive) orders them instead. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <linux/futex.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "daemon/linux/supervise.h"

struct sup_slot {
	struct robust_list link;   /* in the holder's robust list */
	uint32_t word;             /* 0, or the holder's tid | FUTEX_* bits */
	uint32_t pad;
};

struct sup_locks {
	struct sup_slot slot[SUP_LOCK_SLOTS];
};

int
sup_lock_create(void)
{
	int fd = memfd_create("sbx-supervisors", MFD_CLOEXEC);

	if (fd < 0)
		return -errno;
	/* Zeroed: every slot free. */
	if (ftruncate(fd, sizeof(struct sup_locks)) < 0) {
		close(fd);
		return -errno;
	}
	return fd;
}

/* The slot a supervisor reads under: its pid, spread by its pid
 * namespace's, since supervisors live in their templates' namespaces,
 * where the same small pids come again. */
static unsigned
slot_of(pid_t pid)
{
	struct stat st;
	uint64_t h = (uint64_t)pid;

	if (stat("/proc/self/ns/pid", &st) == 0)
		h ^= (uint64_t)st.st_ino * 0x9e3779b97f4a7c15ull;
	return (unsigned)((h ^ (h >> 32)) % SUP_LOCK_SLOTS);
}

void
sup_lock_attach(struct sup *s)
{
	void *m;

	s->locks = NULL;
	if (s->lock < 0)
		return;
	m = mmap(NULL, sizeof(struct sup_locks), PROT_READ | PROT_WRITE,
		 MAP_SHARED, s->lock, 0);
	if (m == MAP_FAILED)
		return;
	s->robust.list.next = &s->robust.list;
	s->robust.futex_offset = offsetof(struct sup_slot, word) -
				 offsetof(struct sup_slot, link);
	s->robust.list_op_pending = NULL;
	s->tid = (pid_t)syscall(SYS_gettid);
	if (syscall(SYS_set_robust_list, &s->robust, sizeof(s->robust)) < 0) {
		munmap(m, sizeof(struct sup_locks));
		return;
	}
	s->locks = m;
	s->slot = slot_of(getpid());
}

static long
futex(uint32_t *word, int op, uint32_t val, const struct timespec *t)
{
	return syscall(SYS_futex, word, op, val, t, NULL, 0);
}

/* How long a waiter sleeps before it looks at its slot again, woken or
 * not. A give wakes one waiter; one woken and then killed before it
 * takes the slot (its sandbox ended just then) is not pending (below),
 * so the kernel passes the wake-up on to no one, and the others would
 * sleep on a free slot until someone else contended for it: a rename
 * holding the slots before it, and every reader of those, with them. */
static const struct timespec recheck = { 0, 50 * 1000 * 1000 };

/* The robust-futex protocol (the kernel's robust-futex-ABI): the slot is
 * pending while it is being taken or given, and in the list while held,
 * so a death at any instruction leaves it marked FUTEX_OWNER_DIED. Not
 * pending while waiting: the kernel would mark the slot of a holder
 * whose tid is the same number in another pid namespace (supervisors
 * live in their templates' namespaces) when a waiter dies. Pending only
 * when the slot was seen free: a death in the few instructions of a
 * compare-and-swap that lost a race with a taker whose tid is the same
 * number elsewhere is all that could still mark a live holder's slot (a
 * rename then unordered with one check, not a lock held for ever). The compiler
 * keeps the order (signal fences); the kernel reads the list on this
 * thread's exit, so no CPU fence is needed. */
static void
take(struct sup *s, struct sup_slot *sl)
{
	uint32_t tid = (uint32_t)s->tid, want = tid, v;

	for (;;) {
		v = __atomic_load_n(&sl->word, __ATOMIC_RELAXED);
		/* Free, or its holder died (the kernel cleared the tid: the
		 * order it kept ended with it). */
		if (!v || ((v & FUTEX_OWNER_DIED) && !(v & FUTEX_TID_MASK))) {
			s->robust.list_op_pending = &sl->link;
			__atomic_signal_fence(__ATOMIC_SEQ_CST);
			if (__atomic_compare_exchange_n(
				    &sl->word, &v,
				    v ? tid | (v & FUTEX_WAITERS) : want, false,
				    __ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
				break;
			__atomic_signal_fence(__ATOMIC_SEQ_CST);
			s->robust.list_op_pending = NULL;
			__atomic_signal_fence(__ATOMIC_SEQ_CST);
			continue;
		}
		if (!(v & FUTEX_WAITERS) &&
		    !__atomic_compare_exchange_n(&sl->word, &v,
						 v | FUTEX_WAITERS, false,
						 __ATOMIC_RELAXED,
						 __ATOMIC_RELAXED))
			continue;
		futex(&sl->word, FUTEX_WAIT, v | FUTEX_WAITERS, &recheck);
		/* Others may wait too: whoever gives it back wakes one. */
		want = tid | FUTEX_WAITERS;
	}
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	sl->link.next = s->robust.list.next;
	s->robust.list.next = &sl->link;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	s->robust.list_op_pending = NULL;
}

/* Slots are given back in the reverse order of taking: sl is the list's
 * first. */
static void
give(struct sup *s, struct sup_slot *sl)
{
	uint32_t v;

	s->robust.list_op_pending = &sl->link;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	s->robust.list.next = sl->link.next;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	v = __atomic_exchange_n(&sl->word, 0, __ATOMIC_RELEASE);
	if (v & FUTEX_WAITERS)
		futex(&sl->word, FUTEX_WAKE, 1, NULL);
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	s->robust.list_op_pending = NULL;
}

/* Without the shared slots: the memfd's record lock, per process and
 * released if the process dies. */
static void
record_lock(struct sup *s, short type)
{
	struct flock fl = { .l_type = type, .l_whence = SEEK_SET, .l_len = 1 };

	if (type == F_UNLCK)
		fcntl(s->lock, F_SETLK, &fl);
	else
		while (fcntl(s->lock, F_SETLKW, &fl) < 0 && errno == EINTR)
			;
}

void
sup_lock(struct sup *s, bool exclusive)
{
	unsigned i;

	if (s->locks && exclusive)
		for (i = 0; i < SUP_LOCK_SLOTS; i++)
			take(s, &s->locks->slot[i]);
	else if (s->locks)
		take(s, &s->locks->slot[s->slot]);
	else if (s->lock >= 0)
		record_lock(s, exclusive ? F_WRLCK : F_RDLCK);
	s->locked = exclusive ? SUP_LOCKED_ALL : SUP_LOCKED_SLOT;
}

void
sup_unlock(struct sup *s)
{
	unsigned i;

	if (s->locked == SUP_UNLOCKED)
		return;
	if (s->locks && s->locked == SUP_LOCKED_ALL)
		for (i = SUP_LOCK_SLOTS; i-- > 0;)
			give(s, &s->locks->slot[i]);
	else if (s->locks)
		give(s, &s->locks->slot[s->slot]);
	else if (s->lock >= 0)
		record_lock(s, F_UNLCK);
	s->locked = SUP_UNLOCKED;
}
