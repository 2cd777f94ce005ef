/* Seatbelt profiles by the SHA-256 of what they are made of: in memory, and as files sandbox-exec -f reads. */
#ifndef SBX_SEATBELT_CACHE_H
#define SBX_SEATBELT_CACHE_H

#include <stddef.h>

#include "daemon/seatbelt/seatbelt.h"

/* Profiles kept in memory; the least recently used goes first. */
#define SEATBELT_CACHE_MAX	64

struct seatbelt_cache;

/* A cached profile; every pointer is the cache's, valid until the entry
 * is evicted (the next seatbelt_cache_get() may do it). */
struct seatbelt_cached {
	const char	*text;
	size_t		 len;
	const char	*path;		/* DIR/HASH.sb, what -f reads; NULL
					   when it could not be written */
	int		 file_err;	/* then: -errno of the write */
	const char	*hash;		/* 64 hex digits: names the profile in
					   events and on disk */
	size_t		 warnings;	/* the generator's, when it ran */
};

/*
 * $XDG_CACHE_HOME/sbx/seatbelt when XDG_CACHE_HOME is absolute, else
 * $HOME/.cache/sbx/seatbelt. -ENOENT without either, -ENAMETOOLONG.
 */
int	seatbelt_cache_dir(char *buf, size_t len);

/*
 * The key of a profile: SHA-256 (hex) of the canonical JSON of every
 * input (the effective policy as policy_render_json() renders it, paths,
 * ports, each ignore file's lines) and SEATBELT_GENERATOR. Not the
 * session: the tag is a parameter (seatbelt.h).
 */
int	seatbelt_cache_key(const struct seatbelt_input *in, char hash[65]);

/* dir is created (0700, with its parents) on first use. */
int	seatbelt_cache_new(const char *dir, struct seatbelt_cache **out);
void	seatbelt_cache_free(struct seatbelt_cache *c);

/*
 * The profile for in. A key seen before comes from memory; otherwise the
 * profile is generated (its warnings appended to diags) and written to
 * DIR/HASH.sb unless that file already holds exactly it: a temporary
 * file, fsync, rename, fsync of the directory, so a crash leaves the old
 * file or the new one. The file is never read back as a profile: a
 * profile always comes from this daemon's generator, and the file is
 * what sandbox-exec reads and what a person inspects by the hash.
 * Returns 0 (a file that could not be written leaves out->path NULL:
 * sandbox-exec -p still works), the generator's errors, or -ENOMEM.
 */
int	seatbelt_cache_get(struct seatbelt_cache *c,
	    const struct seatbelt_input *in, struct seatbelt_cached *out,
	    struct policy_diags *diags);

#endif
