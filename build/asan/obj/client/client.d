build/asan/obj/client/client.o: client/client.c client/autostart.h \
 client/client.h proto/wire.h build/asan/gen/proto/sbx.pb-c.h \
 proto/fdpass.h proto/rundir.h
client/autostart.h:
client/client.h:
proto/wire.h:
build/asan/gen/proto/sbx.pb-c.h:
proto/fdpass.h:
proto/rundir.h:
