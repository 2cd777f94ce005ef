build/asan/obj/daemon/crypto.o: daemon/crypto.c daemon/crypto.h
daemon/crypto.h:
