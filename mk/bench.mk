# make bench: arc4 against /dev/urandom, getrandom(), glibc and libbsd.
# Not a test.  See bench/run; results go to build/bench/.

BENCH_DEPS := libbsd-dev gnuplot-nox strace

.PHONY: bench bench-bins

bench-bins: all
	@scripts/deps-install $(BENCH_DEPS)
	$(MAKE) -C bench TOP=$(TOP)

bench: bench-bins
	@bench/run
