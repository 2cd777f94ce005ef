build/asan/obj/daemon/linux-spawn.o: daemon/linux-spawn.c \
 daemon/linux-backend.h daemon/sandbox.h daemon/linux-template.h \
 daemon/linux.h proto/fdpass.h
daemon/linux-backend.h:
daemon/sandbox.h:
daemon/linux-template.h:
daemon/linux.h:
proto/fdpass.h:
