build/obj/daemon/envfilter.o: daemon/envfilter.c daemon/envfilter.h
daemon/envfilter.h:
