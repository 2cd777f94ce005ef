build/obj/daemon/rpc-ps.o: daemon/rpc-ps.c daemon/conn.h proto/fdpass.h \
 proto/wire.h build/gen/proto/sbx.pb-c.h daemon/rpc.h daemon/session.h
daemon/conn.h:
proto/fdpass.h:
proto/wire.h:
build/gen/proto/sbx.pb-c.h:
daemon/rpc.h:
daemon/session.h:
