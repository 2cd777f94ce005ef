/* The Seatbelt profile cache: keys, memory, files written atomically, eviction. */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <ftw.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "daemon/crypto.h"
#include "daemon/policy/merge.h"
#include "daemon/policy/render.h"
#include "daemon/seatbelt/cache.h"
#include "unit.h"

static char root[] = "/tmp/sbx-test-cache.XXXXXX";
static struct policy *pol;

static int
rm_one(const char *path, const struct stat *st, int flag, struct FTW *f)
{
	return remove(path);
}

static struct seatbelt_input
input(unsigned port)
{
	struct seatbelt_input in = { pol, NULL, "/Users/a/ws", "/t", NULL,
	    port, 0 };

	return in;
}

static size_t
count_files(const char *dir, const char *prefix)
{
	struct dirent *e;
	DIR *d = opendir(dir);
	size_t n = 0;

	while (d != NULL && (e = readdir(d)) != NULL)
		n += strncmp(e->d_name, prefix, strlen(prefix)) == 0;
	if (d != NULL)
		closedir(d);
	return n;
}

/* The key is the SHA-256 of the documented canonical JSON. */
static void
test_key(void)
{
	struct seatbelt_input in = input(3128);
	char hash[65], want[65], *text;
	json_t *doc, *p = NULL;

	CHECK_INT(seatbelt_cache_key(&in, hash), 0);
	CHECK_INT(policy_render_json(pol, &p), 0);
	doc = json_pack("{s:s, s:o, s:s, s:s, s:[], s:{s:i, s:i}, s:[]}",
	    "generator", SEATBELT_GENERATOR, "policy", p, "workspace",
	    "/Users/a/ws", "tmpdir", "/t", "hidden", "ports", "http", 3128,
	    "socks", 0, "ignore");
	text = json_dumps(doc, JSON_COMPACT | JSON_SORT_KEYS);
	CHECK_INT(crypto_sha256_hex(text, strlen(text), want), 0);
	CHECK_STR(hash, want);
	free(text);
	json_decref(doc);
	in.http_port = 3129;
	CHECK_INT(seatbelt_cache_key(&in, want), 0);
	CHECK(strcmp(hash, want) != 0);
}

static void
test_get(void)
{
	struct seatbelt_input in = input(3128);
	struct seatbelt_cached a, b;
	struct seatbelt_cache *c;
	struct policy_diags d = { 0 };
	char dir[512], path[600], *text;
	struct stat st;
	size_t len;

	snprintf(dir, sizeof(dir), "%s/cache/sbx/seatbelt", root);
	CHECK_INT(seatbelt_cache_new(dir, &c), 0);
	CHECK_INT(seatbelt_cache_get(c, &in, &a, &d), 0);
	CHECK(a.path != NULL && a.file_err == 0 && strlen(a.hash) == 64);
	CHECK_INT(seatbelt_profile(&in, &text, &len, &d), 0);
	CHECK(a.len == len && memcmp(a.text, text, len) == 0);
	free(text);
	CHECK(stat(a.path, &st) == 0 && (st.st_mode & 0777) == 0600 &&
	    (size_t)st.st_size == a.len);
	CHECK(stat(dir, &st) == 0 && (st.st_mode & 0777) == 0700);
	/* From memory the second time: the same storage. */
	CHECK_INT(seatbelt_cache_get(c, &in, &b, &d), 0);
	CHECK(b.text == a.text && strcmp(b.hash, a.hash) == 0);
	CHECK_INT(count_files(dir, ".profile."), 0);
	snprintf(path, sizeof(path), "%s", a.path);
	seatbelt_cache_free(c);

	/* A new cache (a restarted daemon) repairs a changed file. */
	CHECK(truncate(path, 10) == 0);
	CHECK_INT(seatbelt_cache_new(dir, &c), 0);
	CHECK_INT(seatbelt_cache_get(c, &in, &a, &d), 0);
	CHECK(stat(a.path, &st) == 0 && (size_t)st.st_size == a.len);
	seatbelt_cache_free(c);
	policy_diag_free(&d);
}

/* Past SEATBELT_CACHE_MAX keys the least recently used goes. */
static void
test_evict(void)
{
	struct seatbelt_input in;
	struct seatbelt_cached first, x;
	struct seatbelt_cache *c;
	struct policy_diags d = { 0 };
	char dir[512], hash[65];
	unsigned i;

	snprintf(dir, sizeof(dir), "%s/evict", root);
	CHECK_INT(seatbelt_cache_new(dir, &c), 0);
	in = input(1);
	CHECK_INT(seatbelt_cache_get(c, &in, &first, &d), 0);
	snprintf(hash, sizeof(hash), "%s", first.hash);
	for (i = 2; i <= SEATBELT_CACHE_MAX + 1; i++) {
		in = input(i);
		CHECK_INT(seatbelt_cache_get(c, &in, &x, &d), 0);
	}
	CHECK_INT(count_files(dir, ""), SEATBELT_CACHE_MAX + 1 + 2);
	in = input(1);
	CHECK_INT(seatbelt_cache_get(c, &in, &x, &d), 0);
	CHECK_STR(x.hash, hash);
	seatbelt_cache_free(c);
	policy_diag_free(&d);
}

/* An unwritable directory costs the file, not the profile. */
static void
test_unwritable(void)
{
	struct seatbelt_input in = input(3128);
	struct seatbelt_cached a;
	struct seatbelt_cache *c;
	struct policy_diags d = { 0 };
	char dir[512];

	snprintf(dir, sizeof(dir), "%s/file", root);
	CHECK(fclose(fopen(dir, "w")) == 0);
	snprintf(dir, sizeof(dir), "%s/file/seatbelt", root);
	CHECK_INT(seatbelt_cache_new(dir, &c), 0);
	CHECK_INT(seatbelt_cache_get(c, &in, &a, &d), 0);
	CHECK(a.path == NULL && a.file_err == -ENOTDIR && a.text != NULL);
	seatbelt_cache_free(c);
	policy_diag_free(&d);
}

static void
test_dir(void)
{
	char buf[512];

	setenv("XDG_CACHE_HOME", "/x/cache", 1);
	CHECK_INT(seatbelt_cache_dir(buf, sizeof(buf)), 0);
	CHECK_STR(buf, "/x/cache/sbx/seatbelt");
	setenv("XDG_CACHE_HOME", "relative", 1);
	setenv("HOME", "/Users/a", 1);
	CHECK_INT(seatbelt_cache_dir(buf, sizeof(buf)), 0);
	CHECK_STR(buf, "/Users/a/.cache/sbx/seatbelt");
	unsetenv("XDG_CACHE_HOME");
	unsetenv("HOME");
	CHECK_INT(seatbelt_cache_dir(buf, sizeof(buf)), -ENOENT);
	CHECK_INT(seatbelt_cache_new("rel", (struct seatbelt_cache **)buf),
	    -EINVAL);
}

int
main(void)
{
	struct policy_diags d = { 0 };

	CHECK(mkdtemp(root) != NULL);
	CHECK_INT(policy_merge(NULL, 0, "/Users/a", &pol, &d), 0);
	test_key();
	test_get();
	test_evict();
	test_unwritable();
	test_dir();
	policy_free(pol);
	policy_diag_free(&d);
	nftw(root, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	UNIT_DONE();
}
