build/asan/obj/daemon/linux-mount.o: daemon/linux-mount.c daemon/linux.h
daemon/linux.h:
