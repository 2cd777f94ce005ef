/* Long-lived sandboxes: one sandbox (its init, namespaces, /tmp, proxy
 * and approvals) for many commands. A sandbox is held by a session of its
 * own with no client (its holder), whose command process serves further
 * commands; each command is a session of its own in it (RunRequest with
 * sandbox_id). The list owns the sandboxes; a sandbox goes when its
 * holder's init does: DestroySandbox, its idle timeout, its lifetime, or
 * the daemon stopping. */
#ifndef SBX_SBOX_H
#define SBX_SBOX_H

#include <stdbool.h>
#include <stdint.h>

#include "proto/wire.h"

struct conn;
struct policy;
struct session;

/* Default and greatest idle timeout. */
#define SBOX_IDLE_MS (15u * 60 * 1000)
#define SBOX_IDLE_MAX (7u * 86400 * 1000)

/* A sandbox for c's spec (validated and resolved: workspace, cwd) under
 * request policy layer pol (borrowed): its id in *id. As session_start. */
int sbox_create(struct conn *c, const Sbx__RunRequest *spec,
		const struct policy *pol, uint32_t idle_ms,
		uint64_t lifetime_ms, uint64_t *id, Sbx__ErrorCode *code,
		char *err, size_t errlen);
/* req (validated; req->workspace the client's resolved workspace or "")
 * as a command of sandbox req->sandbox_id, for c. As session_start;
 * NOT_FOUND, PERMISSION (another peer's sandbox, or a workspace that is
 * neither the sandbox's nor under it). */
int sbox_exec(struct conn *c, const Sbx__RunRequest *req, int *fds, int nfds,
	      Sbx__ErrorCode *code, char *err, size_t errlen);
/* Kills sandbox id and everything in it. -ENOENT, -EPERM (c's peer did
 * not create it). */
int sbox_destroy(const struct conn *c, uint64_t id);
/* Fills the SandboxInfo of every sandbox into a new array (*out, the
 * caller frees it and each ->workspace is borrowed): their count, or
 * -ENOMEM. */
int sbox_list(Sbx__SandboxInfo **out, Sbx__SandboxInfo ***ptrs);
/* The same for one (borrowed strings). -ENOENT. */
int sbox_info(uint64_t id, Sbx__SandboxInfo *info);
/* session.c: a session of sandbox id has ended (holder: the sandbox
 * itself). */
void sbox_session_ended(uint64_t id, bool holder);
/* The command of sandbox id that answers for it (violations, approval
 * requests): the latest one still running, or NULL. */
struct session *sbox_client(uint64_t id);
/* The holder session of sandbox id (its proxy answers approvals), or
 * NULL. */
struct session *sbox_holder(uint64_t id);
unsigned sbox_count(void);

#endif
