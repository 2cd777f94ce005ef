/* Which directories a template was built on: the workspace, the writable
 * trees and the home, as the daemon saw them by name when it started the
 * template, checked again by name at each spawn, so a directory removed
 * and made again, moved aside and replaced, or reached through a link
 * re-pointed since gets a new template instead of the old one's detached
 * view. One statx per root per spawn. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "daemon/policy/fsplan.h"
#include "daemon/linux/roots.h"
#include "daemon/linux/linux.h"

/* What names one directory: device, inode and, where the file system
 * keeps it, birth time (an inode number freed by rm -rf is often given
 * to the mkdir that follows it). A path that cannot be looked at is
 * recorded as its errno, and equal to the same failure later. */
static void
id_of(const char *path, struct linux_root_id *id)
{
	struct statx sx;

	memset(id, 0, sizeof(*id));
	if (statx(AT_FDCWD, path, AT_STATX_DONT_SYNC,
		  STATX_TYPE | STATX_INO | STATX_BTIME, &sx) < 0) {
		id->err = errno;
		return;
	}
	id->dev_major = sx.stx_dev_major;
	id->dev_minor = sx.stx_dev_minor;
	id->ino = sx.stx_ino;
	if (sx.stx_mask & STATX_BTIME) {
		id->btime_sec = sx.stx_btime.tv_sec;
		id->btime_nsec = sx.stx_btime.tv_nsec;
	}
}

/* The i-th root of plan p (NULL past the last): the workspace, the
 * writable trees other than it, the home. */
static const char *
root_at(const struct sandbox_plan *p, size_t i)
{
	const struct fsplan_list *w = &p->fs->l[FSPLAN_WRITE];
	size_t k;

	if (i-- == 0)
		return p->workspace;
	for (k = 0; k < w->n; k++)
		if (strcmp(w->v[k], p->workspace) && i-- == 0)
			return w->v[k];
	return i == 0 ? fsplan_home(p->fs) : NULL;
}

int
linux_roots_record(const struct sandbox_plan *p, struct linux_roots *out)
{
	const char *path;
	size_t n = 0;

	while (root_at(p, n))
		n++;
	out->id = calloc(n ? n : 1, sizeof(*out->id));
	if (!out->id)
		return -ENOMEM;
	out->n = n;
	for (n = 0; n < out->n; n++) {
		path = root_at(p, n);
		id_of(path, &out->id[n]);
	}
	return 0;
}

bool
linux_roots_changed(const struct sandbox_plan *p, const struct linux_roots *r)
{
	struct linux_root_id now;
	const char *path;
	size_t i;

	for (i = 0; (path = root_at(p, i)); i++) {
		if (i >= r->n)
			return true;
		id_of(path, &now);
		if (memcmp(&now, &r->id[i], sizeof(now)))
			return true;
	}
	return i != r->n;
}

void
linux_roots_free(struct linux_roots *r)
{
	free(r->id);
	r->id = NULL;
	r->n = 0;
}

const char *
linux_roots_path(const struct sandbox_plan *p, size_t i)
{
	return root_at(p, i);
}
