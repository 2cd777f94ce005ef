/* Parsing what the kernel says about cgroups: which hierarchies this
 * process is in and where they are mounted, controller lists and counter
 * files. Pure: the input is text read by linux/cgroup.c. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "daemon/linux/cgroup-parse.h"

static const struct {
	const char *name;
	unsigned res;
} v1_names[] = {
	{ "memory", LCG_MEMORY }, { "pids", LCG_PIDS }, { "cpu", LCG_CPU },
	{ "cpuacct", LCG_CPUACCT }, { "blkio", LCG_IO },
};
static const struct {
	const char *name;
	unsigned res;
} v2_names[] = {
	{ "memory", LCG_MEMORY }, { "pids", LCG_PIDS }, { "cpu", LCG_CPU },
	{ "io", LCG_IO },
};

/* Next line of buf as [*s, *e); false at the end. */
static bool
next_line(const char **p, const char *end, const char **s, const char **e)
{
	const char *nl;

	if (*p >= end)
		return false;
	*s = *p;
	nl = memchr(*p, '\n', (size_t)(end - *p));
	*e = nl ? nl : end;
	*p = nl ? nl + 1 : end;
	return true;
}

/* The i-th space-separated field of [s, e) copied to out, octal escapes
 * (\040) decoded; false when absent or too long. */
static bool
field(const char *s, const char *e, int i, char *out, size_t n)
{
	size_t k = 0;

	while (s < e && i > 0) {
		if (*s++ == ' ') {
			i--;
			while (s < e && *s == ' ')
				s++;
		}
	}
	if (s >= e || i > 0)
		return false;
	while (s < e && *s != ' ') {
		char c = *s++;

		if (c == '\\' && e - s >= 3 && s[0] >= '0' && s[0] <= '3' &&
		    s[1] >= '0' && s[1] <= '7' && s[2] >= '0' && s[2] <= '7') {
			c = (char)((s[0] - '0') << 6 | (s[1] - '0') << 3 |
				   (s[2] - '0'));
			s += 3;
		}
		if (k + 1 >= n || c == '\0')
			return false;
		out[k++] = c;
	}
	out[k] = '\0';
	return true;
}

/* Comma-separated controller names -> enum lcg_res (v1 names). */
static unsigned
v1_res(const char *s, size_t len)
{
	unsigned res = 0;
	size_t i, w;

	while (len > 0) {
		for (w = 0; w < len && s[w] != ','; w++)
			;
		for (i = 0; i < sizeof(v1_names) / sizeof(v1_names[0]); i++)
			if (strlen(v1_names[i].name) == w &&
			    !memcmp(s, v1_names[i].name, w))
				res |= v1_names[i].res;
		s += w;
		len -= w;
		if (len > 0) {
			s++;
			len--;
		}
	}
	return res;
}

unsigned
lcg_controllers_parse(const char *text, size_t len)
{
	const char *end = text + len, *s = text, *w;
	unsigned res = 0;
	size_t i;

	while (s < end) {
		while (s < end && (*s == ' ' || *s == '\n' || *s == '+'))
			s++;
		for (w = s; s < end && *s != ' ' && *s != '\n'; s++)
			;
		for (i = 0; i < sizeof(v2_names) / sizeof(v2_names[0]); i++)
			if (strlen(v2_names[i].name) == (size_t)(s - w) &&
			    !memcmp(w, v2_names[i].name, (size_t)(s - w)))
				res |= v2_names[i].res;
	}
	return res;
}

/* The cgroup of this process in the hierarchy with controllers res (v1),
 * or the unified one (res 0), from /proc/self/cgroup. */
static bool
own_path(const char *cg, size_t cglen, unsigned res, bool v2, char *out,
	 size_t n)
{
	const char *p = cg, *end = cg + cglen, *s, *e, *c1, *c2;

	while (next_line(&p, end, &s, &e)) {
		if (!(c1 = memchr(s, ':', (size_t)(e - s))) ||
		    !(c2 = memchr(c1 + 1, ':', (size_t)(e - c1 - 1))))
			continue;
		if (v2 ? (c2 != c1 + 1 || c1 - s != 1 || *s != '0') :
			 (c2 == c1 + 1 || v1_res(c1 + 1,
				(size_t)(c2 - c1 - 1)) != res))
			continue;
		if ((size_t)(e - c2) > n || c2[1] != '/')
			return false;
		memcpy(out, c2 + 1, (size_t)(e - c2 - 1));
		out[e - c2 - 1] = '\0';
		return true;
	}
	return false;
}

