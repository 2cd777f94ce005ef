build/asan/obj/daemon/linux-init.o: daemon/linux-init.c daemon/fsplan.h \
 daemon/policy.h daemon/policy-diag.h daemon/linux-landlock.h \
 daemon/linux-seccomp.h daemon/linux.h daemon/sandbox.h proto/fdpass.h
daemon/fsplan.h:
daemon/policy.h:
daemon/policy-diag.h:
daemon/linux-landlock.h:
daemon/linux-seccomp.h:
daemon/linux.h:
daemon/sandbox.h:
proto/fdpass.h:
