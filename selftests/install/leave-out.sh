#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# leave-out.sh: scripts/tests-run --not-run "COMMAND... : REASON" leaves
# those commands of the VM lists out and every other one in, each still
# counted under its own name.  A copy of the script runs in a scratch tree
# of two VM lists of small commands that print one TAP line naming
# themselves; its scripts/vm-run is a stand-in that runs the guest's side
# (scripts/guest/tests-run, copied) here.  Two commands, one of them named
# twice, are left out: each must be named NOT RUN once, with the reason,
# and have a record; the others must run, each log holding its own
# command's line; a list left empty must not reach the guest.  A second
# run without the option must run everything and drop the records.  Needs
# root (tests-run runs VM lists as root only); prints TAP.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 1
. selftests/install/tap.sh

tap_plan 6
tap_root_or_skip 6
work=$(mktemp -d /tmp/arc4-leave-out.XXXXXX)
trap 'rm -rf "$work"' EXIT
tree=$work/tree
mkdir -p "$tree/scripts/lib" "$tree/scripts/guest" "$tree/selftests/zz-a" \
	"$tree/selftests/zz-b"
cp scripts/tests-run "$tree/scripts/"
cp scripts/guest/tests-run "$tree/scripts/guest/"
cp scripts/lib/stamp.sh "$tree/scripts/lib/"
for c in zz-a/one zz-a/two zz-a/three zz-b/four; do
	printf '#!/bin/sh\necho "ok 1 %s ran"\n' "$c" >"$tree/selftests/$c.sh"
	chmod +x "$tree/selftests/$c.sh"
done
printf '%s\n' "# a comment" selftests/zz-a/one.sh selftests/zz-a/two.sh "" \
	selftests/zz-a/three.sh >"$tree/selftests/zz-a/vm-tests"
echo selftests/zz-b/four.sh >"$tree/selftests/zz-b/vm-tests"
printf '#!/bin/sh\necho "$ARC4_TEST_LISTS" >"$0.lists"\nexec "$@"\n' >"$tree/scripts/vm-run"
chmod +x "$tree/scripts/vm-run"

# run OUT ARGS...: the scratch tree's tests-run, its output in OUT.
run() {
	local o=$1
	shift
	(cd "$tree" && ARC4_NOT_RUN_DIR="$work/not-run" scripts/tests-run \
		--vm-only --no-lint "$@" </dev/null >"$work/$o" 2>&1)
}
run out1 --not-run "selftests/zz-a/two.sh selftests/zz-b/four.sh selftests/zz-a/two.sh : left out to test"
rc=$?
tap_diag "tests-run --not-run: status $rc, last line: $(tail -n 1 "$work/out1")"

# closes_with OUT RC LINE: the run that wrote OUT exited RC, 0, and its
# last line is LINE.
closes_with() {
	[ "$2" -eq 0 ] && [ "$(tail -n 1 "$work/$1")" = "$3" ] ||
		{ tail -n 15 "$work/$1"; return 1; }
}
tap_check "the others ran: one, three and the kernel log passed" \
	closes_with out1 "$rc" "3 passed, 0 failed, 0 skipped"

named_once() {
	local c n bad=0
	for c in selftests/zz-a/two.sh selftests/zz-b/four.sh; do
		# Once when left out ("## " before it), once in the banner.
		n=$(grep -cxF -e "NOT RUN: $c: left out to test" \
			-e "## NOT RUN: $c: left out to test" "$work/out1")
		[ "$n" -eq 2 ] || { echo "$c named $n times"; bad=1; }
		grep -qx "NOT RUN: $c: left out to test" "$work/not-run/tests-run.${c//\//_}" ||
			{ echo "no record of $c"; bad=1; }
	done
	return "$bad"
}
tap_check "each left-out command named once, with the reason, and recorded" named_once

# Each command's log holds that command's own line, the left-out ones none.
logs_in_step() {
	local log cmd want bad=0
	for log in "$tree"/build/test-results/vm-1-[0-9]*.log; do
		cmd=$(head -n 1 "$log")
		want=${cmd#\# selftests/}
		grep -qx "ok 1 ${want%.sh} ran" "$log" || { echo "$log:"; cat "$log"; bad=1; }
	done
	if grep -qE 'zz-a/two|zz-b/four' "$tree"/build/test-results/vm-1-[0-9]*.log; then
		echo "a left-out command ran"
		bad=1
	fi
	return "$bad"
}
tap_check "each log holds its own command's output, nothing of the left-out ones" logs_in_step

# The guest was handed only lists with something in them (the stand-in
# notes ARC4_TEST_LISTS).
no_empty_list() {
	local k=$tree/build/test-results/lists/selftests-zz-b-vm-tests
	[ -e "$k" ] && [ ! -s "$k" ] && ! grep -q 'zz-b' "$tree/scripts/vm-run.lists" ||
		{ ls -l "$tree/build/test-results/lists"; cat "$tree/scripts/vm-run.lists"; return 1; }
}
tap_check "the list left empty was not handed to the guest" no_empty_list

run out2
rc2=$?
tap_diag "tests-run without it: status $rc2, last line: $(tail -n 1 "$work/out2")"
tap_check "without the option every command runs" \
	closes_with out2 "$rc2" "5 passed, 0 failed, 0 skipped"
no_records() {
	! ls "$work/not-run"/tests-run.* 2>/dev/null
}
tap_check "the commands that ran took their NOT RUN records away" no_records
tap_done
