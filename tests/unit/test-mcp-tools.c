/* client/mcp-tools.c, mcp-capture.c and mcp-result.c: tool arguments, the
 * tool list, bounded output and the report an agent reads. */
#include <errno.h>
#include <jansson.h>
#include <signal.h>

#include "client/mcp-capture.h"
#include "client/mcp-result.h"
#include "client/mcp-tools.h"
#include "unit.h"

static int
parse(const char *name, const char *args, struct mcp_args *a, char *err)
{
	json_t *j = args ? json_loads(args, 0, NULL) : NULL;
	int r = mcp_tools_parse(name, j, a, err, 256);

	json_decref(j);
	return r;
}

static void
test_args(void)
{
	struct mcp_args a;
	char err[256];

	CHECK_INT(parse("nope", NULL, &a, err), -ENOENT);
	CHECK_INT(parse("run_command", "{}", &a, err), -EINVAL);
	CHECK_INT(parse("run_command", "{\"command\":\"x\",\"argv\":[\"x\"]}",
			&a, err), -EINVAL);
	CHECK_INT(parse("run_command", "{\"argv\":[]}", &a, err), -EINVAL);
	CHECK_INT(parse("run_command", "{\"argv\":[\"a\",1]}", &a, err),
		  -EINVAL);
	CHECK_INT(parse("run_command", "{\"command\":\"a\\u0000b\"}", &a, err),
		  -EINVAL);
	CHECK_INT(parse("run_command", "{\"command\":\"x\",\"timeout\":-1}",
			&a, err), -EINVAL);
	CHECK_INT(parse("run_command", "{\"command\":\"x\",\"timeout\":1e300}",
			&a, err), -EINVAL);
	CHECK_INT(parse("run_command", "[]", &a, err), -EINVAL);
	CHECK_INT(parse("run_command", "{\"command\":\"echo hi\",\"cwd\":"
			"\"sub\",\"timeout\":1.5,\"stdin\":\"in\"}", &a, err), 0);
	CHECK_INT(a.tool, MCP_TOOL_RUN);
	CHECK_INT(a.argc, 3);
	CHECK_STR(a.argv[0], "/bin/sh");
	CHECK_STR(a.argv[2], "echo hi");
	CHECK(a.argv[3] == NULL);
	CHECK_STR(a.cwd, "sub");
	CHECK_INT(a.timeout_ms, 1500);
	CHECK(a.has_input && a.input_len == 2);
	mcp_args_free(&a);
	CHECK_INT(parse("run_command", "{\"argv\":[\"ls\",\"-l\"]}", &a, err),
		  0);
	CHECK_INT(a.timeout_ms, MCP_RUN_TIMEOUT_MS); /* run's default */
	CHECK(!a.has_input);
	mcp_args_free(&a);
	CHECK_INT(parse("start_command", "{\"command\":\"x\"}", &a, err), 0);
	CHECK_INT(a.timeout_ms, 0); /* a started one runs until stopped */
	mcp_args_free(&a);
	CHECK_INT(parse("read_output", "{\"id\":0}", &a, err), -EINVAL);
	CHECK_INT(parse("read_output", "{\"id\":3,\"wait\":2}", &a, err), 0);
	CHECK_INT(a.id, 3);
	CHECK_INT(a.wait_ms, 2000);
	CHECK_INT(parse("read_output", "{\"id\":3,\"wait\":301}", &a, err),
		  -EINVAL);
	CHECK_INT(parse("write_input", "{\"id\":3}", &a, err), -EINVAL);
	CHECK_INT(parse("write_input", "{\"id\":3,\"close\":true}", &a, err),
		  0);
	CHECK(a.close_input && !a.has_input);
	CHECK_INT(parse("stop_command", "{\"id\":3,\"signal\":\"STOP\"}", &a,
			err), -EINVAL);
	CHECK_INT(parse("stop_command", "{\"id\":3,\"signal\":\"INT\"}", &a,
			err), 0);
	CHECK_INT(a.signo, SIGINT);
	CHECK_INT(parse("stop_command", "{\"id\":3}", &a, err), 0);
	CHECK_INT(a.signo, SIGTERM);
	CHECK_INT(a.wait_ms, 5000);
	CHECK_INT(parse("describe_sandbox", NULL, &a, err), 0);
}

static void
test_list(void)
{
	json_t *l = mcp_tools_list("NO NETWORK HERE"), *t;
	size_t i;
	int with_rules = 0;

	CHECK(l != NULL);
	json_array_foreach(json_object_get(l, "tools"), i, t) {
		CHECK(json_is_string(json_object_get(t, "name")));
		CHECK_STR(json_string_value(json_object_get(json_object_get(t,
			  "inputSchema"), "type")), "object");
		if (strstr(json_string_value(json_object_get(t,
				"description")), "NO NETWORK HERE"))
			with_rules++;
	}
	CHECK_INT(with_rules, 2); /* run_command and start_command */
	json_decref(l);
}

static void
test_capture(void)
{
	struct mcp_capture c;
	char big[100], *t;
	size_t len;

	mcp_capture_init(&c, 4, 6);
	mcp_capture_add(&c, "abc", 3);
	t = mcp_capture_text(&c, "stdout", &len);
	CHECK_STR(t, "abc");
	free(t);
	memset(big, 'x', sizeof(big));
	big[99] = 'Z';
	mcp_capture_add(&c, big, sizeof(big));
	mcp_capture_add(&c, "12", 2);
	CHECK_INT(c.total, 105);
	CHECK_INT(mcp_capture_cut(&c), 95);
	t = mcp_capture_text(&c, "stdout", &len);
	CHECK_STR(t, "abcx\n[sbx: 95 bytes of stdout cut here]\nxxxZ12");
	free(t);
	mcp_capture_reset(&c);
	mcp_capture_add(&c, "\xff\xc3", 2); /* bad byte, cut sequence */
	t = mcp_capture_text(&c, "stdout", &len);
	CHECK_STR(t, "\xef\xbf\xbd\xef\xbf\xbd");
	free(t);
	mcp_capture_free(&c);
	t = mcp_utf8("\xc3\xa9\xed\xa0\x80\xf4\x90\x80\x80", 9, &len);
	CHECK(t && !strncmp(t, "\xc3\xa9\xef\xbf\xbd", 5)); /* surrogate */
	free(t);
}

static void
test_report(void)
{
	Sbx__ExitStatus es = SBX__EXIT_STATUS__INIT;
	struct mcp_capture out, err;
	char *lines[] = { (char *)"sbx: blocked write /etc/x (rule)" };
	char *notes[] = { (char *)"sbx: a note \xff" };
	struct mcp_report r = { .out = &out, .err = &err, .es = &es,
				.notes = notes, .nnotes = 1 };
	json_t *j, *sc;
	const char *text;

	mcp_capture_init(&out, 10, 10);
	mcp_capture_init(&err, 10, 10);
	mcp_capture_add(&out, "hi\n", 3);
	es.exited = true;
	es.code = 3;
	es.summary_lines = lines;
	es.n_summary_lines = 1;
	j = mcp_result_report(&r);
	CHECK(j != NULL);
	sc = json_object_get(j, "structuredContent");
	CHECK_INT(json_integer_value(json_object_get(sc, "exitCode")), 3);
	CHECK_STR(json_string_value(json_object_get(sc, "stdout")), "hi\n");
	CHECK_INT(json_array_size(json_object_get(sc, "sandbox")), 2);
	CHECK(json_is_false(json_object_get(j, "isError")));
	text = json_string_value(json_object_get(json_array_get(
		json_object_get(j, "content"), 0), "text"));
	CHECK(text && strstr(text, "exit code 3"));
	CHECK(text && strstr(text, "blocked write /etc/x"));
	json_decref(j);
	r.es = NULL;
	r.error = "no such sandbox";
	r.id = 4;
	j = mcp_result_report(&r);
	CHECK(json_is_true(json_object_get(j, "isError")));
	json_decref(j);
	mcp_capture_free(&out);
	mcp_capture_free(&err);
}

int
main(void)
{
	test_args();
	test_list();
	test_capture();
	test_report();
	UNIT_DONE();
}
