/* Differential test of the ignore matcher against `git check-ignore` on generated trees. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <spawn.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "daemon/policy/ignore.h"
#include "unit.h"
#include "ignore-cases.h"
#include "ignore-gen.h"

/*
 * Each scenario is a random tree of files and directories with random
 * .gitignore files at random depths. git answers for every node in one
 * `check-ignore --no-index -v -n -z --stdin` run; the set must name the
 * same deciding line (file, line number, text) or none. Deterministic:
 * SBX_IGNORE_SEED and SBX_IGNORE_SCENARIOS override the defaults.
 */
#define SCENARIOS	2000

extern char **environ;

static char tmp[64];
static char gitdir[128];
static size_t ncases, ntable, nmismatch, nexcluded, nreincluded;

static int
rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	return remove(path);
}

static void
rm_tree(const char *path)
{
	nftw(path, rm_one, 16, FTW_DEPTH | FTW_PHYS);
}

static void
write_file(const char *path, const char *text, size_t len)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);

	if (fd < 0 || write(fd, text, len) != (ssize_t)len) {
		fprintf(stderr, "write %s: %s\n", path, strerror(errno));
		exit(2);
	}
	close(fd);
}

static void
make_tree(const struct scenario *sc, const char *root)
{
	char path[512], *list = NULL;
	size_t i, n = 0;
	FILE *f;

	rm_tree(root);
	mkdir(root, 0755);
	for (i = 0; i < sc->nnode; i++) {
		snprintf(path, sizeof(path), "%s/%s", root, sc->node[i].path);
		if (sc->node[i].is_dir)
			mkdir(path, 0755);
		else
			write_file(path, "", 0);
	}
	for (i = 0; i < sc->nfile; i++) {
		snprintf(path, sizeof(path), "%s/%s%s.gitignore", root,
		    sc->dir[i], sc->dir[i][0] ? "/" : "");
		write_file(path, sc->text[i], strlen(sc->text[i]));
	}
	/* Every node, NUL-separated, is git's stdin. */
	f = open_memstream(&list, &n);
	for (i = 0; i < sc->nnode; i++)
		fwrite(sc->node[i].path, 1, strlen(sc->node[i].path) + 1, f);
	fclose(f);
	snprintf(path, sizeof(path), "%s.in", root);
	write_file(path, list, n);
	free(list);
}

/* Runs git in root; returns its -z output (caller frees) and *len. */
static char *
run_git(const char *root, size_t *len)
{
	char in[512], out[512], wt[512], *buf;
	char *argv[] = { (char *)"git", gitdir, wt, (char *)"check-ignore",
	    (char *)"--no-index", (char *)"-v", (char *)"-n", (char *)"-z",
	    (char *)"--stdin", NULL };
	posix_spawn_file_actions_t fa;
	struct stat st;
	pid_t pid;
	int status, fd;

	snprintf(in, sizeof(in), "%s.in", root);
	snprintf(out, sizeof(out), "%s.out", root);
	snprintf(wt, sizeof(wt), "--work-tree=%s", root);
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 0, in, O_RDONLY, 0);
	posix_spawn_file_actions_addopen(&fa, 1, out,
	    O_WRONLY | O_CREAT | O_TRUNC, 0644);
	posix_spawn_file_actions_addchdir_np(&fa, root);
	if (posix_spawnp(&pid, "git", &fa, NULL, argv, environ) != 0 ||
	    waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) ||
	    WEXITSTATUS(status) > 1) {
		fprintf(stderr, "git check-ignore failed in %s\n", root);
		exit(2);
	}
	posix_spawn_file_actions_destroy(&fa);
	if ((fd = open(out, O_RDONLY | O_CLOEXEC)) < 0 || fstat(fd, &st) < 0)
		exit(2);
	buf = malloc((size_t)st.st_size + 1);
	if (buf == NULL || read(fd, buf, (size_t)st.st_size) != st.st_size)
		exit(2);
	close(fd);
	buf[st.st_size] = '\0';
	*len = (size_t)st.st_size;
	return buf;
}

static void
dump(const struct scenario *sc)
{
	size_t i;

	for (i = 0; i < sc->nfile; i++)
		fprintf(stderr, "  --- %s/.gitignore\n%s", sc->dir[i],
		    sc->text[i]);
}

/* Compare one node; git's record is source, line, pattern, path. */
static void
compare(const struct scenario *sc, const struct ignore_set *set,
    const struct node *nd, char *const rec[4])
{
	const struct ignore_pattern *why = NULL, *why2 = NULL;
	char src[600] = "";
	int r, r2;

	r = ignore_set_match(set, nd->path, nd->is_dir, &why);
	if (why != NULL)
		snprintf(src, sizeof(src), "%s%s%s", why->file->dir,
		    why->file->dir[0] ? "/" : "", why->file->name);
	ncases++;
	if (r < 0 || strcmp(src, rec[0]) != 0 ||
	    (why != NULL && (why->line != (unsigned)atoi(rec[1]) ||
	    strcmp(why->text, rec[2]) != 0)) ||
	    (r == 1) != (rec[2][0] != '\0' && rec[2][0] != '!')) {
		if (nmismatch++ < 10) {
			fprintf(stderr, "MISMATCH %s%s: git %s:%s:'%s', "
			    "sbx %d %s:%u:'%s'\n", nd->path,
			    nd->is_dir ? "/" : "", rec[0], rec[1], rec[2], r,
			    src, why ? why->line : 0, why ? why->text : "");
			dump(sc);
		}
		return;
	}
	nexcluded += r == 1;
	nreincluded += why != NULL && r == 0;
	/* A walker that pruned excluded parents gets the same answer. */
	if (strchr(nd->path, '/') != NULL) {
		char parent[256];

		snprintf(parent, sizeof(parent), "%.*s",
		    (int)(strrchr(nd->path, '/') - nd->path), nd->path);
		if (ignore_set_match(set, parent, true, NULL) != 0)
			return;
	}
	r2 = ignore_set_match_child(set, nd->path, nd->is_dir, &why2);
	CHECK(r2 == r && why2 == why);
}

