build/asan/obj/client/signame.o: client/signame.c client/signame.h
client/signame.h:
