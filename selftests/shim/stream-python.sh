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
# stream-oracles.sh, and never under a memory checker: release trees,
# valgrind and the sanitizer copies (which hold no python/) skip it, so
# the package's memory safety rests on these tests in the normal run.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 1

skip_all() { echo "1..1"; echo "ok 1 the Python package # SKIP $1"; exit 0; }
[ -e .arc4-dist ] && skip_all "a release build: the package is tested on the host"
case ${LD_PRELOAD:-} in
*vgpreload*) skip_all "under valgrind: not run under any memory checker" ;;
esac
[ -d python ] || skip_all "no python/ in this copy of the tree"
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
	/usr/bin/python3 -m unittest -v \
	python/tests/test_arc4.py 2>&1); then
	echo "ok 2 python/tests/test_arc4.py: $(sed -n 's/^Ran \([0-9]*\) tests.*/\1/p' <<<"$out") tests"
else
	echo "not ok 2 python/tests/test_arc4.py"
	sed 's/^/# /' <<<"$out"
	exit 1
fi
