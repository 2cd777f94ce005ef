/* Long-lived sandboxes (sbox.h): the list, their timers, and the checks
 * before a command goes into one. The sandbox itself is its holder
 * session's (session.c spawns it resident, session-exec.c starts the
 * commands in it); this file decides when it ends. */
#include <errno.h>
#include <event2/event.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "daemon/conn.h"
#include "daemon/daemon.h"
#include "daemon/events.h"
#include "daemon/log.h"
#include "daemon/sbox.h"
#include "daemon/session.h"
#include "daemon/session-int.h"

struct sbox {
	uint64_t id;
	uint64_t holder;           /* its holder session's id */
	uid_t owner;               /* the peer that created it */
	char *workspace;
	uint32_t idle_ms;
	uint64_t lifetime_ms;
	uint64_t created_unix_ms;
	uint64_t idle_since_ms;    /* sbxd_now_ms() when running became 0 */
	unsigned running;          /* its commands not yet ended */
	uint64_t execs;
	uint64_t last_exec;        /* the latest command's session id */
	bool dying;                /* killed: takes no more commands */
	const char *why;           /* why it was killed (a literal) */
	struct event *idle_ev, *life_ev;
	struct sbox *next;
};

static struct sbox *sboxes;

static struct sbox *
find(uint64_t id)
{
	struct sbox *sb;

	for (sb = sboxes; sb; sb = sb->next)
		if (sb->id == id)
			return sb;
	return NULL;
}

static void
sbox_free(struct sbox *sb)
{
	Sbx__SandboxEnded end = SBX__SANDBOX_ENDED__INIT;
	Sbx__SandboxInfo info;
	struct sbox **pp;

	if (sbox_info(sb->id, &info) == 0) {
		end.sandbox = &info;
		end.reason = (char *)(sb->why ? sb->why : "its init ended");
		events_sandbox_ended(&end);
	}

	for (pp = &sboxes; *pp; pp = &(*pp)->next)
		if (*pp == sb) {
			*pp = sb->next;
			break;
		}
	if (sb->idle_ev)
		event_free(sb->idle_ev);
	if (sb->life_ev)
		event_free(sb->life_ev);
	free(sb->workspace);
	free(sb);
}

/* SIGKILL to its init takes every process of it; the holder's end then
 * frees it (sbox_session_ended). */
static void
kill_sbox(struct sbox *sb, const char *why)
{
	struct session *h = session_find(sb->holder);

	if (!sb->dying) {
		log_info("sandbox %llu: %s", (unsigned long long)sb->id, why);
		sb->why = why;
	}
	sb->dying = true;
	if (sb->idle_ev)
		evtimer_del(sb->idle_ev);
	if (sb->life_ev)
		evtimer_del(sb->life_ev);
	if (!h) {
		sbox_free(sb);
		return;
	}
	/* Not started yet: hanging up its status channel kills it as it is
	 * made (as for a run whose client left). */
	if (h->proc.pidfd < 0 && h->proc.status_fd >= 0)
		shutdown(h->proc.status_fd, SHUT_RDWR);
	session_signal(h, SIGKILL);
}

static void
idle_cb(evutil_socket_t fd, short what, void *arg)
{
	struct sbox *sb = arg;

	if (!sb->running)
		kill_sbox(sb, "idle timeout");
}

static void
life_cb(evutil_socket_t fd, short what, void *arg)
{
	kill_sbox(arg, "lifetime over");
}

static int
arm(struct event *ev, uint64_t ms)
{
	struct timeval tv = { (time_t)(ms / 1000),
			      (suseconds_t)(ms % 1000) * 1000 };

	return evtimer_add(ev, &tv);
}

static int
devnull3(int fds[3])
{
	int i;

	for (i = 0; i < 3; i++)
		if ((fds[i] = open("/dev/null", O_RDWR | O_CLOEXEC)) < 0) {
			while (i-- > 0)
				close(fds[i]);
			return -errno;
		}
	return 0;
}

int
sbox_create(struct conn *c, const Sbx__RunRequest *spec,
	    const struct policy *pol, uint32_t idle_ms, uint64_t lifetime_ms,
	    uint64_t *id, Sbx__ErrorCode *code, char *err, size_t errlen)
{
	static char name[] = "sbx-sandbox";
	static char *argv[] = { name, NULL };
	Sbx__RunRequest r = *spec;
	struct session *h;
	struct sbox *sb = calloc(1, sizeof(*sb));
	Sbx__SandboxInfo info;
	struct timespec now;
	int fds[3], e;

	*code = SBX__ERROR_CODE__ERROR_CODE_INTERNAL;
	if (!sb || !(sb->workspace = strdup(spec->workspace)) ||
	    !(sb->idle_ev = evtimer_new(sbxd.base, idle_cb, sb)) ||
	    !(sb->life_ev = evtimer_new(sbxd.base, life_cb, sb))) {
		snprintf(err, errlen, "out of memory");
		e = -ENOMEM;
		goto fail;
	}
	if ((e = devnull3(fds)) < 0) {
		snprintf(err, errlen, "/dev/null: %s", strerror(-e));
		goto fail;
	}
	/* The holder's own stdio is /dev/null: its command process only
	 * serves the others. */
	r.argv = argv;
	r.n_argv = 1;
	r.io_mode = SBX__IO_MODE__IO_MODE_FD_PASSING;
	r.fd_count = 3;
	r.tty = false;
	r.timeout_ms = 0;
	r.keep_on_disconnect = false;
	r.stdin_credit = false;
	if ((e = session_launch(c, &r, pol, NULL, true, fds, 3, code, err,
				errlen, &h)) < 0)
		goto fail;
	h->conn = NULL;
	sb->id = session_id_next();
	h->sbox_id = sb->id;
	sb->holder = h->id;
	sb->owner = c->uid;
	sb->idle_ms = !idle_ms ? SBOX_IDLE_MS :
		      idle_ms > SBOX_IDLE_MAX ? SBOX_IDLE_MAX : idle_ms;
	sb->lifetime_ms = lifetime_ms;
	sb->idle_since_ms = sbxd_now_ms();
	clock_gettime(CLOCK_REALTIME, &now);
	sb->created_unix_ms = (uint64_t)now.tv_sec * 1000u +
			      (uint64_t)now.tv_nsec / 1000000u;
	sb->next = sboxes;
	sboxes = sb;
	if (sbox_info(sb->id, &info) == 0)
		events_sandbox_created(&info);
	if (arm(sb->idle_ev, sb->idle_ms) < 0 ||
	    (lifetime_ms && arm(sb->life_ev, lifetime_ms) < 0))
		kill_sbox(sb, "cannot arm its timers");
	*id = sb->id;
	log_info("sandbox %llu: created for %s (holder session %llu)",
		 (unsigned long long)sb->id, sb->workspace,
		 (unsigned long long)sb->holder);
	return 0;
fail:
	if (sb && sb->idle_ev)
		event_free(sb->idle_ev);
	if (sb && sb->life_ev)
		event_free(sb->life_ev);
	if (sb)
		free(sb->workspace);
	free(sb);
	return e;
}

/* ws is sb's workspace or a directory under it. */
static bool
within(const struct sbox *sb, const char *ws)
{
	size_t n = strlen(sb->workspace);

	return !strncmp(ws, sb->workspace, n) && (ws[n] == '/' || !ws[n]);
}

int
sbox_exec(struct conn *c, const Sbx__RunRequest *req, int *fds, int nfds,
	  Sbx__ErrorCode *code, char *err, size_t errlen)
{
	struct sbox *sb = find(req->sandbox_id);
	Sbx__RunRequest r = *req;
	struct session *h = sb ? session_find(sb->holder) : NULL, *s;
	int e, i;

	*code = SBX__ERROR_CODE__ERROR_CODE_NOT_FOUND;
	e = -ENOENT;
	if (!sb || sb->dying || !h || h->exited)
		snprintf(err, errlen, "no sandbox %llu",
			 (unsigned long long)req->sandbox_id);
	else if (c->uid != sb->owner ||
		 (req->workspace[0] && !within(sb, req->workspace))) {
		/* Another peer's sandbox, or one of another workspace
		 * than the client says it works in. */
		*code = SBX__ERROR_CODE__ERROR_CODE_PERMISSION;
		e = -EPERM;
		snprintf(err, errlen, "sandbox %llu is %s's", (unsigned long
			 long)sb->id, c->uid != sb->owner ? "another user" :
			 sb->workspace);
	} else
		e = 0;
	if (e < 0) {
		for (i = 0; i < nfds; i++)
			close(fds[i]);
		return e;
	}
	r.workspace = sb->workspace;
	if ((e = session_launch(c, &r, NULL, h, false, fds, nfds, code, err,
				errlen, &s)) < 0)
		return e;
	s->sbox_id = sb->id;
	sb->running++;
	sb->execs++;
	sb->last_exec = s->id;
	evtimer_del(sb->idle_ev);
	return 0;
}

int
sbox_destroy(const struct conn *c, uint64_t id)
{
	struct sbox *sb = find(id);

	if (!sb || sb->dying)
		return -ENOENT;
	if (c->uid != sb->owner)
		return -EPERM;
	kill_sbox(sb, "destroyed");
	return 0;
}

void
sbox_session_ended(uint64_t id, bool holder)
{
	struct sbox *sb = find(id);

	if (!sb)
		return;
	if (holder) {
		log_info("sandbox %llu: ended", (unsigned long long)id);
		sbox_free(sb);
		return;
	}
	if (sb->running && --sb->running == 0 && !sb->dying) {
		sb->idle_since_ms = sbxd_now_ms();
		if (arm(sb->idle_ev, sb->idle_ms) < 0)
			kill_sbox(sb, "cannot arm its idle timer");
	}
}

struct session *
sbox_client(uint64_t id)
{
	struct sbox *sb = find(id);
	struct session *s = sb ? session_find(sb->last_exec) : NULL;

	return s && !s->exited && s->conn ? s : NULL;
}

struct session *
sbox_holder(uint64_t id)
{
	struct sbox *sb = find(id);

	return sb ? session_find(sb->holder) : NULL;
}

int
sbox_info(uint64_t id, Sbx__SandboxInfo *info)
{
	struct sbox *sb = find(id);
	struct session *h;

	if (!sb)
		return -ENOENT;
	h = session_find(sb->holder);
	sbx__sandbox_info__init(info);
	info->id = sb->id;
	info->workspace = sb->workspace;
	info->pid = h ? h->proc.pid : 0;
	info->created_unix_ms = sb->created_unix_ms;
	info->commands = sb->running;
	info->execs = sb->execs;
	info->idle_timeout_ms = sb->idle_ms;
	info->lifetime_ms = sb->lifetime_ms;
	info->idle_ms = sb->running ? 0 : sbxd_now_ms() - sb->idle_since_ms;
	if (h)
		info->n_published = session_published(h, &info->published);
	return 0;
}

int
sbox_list(Sbx__SandboxInfo **out, Sbx__SandboxInfo ***ptrs)
{
	unsigned n = sbox_count(), i = 0;
	struct sbox *sb;

	*out = calloc(n ? n : 1, sizeof(**out));
	*ptrs = calloc(n ? n : 1, sizeof(**ptrs));
	if (!*out || !*ptrs) {
		free(*out);
		free(*ptrs);
		return -ENOMEM;
	}
	for (sb = sboxes; sb && i < n; sb = sb->next) {
		if (sb->dying)
			continue;
		sbox_info(sb->id, &(*out)[i]);
		(*ptrs)[i] = &(*out)[i];
		i++;
	}
	return (int)i;
}

unsigned
sbox_count(void)
{
	struct sbox *sb;
	unsigned n = 0;

	for (sb = sboxes; sb; sb = sb->next)
		n++;
	return n;
}
