# arc4: /dev/arc4 kernel module, libc shim, tests.
#
# `make help` lists every target with one line each, from the `## `
# comment on its rule line (a rule without one fails
# selftests/install/build.sh).  Where each group lives:
#
#   Makefile         build (all, module, lib, tools, selftests), test,
#                    test-matrix, test-native, demo, check, deps, rig,
#                    rig-vm, clean, help
#   mk/install.mk    install, uninstall and their parts, DKMS, autoload
#   mk/deb.mk        deb, test-deb: the Debian packages
#   mk/reliab.mk     debug-kernel, test-debug, soak, vmfork-test, coverage,
#                    mutants, prove: the reliability runs
#   mk/sanitize.mk   test-sanitize: ASan+UBSan, TSan, valgrind, -m32
#   mk/bench.mk      bench;  mk/stats.mk  stats;  mk/system.mk  test-system
#
# `make` (module, lib, tools), `install` and `deb` need a compiler, the
# kernel's headers and libelf and capstone's, and install nothing: what is
# missing is named with its Debian package (`make deps` installs them).
# The test programs (`make selftests`) and the rig's targets (test*, demo,
# bench, stats, ...) install what they need: `make rig`, `make rig-vm`.
# KDIR defaults to the running kernel's build tree when it exists, else to
# the headers of the kernel the test VM boots (Debian's linux-image-ARCH).

TOP := $(CURDIR)
MAKEFLAGS += --no-print-directory
RUNNING_KDIR := /lib/modules/$(shell uname -r)/build
# Deferred (?=): on a fresh machine the headers may arrive with `make rig`,
# which runs before anything of the rig that uses KDIR.
KDIR ?= $(if $(wildcard $(RUNNING_KDIR)/Makefile),$(RUNNING_KDIR),$(shell scripts/kver 2>/dev/null | sed "s|^|/lib/modules/|;s|$$|/build|"))

SELFTEST_DIRS := $(patsubst %/Makefile,%,$(wildcard selftests/*/Makefile))

.PHONY: all deps rig rig-vm module lib tools criu selftests kselftest test \
	test-matrix test-native demo check clean help \
	$(SELFTEST_DIRS)

all: module lib tools ## the module, the shim and the tools (not the tests)

deps: ## the build's Debian packages: installs them (root) or prints the command
	@scripts/deps-install --build

rig: ## the test rig's Debian packages: QEMU, kernels, linux-source, ... (root)
	@scripts/deps-install

rig-vm: ## what booting the test VM needs: QEMU, its kernel (root)
	@scripts/deps-install --vm

# The kernel's build tree, or a message naming its Debian package (the
# release is KDIR's when it is /lib/modules/RELEASE/build, else uname -r's).
KREL = $(or $(patsubst /lib/modules/%/build,%,$(filter /lib/modules/%/build,$(KDIR))),$(shell uname -r))
define arc4_need_kdir
	@test -n "$(KDIR)" && test -e "$(KDIR)/Makefile" || { echo "arc4: $(if \
		$(filter-out /lib/modules/%/build,$(KDIR)),KDIR=$(KDIR) is not a kernel build tree,no \
		kernel headers for $(KREL)$(if $(KDIR), in KDIR=$(KDIR)): apt-get install linux-headers-$(KREL) \
		(or set KDIR to a kernel build tree))" >&2; exit 1; }
endef

# The C compiler, or a message naming Debian's.
define arc4_need_cc
	@command -v $(firstword $(CC)) >/dev/null || { \
		echo "arc4: no C compiler ($(CC)): apt-get install gcc" >&2; exit 1; }
endef

module: ## kmod/arc4dev.ko against KDIR, W=1
	$(arc4_need_kdir)
	$(MAKE) -C $(KDIR) M=$(TOP) W=1 modules

# A C compiler and nothing else.
lib: ## the shim in lib/ (needs a C compiler only)
	$(arc4_need_cc)
	$(MAKE) -C lib

# arc4-audit reads ELF with libelf and disassembles with capstone: a
# missing header is named with its package (tools/audit/Makefile).
tools: ## arc4ctl and arc4-audit in build/tools/
	$(arc4_need_cc)
	$(MAKE) -C tools TOP=$(TOP)

# CRIU's plugin header comes with Debian's criu package (libcriu-dev on
# Debian 13 and later).
criu: ## the CRIU plugin, build/criu/arc4_plugin.so (needs criu installed)
	$(arc4_need_cc)
	$(MAKE) -C criu TOP=$(TOP)

kselftest: rig ## harness, checkpatch.pl from linux-source
	@scripts/kernel-src

selftests: kselftest lib $(SELFTEST_DIRS) ## every test suite's programs

$(SELFTEST_DIRS): kselftest lib ## one suite's programs (make selftests/shim)
	$(MAKE) -C $@ TOP=$(TOP)

# The releases `make test` adds to the host's own: Debian's current stable.
TEST_RELEASES ?= trixie

test: all selftests ## every test, here and on TEST_RELEASES (trixie)
	@scripts/tests-run $(addprefix --release ,$(TEST_RELEASES))

test-matrix: all selftests ## the VM suites on 6 releases (2 arm64; MATRIX_ARCHES=amd64 for those alone), and a table
	@scripts/tests-run --matrix

# The trees make test-native builds arc4 in, natively, as a user would.
NATIVE_RELEASES ?= bookworm-arm64

test-native: rig-vm ## make, install, deb and DKMS natively in NATIVE_RELEASES' trees (bookworm-arm64)
	@rc=0; for r in $(NATIVE_RELEASES); do selftests/install/native.sh $$r || rc=1; done; exit $$rc

demo: rig-vm all ## show /dev/arc4 and the shim at work in the VM
	@scripts/demo

check: kselftest ## checkpatch, sparse, W=1 and -Werror builds
	scripts/check

clean: ## remove what the build made
	-$(MAKE) -C $(KDIR) M=$(TOP) clean >/dev/null 2>&1
	$(MAKE) -C lib clean
	rm -rf build

-include $(wildcard mk/*.mk)

# Every rule line with a `## ` comment, grouped by the file it is in.
help: ## this list
	@for f in $(filter Makefile mk/%.mk,$(MAKEFILE_LIST)); do \
		echo "$$f:"; \
		sed -n 's/^\([^#[:space:]][^=]*\):[^=]*## \(.*\)/\1\t\2/p' $$f | \
			sed 's/$$(SELFTEST_DIRS)/selftests\/NAME/' | \
			awk -F'\t' '{ printf "  %-21s %s\n", $$1, $$2 }'; \
	done

# A rule that fails leaves no half-written target behind.
.DELETE_ON_ERROR:
