/* Golden-file tests: reading a file, listing a directory's inputs, comparing or rewriting an output. */
#ifndef SBX_GOLDEN_H
#define SBX_GOLDEN_H

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "unit.h"

/* The whole file, NUL-terminated and malloc'd, or NULL. */
static inline char *
golden_slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	char *buf = NULL;
	long n;

	if (f == NULL)
		return NULL;
	if (fseek(f, 0, SEEK_END) == 0 && (n = ftell(f)) >= 0 &&
	    fseek(f, 0, SEEK_SET) == 0 && (buf = malloc((size_t)n + 1)) &&
	    fread(buf, 1, (size_t)n, f) == (size_t)n) {
		*len = (size_t)n;
		buf[n] = '\0';
	} else {
		free(buf);
		buf = NULL;
	}
	fclose(f);
	return buf;
}

static inline int
golden_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* dir's file names ending in suffix, without it, sorted (each malloc'd). */
static inline size_t
golden_list(const char *dir, const char *suffix, char **names, size_t max)
{
	size_t n = 0, len, slen = strlen(suffix);
	struct dirent *e;
	DIR *d = opendir(dir);

	CHECK(d != NULL);
	while (d != NULL && (e = readdir(d)) != NULL && n < max) {
		len = strlen(e->d_name);
		if (len > slen && strcmp(e->d_name + len - slen, suffix) == 0)
			names[n++] = strndup(e->d_name, len - slen);
	}
	if (d != NULL)
		closedir(d);
	qsort(names, n, sizeof(names[0]), golden_cmp);
	return n;
}

/* Calls run on each name golden_list() finds; returns how many. */
static inline size_t
golden_each(const char *dir, const char *suffix,
    void (*run)(const char *name, void *arg), void *arg)
{
	char *names[256];
	size_t n, i;

	n = golden_list(dir, suffix, names, 256);
	for (i = 0; i < n; i++) {
		run(names[i], arg);
		free(names[i]);
	}
	return n;
}

/*
 * got[0..len) must be the file at path, byte for byte; with
 * SBX_GOLDEN_UPDATE set it becomes the file instead (review the change
 * with git diff). A difference fails a CHECK and prints got.
 */
static inline void
golden_check(const char *path, const char *got, size_t len)
{
	size_t wlen = 0;
	char *want;
	FILE *f;

	if (getenv("SBX_GOLDEN_UPDATE") != NULL) {
		CHECK((f = fopen(path, "wb")) != NULL);
		if (f != NULL) {
			CHECK(fwrite(got, 1, len, f) == len);
			fclose(f);
		}
		return;
	}
	want = golden_slurp(path, &wlen);
	if (want == NULL || wlen != len || memcmp(want, got, len) != 0) {
		fprintf(stderr, "%s differs; got:\n%.*s\n", path, (int)len,
		    got);
		CHECK(!"output matches its golden file");
	}
	free(want);
}

#endif
