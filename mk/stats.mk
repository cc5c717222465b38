# SPDX-License-Identifier: GPL-2.0
#
# Statistics, included by the top-level Makefile.  Not a test.
#
#   make stats      dieharder (Debian's package, installed if missing) on
#                   /dev/arc4's strong and deterministic output and on the
#                   shim's rand(), each streamed from the test VM, and on
#                   the host's /dev/urandom as a control; see
#                   doc/statistics.md.  Results in build/stats/.
#
# STATS_SOURCES picks sources (default: strong det rand urandom);
# STATS_QUICK=1, STATS_FULL=1 and STATS_TESTS choose the battery
# (scripts/stats --help).

STATS_DEPS := dieharder
STATS_SOURCES ?=

.PHONY: stats stats-bins

stats-bins: rig-vm module lib ## the statistics feeders in build/stats/
	@scripts/deps-install --only $(STATS_DEPS)
	$(MAKE) -C stats TOP=$(TOP)

stats: stats-bins ## dieharder on /dev/arc4, the shim, /dev/urandom
	@scripts/stats $(STATS_SOURCES)
