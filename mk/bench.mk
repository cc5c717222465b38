# make bench: arc4 against /dev/urandom, getrandom(), glibc and libbsd
# (bench/run), and arc4_stream against Rust's rand_chacha and the device
# (bench/stream).  Not a test.  Results go to build/bench/.

BENCH_DEPS := libbsd-dev gnuplot-nox strace cargo librust-rand-chacha-dev

.PHONY: bench bench-bins

bench-bins: rig-vm all ## the benchmark programs in build/bench/
	@scripts/deps-install --only $(BENCH_DEPS)
	$(MAKE) -C bench TOP=$(TOP)

bench: bench-bins ## arc4 against its peers (not a test)
	@bench/run
	@bench/stream
