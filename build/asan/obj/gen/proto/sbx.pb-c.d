build/asan/obj/gen/proto/sbx.pb-c.o: build/asan/gen/proto/sbx.pb-c.c \
 build/asan/gen/proto/sbx.pb-c.h
build/asan/gen/proto/sbx.pb-c.h:
