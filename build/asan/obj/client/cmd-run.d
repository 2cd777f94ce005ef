build/asan/obj/client/cmd-run.o: client/cmd-run.c client/cmd.h \
 client/client.h proto/wire.h build/asan/gen/proto/sbx.pb-c.h \
 client/relay.h client/tty.h
client/cmd.h:
client/client.h:
proto/wire.h:
build/asan/gen/proto/sbx.pb-c.h:
client/relay.h:
client/tty.h:
