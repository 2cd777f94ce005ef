/* Reads the Seatbelt violations `log stream --style ndjson` prints, and makes the tags and predicate that find them. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "daemon/seatbelt/log.h"

static int
fits(int n, size_t len)
{
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

int
seatbelt_log_tag(uint64_t nonce, uint64_t session, char *buf, size_t len)
{
	return fits(snprintf(buf, len, "sbx-%016" PRIx64 "-%" PRIu64, nonce,
	    session), len);
}

int
seatbelt_log_tag_prefix(uint64_t nonce, char *buf, size_t len)
{
	return fits(snprintf(buf, len, "sbx-%016" PRIx64 "-", nonce), len);
}

int
seatbelt_log_tag_session(const char *tag, const char *prefix,
    uint64_t *session)
{
	size_t n = strlen(prefix), i;
	uint64_t v = 0;

	if (strncmp(tag, prefix, n) != 0 || tag[n] == '\0' ||
	    strlen(tag + n) > 20)
		return -EINVAL;
	for (i = n; tag[i] != '\0'; i++) {
		if (tag[i] < '0' || tag[i] > '9' ||
		    v > (UINT64_MAX - (uint64_t)(tag[i] - '0')) / 10)
			return -EINVAL;
		v = v * 10 + (uint64_t)(tag[i] - '0');
	}
	*session = v;
	return 0;
}

int
seatbelt_log_predicate(const char *prefix, char *buf, size_t len)
{
	/* Only what seatbelt_log_tag_prefix() makes: nothing to quote. */
	if (prefix[0] == '\0' || prefix[strspn(prefix,
	    "abcdefghijklmnopqrstuvwxyz0123456789-")] != '\0')
		return -EINVAL;
	return fits(snprintf(buf, len, "processID == 0 AND eventMessage "
	    "CONTAINS \"%s\"", prefix), len);
}

const char *
seatbelt_log_kind_name(enum seatbelt_kind kind)
{
	static const char *const names[] = { "", "fs-read", "fs-write",
	    "network", "ipc", "syscall" };

	return kind >= SEATBELT_FS_READ && kind <= SEATBELT_SYSCALL ?
	    names[kind] : "syscall";
}

static void
copy(char *dst, size_t cap, const char *s, size_t n)
{
	if (n >= cap)
		n = cap - 1;
	memcpy(dst, s, n);
	dst[n] = '\0';
}

static enum seatbelt_kind
kind_of(const char *op, const char *target)
{
	if (strncmp(op, "file-read", 9) == 0)
		return SEATBELT_FS_READ;
	if (strncmp(op, "file-", 5) == 0)
		return SEATBELT_FS_WRITE;
	/* A Unix socket is named by its path; an IP endpoint is not. */
	if (strncmp(op, "network-", 8) == 0)
		return target[0] == '/' ? SEATBELT_IPC : SEATBELT_NETWORK;
	if (strncmp(op, "mach-", 5) == 0 || strncmp(op, "ipc-", 4) == 0 ||
	    strstr(op, "notification") != NULL ||
	    strncmp(op, "appleevent", 10) == 0)
		return SEATBELT_IPC;
	return SEATBELT_SYSCALL;
}

/* Digits at *p (at most 10) as a number; advances *p. -1 if none. */
static long
number(const char **p, const char *end)
{
	long v = 0;
	int n = 0;

	while (*p < end && **p >= '0' && **p <= '9' && n < 10) {
		v = v * 10 + (**p - '0');
		(*p)++;
		n++;
	}
	return n > 0 ? v : -1;
}

/* "deny(N) " or "allow(N) " (the count may be missing): what follows. */
static const char *
action(const char *p, const char *end, struct seatbelt_violation *v)
{
	long n = 1;

	if (end - p >= 4 && memcmp(p, "deny", 4) == 0) {
		v->denied = true;
		p += 4;
	} else if (end - p >= 5 && memcmp(p, "allow", 5) == 0) {
		v->denied = false;
		p += 5;
	} else {
		return NULL;
	}
	if (p < end && *p == '(') {
		p++;
		if ((n = number(&p, end)) < 0 || p == end || *p++ != ')')
			return NULL;
	}
	if (p == end || *p != ' ')
		return NULL;
	v->count = v->count > 1 ? v->count : (unsigned)n;
	return p + 1;
}

/*
 * "NAME(PID) " before the action, the name at most 32 bytes; the first
 * reading that fits wins, so a path later on the line cannot move it.
 */
static const char *
process(const char *p, const char *end, struct seatbelt_violation *v)
{
	const char *q, *r;
	long pid;
	size_t i;

	for (i = 1; i <= 32 && p + i < end; i++) {
		if (p[i] != '(')
			continue;
		q = p + i + 1;
		if ((pid = number(&q, end)) < 0 || end - q < 2 ||
		    q[0] != ')' || q[1] != ' ')
			continue;
		if ((r = action(q + 2, end, v)) == NULL)
			continue;
		copy(v->process, sizeof(v->process), p, i);
		v->pid = (int)pid;
		return r;
	}
	return NULL;
}

/* "N duplicate report(s) for NAME deny(1) ...": the same, N more times. */
static const char *
duplicates(const char *p, const char *end, struct seatbelt_violation *v)
{
	static const char mid[] = " duplicate report";
	const char *name, *r;
	long n;
	size_t i;

	if ((n = number(&p, end)) < 0 || (size_t)(end - p) < sizeof(mid) ||
	    memcmp(p, mid, sizeof(mid) - 1) != 0)
		return NULL;
	p += sizeof(mid) - 1;
	p += p < end && *p == 's';
	if (end - p < 5 || memcmp(p, " for ", 5) != 0)
		return NULL;
	name = p + 5;
	v->count = (unsigned)n;
	for (i = 1; i <= 33 && name + i < end; i++)
		if (name[i - 1] == ' ' &&
		    (r = action(name + i, end, v)) != NULL) {
			copy(v->process, sizeof(v->process), name, i - 1);
			return r;
		}
	return NULL;
}

/* The message: "Sandbox: " WHO " " ACTION " " OP [" " TARGET] ["\n" TAG]. */
static int
message(const char *m, size_t n, struct seatbelt_violation *v)
{
	const char *end = memchr(m, '\n', n), *tag, *p, *op;

	if (end == NULL)
		end = m + n;
	/* The kernel appends the profile's message last. */
	if (end < m + n) {
		for (tag = m + n; tag[-1] != '\n'; tag--)
			;
		copy(v->tag, sizeof(v->tag), tag, (size_t)(m + n - tag));
	}
	p = m + 9;
	if ((op = process(p, end, v)) == NULL &&
	    (op = duplicates(p, end, v)) == NULL)
		return -EINVAL;
	for (p = op; p < end && *p != ' '; p++)
		;
	if (p == op)
		return -EINVAL;
	copy(v->op, sizeof(v->op), op, (size_t)(p - op));
	if (p < end)
		p++;
	copy(v->target, sizeof(v->target), p, (size_t)(end - p));
	v->kind = kind_of(v->op, v->target);
	return 1;
}

int
seatbelt_log_parse(const char *line, size_t len,
    struct seatbelt_violation *out)
{
	struct seatbelt_violation v;
	json_t *root, *pid, *msg, *sender;
	const char *m, *s;
	int r = 0;

	if (len == 0 || line[0] != '{' ||
	    (root = json_loadb(line, len, 0, NULL)) == NULL)
		return 0;
	pid = json_object_get(root, "processID");
	msg = json_object_get(root, "eventMessage");
	sender = json_object_get(root, "senderImagePath");
	s = json_string_value(sender);
	m = json_string_value(msg);
	if (json_is_integer(pid) && json_integer_value(pid) == 0 &&
	    m != NULL && strncmp(m, "Sandbox: ", 9) == 0 &&
	    (s == NULL || strstr(s, "Sandbox") != NULL)) {
		memset(&v, 0, sizeof(v));
		s = json_string_value(json_object_get(root, "timestamp"));
		copy(v.time, sizeof(v.time), s ? s : "", s ? strlen(s) : 0);
		r = message(m, json_string_length(msg), &v);
	}
	json_decref(root);
	if (r == 1)
		*out = v;
	return r;
}
