/* "Allow always": the approved host becomes an allowedDomains rule of the
 * user's policy file. */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "daemon/policy/approve.h"
#include "daemon/policy/item.h"
#include "daemon/policy/store.h"
#include "daemon/usercred.h"

/* Is id the "id" of any object of the document (ids are unique in it)? */
static bool
id_taken(json_t *j, const char *id)
{
	const char *k;
	json_t *v;
	size_t i;

	if (json_is_object(j)) {
		v = json_object_get(j, "id");
		if (json_is_string(v) && !strcmp(json_string_value(v), id))
			return true;
		json_object_foreach(j, k, v)
			if (id_taken(v, id))
				return true;
	} else if (json_is_array(j)) {
		json_array_foreach(j, i, v)
			if (id_taken(v, id))
				return true;
	}
	return false;
}

/* "approved-" and the domain in the id's alphabet, unique in root. */
static void
make_id(json_t *root, const char *domain, char *id, size_t idlen)
{
	char base[POLICY_ITEM_ID_MAX + 1];
	size_t i, n = 0;
	unsigned k;

	n = (size_t)snprintf(base, sizeof(base) - 4, "approved-%s", domain);
	if (n >= sizeof(base) - 4)
		n = sizeof(base) - 5;
	for (i = 0; i < n; i++)
		if (!(base[i] >= 'a' && base[i] <= 'z') &&
		    !(base[i] >= 'A' && base[i] <= 'Z') &&
		    !(base[i] >= '0' && base[i] <= '9') &&
		    base[i] != '.' && base[i] != '_' && base[i] != '-')
			base[i] = '-';
	snprintf(id, idlen, "%s", base);
	for (k = 2; id_taken(root, id) && k < 1000; k++)
		snprintf(id, idlen, "%s-%u", base, k);
}

/* The rule for domain in list, or NULL. */
static json_t *
find_rule(json_t *list, const char *domain)
{
	json_t *v, *d;
	size_t i;

	json_array_foreach(list, i, v) {
		d = json_is_object(v) ? json_object_get(v, "domain") : v;
		if (json_is_string(d) && !strcmp(json_string_value(d), domain))
			return v;
	}
	return NULL;
}

int
policy_approve_add(const char *text, size_t len, const char *domain,
		   const char *reason, char **out, char *id, size_t idlen,
		   char *err, size_t errlen)
{
	json_error_t je;
	json_t *root, *net, *list, *rule, *v;
	int r = -ENOMEM;

	*out = NULL;
	root = json_loadb(text, len, JSON_REJECT_DUPLICATES, &je);
	if (!json_is_object(root)) {
		snprintf(err, errlen, "not a JSON object (%s)",
			 root ? "another value" : je.text);
		json_decref(root);
		return -EINVAL;
	}
	net = json_object_get(root, "network");
	if (!net && json_object_set_new(root, "network", json_object()) == 0)
		net = json_object_get(root, "network");
	list = json_is_object(net) ? json_object_get(net, "allowedDomains") :
				     NULL;
	if (json_is_object(net) && !list &&
	    json_object_set_new(net, "allowedDomains", json_array()) == 0)
		list = json_object_get(net, "allowedDomains");
	if (!json_is_array(list)) {
		snprintf(err, errlen, "%s is not %s", list ?
			 "network.allowedDomains" : "network", list ?
			 "a list" : "an object");
		json_decref(root);
		return -EINVAL;
	}
	if ((rule = find_rule(list, domain))) {
		v = json_is_object(rule) ? json_object_get(rule, "id") : NULL;
		snprintf(id, idlen, "%s", json_is_string(v) ?
			 json_string_value(v) : "");
		json_decref(root);
		return 1;
	}
	make_id(root, domain, id, idlen);
	rule = json_pack("{s:s, s:s, s:s}", "domain", domain, "id", id,
			 "reason", reason);
	if (rule && json_array_append_new(list, rule) == 0 &&
	    (*out = json_dumps(root, JSON_INDENT(2) | JSON_PRESERVE_ORDER |
			       JSON_ENSURE_ASCII)))
		r = 0;
	else
		snprintf(err, errlen, "out of memory");
	json_decref(root);
	return r;
}

/* The user policy file in force, or -ENOENT (the shipped defaults). */
static int
user_file(char *path, size_t len)
{
	const struct policy_store_opts *o = policy_store_opts();
	const char *home = o->lookup_home ? o->lookup_home : o->home;
	struct stat st;
	int r;

	if (o->user_file) {
		snprintf(path, len, "%s", o->user_file);
		return 0;
	}
	snprintf(path, len, "%s/.config/sbx/policy.json", home);
	usercred_enter();
	r = lstat(path, &st) == 0 ? 0 : -errno;
	if (r == -ENOENT) {
		snprintf(path, len, "%s/.srt-settings.json", home);
		r = lstat(path, &st) == 0 ? 0 : -errno;
	}
	usercred_leave();
	return r;
}

/* text into a new file beside path, then renamed over it: a reader sees
 * the old file or the new, never a part. As the user (usercred): the file
 * is the user's, made where the user may write. */
static int
replace_file(const char *path, const char *text, mode_t mode)
{
	char tmp[4200];
	size_t len = strlen(text), off = 0;
	ssize_t w;
	int fd, r = 0;

	if ((size_t)snprintf(tmp, sizeof(tmp), "%s.sbx-%ld", path,
			     (long)getpid()) >= sizeof(tmp))
		return -ENAMETOOLONG;
	usercred_enter();
	unlink(tmp);
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
		  mode & 0777);
	if (fd < 0)
		r = -errno;
	while (r == 0 && off < len) {
		if ((w = write(fd, text + off, len - off)) < 0 && errno != EINTR)
			r = -errno;
		else if (w > 0)
			off += (size_t)w;
	}
	if (r == 0 && (fsync(fd) < 0 || rename(tmp, path) < 0))
		r = -errno;
	if (fd >= 0)
		close(fd);
	if (r < 0 && fd >= 0)
		unlink(tmp);
	usercred_leave();
	return r;
}

int
policy_approve_always(const char *domain, const char *reason, char *file,
		      size_t filelen, char *id, size_t idlen, char *err,
		      size_t errlen)
{
	char path[4200], *text = NULL, *out = NULL, why[256] = "";
	struct stat st;
	int r;

	if ((r = user_file(path, sizeof(path))) < 0) {
		snprintf(err, errlen, r == -ENOENT ? "no user policy file "
			 "(the shipped default is in force): create "
			 "~/.config/sbx/policy.json to approve hosts for good" :
			 "%s: %s", path, strerror(-r));
		return r;
	}
	if ((r = policy_store_read(path, POLICY_APPROVE_MAX, &st, &text)) < 0)
		snprintf(err, errlen, "%s: %s", path, strerror(-r));
	else if ((r = policy_approve_add(text, (size_t)st.st_size, domain,
					 reason, &out, id, idlen, why,
					 sizeof(why))) < 0)
		snprintf(err, errlen, "%s: %s", path, why);
	else if (r == 0 && (r = replace_file(path, out, st.st_mode)) < 0)
		snprintf(err, errlen, "%s: cannot write: %s", path,
			 strerror(-r));
	if (r >= 0) {
		snprintf(file, filelen, "%s", path);
		r = 0;
	}
	free(text);
	free(out);
	return r;
}
