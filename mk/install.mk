# SPDX-License-Identifier: GPL-2.0
#
# Installation, included by the top-level Makefile.
#
#   make install      the module (then depmod), libarc4.so.1 with its links,
#                     libarc4.a, arc4random.h, linux/arc4.h, arc4.pc, the
#                     man pages, the modules-load.d template, arc4ctl,
#                     arc4-audit and an empty policy file $(SYSCONFDIR)/arc4/legacy.conf
#                     (kept if there is one)
#   make uninstall    removes exactly what install put there (the policy
#                     file only while unedited)
#   make install-dkms / uninstall-dkms
#                     the module's sources in $(DKMSDIR)/arc4-$(VERSION),
#                     for `dkms add/build/install arc4/$(VERSION)`
#   make install-autoload / uninstall-autoload
#                     $(SYSCONFDIR)/modules-load.d/arc4dev.conf: load at boot
#   make install-criu / uninstall-criu
#                     the CRIU plugin into $(CRIU_PLUGINDIR), where criu
#                     looks whatever PREFIX says; part of install where
#                     CRIU's plugin header is installed
#
# Every path honours DESTDIR.  The module goes where modprobe looks,
# /lib/modules/$(KVER)/extra, whatever PREFIX says; KVER is the release of
# the kernel tree in KDIR.  depmod and ldconfig run for a real install
# (DESTDIR empty), and depmod also for a DESTDIR that holds a whole module
# tree for KVER (a chroot or image); a staging DESTDIR gets neither, and
# the package's scripts run them on the target.  DEPMOD=true or
# LDCONFIG=true skips them.

PREFIX		?= /usr/local
BINDIR		?= $(PREFIX)/bin
LIBDIR		?= $(PREFIX)/lib
INCLUDEDIR	?= $(PREFIX)/include
DATADIR		?= $(PREFIX)/share
MANDIR		?= $(DATADIR)/man
PKGCONFIGDIR	?= $(LIBDIR)/pkgconfig
SYSCONFDIR	?= /etc
DKMSDIR		?= /usr/src
# UTS_RELEASE, not include/config/kernel.release: Debian's headers put the
# upstream version there, not the ABI name that /lib/modules uses.
KVER		?= $(shell sed -n 's/^\#define UTS_RELEASE "\(.*\)"/\1/p' \
		     $(KDIR)/include/generated/utsrelease.h 2>/dev/null)
MODDIR		?= /lib/modules/$(KVER)/extra
DEPMOD		?= depmod
LDCONFIG	?= ldconfig
INSTALL		?= install
CRIU_PLUGINDIR	?= /usr/lib/criu

# One version for the library, the pkg-config file and DKMS: lib/Makefile's.
ARC4_VERSION	:= $(shell sed -n 's/^VERSION[[:space:]]*:=[[:space:]]*//p' $(TOP)/lib/Makefile)
ARC4_SONAME	:= $(shell sed -n 's/^SONAME[[:space:]]*:=[[:space:]]*//p' $(TOP)/lib/Makefile)
ARC4_LIBFILE	:= libarc4.so.$(ARC4_VERSION)

# Section 3 names that are links to the page documenting them.
ARC4_MAN	:= $(wildcard $(TOP)/man/*.[1-9])
ARC4_MAN_LINKS	:= arc4random_buf.3:arc4random.3 \
		   arc4random_uniform.3:arc4random.3 \
		   srandom_deterministic.3:srand_deterministic.3 \
		   srandomdev.3:srand_deterministic.3 \
		   seed48_deterministic.3:srand48_deterministic.3 \
		   lcong48_deterministic.3:srand48_deterministic.3 \
		   arc4_stream_new.3:arc4_stream.3 \
		   arc4_stream_free.3:arc4_stream.3 \
		   arc4_stream_buf.3:arc4_stream.3 \
		   arc4_stream_u32.3:arc4_stream.3 \
		   arc4_stream_u64.3:arc4_stream.3 \
		   arc4_stream_uniform.3:arc4_stream.3 \
		   arc4_stream_double.3:arc4_stream.3 \
		   arc4_stream_u32s.3:arc4_stream.3 \
		   arc4_stream_u64s.3:arc4_stream.3 \
		   arc4_stream_doubles.3:arc4_stream.3 \
		   arc4_stream_tell.3:arc4_stream.3 \
		   arc4_stream_seek.3:arc4_stream.3 \
		   arc4_stream_split.3:arc4_stream.3 \
		   arc4_stream_refill.3:arc4_stream.3

ARC4_DKMS_SRC	:= $(DKMSDIR)/arc4-$(ARC4_VERSION)
# The shim compiles this path in (lib/Makefile's SYSCONFDIR).
ARC4_POLICY	:= $(SYSCONFDIR)/arc4/legacy.conf

# A path under PREFIX written relative to ${prefix} in arc4.pc.
arc4_pcpath = $(if $(filter $(PREFIX)/%,$(1)),$${prefix}/$(patsubst $(PREFIX)/%,%,$(1)),$(1))

# Run depmod for KVER where that makes sense (see above).
define arc4_depmod
	@if [ -z "$(DESTDIR)" ]; then \
		echo "  DEPMOD  $(KVER)"; $(DEPMOD) -a $(KVER); \
	elif [ -e "$(DESTDIR)/lib/modules/$(KVER)/modules.order" ]; then \
		echo "  DEPMOD  $(KVER) in $(DESTDIR)"; \
		$(DEPMOD) -a -b "$(DESTDIR)" $(KVER); \
	else \
		echo "arc4: staging DESTDIR: run 'depmod -a $(KVER)' on the target"; \
	fi
endef

define arc4_ldconfig
	@if [ -z "$(DESTDIR)" ]; then $(LDCONFIG) || true; fi
endef

.PHONY: install uninstall install-build-module install-build-lib \
	install-build-tools install-tools uninstall-tools \
	install-policy uninstall-policy \
	install-module uninstall-module \
	install-lib uninstall-lib install-man uninstall-man uninstall-preload \
	install-dkms uninstall-dkms install-autoload uninstall-autoload \
	install-criu uninstall-criu

install: install-module install-lib install-man install-tools install-policy ## module, shim, headers, pages, tools, policy
install: $(if $(wildcard /usr/include/criu/criu-plugin.h),install-criu)

uninstall: uninstall-preload uninstall-module uninstall-lib uninstall-man ## what install put there
uninstall: uninstall-autoload uninstall-tools uninstall-policy uninstall-criu

# Build what is missing (installing needs no QEMU), with the flags of
# `make module` so that nothing is rebuilt.
install-build-module: ## build the module for install
	$(arc4_need_kdir)
	$(MAKE) -C $(KDIR) M=$(TOP) W=1 modules

install-build-lib: ## build the shim for install
	$(MAKE) -C $(TOP)/lib SYSCONFDIR=$(SYSCONFDIR)

# arc4-audit needs libelf-dev and libcapstone-dev.
install-build-tools: ## build arc4ctl and arc4-audit for install
	$(MAKE) -C $(TOP)/tools TOP=$(TOP) LIBDIR=$(LIBDIR) BINDIR=$(BINDIR) \
		SYSCONFDIR=$(SYSCONFDIR)

install-module: install-build-module ## arc4dev.ko into /lib/modules/KVER/extra; depmod
	$(INSTALL) -d $(DESTDIR)$(MODDIR)
	$(INSTALL) -m 0644 $(TOP)/kmod/arc4dev.ko $(DESTDIR)$(MODDIR)/arc4dev.ko
	$(arc4_depmod)

uninstall-module: ## remove it, then depmod
	@test -n "$(KVER)" || { echo "arc4: no kernel tree in KDIR='$(KDIR)'; set KVER"; exit 1; }
	rm -f $(DESTDIR)$(MODDIR)/arc4dev.ko
	-rmdir $(DESTDIR)$(MODDIR) 2>/dev/null
	$(arc4_depmod)

install-lib: install-build-lib ## libarc4, arc4random.h, linux/arc4.h, arc4.pc
	$(INSTALL) -d $(DESTDIR)$(LIBDIR) $(DESTDIR)$(PKGCONFIGDIR) \
		$(DESTDIR)$(INCLUDEDIR)/linux $(DESTDIR)$(DATADIR)/arc4
	$(INSTALL) -m 0755 $(TOP)/lib/$(ARC4_SONAME) $(DESTDIR)$(LIBDIR)/$(ARC4_LIBFILE)
	ln -sf $(ARC4_LIBFILE) $(DESTDIR)$(LIBDIR)/$(ARC4_SONAME)
	ln -sf $(ARC4_SONAME) $(DESTDIR)$(LIBDIR)/libarc4.so
	$(INSTALL) -m 0644 $(TOP)/lib/libarc4.a $(DESTDIR)$(LIBDIR)/libarc4.a
	$(INSTALL) -m 0644 $(TOP)/include/arc4random.h $(DESTDIR)$(INCLUDEDIR)/arc4random.h
	$(INSTALL) -m 0644 $(TOP)/include/uapi/linux/arc4.h $(DESTDIR)$(INCLUDEDIR)/linux/arc4.h
	sed -e 's|@PREFIX@|$(PREFIX)|' \
	    -e 's|@LIBDIR@|$(call arc4_pcpath,$(LIBDIR))|' \
	    -e 's|@INCLUDEDIR@|$(call arc4_pcpath,$(INCLUDEDIR))|' \
	    -e 's|@VERSION@|$(ARC4_VERSION)|' \
	    $(TOP)/lib/arc4.pc.in >$(DESTDIR)$(PKGCONFIGDIR)/arc4.pc
	chmod 0644 $(DESTDIR)$(PKGCONFIGDIR)/arc4.pc
	$(INSTALL) -m 0644 $(TOP)/packaging/arc4dev.conf $(DESTDIR)$(DATADIR)/arc4/arc4dev.conf
	$(arc4_ldconfig)

# Before the library or arc4ctl goes: /etc/ld.so.preload (DESTDIR's) must
# not name a missing library, which every program would complain about.
uninstall-preload: ## arc4ctl preload off in DESTDIR's /etc/ld.so.preload
	@f=$(DESTDIR)/etc/ld.so.preload; ctl=$(DESTDIR)$(BINDIR)/arc4ctl; \
	[ -x $$ctl ] || ctl=$(TOP)/build/tools/arc4ctl; \
	if [ -e $$f ] || [ -L $$f ]; then \
		if [ -x $$ctl ]; then \
			echo "$$ctl preload off --library $(LIBDIR)/libarc4.so.1$(if $(DESTDIR), --root $(DESTDIR))"; \
			$$ctl preload off --library $(LIBDIR)/libarc4.so.1 $(if $(DESTDIR),--root $(DESTDIR)); \
		else \
			echo "arc4: no arc4ctl to take $(LIBDIR)/libarc4.so.1 out of $$f"; exit 1; \
		fi; \
	fi

uninstall-lib uninstall-tools: uninstall-preload
uninstall-lib: ## remove them
	rm -f $(DESTDIR)$(LIBDIR)/$(ARC4_LIBFILE) $(DESTDIR)$(LIBDIR)/$(ARC4_SONAME) \
		$(DESTDIR)$(LIBDIR)/libarc4.so $(DESTDIR)$(LIBDIR)/libarc4.a \
		$(DESTDIR)$(INCLUDEDIR)/arc4random.h \
		$(DESTDIR)$(INCLUDEDIR)/linux/arc4.h \
		$(DESTDIR)$(PKGCONFIGDIR)/arc4.pc \
		$(DESTDIR)$(DATADIR)/arc4/arc4dev.conf
	-rmdir $(DESTDIR)$(DATADIR)/arc4 2>/dev/null
	$(arc4_ldconfig)

install-man: ## the man pages and their links
	$(INSTALL) -d $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man3 \
		$(DESTDIR)$(MANDIR)/man4
	for p in $(ARC4_MAN); do \
		s=$${p##*.}; \
		$(INSTALL) -m 0644 $$p $(DESTDIR)$(MANDIR)/man$$s/ || exit 1; \
	done
	for l in $(ARC4_MAN_LINKS); do \
		ln -sf $${l#*:} $(DESTDIR)$(MANDIR)/man3/$${l%%:*} || exit 1; \
	done

uninstall-man: ## remove them
	for p in $(notdir $(ARC4_MAN)); do \
		rm -f $(DESTDIR)$(MANDIR)/man$${p##*.}/$$p; \
	done
	for l in $(ARC4_MAN_LINKS); do \
		rm -f $(DESTDIR)$(MANDIR)/man3/$${l%%:*}; \
	done

# Only what the module's build needs; dkms copies this tree per kernel.
install-dkms: ## the module's sources for dkms
	$(INSTALL) -d $(DESTDIR)$(ARC4_DKMS_SRC)/kmod \
		$(DESTDIR)$(ARC4_DKMS_SRC)/include/uapi/linux
	$(INSTALL) -m 0644 $(TOP)/dkms.conf $(TOP)/Kbuild $(DESTDIR)$(ARC4_DKMS_SRC)/
	$(INSTALL) -m 0644 $(TOP)/kmod/Kbuild $(wildcard $(TOP)/kmod/*.[ch]) \
		$(DESTDIR)$(ARC4_DKMS_SRC)/kmod/
	$(INSTALL) -m 0644 $(TOP)/include/uapi/linux/arc4.h \
		$(DESTDIR)$(ARC4_DKMS_SRC)/include/uapi/linux/

# A real uninstall takes the module out of DKMS first.
uninstall-dkms: ## remove them (and dkms remove them)
	@if [ -z "$(DESTDIR)" ] && command -v dkms >/dev/null && \
	    dkms status arc4/$(ARC4_VERSION) 2>/dev/null | grep -q .; then \
		echo "  DKMS    remove arc4/$(ARC4_VERSION) --all"; \
		dkms remove arc4/$(ARC4_VERSION) --all; \
	fi
	rm -rf $(DESTDIR)$(ARC4_DKMS_SRC)

install-autoload: ## modules-load.d/arc4dev.conf: load at boot
	$(INSTALL) -d $(DESTDIR)$(SYSCONFDIR)/modules-load.d
	$(INSTALL) -m 0644 $(TOP)/packaging/arc4dev.conf \
		$(DESTDIR)$(SYSCONFDIR)/modules-load.d/arc4dev.conf

# Removed only while it is still ours, unedited.
uninstall-autoload: ## remove it while unedited
	@f=$(DESTDIR)$(SYSCONFDIR)/modules-load.d/arc4dev.conf; \
	if cmp -s $(TOP)/packaging/arc4dev.conf $$f; then \
		echo "rm -f $$f"; rm -f $$f; \
	elif [ -e $$f ]; then \
		echo "arc4: $$f was edited; left in place"; \
	fi

install-tools: install-build-tools ## arc4ctl and arc4-audit into BINDIR
	$(INSTALL) -d $(DESTDIR)$(BINDIR)
	$(INSTALL) -m 0755 $(TOP)/build/tools/arc4ctl $(TOP)/build/tools/arc4-audit \
		$(DESTDIR)$(BINDIR)/

uninstall-tools: ## remove them
	rm -f $(DESTDIR)$(BINDIR)/arc4ctl $(DESTDIR)$(BINDIR)/arc4-audit

install-criu: ## the CRIU plugin into CRIU_PLUGINDIR (/usr/lib/criu)
	$(MAKE) -C $(TOP)/criu TOP=$(TOP)
	$(INSTALL) -d $(DESTDIR)$(CRIU_PLUGINDIR)
	$(INSTALL) -m 0644 $(TOP)/build/criu/arc4_plugin.so $(DESTDIR)$(CRIU_PLUGINDIR)/

uninstall-criu: ## remove it
	rm -f $(DESTDIR)$(CRIU_PLUGINDIR)/arc4_plugin.so
	-rmdir $(DESTDIR)$(CRIU_PLUGINDIR) 2>/dev/null

# Never over the administrator's list; the shim trusts it only while it
# and its directory are root's and not group- or other-writable.
install-policy: ## an empty SYSCONFDIR/arc4/legacy.conf
	@f=$(DESTDIR)$(ARC4_POLICY); \
	if [ -e $$f ]; then \
		echo "arc4: $$f exists; left as it is"; \
	else \
		echo "$(INSTALL) -m 0644 packaging/legacy.conf $$f"; \
		$(INSTALL) -d -m 0755 $${f%/*} && \
		$(INSTALL) -m 0644 $(TOP)/packaging/legacy.conf $$f; \
	fi

# Removed only while it is still ours, unedited.
uninstall-policy: ## remove it while unedited
	@f=$(DESTDIR)$(ARC4_POLICY); \
	if cmp -s $(TOP)/packaging/legacy.conf $$f; then \
		echo "rm -f $$f"; rm -f $$f; rmdir $${f%/*} 2>/dev/null || true; \
	elif [ -e $$f ]; then \
		echo "arc4: $$f was edited; left in place"; \
	fi
