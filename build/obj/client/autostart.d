build/obj/client/autostart.o: client/autostart.c client/autostart.h \
 client/client.h proto/wire.h build/gen/proto/sbx.pb-c.h
client/autostart.h:
client/client.h:
proto/wire.h:
build/gen/proto/sbx.pb-c.h:
