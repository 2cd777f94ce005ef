build/asan/obj/client/main.o: client/main.c client/cmd.h client/client.h \
 proto/wire.h build/asan/gen/proto/sbx.pb-c.h
client/cmd.h:
client/client.h:
proto/wire.h:
build/asan/gen/proto/sbx.pb-c.h:
