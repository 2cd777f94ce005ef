build/obj/daemon/server.o: daemon/server.c daemon/conn.h proto/fdpass.h \
 proto/wire.h build/gen/proto/sbx.pb-c.h daemon/daemon.h daemon/log.h \
 daemon/server.h
daemon/conn.h:
proto/fdpass.h:
proto/wire.h:
build/gen/proto/sbx.pb-c.h:
daemon/daemon.h:
daemon/log.h:
daemon/server.h:
