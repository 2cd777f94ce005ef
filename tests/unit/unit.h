/* Tiny assertion header for the unit tests: each test-*.c is one program. */
#ifndef SBX_UNIT_H
#define SBX_UNIT_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int unit_failures;
static int unit_checks;

#define CHECK(cond)                                                          \
	do {                                                                 \
		unit_checks++;                                               \
		if (!(cond)) {                                               \
			unit_failures++;                                     \
			fprintf(stderr, "%s:%d: CHECK failed: %s\n",         \
				__FILE__, __LINE__, #cond);                  \
		}                                                            \
	} while (0)

#define CHECK_INT(a, b)                                                      \
	do {                                                                 \
		long long _a = (long long)(a), _b = (long long)(b);          \
		unit_checks++;                                               \
		if (_a != _b) {                                              \
			unit_failures++;                                     \
			fprintf(stderr, "%s:%d: %s == %lld, want %lld\n",    \
				__FILE__, __LINE__, #a, _a, _b);             \
		}                                                            \
	} while (0)

#define CHECK_STR(a, b)                                                      \
	do {                                                                 \
		const char *_a = (a), *_b = (b);                             \
		unit_checks++;                                               \
		if (!_a || !_b || strcmp(_a, _b) != 0) {                     \
			unit_failures++;                                     \
			fprintf(stderr, "%s:%d: %s == \"%s\", want \"%s\"\n",\
				__FILE__, __LINE__, #a, _a ? _a : "(null)",  \
				_b ? _b : "(null)");                         \
		}                                                            \
	} while (0)

/* Ends main(): prints a one-line summary, exit status says pass/fail. */
#define UNIT_DONE()                                                          \
	do {                                                                 \
		printf("%s: %d checks, %d failed\n", __FILE__, unit_checks,  \
		       unit_failures);                                       \
		return unit_failures ? 1 : 0;                                \
	} while (0)

#endif
