build/obj/daemon/rpc.o: daemon/rpc.c daemon/conn.h proto/fdpass.h \
 proto/wire.h build/gen/proto/sbx.pb-c.h daemon/rpc.h
daemon/conn.h:
proto/fdpass.h:
proto/wire.h:
build/gen/proto/sbx.pb-c.h:
daemon/rpc.h:
