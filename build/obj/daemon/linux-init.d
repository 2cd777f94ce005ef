build/obj/daemon/linux-init.o: daemon/linux-init.c \
 daemon/linux-landlock.h daemon/linux-seccomp.h daemon/linux.h \
 daemon/sandbox.h proto/fdpass.h
daemon/linux-landlock.h:
daemon/linux-seccomp.h:
daemon/linux.h:
daemon/sandbox.h:
proto/fdpass.h:
