build/obj/daemon/linux-landlock.o: daemon/linux-landlock.c \
 daemon/linux-landlock.h
daemon/linux-landlock.h:
