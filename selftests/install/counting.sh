#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# counting.sh: scripts/tests-run counts what a VM run reports, also from a
# guest whose console ends its lines with CR LF (the arm64 VM's virtio
# console does).  A copy of the script runs in a scratch tree whose
# scripts/vm-run is a stand-in: it prints, in CR LF lines, two commands'
# TAP and exit statuses, one of which passes its one test and exits 3.
# That command must count as failed, the closing line must say so, and the
# per-command logs must be free of CRs.  Needs root (tests-run boots VMs
# only as root); prints TAP.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 1
. selftests/install/tap.sh

tap_plan 3
tap_root_or_skip 3
work=$(mktemp -d /tmp/arc4-counting.XXXXXX)
trap 'rm -rf "$work"' EXIT
tree=$work/tree
mkdir -p "$tree/scripts/lib" "$tree/selftests/zz"
cp scripts/tests-run "$tree/scripts/"
cp scripts/lib/stamp.sh "$tree/scripts/lib/"
printf '%s\n' "exits-3" "exits-0" >"$tree/selftests/zz/vm-tests"
cat >"$tree/scripts/vm-run" <<'VM'
#!/bin/sh
printf '### arc4-test-begin: exits-3\r\nok 1 a test that passes\r\n### arc4-test-end: 3\r\n'
printf '### arc4-test-begin: exits-0\r\nok 1 another\r\nok 2 # SKIP one skipped\r\n### arc4-test-end: 0\r\n'
VM
chmod +x "$tree/scripts/vm-run"

(cd "$tree" && ARC4_NOT_RUN_DIR="$work/not-run" scripts/tests-run \
	--vm-only --no-lint </dev/null >"$work/out" 2>&1)
rc=$?
last=$(tail -n 1 "$work/out")
tap_diag "tests-run: status $rc, last line: $last"

# 3 passed: exits-3's test, exits-0's test, the kernel log; 1 skipped.
closing() {
	[ "$rc" -ne 0 ] && [ "$last" = "3 passed, 1 failed, 1 skipped" ] ||
		{ tail -n 15 "$work/out"; return 1; }
}
tap_check "a command that exits 3 after an ok counts as failed (CR LF console)" closing

named() {
	grep -qx 'FAILED: vm: exits-3' "$work/out" &&
		! grep -q 'FAILED: vm: exits-0' "$work/out" &&
		! grep -q 'integer expression' "$work/out" ||
		{ grep -E 'FAILED|expression' "$work/out"; return 1; }
}
tap_check "the failure is named, the other command not, no shell error" named

no_cr() {
	local f=("$tree"/build/test-results/vm-1-[12].log "$tree"/build/test-results/vm-1-[12].rc)
	[ "${#f[@]}" -eq 4 ] && [ -e "${f[3]}" ] || { echo "logs: ${f[*]}"; return 1; }
	! grep -l $'\r' "${f[@]}"
}
tap_check "the per-command logs and statuses hold no CR" no_cr
tap_done
