/* What a run wrote into its workspace's home layer instead of the home
 * (docs/security.md, "Writes the home overlay keeps"): listed after the
 * run, caches left out, so a write that never reaches the real home is
 * not a surprise. */
#ifndef SBX_HOME_DIVERTED_H
#define SBX_HOME_DIVERTED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Most paths listed; the rest are counted. */
#define HOME_DIVERTED_MAX 10

struct home_diverted {
	char *path[HOME_DIVERTED_MAX]; /* "~/x", "~/dir/" (made in the run),
					  "~/y (removed)"; owned */
	size_t n;
	unsigned more;                 /* past path[] */
};

/* Whether rel (relative to the home, no leading slash) is a tool's cache,
 * history or package store, which a run may fill without a word: ~/.cache,
 * ~/.npm, ~/.cargo/registry, ~/go/pkg, pip's ~/.local/lib, ... Pure. */
bool home_diverted_cache(const char *rel);

/*
 * Walks layers/upper (the daemon's: no link followed, at most a bounded
 * number of entries) for what changed since since_unix_ms (its ctime: a
 * copy-up makes a new inode), caches left out: a file, a directory the
 * home (home, the real one) lacks (listed alone, not walked), a removal
 * (an overlayfs whiteout). 0 or -errno; free with home_diverted_free.
 */
int home_diverted_scan(const char *layers, const char *home,
		       int64_t since_unix_ms, struct home_diverted *out);
void home_diverted_free(struct home_diverted *d);

#endif
