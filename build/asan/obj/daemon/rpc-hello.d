build/asan/obj/daemon/rpc-hello.o: daemon/rpc-hello.c daemon/conn.h \
 proto/fdpass.h proto/wire.h build/asan/gen/proto/sbx.pb-c.h \
 daemon/daemon.h daemon/rpc.h daemon/sandbox.h
daemon/conn.h:
proto/fdpass.h:
proto/wire.h:
build/asan/gen/proto/sbx.pb-c.h:
daemon/daemon.h:
daemon/rpc.h:
daemon/sandbox.h:
