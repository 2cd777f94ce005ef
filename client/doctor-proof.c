/* sbxctl doctor's proof: a throwaway sandbox, run through sbxd like any
 * command, must write inside its workspace, must not change a file outside
 * it, and must not read what the policy denies. The host's view decides,
 * not what the sandboxed command says. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include "client/client.h"
#include "client/doctor.h"
#include "client/file.h"

#define PROOF_TIMEOUT_MS 30000
#define PROOF_OUT_MAX 4096

/* The throwaway sandbox's files, all under the scratch directory: a
 * workspace, and beside it a file to overwrite and one to read (denied
 * by the run's policy), each holding a token nobody could guess. */
struct proof {
	char scratch[PATH_MAX], ws[PATH_MAX], inside[PATH_MAX];
	char target[PATH_MAX];
	char secret[PATH_MAX], readable[PATH_MAX];
	char target_text[64], secret_text[40], readable_text[40];
	char policy_path[PATH_MAX]; /* an existing denyRead path, or "" */
	char out[PROOF_OUT_MAX];    /* the command's stdout */
	size_t outlen;
	char error[512];            /* sbxd's Error reply, if any */
	bool timed_out;             /* killed after PROOF_TIMEOUT_MS */
};

/* The sandboxed side: each line is "WHAT: written|read|<error text>". */
static const char proof_script[] =
	"w() { e=$( (printf %s \"$2\" >\"$1\") 2>&1 ) && echo \"$3: written\""
	" || echo \"$3: ${e##*: }\"; }\n"
	"r() { e=$( { if [ -d \"$1\" ]; then ls -A \"$1\"; else cat \"$1\";"
	" fi; } 2>&1 >/dev/null ) && echo \"$2: read\" ||"
	" echo \"$2: ${e##*: }\"; }\n"
	"w \"$1\" changed outside\n"
	"w \"$2\" inside inside\n"
	"r \"$3\" secret\n"
	"cat \"$3\" \"$4\" 2>/dev/null; echo\n"
	"[ -z \"$5\" ] || r \"$5\" policy\n";

static int
token(char *buf, size_t len)
{
	unsigned char raw[16];
	size_t i;

	if (getentropy(raw, sizeof(raw)) < 0)
		return -errno;
	for (i = 0; i < sizeof(raw) && 2 * i + 2 < len; i++)
		snprintf(buf + 2 * i, 3, "%02x", raw[i]);
	return 0;
}

/* The file's whole content equals text. */
static bool
holds(const char *path, const char *text)
{
	char buf[128];
	ssize_t n;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return false;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n < 0)
		return false;
	buf[n] = '\0';
	return !strcmp(buf, text);
}

static int
proof_setup(struct proof *p, const char *dir)
{
	char tok[40];

	if (strlen(dir) + 32 > PATH_MAX || !strchr(dir, '/'))
		return -ENAMETOOLONG;
	snprintf(p->scratch, sizeof(p->scratch), "%s", dir);
	if (snprintf(p->ws, sizeof(p->ws), "%s/workspace", dir) < 0 ||
	    snprintf(p->inside, sizeof(p->inside), "%s/inside", p->ws) < 0 ||
	    snprintf(p->target, sizeof(p->target), "%s/outside", dir) < 0 ||
	    snprintf(p->secret, sizeof(p->secret), "%s/denied", dir) < 0 ||
	    snprintf(p->readable, sizeof(p->readable), "%s/readable",
		     dir) < 0 ||
	    token(tok, sizeof(tok)) < 0 ||
	    token(p->secret_text, sizeof(p->secret_text)) < 0 ||
	    token(p->readable_text, sizeof(p->readable_text)) < 0)
		return -EIO;
	snprintf(p->target_text, sizeof(p->target_text), "sbx doctor %s",
		 tok);
	if (mkdir(p->ws, 0755) < 0)
		return -errno;
	if (file_write_new(p->target, 0644, p->target_text,
			   strlen(p->target_text)) < 0 ||
	    file_write_new(p->secret, 0644, p->secret_text,
			   strlen(p->secret_text)) < 0 ||
	    file_write_new(p->readable, 0644, p->readable_text,
			   strlen(p->readable_text)) < 0)
		return -EIO;
	return 0;
}

/* The first path the effective policy makes unreadable that exists here
 * (~/.ssh and the like), from what `sbxctl describe` shows. */
static void
policy_denied(struct client *c, struct proof *p)
{
	Sbx__Envelope env = SBX__ENVELOPE__INIT, *rep = NULL;
	Sbx__DescribeRequest req = SBX__DESCRIBE_REQUEST__INIT;
	json_t *o, *v;
	struct stat st;
	size_t i;

	req.workspace = p->ws;
	env.msg_case = SBX__ENVELOPE__MSG_DESCRIBE;
	env.describe = &req;
	if (client_call(c, &env, SBX__ENVELOPE__MSG_DESCRIBE_REPLY, &rep) < 0)
		return;
	o = json_loads(rep->describe_reply->json, 0, NULL);
	json_array_foreach(json_object_get(o, "unreadable"), i, v)
		if (json_is_string(v) && lstat(json_string_value(v), &st) == 0) {
			snprintf(p->policy_path, sizeof(p->policy_path), "%s",
				 json_string_value(v));
			break;
		}
	json_decref(o);
	wire_envelope_free(rep);
}

static int
proof_send(struct client *c, struct proof *p)
{
	Sbx__Envelope env = SBX__ENVELOPE__INIT;
	Sbx__RunRequest req = SBX__RUN_REQUEST__INIT;
	Sbx__PolicyOverrides ov = SBX__POLICY_OVERRIDES__INIT;
	Sbx__StdinClose sc = SBX__STDIN_CLOSE__INIT;
	char *argv[] = { (char *)"/bin/sh", (char *)"-c", (char *)proof_script,
			 (char *)"sh", p->target, p->inside, p->secret,
			 p->readable, p->policy_path };
	char *envp[] = { (char *)"PATH=/usr/local/bin:/usr/bin:/bin" };
	char *set_env[] = { (char *)"LC_ALL=C" }; /* errors in English */
	/* The home read-only: a throwaway workspace leaves no home overlay
	 * layer behind in the daemon's state. */
	json_t *pol = json_pack("{s:{s:[s], s:s}}", "filesystem", "denyRead",
				p->secret, "home", "read-only");
	int r;

	ov.policy_json = pol ? json_dumps(pol, 0) : NULL;
	json_decref(pol);
	if (!ov.policy_json)
		return -ENOMEM;
	ov.policy_file = (char *)"<sbxctl doctor>";
	req.argv = argv;
	req.n_argv = sizeof(argv) / sizeof(argv[0]);
	req.env = envp;
	req.n_env = 1;
	req.set_env = set_env;
	req.n_set_env = 1;
	req.cwd = p->ws;
	req.workspace = p->ws;
	req.io_mode = SBX__IO_MODE__IO_MODE_STREAMING;
	req.timeout_ms = PROOF_TIMEOUT_MS;
	req.umask = 022;
	req.overrides = &ov;
	env.msg_case = SBX__ENVELOPE__MSG_RUN;
	env.run = &req;
	r = client_send(c, &env, NULL, 0);
	free(ov.policy_json);
	if (r < 0)
		return r;
	env.msg_case = SBX__ENVELOPE__MSG_STDIN_CLOSE;
	env.stdin_close = &sc;
	return client_send(c, &env, NULL, 0);
}

/* Runs the script in a sandbox; 0 once its exit status came. */
static int
proof_run(struct client *c, struct proof *p)
{
	Sbx__Envelope *e;
	Sbx__OutputData *o;
	int r;

	if ((r = proof_send(c, p)) < 0)
		return r;
	for (;;) {
		if ((r = client_recv(c, &e)) < 0 || !e)
			return r < 0 ? r : -EPIPE;
		switch (e->msg_case) {
		case SBX__ENVELOPE__MSG_OUTPUT:
			o = e->output;
			if (o->stream == 1 && p->outlen + o->data.len <
					      sizeof(p->out)) {
				memcpy(p->out + p->outlen, o->data.data,
				       o->data.len);
				p->outlen += o->data.len;
				p->out[p->outlen] = '\0';
			}
			break;
		case SBX__ENVELOPE__MSG_ERROR:
			snprintf(p->error, sizeof(p->error), "%s",
				 e->error->message);
			wire_envelope_free(e);
			return -EPROTO;
		case SBX__ENVELOPE__MSG_EXIT_STATUS:
			p->timed_out = e->exit_status->timed_out;
			wire_envelope_free(e);
			return 0;
		default: /* started, violations: the host decides */
			break;
		}
		wire_envelope_free(e);
	}
}

/* What the script said about WHAT ("written", "read", or the error). */
static const char *
said(const struct proof *p, const char *what, char *buf, size_t len)
{
	const char *s = p->out;
	size_t n = strlen(what);

	for (; s && *s; s = strchr(s, '\n'), s = s ? s + 1 : NULL)
		if (!strncmp(s, what, n) && !strncmp(s + n, ": ", 2)) {
			snprintf(buf, len, "%.*s", (int)strcspn(s + n + 2,
				 "\n"), s + n + 2);
			return buf;
		}
	snprintf(buf, len, "no answer");
	return buf;
}

/* The host's view decides: files unchanged, tokens absent. */
static void
proof_judge(struct doctor *d, const struct proof *p)
{
	char a[128], b[128];
	struct doctor_check *c;

	if (p->timed_out) {
		/* A first run in a workspace builds its template, which walks
		 * the writable trees: a policy that makes a big tree writable
		 * makes that slow. */
		c = doctor_add(d, DOCTOR_FAIL, "sandbox-write", "the throwaway "
			       "sandbox did not finish in %d s, so nothing is "
			       "proved", PROOF_TIMEOUT_MS / 1000);
		doctor_fix(c, "`sbxctl describe` lists the writable paths: a "
			   "large writable tree makes a first run slow; run "
			   "`sbxctl doctor` again, or narrow allowWrite");
	} else if (!holds(p->inside, "inside")) {
		c = doctor_add(d, DOCTOR_FAIL, "sandbox-write", "a write "
			       "inside the workspace did not reach the host "
			       "(%s), so nothing is proved", said(p, "inside",
			       a, sizeof(a)));
		doctor_fix(c, "run `sbxctl run -- touch x` in a directory of "
			   "yours and read what it says");
	} else if (!holds(p->target, p->target_text)) {
		c = doctor_add(d, DOCTOR_FAIL, "sandbox-write", "a write "
			       "outside the workspace reached the host: %s",
			       p->target);
		doctor_fix(c, "`sbxctl describe` lists the writable paths: "
			   "take out of your policy the allowWrite entry that "
			   "covers %.*s", (int)(strrchr(p->scratch, '/') -
						p->scratch), p->scratch);
	} else
		doctor_add(d, DOCTOR_OK, "sandbox-write", "a throwaway sandbox "
			   "wrote inside its workspace, and its write outside "
			   "did not reach the host (%s)", said(p, "outside", a,
			   sizeof(a)));
	if (!strstr(p->out, p->readable_text)) {
		c = doctor_add(d, DOCTOR_FAIL, "sandbox-read", "a readable "
			       "file was not read in the sandbox, so nothing is "
			       "proved");
		doctor_fix(c, "run `sbxctl run -- cat FILE` and read what it "
			   "says");
	} else if (strstr(p->out, p->secret_text)) {
		c = doctor_add(d, DOCTOR_FAIL, "sandbox-read", "a file in the "
			       "run's denyRead was read in the sandbox: %s",
			       p->secret);
		doctor_fix(c, "report it with this output: denyRead is not "
			   "enforced");
	} else if (p->policy_path[0] &&
		   !strcmp(said(p, "policy", b, sizeof(b)), "read")) {
		c = doctor_add(d, DOCTOR_FAIL, "sandbox-read", "%s is in the "
			       "policy's denyRead but was read in the sandbox",
			       p->policy_path);
		doctor_fix(c, "report it with this output: denyRead is not "
			   "enforced");
	} else
		doctor_add(d, DOCTOR_OK, "sandbox-read", "a file in denyRead "
			   "was unreadable in it (%s)%s%s%s",
			   said(p, "secret", a, sizeof(a)), p->policy_path[0] ?
			   ", and so was " : "", p->policy_path,
			   p->policy_path[0] ? " (default policy)" : "");
}

void
doctor_proof(struct doctor *d, struct client *c, const char *dir)
{
	struct proof *p = calloc(1, sizeof(*p));
	struct doctor_check *k;
	int r;

	if (!p || (r = proof_setup(p, dir)) < 0) {
		doctor_fix(doctor_add(d, DOCTOR_FAIL, "sandbox", "cannot set "
				      "up the test files in %s", dir),
			   "pass --scratch DIR: a directory of yours, not "
			   "under /tmp or /var/tmp");
		free(p);
		return;
	}
	policy_denied(c, p);
	if ((r = proof_run(c, p)) < 0) {
		k = doctor_add(d, DOCTOR_FAIL, "sandbox", "sbxd could not run "
			       "a throwaway sandbox: %s", p->error[0] ?
			       p->error : strerror(-r));
		doctor_fix(k, "fix the failed checks above; `sbxctl status` "
			   "shows what sbxd found when it started");
	} else
		proof_judge(d, p);
	free(p);
}
