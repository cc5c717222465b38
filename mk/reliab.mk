# SPDX-License-Identifier: GPL-2.0
#
# Reliability and security runs, most too long for every `make test`;
# included by the top-level Makefile.
#
#   make debug-kernel  build (once, cached in build/debug-kernel/) a small
#                      kernel from linux-source-6.1 with KASAN, KMEMLEAK,
#                      PROVE_LOCKING, DEBUG_ATOMIC_SLEEP and UBSAN
#   make test-debug    every VM test on that kernel (panic_on_warn=1)
#   make test-kunit    arc4dev's KUnit suite alone on that kernel
#                      (VM_ARCH=arm64 with any of these three: the same
#                      kernel for arm64, in build/debug-kernel-arm64/,
#                      booted under the arm64 tree)
#   make test-secureboot  module signatures: a kernel that checks them (the
#                      modsig flavour of scripts/debug-kernel, cached in
#                      build/modsig-kernel/) refuses arc4dev unsigned or
#                      signed by a key it does not trust, loads it signed
#   make soak          the stress tests ARC4_STRESS_SCALE (default 10) times
#                      longer, in one VM boot
#   make coverage      line and branch coverage of kmod/ and lib/ (gcov,
#                      lcov), HTML under build/coverage/html
#   make mutants       mutation score of the tests over kmod/ and lib/
#   make prove         the generation protocol's model (prove/generation.pml)
#                      checked exhaustively with Spin, and its mutants shown
#                      to fail; about 30 s (`make test` runs it too, from
#                      selftests/prove/host-tests)
#   make fuzz          trinity against /dev/arc4 as nobody in the debug-kernel
#                      VM (FUZZ_SECONDS, default 300; FUZZ_SEED replays)
#   make vmfork-test   the VM-fork test alone (`make test` runs it too, from
#                      selftests/stress/boot-tests): save the VM, restore it
#                      with the same and with new vmgenid GUIDs; about 15 s
#   make hibernate-test the two-resume hibernation test alone (`make test`
#                      runs it too): hibernate the VM to a swap disk, resume
#                      two copies of the image; about 2.5 min

SOAK_SCALE ?= 10

.PHONY: debug-kernel test-debug test-kunit test-secureboot soak vmfork-test hibernate-test

debug-kernel: rig ## build the KASAN/lockdep/UBSAN kernel (once)
	@scripts/debug-kernel --arch $${VM_ARCH:-amd64}

test-debug: all selftests ## every VM test on the debug kernel
	@scripts/debug-kernel-test

test-kunit: rig ## the KUnit suite alone on the debug kernel
	@scripts/debug-kernel-test --kunit

test-secureboot: rig ## signed and unsigned arc4dev on a signature-checking kernel
	@selftests/install/secureboot.sh

soak: all selftests ## the stress tests SOAK_SCALE (10) times longer
	@ARC4_STRESS_SCALE=$(SOAK_SCALE) VM_TIMEOUT=$${VM_TIMEOUT:-7200} \
		VM_MEM=$${VM_MEM:-4G} scripts/vm-run \
		sh -c 'for t in $$(cat selftests/stress/vm-tests); do $$t; done'

vmfork-test: all selftests ## the VM-fork test alone
	@scripts/vmfork-test

hibernate-test: all selftests ## the two-resume hibernation test alone
	@scripts/hibernate-test

# make coverage: line and branch coverage of kmod/ and lib/, host and
# debug-kernel VM runs merged (scripts/coverage --help).
.PHONY: coverage
coverage: rig ## line and branch coverage of kmod/ and lib/
	@scripts/coverage

# make mutants: small faults in kmod/ and lib/, and whether the tests notice
# (scripts/mutants --help; MUTANTS_ARGS="--per-file 4 --seed 1" and such).
.PHONY: mutants
mutants: rig ## mutation score of the tests
	@scripts/mutants $(MUTANTS_ARGS)

# make prove: Spin on the model of the generation protocol (scripts/prove
# --help, doc/prove.md).  Installs nothing: a missing spin is named.
.PHONY: prove
prove: ## the generation protocol's model checked with Spin, and its mutants
	@scripts/prove

# make fuzz: trinity (installed by scripts/deps-install) against /dev/arc4
# in the debug-kernel VM (scripts/fuzz --help; FUZZ_SEED=S FUZZ_SECONDS=N).
.PHONY: fuzz
fuzz: rig ## trinity against /dev/arc4 as nobody in the debug-kernel VM
	@scripts/fuzz
