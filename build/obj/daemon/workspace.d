build/obj/daemon/workspace.o: daemon/workspace.c daemon/crypto.h \
 daemon/daemon.h daemon/workspace.h
daemon/crypto.h:
daemon/daemon.h:
daemon/workspace.h:
