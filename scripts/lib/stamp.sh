# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0
# stamp.sh: the header of a report a measurement writes (make bench,
# coverage, mutants, stats), so its figures name what they measured.
# Sourced.
#
#   stamp WHAT [TOP]   prints, each line starting "# ":
#                        arc4 WHAT report
#                        commit: `git describe --always --dirty` (full hash)
#                        date: UTC, to the second
#                        host: CPU model, CPUs, load average
#                      TOP: the tree measured (default: the current
#                      directory's); "unknown" outside a git checkout.
stamp() {
	local top=${2:-.} desc full
	desc=$(git -C "$top" describe --always --dirty 2>/dev/null) || desc=unknown
	full=$(git -C "$top" rev-parse HEAD 2>/dev/null) || full=unknown
	echo "# arc4 $1 report"
	echo "# commit: $desc ($full)"
	echo "# date: $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
	echo "# host: $(grep -m1 'model name' /proc/cpuinfo 2>/dev/null | sed 's/.*: //'), $(nproc) CPUs, load average $(cut -d' ' -f1-3 /proc/loadavg)"
}
