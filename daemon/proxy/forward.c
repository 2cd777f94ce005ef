/* Fixed-destination listeners: host services a sandbox calls, ports a sandbox publishes to the host. */

/*
 * Nothing is decided per connection: the listener itself is the rule (a
 * network.hostServices entry made it inside the sandbox's network
 * namespace, or a --publish the user asked for made it on the host). So
 * no name, no resolution, no tunnel check: the bytes are relayed as a
 * tunnel's are once checked (proxy/tunnel.c, splice for bulk). What is
 * checked is who connects, where the listener alone does not say it
 * (a published port on the host: f->admit), and each connection is an
 * event (f->note).
 */
#include <errno.h>
#include <event2/listener.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "daemon/daemon.h"
#include "daemon/log.h"
#include "daemon/proxy/int.h"
#include "daemon/proxy/io.h"

struct forward {
	struct proxy *px;
	struct proxy_forward f;
	char id[128];
	struct evconnlistener *lis;
	struct forward *next;
};

static void dial(struct pconn *pc, int err);

static void
target_text(const struct sockaddr_storage *ss, char *buf, size_t len)
{
	char a[INET6_ADDRSTRLEN] = "?";
	const struct sockaddr_in *s4 = (const struct sockaddr_in *)ss;
	const struct sockaddr_in6 *s6 = (const struct sockaddr_in6 *)ss;

	if (ss->ss_family == AF_INET6) {
		inet_ntop(AF_INET6, &s6->sin6_addr, a, sizeof(a));
		snprintf(buf, len, "[%s]:%u", a, ntohs(s6->sin6_port));
	} else {
		inet_ntop(AF_INET, &s4->sin_addr, a, sizeof(a));
		snprintf(buf, len, "%s:%u", a, ntohs(s4->sin_port));
	}
}

static void
note(struct pconn *pc, int i, int err)
{
	const struct proxy_forward *f = &pc->fwd->f;
	char t[INET6_ADDRSTRLEN + 16];

	if (f->note == NULL)
		return;
	target_text(&f->to[i], t, sizeof(t));
	f->note(f->arg, f, t, err);
}

static void
dial_event(struct pconn *pc, struct pio *p, int what)
{
	if (what & PIO_CONNECTED) {
		note(pc, pc->fwd_next - 1, 0);
		tunnel_relay(pc);
		return;
	}
	dial(pc, pio_error(p) ? -pio_error(p) : -ECONNREFUSED);
}

static const struct pio_ops dial_ops = { NULL, NULL, dial_event };

/* Dials the next target; err: what the last one said. After the last,
 * the connection is closed (the client sees its end). */
static void
dial(struct pconn *pc, int err)
{
	const struct proxy_forward *f = &pc->fwd->f;
	int i, fd;

	pio_free(pc->u);
	pc->u = NULL;
	while ((i = pc->fwd_next) < f->nto) {
		pc->fwd_next++;
		fd = f->socket ? f->socket(f->arg, f->to[i].ss_family) :
		    socket(f->to[i].ss_family, SOCK_STREAM | SOCK_NONBLOCK |
		    SOCK_CLOEXEC, 0);
		if (fd < 0) {
			err = f->socket ? fd : -errno;
			continue;
		}
		if ((pc->u = pio_new(-1, pc)) == NULL) {
			close(fd);
			err = -ENOMEM;
			continue;
		}
		pio_set_ops(pc->u, &dial_ops);
		if ((err = pio_connect_fd(pc->u, fd, (const struct sockaddr *)
		    &f->to[i], f->tolen[i], PROXY_CONNECT_TIMEOUT_MS)) == 0)
			return;
		pio_free(pc->u);
		pc->u = NULL;
	}
	note(pc, f->nto - 1, err);
	pconn_close(pc);
}

static void
accept_cb(struct evconnlistener *l, evutil_socket_t fd, struct sockaddr *sa,
    int salen, void *arg)
{
	struct forward *fw = arg;
	struct proxy *px = fw->px;
	struct pconn *pc;

	if (fw->f.admit != NULL && !fw->f.admit(fw->f.arg, fd)) {
		close(fd);
		return;
	}
	if (px->nconns >= PROXY_CONNS_MAX ||
	    !proxy_fds_room(px, PCONN_FDS)) {
		log_warn("session %llu: %s %s: %u connections holding %u "
		    "file descriptors (its share: %u), refusing one",
		    (unsigned long long)px->session_id, fw->f.kind, fw->id,
		    px->nconns, px->fds, proxy_fds_share());
		close(fd);
		return;
	}
	if ((pc = pconn_new(px, fd)) == NULL) {
		log_warn("session %llu: %s: out of memory",
		    (unsigned long long)px->session_id, fw->f.kind);
		return;
	}
	pc->proto = "forward";
	pc->fwd = fw;
	dial(pc, -ECONNREFUSED);
}

/* EMFILE above all: retrying at once would spin. Paused until an fd
 * closes. */
static void
accept_error_cb(struct evconnlistener *l, void *arg)
{
	struct forward *fw = arg;

	log_warn("session %llu: %s %s accept: %s; paused",
	    (unsigned long long)fw->px->session_id, fw->f.kind, fw->id,
	    strerror(EVUTIL_SOCKET_ERROR()));
	evconnlistener_disable(l);
	fdlimit_wait(&fw->px->waiter);
}

void
forward_pause_all(struct proxy *px, bool pause)
{
	struct forward *fw;

	for (fw = px->fwds; fw != NULL; fw = fw->next) {
		if (pause)
			evconnlistener_disable(fw->lis);
		else
			evconnlistener_enable(fw->lis);
	}
}

int
proxy_forward_add(struct proxy *px, int fd, const struct proxy_forward *f)
{
	struct forward *fw = calloc(1, sizeof(*fw));

	if (fw == NULL || f->nto < 1 || f->nto > 2) {
		free(fw);
		close(fd);
		return fw == NULL ? -ENOMEM : -EINVAL;
	}
	fw->px = px;
	fw->f = *f;
	snprintf(fw->id, sizeof(fw->id), "%s", f->id ? f->id : "");
	fw->f.id = fw->id;
	fw->lis = evconnlistener_new(sbxd.base, accept_cb, fw,
	    LEV_OPT_CLOSE_ON_FREE | LEV_OPT_CLOSE_ON_EXEC, 0, fd);
	if (fw->lis == NULL) {
		close(fd);
		free(fw);
		return -ENOMEM;
	}
	evconnlistener_set_error_cb(fw->lis, accept_error_cb);
	fw->next = px->fwds;
	px->fwds = fw;
	return 0;
}

void
proxy_forwards_end(struct proxy *px)
{
	struct forward *fw;
	struct pconn *pc, *next;

	if (px == NULL)
		return;
	for (pc = px->conns; pc != NULL; pc = next) {
		next = pc->next;
		if (pc->fwd != NULL)
			pconn_close(pc);
	}
	while ((fw = px->fwds) != NULL) {
		px->fwds = fw->next;
		evconnlistener_free(fw->lis);
		free(fw);
	}
}
