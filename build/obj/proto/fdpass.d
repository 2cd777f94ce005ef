build/obj/proto/fdpass.o: proto/fdpass.c proto/fdpass.h
proto/fdpass.h:
