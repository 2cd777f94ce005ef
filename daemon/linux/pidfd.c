/* pidfds: the host pid behind one, and one for a thread. */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <fcntl.h>
#include <errno.h>
#include <unistd.h>

#include "daemon/linux/linux.h"

/* PIDFD_GET_INFO (Linux 6.13), which older headers lack: the pid in the
 * caller's pid namespace, one ioctl instead of reading fdinfo. */
struct sbx_pidfd_info {
	uint64_t mask;
	uint64_t cgroupid;
	uint32_t pid, tgid, ppid, ruid, rgid, euid, egid, suid, sgid;
	uint32_t fsuid, fsgid, spare;
};
#define SBX_PIDFD_GET_INFO _IOWR(0xFF, 11, struct sbx_pidfd_info)
#define SBX_PIDFD_INFO_PID 1ull

int
linux_pidfd_open_tid(pid_t tid)
{
	int fd = (int)syscall(SYS_pidfd_open, tid, PIDFD_THREAD);

	if (fd < 0 && errno == EINVAL)
		fd = (int)syscall(SYS_pidfd_open, tid, 0);
	return fd;
}

/* Host pid behind a pidfd (our pid namespace's view). */
pid_t
linux_pidfd_pid(int fd)
{
	struct sbx_pidfd_info info = { .mask = SBX_PIDFD_INFO_PID };
	char path[64], line[128];
	FILE *f;
	int pid = 0;

	if (ioctl(fd, SBX_PIDFD_GET_INFO, &info) == 0 &&
	    (info.mask & SBX_PIDFD_INFO_PID) && info.pid > 0)
		return (pid_t)info.pid;
	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", fd);
	f = fopen(path, "re");
	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "Pid: %d", &pid) == 1)
			break;
	fclose(f);
	return pid > 0 ? (pid_t)pid : 0;
}
