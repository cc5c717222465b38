#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# preload.sh: switch the shim on for a whole Debian system, boot it, switch
# it off, boot it again.
#
#   selftests/system/preload.sh [RELEASE[-ARCH]]
#
# In an overlay on a Debian release's root tree (scripts/release-tree),
# with that release's build of the shim and arc4ctl installed as `make
# install` puts them (/usr/local/lib/libarc4.so.1, /usr/local/bin/arc4ctl),
# `arc4ctl preload on` runs inside the tree (chroot) and must write
# /etc/ld.so.preload with exactly the shim's line; the test VM boots the
# tree and runs selftests/system/preload-guest.sh on: PID 1, a service, a
# login shell and what it runs, every process has the shim mapped and
# draws strong values.  Then `arc4ctl preload off` in the tree must leave
# /etc/ld.so.preload as it was before (the release's tree has none), and
# a second boot runs preload-guest.sh off: no process maps the shim and
# srand(1), rand() is glibc's sequence again.  Prints TAP.
#
# The tree is not changed: the overlay's upper layer is a scratch
# directory, removed afterwards, mounted in a private mount namespace.
# Run in a release build (build/dist/NAME, as scripts/tests-run --release
# does), it tests that release; in a checkout, it builds RELEASE (default
# trixie) with scripts/release-build and runs that build's copy.  Needs
# root (overlay, chroot, scripts/vm-run); reports SKIP otherwise.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 1
. selftests/install/tap.sh

shim=/usr/local/lib/libarc4.so.1
ctl=/usr/local/bin/arc4ctl
guest=$top/selftests/system/preload-guest.sh

# boot MODE: the VM on the overlay, preload-guest.sh MODE relayed (7
# results), then one result for the boot itself.
boot() {
	local mode=$1 t rc n
	t=$(date +%s)
	VM_ROOT=$root VM_LOG=$logs/console-$mode.log scripts/vm-run "$guest" "$mode" \
		>"$logs/vm-$mode.out" 2>"$logs/vm-$mode.err" </dev/null
	rc=$?
	tap_relay "$logs/vm-$mode.out"
	n=$tap_relayed
	for ((; n < 7; n++)); do
		tap_fail "VM ($mode): check $((n + 1)) reported"
	done
	if [ "$rc" -eq 0 ] && [ "$tap_relayed" -eq 7 ]; then
		tap_ok "the test VM booted the tree with preload $mode ($(($(date +%s) - t)) s) and reported 7 results"
	else
		tap_fail "the test VM booted the tree with preload $mode and reported 7 results"
		tap_diag "vm-run exit $rc, $tap_relayed results" "$(tail -n 20 "$logs/vm-$mode.err")"
	fi
}

skip_boot() {
	local i
	for i in 1 2 3 4 5 6 7 8; do
		tap_skip "VM ($1) check $i" "an earlier step failed"
	done
}

