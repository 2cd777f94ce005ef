build/asan/obj/daemon/rpc-run.o: daemon/rpc-run.c daemon/conn.h \
 proto/fdpass.h proto/wire.h build/asan/gen/proto/sbx.pb-c.h \
 daemon/envfilter.h daemon/rpc.h daemon/session.h daemon/workspace.h
daemon/conn.h:
proto/fdpass.h:
proto/wire.h:
build/asan/gen/proto/sbx.pb-c.h:
daemon/envfilter.h:
daemon/rpc.h:
daemon/session.h:
daemon/workspace.h:
