build/obj/gen/proto/sbx.pb-c.o: build/gen/proto/sbx.pb-c.c \
 build/gen/proto/sbx.pb-c.h
build/gen/proto/sbx.pb-c.h:
