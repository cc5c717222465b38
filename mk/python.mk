# SPDX-License-Identifier: GPL-2.0
#
# The Python package, included by the top-level Makefile:
#
#   make python     arc4.Stream and arc4.numpy.ARC4 (python/) built over
#                   lib/libarc4.so into build/python/, importable with
#                   PYTHONPATH=build/python.  Debian's python3, its
#                   python3-dev headers; numpy for arc4.numpy.
#
# selftests/shim/stream-python.sh builds and tests it (host-tests).

.PHONY: python

python: lib ## the Python package (arc4.Stream, arc4.numpy) in build/python/
	$(MAKE) -C python
