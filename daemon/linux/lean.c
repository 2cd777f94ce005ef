/* A template's children without the daemon's libraries. A template is a
 * copy of sbxd, with every shared library sbxd links (libevent, OpenSSL,
 * libsystemd and what it pulls in: about 90 mappings); each warm sandbox
 * is two forks of it (supervisor, session init) and two exits, and copying
 * and tearing down those mappings was half of a fork's cost (fork + exit:
 * 0.44 ms with 94 mappings, 0.26 ms with libc's 24, on a 2-core VM). What
 * runs in those children is this project's code on libc and raw syscalls
 * only, so the other libraries are not handed down (MADV_DONTFORK): a
 * call into one from a child would fault, and the child die, not run on.
 * So every fork from the template down is _Fork(): fork() runs the
 * pthread_atfork handlers libraries registered (libsystemd's, once sbxd
 * looked at LISTEN_PID or WATCHDOG_PID), which the child no longer has.
 * (All of sbxd is bound at load, -z now: no lazy binding into them.) */
#define _GNU_SOURCE
#include <link.h>
#include <signal.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "daemon/linux/linux.h"

/* What children do use: the executable (name ""), the vDSO, libc and the
 * dynamic loader; sanitizer runtimes and what they need. */
static const char *const keep[] = {
	"linux-vdso", "linux-gate", "/libc.so", "/ld-linux", "/libm.so",
	"/libpthread.so", "/libdl.so", "/librt.so", "/libgcc_s.so",
	"/libstdc++.so", "/libasan.so", "/libubsan.so", "/libclang_rt",
};

static bool
kept(const char *name)
{
	size_t i;

	if (!name[0])
		return true;
	for (i = 0; i < sizeof(keep) / sizeof(keep[0]); i++)
		if (strstr(name, keep[i]))
			return true;
	return false;
}

static int
drop_object(struct dl_phdr_info *info, size_t size, void *arg)
{
	uintptr_t page = (uintptr_t)sysconf(_SC_PAGESIZE), lo, hi;
	int i;

	if (kept(info->dlpi_name))
		return 0;
	for (i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];

		if (ph->p_type != PT_LOAD)
			continue;
		lo = (info->dlpi_addr + ph->p_vaddr) & ~(page - 1);
		hi = (info->dlpi_addr + ph->p_vaddr + ph->p_memsz + page - 1) &
		     ~(page - 1);
		/* Best effort: a mapping kept costs time, not safety. */
		madvise((void *)lo, hi - lo, MADV_DONTFORK);
	}
	return 0;
}

void
linux_lean_children(void)
{
	struct sigaction sa;
	int sig;

	/* A handler a library installed (libevent's for SIGTERM and SIGINT)
	 * would be code a child no longer has: the defaults instead. */
	for (sig = 1; sig < NSIG; sig++)
		if (sigaction(sig, NULL, &sa) == 0 &&
		    sa.sa_handler != SIG_DFL && sa.sa_handler != SIG_IGN)
			signal(sig, SIG_DFL);
	dl_iterate_phdr(drop_object, NULL);
}
