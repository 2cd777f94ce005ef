build/asan/obj/daemon/conn.o: daemon/conn.c daemon/conn.h proto/fdpass.h \
 proto/wire.h build/asan/gen/proto/sbx.pb-c.h daemon/daemon.h \
 daemon/log.h daemon/rpc.h daemon/session.h
daemon/conn.h:
proto/fdpass.h:
proto/wire.h:
build/asan/gen/proto/sbx.pb-c.h:
daemon/daemon.h:
daemon/log.h:
daemon/rpc.h:
daemon/session.h:
