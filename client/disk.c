/* Byte counts for people: "1.2M/64M". */
#include <stdio.h>

#include "client/disk.h"

static int
one(uint64_t v, char *buf, size_t len)
{
	static const char units[] = "BKMGTP";
	double d = (double)v;
	int i = 0;

	while (d >= 1024 && units[i + 1]) {
		d /= 1024;
		i++;
	}
	if (i == 0)
		return snprintf(buf, len, "%lluB", (unsigned long long)v);
	return snprintf(buf, len, d < 10 && d != (double)(uint64_t)d ?
			"%.1f%c" : "%.0f%c", d, units[i]);
}

void
disk_text(uint64_t used, uint64_t limit, char *buf, size_t len)
{
	char a[32], b[32];

	one(used, a, sizeof(a));
	if (limit)
		one(limit, b, sizeof(b));
	snprintf(buf, len, "%s/%s", a, limit ? b : "-");
}
