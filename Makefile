# arc4: /dev/arc4 kernel module, libc shim, tests.
#
# `make help` lists every target with one line each, from the `## `
# comment on its rule line (a rule without one fails
# selftests/install/build.sh).  Where each group lives:
#
#   Makefile         build (all, module, lib, tools, selftests), test,
#                    test-matrix, demo, check, deps, clean, help
#   mk/install.mk    install, uninstall and their parts, DKMS, autoload
#   mk/deb.mk        deb, test-deb: the Debian packages
#   mk/reliab.mk     debug-kernel, test-debug, soak, vmfork-test, coverage,
#                    mutants: the long reliability runs
#   mk/sanitize.mk   test-sanitize: ASan+UBSan, TSan, valgrind, -m32
#   mk/bench.mk      bench;  mk/stats.mk  stats;  mk/system.mk  test-system
#
# `make lib` needs a C compiler only; the targets that build the module or
# boot the test VM run `make deps` first.  KDIR defaults to the running
# kernel's build tree when it exists, else to the headers of the kernel the
# test VM boots (Debian's linux-image-amd64).

TOP := $(CURDIR)
MAKEFLAGS += --no-print-directory
RUNNING_KDIR := /lib/modules/$(shell uname -r)/build
# Deferred (?=): on a fresh machine the headers arrive with `make deps`,
# which runs before anything that uses KDIR.
KDIR ?= $(if $(wildcard $(RUNNING_KDIR)/Makefile),$(RUNNING_KDIR),$(shell scripts/kver 2>/dev/null | sed "s|^|/lib/modules/|;s|$$|/build|"))

SELFTEST_DIRS := $(patsubst %/Makefile,%,$(wildcard selftests/*/Makefile))

.PHONY: all deps module lib tools criu selftests kselftest test test-matrix \
	demo check clean help \
	$(SELFTEST_DIRS)

all: module lib tools selftests ## the module, the shim, the tools and the tests

deps: ## install the missing Debian packages (as root)
	@scripts/deps-install

module: deps ## kmod/arc4dev.ko against KDIR, W=1
	@test -n "$(KDIR)" || { echo "arc4: no kernel headers (make deps)"; exit 1; }
	$(MAKE) -C $(KDIR) M=$(TOP) W=1 modules

# A C compiler and nothing else: no `make deps` (QEMU, kernel images and
# sources are for the targets that build the module or boot the VM).
lib: ## the shim in lib/ (needs a C compiler only)
	$(MAKE) -C lib

# arc4-audit reads ELF with libelf and disassembles with capstone.
TOOLS_DEPS := gcc make pkg-config libelf-dev libcapstone-dev

tools: ## arc4ctl and arc4-audit in build/tools/
	@scripts/deps-install --only $(TOOLS_DEPS)
	$(MAKE) -C tools TOP=$(TOP)

# CRIU's plugin header comes with Debian's criu package.
criu: ## the CRIU plugin, build/criu/arc4_plugin.so (needs criu installed)
	$(MAKE) -C criu TOP=$(TOP)

kselftest: deps ## harness, checkpatch.pl from linux-source
	@scripts/kernel-src

selftests: kselftest lib $(SELFTEST_DIRS) ## every test suite's programs

$(SELFTEST_DIRS): kselftest lib ## one suite's programs (make selftests/shim)
	$(MAKE) -C $@ TOP=$(TOP)

# The releases `make test` adds to the host's own: Debian's current stable.
TEST_RELEASES ?= trixie

test: all ## every test, here and on TEST_RELEASES (trixie)
	@scripts/tests-run $(addprefix --release ,$(TEST_RELEASES))

test-matrix: all ## the VM suites on 6 releases (2 arm64; MATRIX_ARCHES=amd64 for those alone), and a table
	@scripts/tests-run --matrix

demo: all ## show /dev/arc4 and the shim at work in the VM
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
