build/asan/obj/daemon/log.o: daemon/log.c daemon/log.h daemon/svc.h
daemon/log.h:
daemon/svc.h:
