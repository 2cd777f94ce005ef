/* Unit tests for daemon/home-diverted.c's pure part: which paths of the
 * home are caches a run may fill without a word. */
#include "daemon/home-diverted.h"
#include "unit.h"

int
main(void)
{
	static const char *const caches[] = {
		".cache", ".cache/pip/x", ".npm/_cacache/a", ".cargo/registry/i",
		".cargo/git/db", "go/pkg/mod/x", ".m2/repository/a", ".gradle",
		".local/lib/python3.11/site-packages/x", ".local/bin/tool",
		".bash_history", ".python_history", ".rustup/toolchains",
	};
	static const char *const kept[] = {
		"notes.txt", "src/other/x.c", ".cachex", ".cargo/bin/tool",
		".cargo/config.toml", "go/src/x", ".local/share/app",
		".bash_historyx", ".npmrc", ".config/tool/token", "",
	};
	size_t i;

	for (i = 0; i < sizeof(caches) / sizeof(caches[0]); i++) {
		if (!home_diverted_cache(caches[i]))
			fprintf(stderr, "not a cache: %s\n", caches[i]);
		CHECK(home_diverted_cache(caches[i]));
	}
	for (i = 0; i < sizeof(kept) / sizeof(kept[0]); i++) {
		if (home_diverted_cache(kept[i]))
			fprintf(stderr, "a cache: %s\n", kept[i]);
		CHECK(!home_diverted_cache(kept[i]));
	}
	UNIT_DONE();
}
