/* A command started in a long-lived sandbox (sbox.h): a session like a
 * run's, whose sandbox is its holder's. Nothing of the sandbox is built:
 * the environment is made for this command under the sandbox's policy
 * and proxy, and the command goes to the sandbox's job server. */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "daemon/daemon.h"
#include "daemon/policy/policy.h"
#include "daemon/proxy/env.h"
#include "daemon/runenv.h"
#include "daemon/sandbox.h"
#include "daemon/session-int.h"

int
session_exec_spawn(struct session *s, const Sbx__RunRequest *req,
		   struct session *holder, int child[3], char *err,
		   size_t errlen)
{
	enum sandbox_net net = sandbox_caps()->net;
	static const uint16_t inside[2] = { SANDBOX_HTTP_PROXY_PORT,
					    SANDBOX_SOCKS_PROXY_PORT };
	const uint16_t *ports = net == SANDBOX_NET_HOST_PORTS ?
				holder->proc.proxy_ports : inside;
	struct sandbox_exec x = { 0 };
	struct proxy_env pe;
	struct timespec now;
	char **env;
	int r;

	/* The sandbox's policy is this command's (ps, status and the
	 * exit note read it), for as long as the command is listed. */
	s->policy = holder->policy ? policy_ref(holder->policy) : NULL;
	env = session_env(s, req, holder->policy, "/tmp", ports,
			  session_creds(holder), &pe);
	if (!env) {
		snprintf(err, errlen, "out of memory");
		return -ENOMEM;
	}
	x.argv = s->argv;
	x.envp = env;
	x.cwd = req->cwd;
	memcpy(x.stdio, child, sizeof(x.stdio));
	x.tty = req->tty;
	x.umask = req->umask || req->umask_set ? req->umask :
		  DEFAULT_UMASK;
	s->start_ms = sbxd_now_ms();
	clock_gettime(CLOCK_REALTIME, &now);
	s->start_unix_ms = (uint64_t)now.tv_sec * 1000u +
			   (uint64_t)now.tv_nsec / 1000000u;
	r = sandbox_exec(&holder->proc, &x, &s->proc);
	runenv_free(env);
	proxy_env_free(&pe);
	if (r < 0)
		snprintf(err, errlen, "cannot start the command in sandbox "
			 "%llu: %s", (unsigned long long)holder->sbox_id,
			 r == -ESRCH ? "it is ending" : strerror(-r));
	return r;
}
