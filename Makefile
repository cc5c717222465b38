# arc4: /dev/arc4 kernel module, libc shim, tests.
#
#   make            build the module, the shim and the tests
#   make demo       boot the test VM and show /dev/arc4 and the shim at work
#   make test       run every test, on this Debian release and on the current
#                   stable one (trixie); ends with "N passed, N failed"
#   make test-matrix  the VM suites on this release, trixie, trixie-rt and sid,
#                   and a table of the results
#   make check      checkpatch, sparse, W=1 and -Werror builds
#   make test-sanitize  the shim and its tests under ASan+UBSan, TSan and
#                   valgrind, and -m32 in the VM (mk/sanitize.mk)
#   make deps       install missing Debian packages (as root)
#   make deb        Debian packages from debian/ into build/deb/, and lintian
#   make test-deb   install them into a fresh bookworm tree, boot it, purge
#
# KDIR defaults to the running kernel's build tree when it exists, else to
# the headers of the kernel the test VM boots (Debian's linux-image-amd64).

TOP := $(CURDIR)
MAKEFLAGS += --no-print-directory
RUNNING_KDIR := /lib/modules/$(shell uname -r)/build
# Deferred (?=): on a fresh machine the headers arrive with `make deps`,
# which runs before anything that uses KDIR.
KDIR ?= $(if $(wildcard $(RUNNING_KDIR)/Makefile),$(RUNNING_KDIR),$(shell scripts/kver 2>/dev/null | sed "s|^|/lib/modules/|;s|$$|/build|"))

SELFTEST_DIRS := $(patsubst %/Makefile,%,$(wildcard selftests/*/Makefile))

.PHONY: all deps module lib tools selftests kselftest test test-matrix demo \
	check clean \
	$(SELFTEST_DIRS)

all: module lib tools selftests

deps:
	@scripts/deps-install

module: deps
	@test -n "$(KDIR)" || { echo "arc4: no kernel headers (make deps)"; exit 1; }
	$(MAKE) -C $(KDIR) M=$(TOP) W=1 modules

# A C compiler and nothing else: no `make deps` (QEMU, kernel images and
# sources are for the targets that build the module or boot the VM).
lib:
	$(MAKE) -C lib

# arc4-audit reads ELF with libelf and disassembles with capstone.
TOOLS_DEPS := gcc make pkg-config libelf-dev libcapstone-dev

tools:
	@scripts/deps-install --only $(TOOLS_DEPS)
	$(MAKE) -C tools TOP=$(TOP)

kselftest: deps
	@scripts/kernel-src

selftests: kselftest lib $(SELFTEST_DIRS)

$(SELFTEST_DIRS): kselftest lib
	$(MAKE) -C $@ TOP=$(TOP)

# The releases `make test` adds to the host's own: Debian's current stable.
TEST_RELEASES ?= trixie

test: all
	@scripts/tests-run $(addprefix --release ,$(TEST_RELEASES))

test-matrix: all
	@scripts/tests-run --matrix

demo: all
	@scripts/demo

check: kselftest
	scripts/check

clean:
	-$(MAKE) -C $(KDIR) M=$(TOP) clean >/dev/null 2>&1
	$(MAKE) -C lib clean
	rm -rf build

-include $(wildcard mk/*.mk)

# A rule that fails leaves no half-written target behind.
.DELETE_ON_ERROR:
