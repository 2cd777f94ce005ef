build/asan/obj/client/tty.o: client/tty.c client/tty.h
client/tty.h:
