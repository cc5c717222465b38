# make bench: arc4 against /dev/urandom, getrandom(), glibc and libbsd.
# Not a test.  See bench/run; results go to build/bench/.

BENCH_DEPS := libbsd-dev gnuplot-nox strace

.PHONY: bench bench-bins

bench-bins: all ## the benchmark programs in build/bench/
	@scripts/deps-install $(BENCH_DEPS)
	$(MAKE) -C bench TOP=$(TOP)

bench: bench-bins ## arc4 against its peers (not a test)
	@bench/run