# The part in a private mount namespace: $1 the scratch directory, $2 the
# release's tree.
inside() {
	local s=$1 lower=$2 before
	root=$s/root
	mount -t overlay arc4-preload -o "lowerdir=$lower,upperdir=$s/upper,workdir=$s/work" "$root" ||
		{ tap_plan 1; tap_fail "mount an overlay on $lower"; return 1; }
	before=$(cat "$root/etc/ld.so.preload" 2>/dev/null | sha1sum; stat -c '%a %U:%G' "$root/etc/ld.so.preload" 2>&1)
	tap_plan 20

	on() {
		chroot "$root" "$ctl" preload on || return 1
		printf '%s\n' "$shim" | cmp - "$root/etc/ld.so.preload" &&
			[ "$(stat -c '%a %U:%G' "$root/etc/ld.so.preload")" = "644 root:root" ]
	}
	tap_step "arc4ctl preload on, run in the tree (chroot): exit 0, /etc/ld.so.preload is exactly its line, 0644 root's" on
	status_on() { chroot "$root" "$ctl" preload status | grep -q "^preload: *on: /etc/ld.so.preload line 1 names $shim"; }
	tap_step "arc4ctl preload status in the tree: on" status_on
	if [ "$tap_broken" = 1 ]; then skip_boot on; else boot on; fi
	# The second half runs whatever the first boot found (tap_step looks
	# at tap_failed); the result counts both.
	failed=$tap_failed tap_failed=0

	off() {
		chroot "$root" "$ctl" preload off || return 1
		local after
		after=$(cat "$root/etc/ld.so.preload" 2>/dev/null | sha1sum; stat -c '%a %U:%G' "$root/etc/ld.so.preload" 2>&1)
		[ "$after" = "$before" ] || { echo "before: $before"; echo "after: $after"; return 1; }
	}
	tap_step "arc4ctl preload off, run in the tree: /etc/ld.so.preload as before on (the release's tree has none)" off
	status_off() {
		local out rc
		out=$(chroot "$root" "$ctl" preload status) rc=$?
		[ "$rc" = 3 ] && grep -q "^preload: *off:" <<<"$out" || { echo "exit $rc: $out"; return 1; }
	}
	tap_step "arc4ctl preload status in the tree: off, exit 3" status_off
	if [ "$tap_broken" = 1 ]; then skip_boot off; else boot off; fi
	[ "$failed" = 0 ] && tap_done
}

case "${1:-}" in
-h | --help) sed -n '4,/^set -uo/{/^set -uo/d;s/^# \{0,1\}//;p}' "$0"; exit 0 ;;
--inside)
	logs=$4
	inside "$2" "$3"
	exit
	;;
esac
if [ "$(id -u)" -ne 0 ]; then
	tap_plan 1
	tap_skip "arc4ctl preload on and off, each booted" "needs root (overlay mount, chroot, scripts/vm-run)"
	exit 0
fi
if [ ! -e .arc4-dist ]; then
	name=${1:-trixie}
	scripts/release-build --quiet "$name" ||
		{ echo "preload.sh: scripts/release-build $name failed" >&2; exit 1; }
	exec "$top/build/dist/$name/selftests/system/preload.sh"
fi

name=$(sed -n 's/^name=//p' .arc4-dist)
release=$(sed -n 's/^release=//p' .arc4-dist)
arch=$(sed -n 's/^arch=//p' .arc4-dist)
tree=$(scripts/release-tree "$release${arch:+-$arch}" 2>/dev/null)
if [ ! -f lib/libarc4.so.1 ] || [ ! -x build/tools/arc4ctl ] || [ ! -e "$tree/.arc4-tree" ]; then
	tap_plan 1
	tap_fail "$name: the shim, arc4ctl (build/tools) and the $release tree are there"
	exit 1
fi
# arc4ctl runs in the tree: another architecture's through qemu-user.
. scripts/lib/foreign.sh
foreign_enable "${arch:-$(dpkg --print-architecture)}"

mkdir -p build/selftests/system
logs=$top/build/selftests/system/preload-$name
rm -rf "$logs"
mkdir -p "$logs"
scratch=$(mktemp -d "$top/build/selftests/system/preload-root.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
up=$scratch/upper
mkdir -p "$scratch"/{work,root} "$up${shim%/*}" "$up${ctl%/*}"
install -m 0644 lib/libarc4.so.1 "$up$shim"
install -m 0755 build/tools/arc4ctl "$up$ctl"
chmod 0755 "$up" "$up/usr" "$up/usr/local" "$up${shim%/*}" "$up${ctl%/*}"
echo "# $name: root $tree under an overlay with $shim and $ctl, this build's"
start=$(date +%s)
unshare --mount --propagation private -- "$0" --inside "$scratch" "$tree" "$logs"
rc=$?
echo "# $(($(date +%s) - start)) s (logs in ${logs#"$top"/})"
exit "$rc"
