build/asan/obj/daemon/rpc-status.o: daemon/rpc-status.c daemon/conn.h \
 proto/fdpass.h proto/wire.h build/asan/gen/proto/sbx.pb-c.h \
 daemon/daemon.h daemon/policy-store.h daemon/policy.h \
 daemon/policy-diag.h daemon/rpc.h daemon/sandbox.h daemon/session.h
daemon/conn.h:
proto/fdpass.h:
proto/wire.h:
build/asan/gen/proto/sbx.pb-c.h:
daemon/daemon.h:
daemon/policy-store.h:
daemon/policy.h:
daemon/policy-diag.h:
daemon/rpc.h:
daemon/sandbox.h:
daemon/session.h:
