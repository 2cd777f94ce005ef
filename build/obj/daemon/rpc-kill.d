build/obj/daemon/rpc-kill.o: daemon/rpc-kill.c daemon/conn.h \
 proto/fdpass.h proto/wire.h build/gen/proto/sbx.pb-c.h daemon/rpc.h \
 daemon/session.h
daemon/conn.h:
proto/fdpass.h:
proto/wire.h:
build/gen/proto/sbx.pb-c.h:
daemon/rpc.h:
daemon/session.h:
