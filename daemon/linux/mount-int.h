/* The mount primitives mount.c, mount-mask.c and mount-proc.c share:
 * each -errno on failure, detached mounts returned as fds. Private to
 * the Linux backend's mount tree. */
#ifndef SBX_LINUX_MOUNT_INT_H
#define SBX_LINUX_MOUNT_INT_H

#include <stdbool.h>
#include <stdint.h>

/* Writable trees a sandbox takes at most. */
#define MAX_WRITE 64

/* path's mount tree cloned (recursively), detached; extra: open_tree
 * flags added. */
int lmount_clone_tree(const char *path, unsigned extra);
/* Detached mount fd attached at target (following target's links: only
 * for paths of the sandbox's own tree). */
int lmount_attach(int fd, const char *target);
/* mount_setattr of path (or dfd with AT_EMPTY_PATH in flags). */
int lmount_set_attr(int dfd, const char *path, unsigned flags,
		    uint64_t set, uint64_t clr);
/* A fresh filesystem instance (mode: its root's, or NULL), detached. */
int lmount_new_fs(const char *type, const char *mode, unsigned attrs);
/* The same with string options: key, value, ..., NULL. */
int lmount_new_fs_with(const char *type, const char *const *opts,
		       unsigned attrs);
/* path bound onto itself with attrs, looked up as the user when user
 * (rec: AT_RECURSIVE to keep what is mounted below it, or 0). */
int lmount_bind_self_as(const char *path, uint64_t attrs, bool user,
			unsigned rec);
int lmount_bind_self(const char *path, uint64_t attrs, bool user);
/* mount-links.c: files with links outside the writable trees read-only,
 * one path (the fallback) or the build's list, cloned from each tree's
 * mount alone. */
struct fsplan_list;
int lmount_read_only_file(const char *path);
int lmount_read_only_links(const struct fsplan_list *trees,
			   const struct fsplan_list *l);
/* mount-java.c: the JDKs' net.properties with the sandbox's proxy added,
 * bound over theirs (a sandbox with a network namespace; after /dev). */
struct sandbox_plan;
void lmount_java(const struct sandbox_plan *p);
/* mount-ca.c: each CA bundle of the distribution (proxy/env.h's list)
 * with pem appended, bound read-only over it (in the fresh /dev/shm,
 * like lmount_java). A bundle it cannot read is left as it is. */
void lmount_ca(const char *pem);
/* The JDKs' trust stores (each cacerts found, links followed) replaced
 * the same way by ks[0..len) (proxy/tls-jks.c). */
void lmount_ca_java(const void *ks, size_t len);
/* mount-proc.c: a fresh /proc of pid namespace pidns (-1: the caller's)
 * over /proc, its host-wide settings read-only. */
int lmount_proc(int pidns);
/* A devpts instance of its own over /dev/pts. */
int lmount_devpts(void);
/* mount-dev.c: the host's device nodes a sandbox gets (bound from the
 * clones in dev[], same order), and its /dev built over /dev: tty, the
 * -t session's pty clone or -1; shared: a template's, whose devpts each
 * sandbox mounts over a read-only placeholder (linux_mount_proc_clear). */
#define LMOUNT_NDEV 6
extern const char *const lmount_dev_nodes[LMOUNT_NDEV];
int lmount_build_dev(const struct sandbox_plan *p, const int dev[LMOUNT_NDEV],
		     int tty, bool shared);

#endif
