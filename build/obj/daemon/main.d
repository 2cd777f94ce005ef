build/obj/daemon/main.o: daemon/main.c daemon/conn.h proto/fdpass.h \
 proto/wire.h build/gen/proto/sbx.pb-c.h daemon/daemon.h daemon/log.h \
 daemon/policy-store.h daemon/policy.h daemon/policy-diag.h \
 daemon/sandbox.h daemon/server.h daemon/session.h daemon/svc.h \
 proto/rundir.h
daemon/conn.h:
proto/fdpass.h:
proto/wire.h:
build/gen/proto/sbx.pb-c.h:
daemon/daemon.h:
daemon/log.h:
daemon/policy-store.h:
daemon/policy.h:
daemon/policy-diag.h:
daemon/sandbox.h:
daemon/server.h:
daemon/session.h:
daemon/svc.h:
proto/rundir.h:
