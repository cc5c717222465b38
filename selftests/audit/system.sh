#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# system.sh: arc4-audit on a real Debian tree, this host's /usr/bin and
# /usr/sbin.  Prints the summary, and checks it against a hand
# census of Debian programs (read off their sources, not off this tool):
# git, strace, vim, wget, zip, dirmngr, util-linux's mcookie and
# e2fsprogs' badblocks seed from the time or the process ID (strong-ok);
# mawk, groff's pic, cmake and Regina REXX seed with a number their user
# gives (review: the seed's origin is input).  A program whose package is not installed is skipped.  Prints TAP.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 1
. selftests/install/tap.sh

audit=$top/build/tools/arc4-audit
work=$(mktemp -d "$top/build/selftests/audit/system.XXXXXX")
trap 'rm -rf "$work"' EXIT

# package program verdict
census=(
	"git /usr/bin/git strong-ok"
	"strace /usr/bin/strace strong-ok"
	"vim /usr/bin/vim.basic strong-ok"
	"wget /usr/bin/wget strong-ok"
	"zip /usr/bin/zip strong-ok"
	"dirmngr /usr/bin/dirmngr strong-ok"
	"util-linux /usr/bin/mcookie strong-ok"
	"e2fsprogs /usr/sbin/badblocks strong-ok"
	"mawk /usr/bin/mawk review"
	"groff-base /usr/bin/pic review"
	"cmake /usr/bin/cmake review"
	"regina-rexx /usr/bin/rexx review"
)
tap_plan $((2 + ${#census[@]}))

start=$(date +%s)
"$audit" -j "$(nproc)" --json /usr/bin /usr/sbin >"$work/scan.json" 2>"$work/err"
rc=$?
took=$(($(date +%s) - start))
tap_diag "arc4-audit /usr/bin /usr/sbin: $took s"
jq -r '.summary | "\(.elf) ELF files, \(.use_families) use the rand families, \(.seeding) seed them: \(.strong_ok) from entropy, \(.needs_deterministic) with a constant, \(.review) review; \(.unseeded) unseeded; \(.not_analysed) not analysed"' \
	"$work/scan.json" | sed 's/^/# /'
jq -r '.files[] | select(.seeds | length > 0) | "\(.verdict)\t\(.path)\t\(.package)\t\([.seeds[] | "\(.function):\(.class)(\(.origin))"] | join(" "))"' \
	"$work/scan.json" | sort | column -t -s $'\t' | sed 's/^/# /'

tap_check "the scan completes (exit 0, no errors)" test "$rc" = 0 -a ! -s "$work/err"
tap_check "it finds a Debian system's worth of ELF files (over 100) and families in use" \
	jq -e '.summary.elf > 100 and .summary.use_families > 0' "$work/scan.json"

for c in "${census[@]}"; do
	read -r pkg path verdict <<<"$c"
	if ! dpkg-query -W -f='${db:Status-Status}' "$pkg" 2>/dev/null | grep -qx installed || [ ! -e "$path" ]; then
		tap_skip "$path ($pkg): $verdict" "$pkg not installed"
		continue
	fi
	got=$(jq -r --arg p "$path" '.files[] | select(.path == $p) |
		"\(.verdict) \(.package) \([.seeds[].class] | unique | join(","))"' "$work/scan.json")
	case $verdict in
	strong-ok) ok_classes=entropy ;;
	review) ok_classes="unknown|entropy,unknown" ;;
	esac
	re="^$verdict [^ ]*$pkg[^ ]* ($ok_classes)\$"
	if [[ $got =~ $re ]]; then
		tap_ok "$path ($pkg): $verdict"
	else
		tap_fail "$path ($pkg): $verdict"
		tap_diag "got: ${got:-not listed}"
	fi
done

tap_done
