# sbx build. `make` builds build/sbxd and build/sbxctl; `make check` installs
# missing dependencies (as root), builds sanitized copies and runs every test;
# `make demo` builds and runs a few sandboxed examples. See README.

# Where everything is built; checked builds go to $(BUILD)/asan, fuzzers to
# $(BUILD)/fuzz, so a plain build never picks up sanitizer runtimes.
BUILD ?= build
# Compiler; fuzz targets need clang (libFuzzer), everything else any C11 cc.
CC ?= cc
FUZZ_CC ?= clang
# Comma list passed to -fsanitize= (make check uses address,undefined).
SANITIZE ?=
# 1 makes warnings errors (CI sets it).
WERROR ?= 0
# Install layout (used by `make install` and the packages).
PREFIX ?= /usr/local
DESTDIR ?=
# Seconds each fuzz target runs inside `make check` (a smoke run, not a campaign).
FUZZ_SECONDS ?= 3
# sbxctl starts once per sandboxed command, so its start is on every run's
# path (Linux). 1: a static executable at a fixed address: 0.35 ms of CPU to
# start, as much as `true`. pie: static but position-independent (ASLR for
# its image; relocating libcrypto's tables costs ~0.4 ms more). 0: linked
# dynamically (for distributions that forbid static copies; loading
# libcrypto.so alone adds ~1.3 ms). Sanitized builds link dynamically.
SBXCTL_STATIC ?= 1

# Cross build (`make cross`, `make cross-check`): the target as the GNU
# triplet's first part; aarch64 is the one set up (Debian's arm64).
CROSS_ARCH ?= aarch64
# The cross compiler's prefix (Debian's gcc-aarch64-linux-gnu).
CROSS ?= $(CROSS_ARCH)-linux-gnu-
# pkg-config; the cross build points it at its sysroot.
PKG_CONFIG ?= pkg-config

UNAME_S := $(shell uname -s)
PKGS := libevent libprotobuf-c libseccomp libsystemd openssl jansson
# What sbxctl needs of them: libevent's core, crypto.c's libcrypto, and on
# Linux libseccomp for doctor's kernel probes (linux/probe.c).
CLIENT_PKGS := libevent_core libprotobuf-c libcrypto jansson libseccomp
ifeq ($(UNAME_S),Darwin)
PKGS := libevent libprotobuf-c openssl jansson
CLIENT_PKGS := libevent_core libprotobuf-c libcrypto jansson
endif

WARN := -Wall -Wextra -Wformat=2 -Wshadow -Wstrict-prototypes \
	-Wmissing-prototypes -Wpointer-arith -Wwrite-strings \
	-Wimplicit-fallthrough -Wno-unused-parameter
ifeq ($(WERROR),1)
WARN += -Werror
endif
HARDEN := -D_FORTIFY_SOURCE=2 -fstack-protector-strong -fPIE
HARDEN_LD := -pie -Wl,-z,relro -Wl,-z,now

PKG_CFLAGS = $(shell $(PKG_CONFIG) --cflags $(PKGS) 2>/dev/null)
PKG_LIBS = $(shell $(PKG_CONFIG) --libs $(PKGS) 2>/dev/null)
CLIENT_LIBS = $(shell $(PKG_CONFIG) --libs $(CLIENT_PKGS) 2>/dev/null)
CLIENT_LDFLAGS = $(ALL_LDFLAGS)
ifeq ($(UNAME_S)$(SANITIZE),Linux)
ifeq ($(SBXCTL_STATIC),1)
CLIENT_LDFLAGS = $(LDFLAGS) -static -Wl,-z,relro -Wl,-z,now
else ifeq ($(SBXCTL_STATIC),pie)
CLIENT_LDFLAGS = $(LDFLAGS) -static-pie -Wl,-z,relro -Wl,-z,now
endif
endif

O := $(BUILD)
ifneq ($(SANITIZE),)
SAN_FLAGS := -fsanitize=$(SANITIZE) -fno-omit-frame-pointer -fno-sanitize-recover=all
HARDEN := -fstack-protector-strong -fPIE
endif

CFLAGS ?= -O2 -g
ALL_CFLAGS = -std=gnu11 $(CFLAGS) $(WARN) $(HARDEN) $(SAN_FLAGS) -MMD -MP \
	-I. -I$(O)/gen -Iproto -Iclient -Itests/unit $(PKG_CFLAGS)
ALL_LDFLAGS = $(LDFLAGS) $(HARDEN_LD) $(SAN_FLAGS)

# Platform files: the Makefile picks the backend's folder (STYLE.md), not
# #ifdefs. The Seatbelt generator (daemon/seatbelt/) is pure and builds,
# with its unit tests, everywhere; daemon/macos/ is the macOS-only glue.
# Unit tests of Linux-only files are test-linux-*.c plus the two named.
ifeq ($(UNAME_S),Darwin)
PLATFORM_EXCLUDE := daemon/linux/% client/linux-%.c tests/unit/test-linux-%.c \
	tests/unit/test-landlock-abi.c tests/unit/test-audit-record.c
else
PLATFORM_EXCLUDE := daemon/macos/% client/macos-%.c
endif

# The daemon's folders: the core, then one per subsystem (docs/development.md).
DAEMON_DIRS := daemon daemon/rpc daemon/policy daemon/proxy daemon/seatbelt \
	daemon/linux daemon/macos
GEN_SRCS := $(O)/gen/proto/sbx.pb-c.c $(O)/gen/policy-default.c
PROTO_SRCS := $(wildcard proto/*.c)
DAEMON_SRCS := $(filter-out $(PLATFORM_EXCLUDE) daemon/main.c,\
	$(foreach d,$(DAEMON_DIRS),$(wildcard $(d)/*.c)))
CLIENT_SRCS := $(filter-out $(PLATFORM_EXCLUDE) client/main.c,$(wildcard client/*.c))
UNIT_SRCS := $(filter-out $(PLATFORM_EXCLUDE),$(wildcard tests/unit/test-*.c))
FUZZ_SRCS := $(wildcard tests/fuzz/fuzz-*.c)

obj = $(patsubst %.c,$(O)/obj/%.o,$(patsubst $(O)/%,%,$(1)))

PROTO_OBJS := $(call obj,$(GEN_SRCS) $(PROTO_SRCS))
DAEMON_OBJS := $(call obj,$(DAEMON_SRCS))
CLIENT_OBJS := $(call obj,$(CLIENT_SRCS))
UNIT_BINS := $(patsubst tests/unit/%.c,$(O)/%,$(UNIT_SRCS))

.PHONY: all deps check demo unit unit-bins integration fuzz clean install \
	cross cross-check
# Keep object files of tests between runs (make would delete them as
# intermediates).
.SECONDARY:
all: $(O)/sbxd $(O)/sbxctl $(O)/sbx-probe $(O)/sbx-mcp-conform

$(O)/gen/proto/sbx.pb-c.c $(O)/gen/proto/sbx.pb-c.h: proto/sbx.proto
	@mkdir -p $(O)/gen/proto
	protoc-c --proto_path=. --c_out=$(O)/gen proto/sbx.proto

# The developer defaults ship inside sbxd, so a build tree and an install
# behave the same with no file to find at run time.
$(O)/gen/policy-default.c: policies/default.json
	@mkdir -p $(dir $@)
	{ echo '/* generated from policies/default.json */'; \
	  echo '#include <stddef.h>'; \
	  echo 'extern const char policy_default_json[];'; \
	  echo 'extern const size_t policy_default_json_len;'; \
	  echo 'const char policy_default_json[] = {'; \
	  od -An -v -tx1 $< | sed 's/\([0-9a-f][0-9a-f]\)/0x\1,/g'; \
	  echo '0x00 };'; \
	  echo 'const size_t policy_default_json_len = sizeof(policy_default_json) - 1;'; \
	} > $@

$(O)/obj/%.o: %.c | $(O)/gen/proto/sbx.pb-c.h
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -c -o $@ $<

$(O)/obj/gen/%.o: $(O)/gen/%.c
	@mkdir -p $(dir $@)
	$(CC) $(ALL_CFLAGS) -Wno-missing-prototypes -c -o $@ $<

$(O)/libsbxproto.a: $(PROTO_OBJS)
	ar rcs $@ $^
# Built afresh each time: members are named by file name only, and two
# folders may both hold, say, policy.c; `ar r` on an old archive would
# replace one with the other.
$(O)/libsbxd.a: $(DAEMON_OBJS)
	rm -f $@
	ar rcs $@ $^
$(O)/libsbxctl.a: $(CLIENT_OBJS)
	ar rcs $@ $^

$(O)/sbxd: $(O)/obj/daemon/main.o $(O)/libsbxd.a $(O)/libsbxproto.a
	$(CC) $(ALL_LDFLAGS) -o $@ $^ $(PKG_LIBS)
# sbxctl takes the pure policy parser and crypto.c (keygen, sign, local
# lint) and, for doctor, sbxd's kernel probes (linux/probe.c) from the
# daemon's library; the linker pulls only those objects. A static link
# warns that glibc's name services (getpwuid, getaddrinfo, dlopen) need
# its shared modules at run time: sbxctl resolves no names (the daemon's
# socket is a path), falls back to $$HOME where it asks getpwuid, and
# dlopens only what an OpenSSL configuration names. Those warnings are
# dropped; any other is shown.
$(O)/sbxctl: $(O)/obj/client/main.o $(O)/libsbxctl.a $(O)/libsbxd.a \
		$(O)/libsbxproto.a
	$(CC) $(CLIENT_LDFLAGS) -o $@ $^ $(CLIENT_LIBS) 2>$@.ld || \
		{ cat $@.ld >&2; exit 1; }
	@grep -v -e 'in statically linked applications' -e ': in function' \
		$@.ld >&2 || true
# The probe runs inside sandboxes in tests and reports exact errnos. Never
# sanitized: LeakSanitizer cannot run under the sandbox's seccomp filter.
$(O)/sbx-probe: tests/probe/sbx-probe.c
	$(CC) -std=gnu11 -O2 $(WARN) -pthread -o $@ $<
# The MCP client of the sbxctl mcp tests (t-mcp*.sh): a test program.
$(O)/sbx-mcp-conform: tests/integration/mcp-conform.c
	$(CC) $(ALL_CFLAGS) $(ALL_LDFLAGS) -o $@ $< $(shell $(PKG_CONFIG) --libs jansson)

# Unit tests link the daemon and client libraries; the linker pulls only what
# each test uses.
$(O)/test-%: $(O)/obj/tests/unit/test-%.o $(O)/libsbxd.a $(O)/libsbxctl.a $(O)/libsbxproto.a
	$(CC) $(ALL_LDFLAGS) -o $@ $^ $(PKG_LIBS)

-include $(shell find $(O)/obj -name '*.d' 2>/dev/null)

# --- checks -----------------------------------------------------------------
ASAN_BUILD := $(BUILD)/asan
deps:
	@tests/deps.sh
	@$(MAKE) -s pkg-deps

# tests/layout.sh: the daemon's folders depend one way (docs/development.md).
unit: all $(UNIT_BINS)
	@tests/layout.sh
	@tests/run-unit.sh $(O) $(UNIT_BINS)
unit-bins: $(UNIT_BINS)

# Fuzz targets: each parser's tests/fuzz/fuzz-NAME.c, built with libFuzzer.
fuzz:
	$(MAKE) BUILD=$(BUILD)/fuzz CC=$(FUZZ_CC) SANITIZE=fuzzer-no-link,address,undefined \
		$(patsubst tests/fuzz/%.c,$(BUILD)/fuzz/%,$(FUZZ_SRCS))
$(O)/fuzz-%: $(O)/obj/tests/fuzz/fuzz-%.o $(O)/libsbxd.a $(O)/libsbxctl.a $(O)/libsbxproto.a
	$(CC) $(ALL_LDFLAGS) -fsanitize=fuzzer -o $@ $^ $(PKG_LIBS)

# What users run is the release build (sbxctl linked static, see
# SBXCTL_STATIC): its client verbs, crypto and lookups get a smoke run too.
RELEASE_TESTS ?= t-basic t-tty t-doctor t-policy-lint t-policy-push-signed \
	t-exitcodes-concurrent
check: deps
	$(MAKE) BUILD=$(ASAN_BUILD) SANITIZE=address,undefined all unit
	$(MAKE) node-check
	$(MAKE) fuzz
	tests/run-fuzz.sh $(BUILD)/fuzz $(FUZZ_SECONDS)
	tests/run-integration.sh $(ASAN_BUILD)
	tests/compat/run.sh $(ASAN_BUILD)
	$(MAKE) all
	SBX_TESTS="$(RELEASE_TESTS)" tests/run-integration.sh $(BUILD)

# --- cross build -------------------------------------------------------------
# `make cross` builds everything, unit tests included, for CROSS_ARCH in
# $(BUILD)/CROSS_ARCH against a sysroot of Debian's packages for it, which
# tests/cross-deps.sh unpacks (installing the cross gcc and qemu-user, as
# root, when missing). `make cross-check` runs those unit tests under
# qemu-user, which does not apply seccomp filters: test-linux-seccomp checks
# the program the target's libseccomp builds through its BPF interpreter.
CROSS_DEBARCH_aarch64 := arm64
CROSS_DEBARCH := $(CROSS_DEBARCH_$(CROSS_ARCH))
CROSS_MULTIARCH := $(CROSS_ARCH)-linux-gnu
CROSS_BUILD := $(BUILD)/$(CROSS_ARCH)
CROSS_SYSROOT := $(abspath $(BUILD))/sysroot-$(CROSS_DEBARCH)
CROSS_UNIT_BINS := $(patsubst tests/unit/%.c,$(CROSS_BUILD)/%,$(UNIT_SRCS))

cross:
	@test -n "$(CROSS_DEBARCH)" || { echo "make cross:" \
		"CROSS_ARCH=$(CROSS_ARCH) is not set up (aarch64 is)" >&2; exit 1; }
	tests/cross-deps.sh $(CROSS_DEBARCH) $(CROSS_MULTIARCH) \
		$(CROSS)gcc qemu-$(CROSS_ARCH) $(CROSS_SYSROOT)
	PKG_CONFIG_SYSROOT_DIR=$(CROSS_SYSROOT) \
	PKG_CONFIG_LIBDIR=$(CROSS_SYSROOT)/usr/lib/$(CROSS_MULTIARCH)/pkgconfig:$(CROSS_SYSROOT)/usr/share/pkgconfig \
		$(MAKE) BUILD=$(CROSS_BUILD) \
		CC="$(CROSS)gcc --sysroot=$(CROSS_SYSROOT)" all unit-bins

cross-check: cross
	UNIT_RUNNER="qemu-$(CROSS_ARCH) -L $(CROSS_SYSROOT)" \
		tests/run-unit.sh $(CROSS_BUILD) $(CROSS_UNIT_BINS)

demo: deps all
	tests/demo.sh $(O)

clean:
	rm -rf $(BUILD)
-include packaging/packaging.mk
include clients/node/node.mk
