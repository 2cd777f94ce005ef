build/asan/obj/daemon/svc-systemd.o: daemon/svc-systemd.c daemon/svc.h
daemon/svc.h:
