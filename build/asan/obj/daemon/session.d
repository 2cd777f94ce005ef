build/asan/obj/daemon/session.o: daemon/session.c daemon/conn.h \
 proto/fdpass.h proto/wire.h build/asan/gen/proto/sbx.pb-c.h \
 daemon/daemon.h daemon/envfilter.h daemon/fsplan.h daemon/policy.h \
 daemon/policy-diag.h daemon/policy-explain.h daemon/policy.h \
 daemon/policy-path.h daemon/policy-store.h daemon/log.h daemon/sandbox.h \
 daemon/session.h daemon/workspace.h
daemon/conn.h:
proto/fdpass.h:
proto/wire.h:
build/asan/gen/proto/sbx.pb-c.h:
daemon/daemon.h:
daemon/envfilter.h:
daemon/fsplan.h:
daemon/policy.h:
daemon/policy-diag.h:
daemon/policy-explain.h:
daemon/policy.h:
daemon/policy-path.h:
daemon/policy-store.h:
daemon/log.h:
daemon/sandbox.h:
daemon/session.h:
daemon/workspace.h:
