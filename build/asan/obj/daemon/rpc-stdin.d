build/asan/obj/daemon/rpc-stdin.o: daemon/rpc-stdin.c daemon/conn.h \
 proto/fdpass.h proto/wire.h build/asan/gen/proto/sbx.pb-c.h daemon/rpc.h \
 daemon/session.h
daemon/conn.h:
proto/fdpass.h:
proto/wire.h:
build/asan/gen/proto/sbx.pb-c.h:
daemon/rpc.h:
daemon/session.h:
