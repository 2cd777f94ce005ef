/* sbxctl doctor: the report (checks with a status, a detail and a fix, and
 * how it prints: doctor.c, pure), what the daemon said (filled by
 * cmd-doctor.c), the throwaway sandbox (doctor-proof.c), and the host's
 * kernel checks, one implementation per platform (linux-doctor.c). */
#ifndef SBX_DOCTOR_H
#define SBX_DOCTOR_H

#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>

struct client;

enum doctor_status { DOCTOR_OK, DOCTOR_WARN, DOCTOR_FAIL };

#define DOCTOR_MAX 24

struct doctor_check {
	enum doctor_status status;
	char name[24];
	char detail[512];
	char fix[512];       /* what to do; "" when nothing is needed */
};

struct doctor {
	struct doctor_check checks[DOCTOR_MAX];
	int n;
};

/* Appends a check and returns it for doctor_fix(); NULL once the report
 * is full (doctor_fix ignores NULL). */
struct doctor_check *doctor_add(struct doctor *d, enum doctor_status st,
				const char *name, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
void doctor_fix(struct doctor_check *c, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

/* One line per check, "ok|warn|fail  NAME: DETAIL", then for warn and
 * fail an indented "fix: ..." line; last a summary line. */
void doctor_print(const struct doctor *d, FILE *f);
/* {"enforceable": bool, "checks": [{"name", "status", "detail",
 * "fix"}...]}; fix only where there is one. */
json_t *doctor_json(const struct doctor *d);
/* 1 when a check failed (the sandbox is not enforceable as configured),
 * else 0. */
int doctor_exit_status(const struct doctor *d);

/* What the daemon said in Hello and Status; up false when none answered
 * (error says why, "" when the Hello itself failed and was printed). */
struct doctor_daemon {
	bool up;
	bool privileged;
	bool landlock_only;      /* no namespaces: fewer guarantees */
	bool userns;         /* it made user namespaces at start-up */
	int landlock_abi;
	bool seccomp, seccomp_notify, landlock_audit;
	char audit_off[128]; /* why landlock_audit is false */
	char cgroups[96];    /* what bounds sandboxes ("" nothing), */
	char cgroups_off[320]; /* what is not bounded, why, the fix */
	char limits[96];     /* the default limits */
	char home_quota[200]; /* how limits.home is enforced ("": unsaid) */
	int pid;
	char version[32];
	char error[2300];
};

/* The user-namespace check from what was seen: the probe (failed: the
 * call and its error, NULL when it worked), the sysctls that explain a
 * failure (-1: absent), and the daemon. Adds the "userns" check, with the
 * knob to turn in the fix. */
struct doctor_userns {
	const char *failed;
	int err;
	struct {
		long clone;    /* kernel.unprivileged_userns_clone (Debian) */
		long max;      /* user.max_user_namespaces */
		long apparmor; /* kernel.apparmor_restrict_unprivileged_userns */
	} sysctl;
	unsigned uid;
	const char *user;
};
void doctor_userns(struct doctor *d, const struct doctor_userns *u,
		   const struct doctor_daemon *dd);
/* "run sbxd in privileged mode: ..." for uid, into buf; returns buf. */
const char *doctor_privileged(unsigned uid, const char *user, char *buf,
			      size_t len);

/* Runs a throwaway sandbox through c with its workspace in dir (an empty
 * scratch directory of ours) and adds the "sandbox-write" and
 * "sandbox-read" checks, or "sandbox" when it could not run. */
void doctor_proof(struct doctor *d, struct client *c, const char *dir);

/* Probes this host's kernel for what sandboxes need and adds a check for
 * each (userns, mount-api, landlock, seccomp, seccomp-notify, netns,
 * overlay, audit, cgroup). dir is an empty scratch directory of ours. */
void doctor_host(struct doctor *d, const struct doctor_daemon *dd,
		 const char *dir);

#endif
