build/obj/proto/wire.o: proto/wire.c proto/wire.h \
 build/gen/proto/sbx.pb-c.h
proto/wire.h:
build/gen/proto/sbx.pb-c.h:
