build/asan/obj/daemon/rpc-status.o: daemon/rpc-status.c daemon/conn.h \
 proto/fdpass.h proto/wire.h build/asan/gen/proto/sbx.pb-c.h \
 daemon/daemon.h daemon/rpc.h daemon/session.h
daemon/conn.h:
proto/fdpass.h:
proto/wire.h:
build/asan/gen/proto/sbx.pb-c.h:
daemon/daemon.h:
daemon/rpc.h:
daemon/session.h:
