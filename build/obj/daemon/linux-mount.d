build/obj/daemon/linux-mount.o: daemon/linux-mount.c daemon/fsplan.h \
 daemon/policy.h daemon/policy-diag.h daemon/linux-walk.h daemon/linux.h
daemon/fsplan.h:
daemon/policy.h:
daemon/policy-diag.h:
daemon/linux-walk.h:
daemon/linux.h:
