/* libFuzzer target for addr-class.c: any bytes as a sockaddr; mapped IPv6 agrees with IPv4. */
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>

#include "daemon/proxy/addr-class.h"

int	LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct sockaddr_storage ss;
	uint8_t mapped[16] = { [10] = 0xff, [11] = 0xff };
	enum addr_class c;
	struct host h;
	size_t len = size < sizeof(ss) ? size : sizeof(ss);

	memset(&ss, 0, sizeof(ss));
	memcpy(&ss, data, len);
	if (addr_class_sockaddr((struct sockaddr *)&ss, (socklen_t)len, &c) == 0 &&
	    addr_class_name(c)[0] == '?')
		abort();
	if (size >= 4) {
		memcpy(mapped + 12, data, 4);
		if (addr_class_ipv4(data) != addr_class_ipv6(mapped))
			abort();
		host_set_ipv6(&h, mapped);
		if (h.kind != HOST_IPV4 || addr_class_host(&h, &c) != 0 ||
		    c != addr_class_ipv4(data))
			abort();
	}
	if (size >= 16) {
		host_set_ipv6(&h, data);
		if (addr_class_host(&h, &c) != 0)
			abort();
	}
	return 0;
}
