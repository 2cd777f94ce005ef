build/asan/obj/daemon/linux-seccomp.o: daemon/linux-seccomp.c \
 daemon/linux-seccomp.h daemon/sandbox.h
daemon/linux-seccomp.h:
daemon/sandbox.h:
