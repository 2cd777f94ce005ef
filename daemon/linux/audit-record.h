/* Parsing the text of kernel audit records: the Landlock ones (ACCESS,
 * DOMAIN) and sbx's own barrier messages. Pure: bytes in, fields out. */
#ifndef SBX_AUDIT_RECORD_H
#define SBX_AUDIT_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Record types (linux/audit.h; defined here for older headers). */
#define AUDIT_RECORD_TRUSTED_APP 1121
#define AUDIT_RECORD_EOE 1320
#define AUDIT_RECORD_LANDLOCK_ACCESS 1423
#define AUDIT_RECORD_LANDLOCK_DOMAIN 1424

#define AUDIT_TEXT_MAX 1024

struct audit_record {
	int type;
	uint64_t serial;		/* the event's: "audit(t.ms:serial)" */
	uint64_t domain;		/* Landlock domain id; 0 if none */
	/* LANDLOCK_ACCESS */
	char blockers[128];		/* "fs.write_file,fs.truncate" */
	char path[AUDIT_TEXT_MAX];	/* decoded; "" if none */
	char ocomm[64];			/* scope.signal: the target */
	long opid;
	char addr[64];			/* net.*: "daddr:dest" */
	/* LANDLOCK_DOMAIN */
	bool allocated, deallocated;	/* status= */
	long pid;			/* allocated: who made the domain */
	/* TRUSTED_APP: msg='...' */
	char msg[128];
};

/*
 * Parses one record's text (not NUL-terminated, len bytes) of the given
 * type into *out. Untrusted strings that audit hex-encodes are decoded
 * (NUL and control bytes become '?'). 0, or -EINVAL for text that is not
 * a record of that type (no "audit(...)" header, no domain where one is
 * required).
 */
int audit_record_parse(int type, const char *text, size_t len,
		       struct audit_record *out);

#endif