/* dir = mount + (path below root); false when path is not below root. */
static bool
join(const char *mnt, const char *root, const char *path, char *dir,
     size_t n)
{
	size_t rl = strlen(root);
	int k;

	if (!strcmp(root, "/"))
		rl = 0;
	else if (strncmp(path, root, rl) || (path[rl] && path[rl] != '/'))
		return false;
	k = snprintf(dir, n, "%s%s", mnt, path + rl);
	if (k < 0 || (size_t)k >= n)
		return false;
	/* "/sys/fs/cgroup/unified/" for the root: no trailing slash. */
	if (k > 1 && dir[k - 1] == '/')
		dir[k - 1] = '\0';
	return true;
}

static void
add_hier(struct lcg_layout *out, int version, unsigned res, const char *dir)
{
	struct lcg_hier *h;
	int i;

	for (i = 0; i < out->n; i++)
		if (!strcmp(out->h[i].dir, dir))
			return; /* mounted twice */
	if (out->n >= LCG_MAX_HIER)
		return;
	h = &out->h[out->n++];
	h->version = version;
	h->res = res;
	snprintf(h->dir, sizeof(h->dir), "%s", dir);
}

int
lcg_layout_parse(const char *cg, size_t cglen, const char *mi, size_t milen,
		 struct lcg_layout *out)
{
	const char *p = mi, *end = mi + milen, *s, *e, *dash;
	char root[LCG_PATH_MAX], mnt[LCG_PATH_MAX], type[16], opts[256];
	char path[LCG_PATH_MAX], dir[LCG_PATH_MAX];
	unsigned res;

	memset(out, 0, sizeof(*out));
	while (next_line(&p, end, &s, &e)) {
		/* "... - fstype source superopts": the optional fields before
		 * the dash vary in number. */
		for (dash = s; dash + 2 < e; dash++)
			if (dash[0] == ' ' && dash[1] == '-' && dash[2] == ' ')
				break;
		if (dash + 2 >= e || !field(s, dash, 3, root, sizeof(root)) ||
		    !field(s, dash, 4, mnt, sizeof(mnt)) ||
		    !field(dash + 3, e, 0, type, sizeof(type)) ||
		    !field(dash + 3, e, 2, opts, sizeof(opts)))
			continue;
		if (!strcmp(type, "cgroup2")) {
			if (own_path(cg, cglen, 0, true, path, sizeof(path)) &&
			    join(mnt, root, path, dir, sizeof(dir)))
				add_hier(out, 2, 0, dir);
			continue;
		}
		if (strcmp(type, "cgroup"))
			continue;
		res = v1_res(opts, strlen(opts));
		if (res && own_path(cg, cglen, res, false, path,
				    sizeof(path)) &&
		    join(mnt, root, path, dir, sizeof(dir)))
			add_hier(out, 1, res, dir);
	}
	return out->n > 0 ? 0 : -EINVAL;
}

int
lcg_keyed_get(const char *text, size_t len, const char *key, uint64_t *v)
{
	const char *p = text, *end = text + len, *s, *e;
	size_t kl = strlen(key);

	while (next_line(&p, end, &s, &e)) {
		if ((size_t)(e - s) > kl && !memcmp(s, key, kl) &&
		    s[kl] == ' ')
			return lcg_u64_parse(s + kl + 1,
					     (size_t)(e - s - kl - 1), v);
	}
	return -ENOENT;
}

int
lcg_u64_parse(const char *text, size_t len, uint64_t *v)
{
	uint64_t x = 0;
	size_t i = 0;

	while (len > 0 && (text[len - 1] == '\n' || text[len - 1] == ' '))
		len--;
	if (len == 3 && !memcmp(text, "max", 3)) {
		*v = UINT64_MAX;
		return 0;
	}
	if (len == 0 || len > 20)
		return -EINVAL;
	for (; i < len; i++) {
		if (text[i] < '0' || text[i] > '9' ||
		    x > (UINT64_MAX - (uint64_t)(text[i] - '0')) / 10)
			return -EINVAL;
		x = x * 10 + (uint64_t)(text[i] - '0');
	}
	*v = x;
	return 0;
}
