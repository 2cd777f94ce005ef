/* Landlock for the Linux backend: ABI probing and the write ruleset. The
 * installed kernel headers may predate the running kernel, so the newer
 * constants and the full ruleset attribute are defined here. */
#ifndef SBX_LINUX_LANDLOCK_H
#define SBX_LINUX_LANDLOCK_H

#include <stdbool.h>
#include <stdint.h>

#define SBX_LL_FS_EXECUTE (1ULL << 0)
#define SBX_LL_FS_WRITE_FILE (1ULL << 1)
#define SBX_LL_FS_READ_FILE (1ULL << 2)
#define SBX_LL_FS_READ_DIR (1ULL << 3)
#define SBX_LL_FS_REMOVE_DIR (1ULL << 4)
#define SBX_LL_FS_REMOVE_FILE (1ULL << 5)
#define SBX_LL_FS_MAKE_CHAR (1ULL << 6)
#define SBX_LL_FS_MAKE_DIR (1ULL << 7)
#define SBX_LL_FS_MAKE_REG (1ULL << 8)
#define SBX_LL_FS_MAKE_SOCK (1ULL << 9)
#define SBX_LL_FS_MAKE_FIFO (1ULL << 10)
#define SBX_LL_FS_MAKE_BLOCK (1ULL << 11)
#define SBX_LL_FS_MAKE_SYM (1ULL << 12)
#define SBX_LL_FS_REFER (1ULL << 13)      /* ABI 2 */
#define SBX_LL_FS_TRUNCATE (1ULL << 14)   /* ABI 3 */
#define SBX_LL_FS_IOCTL_DEV (1ULL << 15)  /* ABI 5 */
#define SBX_LL_NET_BIND_TCP (1ULL << 0)   /* ABI 4 */
#define SBX_LL_NET_CONNECT_TCP (1ULL << 1)
#define SBX_LL_SCOPE_ABSTRACT_UNIX (1ULL << 0) /* ABI 6 */
#define SBX_LL_SCOPE_SIGNAL (1ULL << 1)
/* landlock_restrict_self() flags, ABI 7 */
#define SBX_LL_RESTRICT_SELF_LOG_SAME_EXEC_OFF (1U << 0)
#define SBX_LL_RESTRICT_SELF_LOG_NEW_EXEC_ON (1U << 1)
#define SBX_LL_RESTRICT_SELF_LOG_SUBDOMAINS_OFF (1U << 2)

struct sbx_landlock_ruleset_attr {
	uint64_t handled_access_fs;
	uint64_t handled_access_net;
	uint64_t scoped;
};

/* LANDLOCK_RULE_NET_PORT and its attribute (ABI 4). */
#define SBX_LL_RULE_NET_PORT 2
struct sbx_landlock_net_port_attr {
	uint64_t allowed_access;
	uint64_t port;
} __attribute__((packed));

/* Highest ABI the running kernel offers; 0 when Landlock is unavailable
 * (errno then says why: ENOSYS not built, EOPNOTSUPP disabled at boot). */
int landlock_probe_abi(void);

/* Write rights sbx handles at this ABI (everything that modifies files). */
uint64_t landlock_write_rights(int abi);

/* Creates a ruleset handling write rights (and scopes at ABI >= 6) with full
 * write access beneath each path of rw[] (NULL-terminated, may be NULL;
 * absent paths are skipped) and of must[] (NULL-terminated: /tmp,
 * /var/tmp, the home overlay; absent ones are skipped, any other failure
 * fails the ruleset, unlike rw's out-of-reach paths), and file writes
 * beneath dev (may be NULL) and beneath the directory pts is open on (-1:
 * none). Runs inside the sandbox after its mounts, so paths are the
 * sandbox's view. Returns the ruleset fd or -errno. */
int landlock_build(int abi, const char *const *rw, const char *const *must,
		   const char *dev, int pts);

/* A ruleset handling TCP bind and connect only (ABI >= 4, else
 * -EOPNOTSUPP): connect allowed to the two ports (zeros are skipped),
 * bind to none. Without a network namespace it is a layer of its own on
 * top of landlock_build's, since the ports are a session's and a warm
 * sandbox is confined before its session exists. */
int landlock_build_tcp(int abi, const uint16_t *ports);

/* Grants access beneath path (a directory, or one file) in ruleset rs. */
int landlock_add_path(int rs, const char *path, uint64_t access);
/* The same beneath the file fd is open on. */
int landlock_add_fd(int rs, int fd, uint64_t access);
/* A writable path of the list rw (NULL-ended) into rs: as
 * landlock_add_path, but the part of it below another path of rw, where a
 * sandbox writes, is reached without a symlink (-ELOOP if one is there):
 * a link a sandbox put at a writable path that did not exist yet (or
 * that it removed) would otherwise make the next sandbox's ruleset grant
 * writes wherever it points. */
/* The longest other path of rw (NULL-ended) that path is below, or NULL. */
const char *landlock_writable_above(const char *const *rw, const char *path);
/* The O_PATH fd landlock_add_writable grants from (path itself when no
 * other path of rw is above it), or -errno: the mounts check with it that
 * the tree they bind is that one. */
int landlock_open_writable(const char *const *rw, const char *path);
int landlock_add_writable(int rs, const char *const *rw, const char *path,
			  uint64_t access);

/* Enforces ruleset fd on the calling thread (no_new_privs already set).
 * log_new_exec (ABI >= 7): denials of the programs exec'd after this are
 * audited too (by default only the caller's own are). */
int landlock_enforce(int fd, bool log_new_exec);

/* Enforces fd on the caller without auditing its own denials (ABI >= 7):
 * for the supervisor's forker, whose domain the command's nests in. */
int landlock_enforce_quiet(int fd, int abi);

#endif
