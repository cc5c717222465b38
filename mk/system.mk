# SPDX-License-Identifier: GPL-2.0
#
# A whole Debian system under the shim, included by the top-level Makefile.
#
#   make test-system  boot SYSTEM_RELEASE's root tree (default trixie;
#                     trixie-rt and sid work too) with the shim in its
#                     /etc/ld.so.preload and run selftests/system/guest.sh
#                     there: ordinary programs, mawk's lost replay and the
#                     policy file that restores it, a census of seeded
#                     programs.  The tree itself is not changed.  `make
#                     test` runs it too, once for each release it tests.
#                     Needs root.

SYSTEM_RELEASE ?= trixie

.PHONY: test-system

test-system: rig ## a whole Debian system under the shim
	@selftests/system/whole-system.sh $(SYSTEM_RELEASE)
