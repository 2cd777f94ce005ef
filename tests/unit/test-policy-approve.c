/* Unit tests for daemon/policy/approve.c's pure part: the rule "allow
 * always" adds to a policy document. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/policy/approve.h"
#include "unit.h"

static int
add(const char *text, const char *domain, char **out, char *id)
{
	char err[256] = "";

	return policy_approve_add(text, strlen(text), domain, "by ide", out,
				  id, 80, err, sizeof(err));
}

int
main(void)
{
	char *out = NULL, id[80];

	/* Added to what is there, the rest kept as it was. */
	CHECK_INT(add("{\"network\": {\"allowedDomains\": [\"a.test\"], "
		      "\"unknownHosts\": \"ask\"}, \"x\": 1}", "b.test:443",
		      &out, id), 0);
	CHECK(out && strstr(out, "\"a.test\",\n      {\n        "
			    "\"domain\": \"b.test:443\",\n        \"id\": "
			    "\"approved-b.test-443\",\n        \"reason\": "
			    "\"by ide\"\n      }"));
	CHECK(out && strstr(out, "\"unknownHosts\": \"ask\""));
	CHECK(out && strstr(out, "\"x\": 1"));
	CHECK(!strcmp(id, "approved-b.test-443"));
	free(out);

	/* network and its list made when missing. */
	CHECK_INT(add("{}", "[::1]:80", &out, id), 0);
	CHECK(!strcmp(id, "approved----1--80"));
	CHECK(out && strstr(out, "\"domain\": \"[::1]:80\""));
	free(out);

	/* There already: nothing to write; its id, or "" for a string. */
	CHECK_INT(add("{\"network\": {\"allowedDomains\": [\"b.test:443\"]}}",
		      "b.test:443", &out, id), 1);
	CHECK(out == NULL && id[0] == '\0');
	CHECK_INT(add("{\"network\": {\"allowedDomains\": [{\"domain\": "
		      "\"b.test:443\", \"id\": \"mine\"}]}}", "b.test:443",
		      &out, id), 1);
	CHECK(!strcmp(id, "mine"));

	/* Ids stay unique in the document. */
	CHECK_INT(add("{\"filesystem\": {\"denyRead\": [{\"path\": \"/x\", "
		      "\"id\": \"approved-c.test\"}]}}", "c.test", &out, id),
		  0);
	CHECK(!strcmp(id, "approved-c.test-2"));
	free(out);

	/* Not a document it can add to. */
	CHECK_INT(add("[1]", "c.test", &out, id), -EINVAL);
	CHECK_INT(add("{\"network\": 3}", "c.test", &out, id), -EINVAL);
	CHECK_INT(add("{\"network\": {\"allowedDomains\": {}}}", "c.test",
		      &out, id), -EINVAL);
	CHECK_INT(add("{\"a\": 1, \"a\": 2}", "c.test", &out, id), -EINVAL);
	CHECK_INT(add("{", "c.test", &out, id), -EINVAL);
	CHECK(out == NULL);
	UNIT_DONE();
}
