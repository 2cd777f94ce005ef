/* Finds the line and column of a JSON value by its path. */
#ifndef SBX_POLICY_LOC_H
#define SBX_POLICY_LOC_H

#include <stddef.h>

/*
 * jansson says where a syntax error is but not where a value sits, and a
 * semantic error ("unknown key") must still point into the file. One scan
 * of the bytes records every value down to POLICY_LOC_DEPTH levels (deeper
 * ones fall back to their nearest recorded ancestor); lookups then walk a
 * cursor, which is O(1) when asked in document order, as the parser does.
 */
#define POLICY_LOC_DEPTH 4

/* One step of a path: an object member name, or (key NULL) an index. */
struct policy_loc_step {
	const char *key;
	size_t index;
};

struct policy_loc_entry {
	int parent;		/* entry index of the container; -1: root */
	size_t index;		/* position in an array */
	char *key;		/* decoded member name; NULL in an array */
	int line, col;		/* of the value, 1-based, columns count chars */
	int kline, kcol;	/* of the member name; the value's in arrays */
};

struct policy_loc {
	struct policy_loc_entry *v;
	size_t n, cap;
	size_t cursor;
};

/* Scans buf (jansson has already accepted it); 0 or -ENOMEM. */
int policy_loc_build(struct policy_loc *loc, const char *buf, size_t len);
void policy_loc_free(struct policy_loc *loc);
/* The entry at path, or NULL if that value was not recorded. */
const struct policy_loc_entry *policy_loc_find(struct policy_loc *loc,
    const struct policy_loc_step *path, size_t depth);

#endif
