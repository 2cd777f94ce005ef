/* The JDKs' net.properties, with the sandbox's proxy added, bound over
 * each JDK's own in a sandbox with a network namespace of its own. The
 * JVM reads that file silently for every proxy property no -D option set
 * (sun.net.NetProperties), whereas JAVA_TOOL_OPTIONS makes every JVM print
 * "Picked up JAVA_TOOL_OPTIONS: ..." on stderr, which breaks tests that
 * compare it. The proxy is at the same port in every such sandbox
 * (SANDBOX_HTTP_PROXY_PORT), so the files are the template's, shared by
 * its sandboxes; without a network namespace the ports are the session's
 * and JAVA_TOOL_OPTIONS carries them (proxy/env.c).
 *
 * Each file is written into the fresh /dev/shm, bound read-only onto the
 * JDK's (its link followed: Debian's points into /etc), and unlinked
 * there: the sandbox sees it only where the JVM looks. A JDK this does
 * not find (a JAVA_HOME elsewhere) gets no proxy from sbx; a missing or
 * odd file is skipped, never a failure of the sandbox. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <glob.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "daemon/policy/fsplan.h"
#include "daemon/linux/linux.h"
#include "daemon/linux/mount-int.h"
#include "daemon/sandbox.h"
#include "daemon/usercred.h"

/* Where JDKs are installed: system packages, then per-user managers
 * (relative to the home). JDK 8 keeps the file in jre/lib. */
static const char *const system_jdks[] = {
	"/usr/lib/jvm/*/conf/net.properties",
	"/usr/lib/jvm/*/jre/lib/net.properties",
	"/usr/java/*/conf/net.properties",
	"/opt/java/*/conf/net.properties",
	"/opt/jdk*/conf/net.properties",
};
static const char *const home_jdks[] = {
	".sdkman/candidates/java/*/conf/net.properties",
	".jdks/*/conf/net.properties",
	".gradle/jdks/*/conf/net.properties",
	".local/share/mise/installs/java/*/conf/net.properties",
	".asdf/installs/java/*/conf/net.properties",
};

#define PROPS_MAX (64 * 1024)
#define JDKS_MAX 32

struct jdks {
	char *done[JDKS_MAX]; /* real paths already bound */
	size_t n;
	unsigned seq;
};

/* The JDK's file (a regular file, at most PROPS_MAX) and the proxy after
 * it, in /dev/shm/NAME: later lines of a properties file win. */
static int
write_props(const char *src, const char *name)
{
	static char buf[PROPS_MAX];
	struct stat st;
	ssize_t n = 0, w;
	char tail[256];
	int in, out, r = 0, k;

	in = open(src, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
	if (in < 0)
		return -errno;
	if (fstat(in, &st) < 0 || !S_ISREG(st.st_mode) ||
	    st.st_size >= PROPS_MAX ||
	    (n = read(in, buf, sizeof(buf))) < 0 || n >= PROPS_MAX) {
		close(in);
		return -EINVAL;
	}
	close(in);
	k = snprintf(tail, sizeof(tail), "\n# sbx: the sandbox's proxy\n"
		     "http.proxyHost=127.0.0.1\nhttp.proxyPort=%d\n"
		     "https.proxyHost=127.0.0.1\nhttps.proxyPort=%d\n",
		     SANDBOX_HTTP_PROXY_PORT, SANDBOX_HTTP_PROXY_PORT);
	out = openat(AT_FDCWD, name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC |
		     O_NOFOLLOW, 0444);
	if (out < 0)
		return -errno;
	if ((w = write(out, buf, (size_t)n)) != n ||
	    write(out, tail, (size_t)k) != k)
		r = w < 0 ? -errno : -EIO;
	close(out);
	return r;
}

/* One match: bound unless its real path was already. */
static void
bind_one(struct jdks *j, const char *match)
{
	char real[PATH_MAX], name[64];
	size_t i;
	int fd;

	struct stat st;
	const char *base;

	/* Only a net.properties (a distribution's JDK links its own to
	 * /etc): the home's patterns match in a tree earlier sandboxes
	 * wrote, where a planted link would have any other file bound over
	 * with the proxy lines. */
	if (j->n >= JDKS_MAX || !realpath(match, real) ||
	    stat(real, &st) < 0 || !S_ISREG(st.st_mode) ||
	    !(base = strrchr(real, '/')) || strcmp(base, "/net.properties"))
		return;
	for (i = 0; i < j->n; i++)
		if (!strcmp(j->done[i], real))
			return;
	snprintf(name, sizeof(name), "/dev/shm/.sbx-java-%u", j->seq++);
	if (write_props(real, name) == 0 &&
	    (fd = lmount_clone_tree(name, 0)) >= 0) {
		if (lmount_set_attr(fd, "", AT_EMPTY_PATH, MOUNT_ATTR_RDONLY |
				    MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV |
				    MOUNT_ATTR_NOEXEC, 0) == 0 &&
		    lmount_attach(fd, real) == 0)
			j->done[j->n++] = strdup(real);
		close(fd);
	}
	unlink(name);
}

static void
bind_glob(struct jdks *j, const char *pattern)
{
	glob_t g;
	size_t i;

	if (glob(pattern, GLOB_NOSORT, NULL, &g) != 0)
		return;
	for (i = 0; i < g.gl_pathc; i++)
		bind_one(j, g.gl_pathv[i]);
	globfree(&g);
}

void
lmount_java(const struct sandbox_plan *p)
{
	const char *home = fsplan_home(p->fs);
	char pattern[PATH_MAX];
	struct jdks j = { 0 };
	size_t i;

	for (i = 0; i < sizeof(system_jdks) / sizeof(system_jdks[0]); i++)
		bind_glob(&j, system_jdks[i]);
	/* The home's, looked at with the user's rights. */
	usercred_enter();
	for (i = 0; home && i < sizeof(home_jdks) / sizeof(home_jdks[0]); i++)
		if (snprintf(pattern, sizeof(pattern), "%s/%s", home,
			     home_jdks[i]) < (int)sizeof(pattern))
			bind_glob(&j, pattern);
	usercred_leave();
	for (i = 0; i < j.n; i++)
		free(j.done[i]);
}
