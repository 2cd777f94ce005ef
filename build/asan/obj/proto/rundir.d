build/asan/obj/proto/rundir.o: proto/rundir.c proto/rundir.h
proto/rundir.h:
