build/asan/obj/daemon/session.o: daemon/session.c daemon/conn.h \
 proto/fdpass.h proto/wire.h build/asan/gen/proto/sbx.pb-c.h \
 daemon/daemon.h daemon/envfilter.h daemon/log.h daemon/sandbox.h \
 daemon/session.h daemon/workspace.h
daemon/conn.h:
proto/fdpass.h:
proto/wire.h:
build/asan/gen/proto/sbx.pb-c.h:
daemon/daemon.h:
daemon/envfilter.h:
daemon/log.h:
daemon/sandbox.h:
daemon/session.h:
daemon/workspace.h:
