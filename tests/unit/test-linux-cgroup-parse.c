/* Where the daemon's cgroups are (linux/cgroup-parse.c): a unified host,
 * a hybrid one (controllers on v1, an empty unified hierarchy), a
 * container whose cgroup mounts have a root of their own, and the counter
 * files. */
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "daemon/linux/cgroup-parse.h"
#include "unit.h"

#define S(x) x, sizeof(x) - 1

static const struct lcg_hier *
find(const struct lcg_layout *l, int version, unsigned res)
{
	int i;

	for (i = 0; i < l->n; i++)
		if (l->h[i].version == version && (l->h[i].res & res) == res)
			return &l->h[i];
	return NULL;
}

static void
check_dir(const struct lcg_layout *l, int version, unsigned res,
	  const char *want)
{
	const struct lcg_hier *h = find(l, version, res);

	CHECK_STR(h ? h->dir : NULL, want);
}

static void
test_unified(void)
{
	static const char cg[] = "0::/user.slice/user-1000.slice/"
		"user@1000.service/app.slice/sbxd.service\n";
	static const char mi[] =
		"22 1 0:21 / /sys rw,nosuid - sysfs sysfs rw\n"
		"29 22 0:26 / /sys/fs/cgroup rw,nosuid,nodev,noexec,relatime "
		"shared:4 - cgroup2 cgroup2 rw,nsdelegate,memory_recursiveprot\n";
	struct lcg_layout l;

	CHECK_INT(lcg_layout_parse(S(cg), S(mi), &l), 0);
	CHECK_INT(l.n, 1);
	CHECK_INT(l.h[0].version, 2);
	CHECK_STR(l.h[0].dir, "/sys/fs/cgroup/user.slice/user-1000.slice/"
		  "user@1000.service/app.slice/sbxd.service");
}

static void
test_hybrid(void)
{
	static const char cg[] =
		"9:name=systemd:/\n8:pids:/\n7:blkio:/\n4:memory:/process_api/"
		"34bb\n2:cpuacct:/\n1:cpu:/\n0::/\n";
	static const char mi[] =
		"31 23 0:28 / /sys/fs/cgroup rw,relatime - tmpfs tmpfs rw\n"
		"32 31 0:29 / /sys/fs/cgroup/cpu rw,relatime - cgroup cgroup rw,cpu\n"
		"33 31 0:30 / /sys/fs/cgroup/cpuacct rw,relatime - cgroup cgroup "
		"rw,cpuacct\n"
		"35 31 0:32 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup "
		"rw,memory\n"
		"38 31 0:35 / /sys/fs/cgroup/blkio rw,relatime - cgroup cgroup "
		"rw,blkio\n"
		"39 31 0:36 / /sys/fs/cgroup/pids rw,relatime - cgroup cgroup "
		"rw,pids\n"
		"40 31 0:37 / /sys/fs/cgroup/systemd rw,relatime - cgroup cgroup "
		"rw,name=systemd\n"
		"41 31 0:38 / /sys/fs/cgroup/unified rw,relatime - cgroup2 "
		"cgroup2 rw\n";
	struct lcg_layout l;

	CHECK_INT(lcg_layout_parse(S(cg), S(mi), &l), 0);
	CHECK_INT(l.n, 6); /* not name=systemd */
	check_dir(&l, 1, LCG_MEMORY, "/sys/fs/cgroup/memory/process_api/34bb");
	check_dir(&l, 1, LCG_PIDS, "/sys/fs/cgroup/pids");
	check_dir(&l, 1, LCG_CPU, "/sys/fs/cgroup/cpu");
	check_dir(&l, 1, LCG_IO, "/sys/fs/cgroup/blkio");
	check_dir(&l, 2, 0, "/sys/fs/cgroup/unified");
}

static void
test_container(void)
{
	/* cpu,cpuacct co-mounted; a mount root of its own; a mount point
	 * with a space (octal escape); a memory mount of another cgroup
	 * namespace whose root our path is not below. */
	static const char cg[] =
		"5:cpu,cpuacct:/docker/abc/inner\n4:memory:/elsewhere\n"
		"3:pids:/docker/abc\n";
	static const char mi[] =
		"50 40 0:40 /docker/abc /sys/fs/cgroup/cpu\\040x rw - cgroup "
		"cgroup rw,cpu,cpuacct\n"
		"51 40 0:41 /docker/abc /sys/fs/cgroup/memory rw - cgroup cgroup "
		"rw,memory\n"
		"52 40 0:42 /docker/abc /sys/fs/cgroup/pids rw master:1 - cgroup "
		"cgroup rw,pids\n";
	struct lcg_layout l;

	CHECK_INT(lcg_layout_parse(S(cg), S(mi), &l), 0);
	CHECK_INT(l.n, 2);
	check_dir(&l, 1, LCG_CPU | LCG_CPUACCT, "/sys/fs/cgroup/cpu x/inner");
	check_dir(&l, 1, LCG_PIDS, "/sys/fs/cgroup/pids");
	CHECK(find(&l, 1, LCG_MEMORY) == NULL);
	/* Nothing usable. */
	CHECK(lcg_layout_parse(S("0::/\n"), S("1 0 0:1 / / rw - ext4 x rw\n"),
			       &l) < 0);
	CHECK(lcg_layout_parse(S(""), S(""), &l) < 0);
}

static void
test_files(void)
{
	static const char events[] = "low 0\nhigh 12\nmax 3\noom 1\n"
				     "oom_kill 1\noom_group_kill 0\n";
	static const char oomctl[] = "oom_kill_disable 0\nunder_oom 0\n"
				     "oom_kill 2\n";
	uint64_t v = 0;

	CHECK_INT((int)lcg_controllers_parse(S("cpuset cpu io memory hugetlb "
					       "pids rdma misc\n")),
		  LCG_CPU | LCG_IO | LCG_MEMORY | LCG_PIDS);
	CHECK_INT((int)lcg_controllers_parse(S("hugetlb\n")), 0);
	CHECK_INT((int)lcg_controllers_parse(S("+memory +pids")),
		  LCG_MEMORY | LCG_PIDS);
	CHECK_INT(lcg_keyed_get(S(events), "oom_kill", &v), 0);
	CHECK(v == 1);
	CHECK_INT(lcg_keyed_get(S(events), "max", &v), 0);
	CHECK(v == 3);
	CHECK_INT(lcg_keyed_get(S(events), "oom_group", &v), -2);
	CHECK_INT(lcg_keyed_get(S(oomctl), "oom_kill", &v), 0);
	CHECK(v == 2);
	CHECK_INT(lcg_u64_parse(S("123456\n"), &v), 0);
	CHECK(v == 123456);
	CHECK_INT(lcg_u64_parse(S("max\n"), &v), 0);
	CHECK(v == UINT64_MAX);
	CHECK(lcg_u64_parse(S("18446744073709551616"), &v) < 0);
	CHECK(lcg_u64_parse(S(""), &v) < 0);
	CHECK(lcg_u64_parse(S("12a"), &v) < 0);
}

int
main(void)
{
	test_unified();
	test_hybrid();
	test_container();
	test_files();
	UNIT_DONE();
}
