build/obj/client/relay.o: client/relay.c client/relay.h client/client.h \
 proto/wire.h build/gen/proto/sbx.pb-c.h client/tty.h
client/relay.h:
client/client.h:
proto/wire.h:
build/gen/proto/sbx.pb-c.h:
client/tty.h:
