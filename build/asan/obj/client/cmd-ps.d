build/asan/obj/client/cmd-ps.o: client/cmd-ps.c client/cmd.h \
 client/client.h proto/wire.h build/asan/gen/proto/sbx.pb-c.h
client/cmd.h:
client/client.h:
proto/wire.h:
build/asan/gen/proto/sbx.pb-c.h:
