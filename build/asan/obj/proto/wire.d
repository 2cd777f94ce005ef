build/asan/obj/proto/wire.o: proto/wire.c proto/wire.h \
 build/asan/gen/proto/sbx.pb-c.h
proto/wire.h:
build/asan/gen/proto/sbx.pb-c.h:
