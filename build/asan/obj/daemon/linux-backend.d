build/asan/obj/daemon/linux-backend.o: daemon/linux-backend.c \
 daemon/linux-backend.h daemon/sandbox.h daemon/linux-landlock.h \
 daemon/linux-seccomp.h
daemon/linux-backend.h:
daemon/sandbox.h:
daemon/linux-landlock.h:
daemon/linux-seccomp.h:
