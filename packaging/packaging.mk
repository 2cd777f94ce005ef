# Install layout and packages; included by the top Makefile (after its own
# variables: BUILD, O, PREFIX and DESTDIR come from there).
#
#   make install DESTDIR=... PREFIX=...   binaries, units, policies, man pages,
#                                          completions, AppArmor profile
#   make uninstall                         removes what install put there
#   make deb                               $(BUILD)/sbx_VERSION-REV_ARCH.deb
#   make pkg-deps                          Debian packages the packaging tests use
#
# The .rpm spec and the Homebrew formula call `make install` with their own
# directories; keep the three in step (tests/integration/t-pkg-deb.sh checks
# the versions agree).

# Upstream version, shared by the .deb, the spec and the formula.
VERSION ?= 0.1.0
# Debian revision of the package `make deb` builds.
DEB_REVISION ?= 1
# Where the binaries to install are; another directory installs prebuilt ones
# without building (the packaging tests use this).
SBX_BIN_DIR ?= $(O)
BINDIR ?= $(PREFIX)/bin
DATADIR ?= $(PREFIX)/share
MANDIR ?= $(DATADIR)/man
# sbxd reads /etc/sbx whatever the prefix: org policy must be root-owned and
# in one known place. Homebrew passes its own etc.
SYSCONFDIR ?= /etc
# systemd searches both /usr/lib and /usr/local/lib, so the prefix decides.
SYSTEMDSYSTEMUNITDIR ?= $(PREFIX)/lib/systemd/system
SYSTEMDUSERUNITDIR ?= $(PREFIX)/lib/systemd/user
BASHCOMPDIR ?= $(DATADIR)/bash-completion/completions
# Debian's zsh reads vendor-completions; upstream zsh reads site-functions.
ZSHCOMPDIR ?= $(DATADIR)/zsh/site-functions
APPARMORDIR ?= $(SYSCONFDIR)/apparmor.d
# Where the shipped policies are taken from (tests point it at stand-ins).
POLICY_DIR ?= policies
# Shipped policies that also go to $(SYSCONFDIR)/sbx as editable conffiles.
SBX_ETC_POLICIES ?= default.json strict.json
INSTALL ?= install

PKG_OS := $(shell uname -s)
PKG_MANS := $(wildcard packaging/man/*.[1-8])
PKG_POLICIES = $(wildcard $(POLICY_DIR)/*.json)
PKG_POLICY_EXAMPLES = $(wildcard $(POLICY_DIR)/examples/*.json)
PKG_ETC_POLICIES = $(wildcard $(addprefix $(POLICY_DIR)/,$(SBX_ETC_POLICIES)))
PKG_USER_UNITS := systemd/sbxd.socket systemd/sbxd.service
PKG_SYSTEM_UNITS := systemd/sbxd@.socket systemd/sbxd@.service

# Files that name the daemon's path get the installed one.
pkg_subst = sed 's|/usr/bin/sbxd|$(BINDIR)/sbxd|g' $(1) > $(2).tmp && \
	chmod 0644 $(2).tmp && mv -f $(2).tmp $(2)

.PHONY: install install-bin install-data install-linux uninstall deb pkg-deps
install: install-bin install-data
ifeq ($(PKG_OS),Linux)
install: install-linux
endif

install-bin: $(SBX_BIN_DIR)/sbxd $(SBX_BIN_DIR)/sbxctl
	$(INSTALL) -d -m 0755 $(DESTDIR)$(BINDIR)
	$(INSTALL) -m 0755 $^ $(DESTDIR)$(BINDIR)/

install-data:
	$(INSTALL) -d -m 0755 $(DESTDIR)$(DATADIR)/sbx/policies/examples \
		$(DESTDIR)$(SYSCONFDIR)/sbx/policy.d \
		$(DESTDIR)$(BASHCOMPDIR) $(DESTDIR)$(ZSHCOMPDIR) \
		$(sort $(foreach m,$(PKG_MANS),$(DESTDIR)$(MANDIR)/man$(subst .,,$(suffix $(m)))))
	$(if $(PKG_POLICIES),$(INSTALL) -m 0644 $(PKG_POLICIES) $(DESTDIR)$(DATADIR)/sbx/policies/)
	$(INSTALL) -m 0644 proto/sbx.proto $(DESTDIR)$(DATADIR)/sbx/sbx.proto
	$(if $(PKG_POLICY_EXAMPLES),$(INSTALL) -m 0644 $(PKG_POLICY_EXAMPLES) \
		$(DESTDIR)$(DATADIR)/sbx/policies/examples/)
	$(if $(PKG_ETC_POLICIES),$(INSTALL) -m 0644 $(PKG_ETC_POLICIES) $(DESTDIR)$(SYSCONFDIR)/sbx/)
	$(foreach m,$(PKG_MANS),$(INSTALL) -m 0644 $(m) \
		$(DESTDIR)$(MANDIR)/man$(subst .,,$(suffix $(m)))/ &&) true
	$(INSTALL) -m 0644 packaging/completions/sbxctl.bash $(DESTDIR)$(BASHCOMPDIR)/sbxctl
	$(INSTALL) -m 0644 packaging/completions/_sbxctl $(DESTDIR)$(ZSHCOMPDIR)/_sbxctl

install-linux:
	$(INSTALL) -d -m 0755 $(DESTDIR)$(SYSTEMDUSERUNITDIR) \
		$(DESTDIR)$(SYSTEMDSYSTEMUNITDIR) $(DESTDIR)$(APPARMORDIR)
	$(foreach u,$(PKG_USER_UNITS),$(call pkg_subst,$(u),$(DESTDIR)$(SYSTEMDUSERUNITDIR)/$(notdir $(u))) &&) true
	$(foreach u,$(PKG_SYSTEM_UNITS),$(call pkg_subst,$(u),$(DESTDIR)$(SYSTEMDSYSTEMUNITDIR)/$(notdir $(u))) &&) true
	$(call pkg_subst,packaging/apparmor/sbxd,$(DESTDIR)$(APPARMORDIR)/sbxd)

uninstall:
	rm -f $(DESTDIR)$(BINDIR)/sbxd $(DESTDIR)$(BINDIR)/sbxctl \
		$(addprefix $(DESTDIR)$(SYSCONFDIR)/sbx/,$(notdir $(PKG_ETC_POLICIES))) \
		$(foreach m,$(PKG_MANS),$(DESTDIR)$(MANDIR)/man$(subst .,,$(suffix $(m)))/$(notdir $(m))) \
		$(DESTDIR)$(BASHCOMPDIR)/sbxctl $(DESTDIR)$(ZSHCOMPDIR)/_sbxctl \
		$(addprefix $(DESTDIR)$(SYSTEMDUSERUNITDIR)/,$(notdir $(PKG_USER_UNITS))) \
		$(addprefix $(DESTDIR)$(SYSTEMDSYSTEMUNITDIR)/,$(notdir $(PKG_SYSTEM_UNITS))) \
		$(DESTDIR)$(APPARMORDIR)/sbxd
	rm -rf $(DESTDIR)$(DATADIR)/sbx
	-rmdir $(DESTDIR)$(SYSCONFDIR)/sbx/policy.d $(DESTDIR)$(SYSCONFDIR)/sbx 2>/dev/null

# The .deb is assembled with dpkg-deb from packaging/debian/ (no debhelper
# needed, works offline); packaging/debian/rules builds the same package the
# Debian way from a source tree. Both stage with install-deb: the layout
# Debian 12 expects (system units in /lib, zsh vendor-completions).
DEB_INSTALL_VARS = PREFIX=/usr SYSCONFDIR=/etc \
	SYSTEMDSYSTEMUNITDIR=/lib/systemd/system \
	SYSTEMDUSERUNITDIR=/usr/lib/systemd/user \
	ZSHCOMPDIR=/usr/share/zsh/vendor-completions
.PHONY: install-deb
install-deb:
	$(MAKE) --no-print-directory install $(DEB_INSTALL_VARS)

DEB_STAGE = $(BUILD)/deb/stage
deb: $(SBX_BIN_DIR)/sbxd $(SBX_BIN_DIR)/sbxctl
	rm -rf $(DEB_STAGE)
	$(MAKE) --no-print-directory install-deb DESTDIR=$(abspath $(DEB_STAGE)) \
		SBX_BIN_DIR=$(abspath $(SBX_BIN_DIR))
	packaging/debian/mkdeb.sh $(DEB_STAGE) $(BUILD) $(VERSION)-$(DEB_REVISION)

# Tools the packaging tests use, from Debian (root only; tests skip without).
PKG_DEPS := dpkg-dev mandoc zsh rpm rpmlint ruby apparmor systemd python3
pkg-deps:
	@missing=$$(for p in $(PKG_DEPS); do dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | \
		grep -q '^install ok installed' || echo $$p; done); \
	if [ -n "$$missing" ] && [ "$$(id -u)" = 0 ]; then \
		DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends $$missing; \
	elif [ -n "$$missing" ]; then echo "packaging tests will skip without: $$missing"; fi
