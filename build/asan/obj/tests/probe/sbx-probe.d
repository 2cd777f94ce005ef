build/asan/obj/tests/probe/sbx-probe.o: tests/probe/sbx-probe.c