/* git's -z -v -n output: four strings per path. */
static size_t
split_records(char *out, size_t len, char *rec[MAXNODES][4])
{
	size_t n = 0, k = 0;
	char *p;

	for (p = out; p < out + len && n < MAXNODES; p += strlen(p) + 1) {
		rec[n][k] = p;
		if (++k == 4) {
			k = 0;
			n++;
		}
	}
	return n;
}

static struct ignore_set *
load(const struct scenario *sc)
{
	struct ignore_set *set;
	struct ignore_file *f;
	struct ignore_error err;
	size_t i;

	CHECK_INT(ignore_set_new(&set), 0);
	for (i = 0; i < sc->nfile; i++) {
		if (ignore_parse(sc->dir[i], ".gitignore", sc->text[i],
		    strlen(sc->text[i]), &f, &err) != 0) {
			CHECK(!"parse failed");
			continue;
		}
		CHECK_INT(ignore_set_add(set, f), 0);
	}
	return set;
}

static void
run_scenario(struct scenario *sc, const char *root)
{
	struct ignore_set *set;
	char *out, *rec[MAXNODES][4];
	size_t len, i, n;

	gen_tree(sc);
	make_tree(sc, root);
	out = run_git(root, &len);
	set = load(sc);
	n = split_records(out, len, rec);
	CHECK_INT(n, sc->nnode);
	for (i = 0; i < n && i < sc->nnode; i++) {
		CHECK_STR(rec[i][3], sc->node[i].path);
		compare(sc, set, &sc->node[i], rec[i]);
	}
	ignore_set_free(set);
	free(out);
}

/* The hand-written table must hold for git too, not only for us. */
static void
run_table(struct scenario *sc, const char *root)
{
	const struct ignore_case *c;
	char *out, *rec[MAXNODES][4];
	size_t i, k, n, len;

	for (i = 0; i < sizeof(ignore_cases) / sizeof(ignore_cases[0]); i++) {
		c = &ignore_cases[i];
		memset(sc, 0, sizeof(*sc));
		for (k = 0; k < 6 && c->files[k] != NULL; k += 2) {
			add_nodes(sc, c->files[k], true);
			snprintf(sc->dir[sc->nfile], 256, "%s", c->files[k]);
			snprintf(sc->text[sc->nfile++], 2048, "%s",
			    c->files[k + 1]);
		}
		add_nodes(sc, c->path, c->is_dir);
		make_tree(sc, root);
		out = run_git(root, &len);
		n = split_records(out, len, rec);
		for (k = 0; k < n && strcmp(rec[k][3], c->path) != 0; k++)
			;
		CHECK(k < n);
		if (k < n && ((unsigned)atoi(rec[k][1]) != c->line ||
		    c->want != (rec[k][2][0] != '\0' &&
		    rec[k][2][0] != '!'))) {
			fprintf(stderr, "table case %zu (%s): git says %s:%s\n",
			    i, c->path, rec[k][1], rec[k][2]);
			nmismatch++;
		}
		ntable++;
		free(out);
	}
}

static int
sh(const char *cmd)
{
	int status = system(cmd);

	return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

int
main(void)
{
	static struct scenario sc;
	char root[128], cmd[256];
	const char *env;
	unsigned long seed = 20240601, n = SCENARIOS, i;

	if ((env = getenv("SBX_IGNORE_SEED")) != NULL)
		seed = strtoul(env, NULL, 0);
	if ((env = getenv("SBX_IGNORE_SCENARIOS")) != NULL)
		n = strtoul(env, NULL, 0);
	rng_state = seed * 2654435761u + 1;
	if (sh("git --version >/dev/null 2>&1") != 0) {
		printf("%s: SKIP: git not found\n", __FILE__);
		return 0;
	}
	/* tmpfs when there is one: the test is mostly mkdir and creat. */
	snprintf(tmp, sizeof(tmp), "/dev/shm/sbx-ignore-git.XXXXXX");
	if (mkdtemp(tmp) == NULL) {
		snprintf(tmp, sizeof(tmp), "/tmp/sbx-ignore-git.XXXXXX");
		if (mkdtemp(tmp) == NULL)
			return 2;
	}
	/* Only the files we write may count: no user or system config. */
	setenv("HOME", tmp, 1);
	setenv("XDG_CONFIG_HOME", tmp, 1);
	setenv("GIT_CONFIG_NOSYSTEM", "1", 1);
	setenv("GIT_CONFIG_GLOBAL", "/dev/null", 1);
	setenv("LC_ALL", "C", 1);
	snprintf(cmd, sizeof(cmd), "git init -q %s/repo && : >%s/repo/.git"
	    "/info/exclude", tmp, tmp);
	if (sh(cmd) != 0)
		return 2;
	snprintf(gitdir, sizeof(gitdir), "--git-dir=%s/repo/.git", tmp);
	snprintf(root, sizeof(root), "%s/w", tmp);
	run_table(&sc, root);
	for (i = 0; i < n; i++)
		run_scenario(&sc, root);
	rm_tree(tmp);
	printf("%s: %zu table cases; seed %lu, %lu scenarios, %zu paths "
	    "compared with git (%zu excluded, %zu re-included); %zu "
	    "mismatches\n", __FILE__, ntable, seed, n, ncases, nexcluded,
	    nreincluded, nmismatch);
	CHECK_INT(nmismatch, 0);
	UNIT_DONE();
}
