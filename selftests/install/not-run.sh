#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# not-run.sh: scripts/tests-run run by a user who is not root says what did
# not run and why.  It runs, as nobody, a copy of the script in a scratch
# tree that holds this tree's boot and VM lists and one host list of a
# single command (nothing of the real suites runs), asked for a release as
# well.  The host list must still run; every boot list, every VM list and
# the release must be named in the NOT RUN banner with the reason, not
# root, the banner just before the closing "N passed, N failed" line, which
# stays the last; each has a record in ARC4_NOT_RUN_DIR for .ci/run.  The
# lists it expects are the files of this tree, not the script's output.
# Then --not-run "COMMAND... : REASON", which leaves commands out on
# purpose: without a reason, without a command, or naming what is not a
# whole line of a VM list, it is refused (status 2) before anything runs.
# Prints TAP.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 1
. selftests/install/tap.sh

tap_plan 10
work=$(mktemp -d /tmp/arc4-not-run.XXXXXX)
trap 'rm -rf "$work"' EXIT
tree=$work/tree
mkdir -p "$tree/scripts/lib" "$tree/selftests/zz-host"
cp scripts/tests-run "$tree/scripts/"
cp scripts/lib/stamp.sh "$tree/scripts/lib/"
lists=()
for l in selftests/*/boot-tests selftests/*/vm-tests; do
	[ -e "$l" ] || continue
	mkdir -p "$tree/${l%/*}"
	cp "$l" "$tree/$l"
	lists+=("$l")
done
echo "echo 'ok 1 the host list runs'" >"$tree/selftests/zz-host/host-tests"
release=sid
[ "$(. /etc/os-release && echo "${VERSION_CODENAME:-}")" != sid ] || release=trixie

if [ "$(id -u)" -eq 0 ]; then
	chown -R nobody "$work"
	as_user=(setpriv --reuid=nobody --regid=nogroup --clear-groups --reset-env)
else
	as_user=()
fi
"${as_user[@]}" env PATH="$PATH" ARC4_NOT_RUN_DIR="$work/not-run" \
	"$tree/scripts/tests-run" --no-lint --release "$release" \
	</dev/null >"$work/out" 2>&1
rc=$?
tap_diag "scripts/tests-run as $("${as_user[@]}" id -un): status $rc, ${#lists[@]} boot and VM lists"

last=$(tail -n 1 "$work/out")
closing() {
	if [ "$rc" -ne 0 ] || [[ ! $last =~ ^1\ passed,\ 0\ failed ]]; then
		echo "status $rc, last line: $last"
		return 1
	fi
}
tap_check "the host list runs, the run passes, the closing line stays last" closing

# The banner: from its opening rule to the line before the closing one.
banner=$(awk '/^=+$/ && length($0) >= 20 { on = !on; next } on' "$work/out")
banner_last() {
	local before_last rule
	before_last=$(tail -n 2 "$work/out" | head -n 1)
	rule=$(grep -E '^={20}=*$' "$work/out" | tail -n 1)
	if [ -z "$banner" ] || [ -z "$rule" ] || [ "$before_last" != "$rule" ]; then
		tail -n 20 "$work/out"
		return 1
	fi
}
tap_check "a NOT RUN banner just before the closing line" banner_last

named() {
	local part bad=0
	for part in "$@"; do
		grep -qF "NOT RUN: $part: not root" <<<"$banner" ||
			{ echo "not named: $part"; bad=1; }
	done
	[ "$bad" = 0 ] || { echo "banner:"; echo "$banner"; }
	return "$bad"
}
tap_check "every boot list is named NOT RUN, not root" named selftests/*/boot-tests
tap_check "every VM list is named NOT RUN, not root" named selftests/*/vm-tests
tap_check "the release $release is named NOT RUN, not root" named "release $release"

records() {
	local n
	n=$(cat "$work/not-run"/* 2>/dev/null | grep -c '^NOT RUN: .*: not root')
	[ "$n" -eq $((${#lists[@]} + 1)) ] ||
		{ echo "$n records for ${#lists[@]} lists and a release:"; cat "$work/not-run"/*; return 1; }
}
tap_check "a record for each in ARC4_NOT_RUN_DIR" records

# refused SPEC: tests-run --not-run SPEC stops with status 2 and a message
# naming the option, the host list not run.
refused() {
	local out rc
	out=$(ARC4_NOT_RUN_DIR="$work/not-run" "$tree/scripts/tests-run" \
		--no-lint --not-run "$1" </dev/null 2>&1)
	rc=$?
	if [ "$rc" -ne 2 ] || ! grep -q -- '--not-run' <<<"$out" ||
		grep -q 'the host list runs' <<<"$out"; then
		echo "status $rc:"
		echo "$out" | tail -n 5
		return 1
	fi
}
cmd=$(grep -hvE '^[[:space:]]*(#|$)' selftests/*/vm-tests | head -n 1)
tap_check "--not-run without a reason is refused" refused "$cmd :  "
tap_check "--not-run without a command is refused" refused " : no command"
tap_check "--not-run naming no command of a VM list is refused" \
	refused "$cmd selftests/none/such.sh : a reason"
tap_check "--not-run naming part of a command is refused" \
	refused "$(basename "$cmd") : a reason"
tap_done
