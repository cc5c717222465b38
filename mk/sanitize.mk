# make test-sanitize: the shim (lib/) and its host tests built with
# -fsanitize=address,undefined and with -fsanitize=thread, the host tests
# under valgrind memcheck, and a gcc -m32 build of the shim and the device
# tests, run in the test VM (compat_ioctl).  See scripts/sanitizer-test;
# builds go to build/sanitize-*/ and build/m32/, logs to
# build/sanitize-results/.  Ends with "N passed, N failed".
# SANITIZE="asan tsan valgrind m32" (the default: all) picks the runs.
# The -m32 part is optional: where the archive cannot serve its i386
# packages, it is reported as NOT RUN (scripts/deps-install --optional)
# and the rest runs.

SANITIZE_DEPS := valgrind
M32_DEPS := gcc-multilib libc6-dev-i386 libssl-dev:i386 liburing-dev:i386

.PHONY: test-sanitize

test-sanitize: all selftests ## ASan+UBSan, TSan, valgrind; -m32 in the VM
	@scripts/deps-install $(SANITIZE_DEPS)
	@$(if $(or $(if $(SANITIZE),,all),$(filter m32,$(SANITIZE))),scripts/deps-install --optional m32 $(M32_DEPS))
	@scripts/sanitizer-test $(addprefix --only ,$(SANITIZE))
