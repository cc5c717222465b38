#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# whole-system.sh: a whole Debian system under the shim.
#
#   selftests/system/whole-system.sh [RELEASE[-FLAVOUR]]
#
# Boots the test VM on a Debian release's root tree (scripts/release-tree)
# whose /etc/ld.so.preload names that release's build of the shim, so that
# every process from the VM's init on runs under it, and runs
# selftests/system/guest.sh there: ordinary programs (coreutils, python3,
# perl, mawk, apt, a compiler run...) work, mawk's `srand(1)` gives a new
# value each run and the same one once /etc/arc4/legacy.conf lists mawk,
# and a census of seeded programs says which lose their replay.  Prints
# TAP.
#
# The tree is not changed: the VM's root is an overlay on it, whose upper
# layer (a scratch directory, removed afterwards) holds only
# /etc/ld.so.preload, /usr/local/lib/libarc4.so.1 and an empty policy
# file; the overlay is mounted in a private mount namespace, so nothing
# stays mounted, also when the test is killed.
#
# Run in a release build (build/dist/NAME, as scripts/tests-run --release
# does), it tests that release.  Run in a checkout, it builds RELEASE
# (default trixie) with scripts/release-build and runs that build's copy.
# Needs root (overlay mount, scripts/vm-run); reports SKIP otherwise.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 1
. selftests/install/tap.sh

case "${1:-}" in
-h | --help) sed -n '4,/^set -uo/{/^set -uo/d;s/^# \{0,1\}//;p}' "$0"; exit 0 ;;
esac
if [ "$(id -u)" -ne 0 ]; then
	tap_plan 1
	tap_skip "a whole system under the shim" "needs root (overlay mount, scripts/vm-run)"
	exit 0
fi
if [ ! -e .arc4-dist ]; then
	name=${1:-trixie}
	scripts/release-build --quiet "$name" ||
		{ echo "whole-system.sh: scripts/release-build $name failed" >&2; exit 1; }
	exec "$top/build/dist/$name/selftests/system/whole-system.sh"
fi

name=$(sed -n 's/^name=//p' .arc4-dist)
release=$(sed -n 's/^release=//p' .arc4-dist)
arch=$(sed -n 's/^arch=//p' .arc4-dist)
shim=$top/lib/libarc4.so.1
tree=$(scripts/release-tree "$release${arch:+-$arch}" 2>/dev/null)
if [ ! -f "$shim" ] || [ ! -e "$tree/.arc4-tree" ]; then
	tap_plan 1
	tap_fail "$name: the shim (lib/libarc4.so.1) and the $release tree are there"
	exit 1
fi

mkdir -p build/selftests/system
scratch=$(mktemp -d "$top/build/selftests/system/root.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
up=$scratch/upper
mkdir -p "$scratch"/{work,root} "$up/etc/arc4" "$up/usr/local/lib"
install -m 0644 "$shim" "$up/usr/local/lib/libarc4.so.1"
echo /usr/local/lib/libarc4.so.1 >"$up/etc/ld.so.preload"
install -m 0644 packaging/legacy.conf "$up/etc/arc4/legacy.conf"
chmod 0755 "$up" "$up/etc" "$up/etc/arc4" "$up/usr" "$up/usr/local" "$up/usr/local/lib"

echo "# $name: kernel $(sed -n 's/^kver=//p' .arc4-dist), root $tree under an overlay;" \
	"/etc/ld.so.preload names /usr/local/lib/libarc4.so.1, a copy of $shim"
start=$(date +%s)
unshare --mount --propagation private -- bash -c '
	s=$1 lower=$2
	shift 2
	mount -t overlay arc4-system \
		-o "lowerdir=$lower,upperdir=$s/upper,workdir=$s/work" "$s/root" ||
		{ echo "whole-system.sh: cannot mount the overlay on $lower" >&2; exit 125; }
	VM_ROOT=$s/root exec "$@"' sh "$scratch" "$tree" \
	scripts/vm-run "$top/selftests/system/guest.sh"
rc=$?
echo "# the VM run took $(($(date +%s) - start)) s (vm-run exit status $rc)"
exit "$rc"
