#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# stream-python.sh: the Python package (python/: arc4.Stream and the numpy
# bit generator arc4.numpy.ARC4) built over libarc4.so and tested with
# Debian's python3 against the known-answer files, Python cryptography's
# ChaCha20 and the C library (ctypes) at positions up to 2^64, numpy's
# Generator methods, wrong arguments raising exceptions, pickling,
# children derived in other processes and the parallel example for 1-4
# processes, and the threads, re-init and capsule regressions
# (python/tests/test_arc4.py).  Prints TAP.  Host only, like
# stream-oracles.sh: release trees skip it, and so does valgrind (too
# slow over the interpreter).  In scripts/sanitizer-test's ASan copy,
# libarc4.so is instrumented and python3 is not: the sanitizer's runtime
# is preloaded into python3 (it must come first), leaks are not checked
# (the interpreter's own), and huge allocations fail instead of aborting
# (a test asks for one).
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 1

skip_all() { echo "1..1"; echo "ok 1 the Python package # SKIP $1"; exit 0; }
[ -e .arc4-dist ] && skip_all "a release build: the package is tested on the host"
case ${LD_PRELOAD:-} in
*vgpreload*) skip_all "under valgrind: too slow over the interpreter; the ASan copy runs it" ;;
esac
[ -d python ] || skip_all "no python/ in this copy of the tree"
# The sanitizer runtime libarc4.so links, if any (the ASan copy's).
san=$(ldd lib/libarc4.so 2>/dev/null |
	sed -n 's|.*=> \(/[^ ]*/lib[a-z]*san\.so[^ ]*\) .*|\1|p')
case $san in
*libtsan*) skip_all "under TSan: python3 is not instrumented" ;;
*libasan*)
	san=$(grep libasan <<<"$san")
	export ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0:allocator_may_return_null=1
	;;
esac
echo "1..2"
log=build/python-build.log
if make -C python >"$log" 2>&1; then
	echo "ok 1 make -C python: the extension builds, -Wall -Wextra -Werror"
else
	echo "not ok 1 make -C python"
	sed 's/^/# /' "$log"
	echo "not ok 2 the package's tests # not built"
	exit 1
fi
if out=$(PYTHONDONTWRITEBYTECODE=1 PYTHONPATH=$top/build/python \
	env ${san:+LD_PRELOAD=$san} /usr/bin/python3 -m unittest -v \
	python/tests/test_arc4.py 2>&1); then
	echo "ok 2 python/tests/test_arc4.py: $(sed -n 's/^Ran \([0-9]*\) tests.*/\1/p' <<<"$out") tests"
else
	echo "not ok 2 python/tests/test_arc4.py"
	sed 's/^/# /' <<<"$out"
	exit 1
fi
