build/asan/obj/client/cmd-kill.o: client/cmd-kill.c client/cmd.h \
 client/client.h proto/wire.h build/asan/gen/proto/sbx.pb-c.h \
 client/signame.h
client/cmd.h:
client/client.h:
proto/wire.h:
build/asan/gen/proto/sbx.pb-c.h:
client/signame.h:
