#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# build.sh RELEASE DIR: the Debian packages built inside the tree of
# selftests/deb/tree.sh RELEASE (which holds debian/control's
# Build-Depends), so for that tree's release and architecture: `make deb
# ARCH=arm64` builds the arm64 packages with it (RELEASE bookworm-arm64),
# as the host has no arm64 build dependencies.  dpkg-buildpackage -us -uc
# -b runs on a copy of the files that make deb takes (what git tracks or
# would track), in an overlay of the tree that goes away afterwards, so
# the cached tree stays as it was.  The .deb, .changes and .buildinfo
# files go to DIR (emptied first), the build's output to DIR/build.log.
# An arm64 tree's compiler runs through qemu-user-static: minutes.  Needs
# root.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
die() { echo "selftests/deb/build.sh: $*" >&2; exit 1; }
case "${1:-}" in
-h | --help) sed -n '4,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "$0"; exit 0 ;;
esac
[ $# -eq 2 ] || die "usage: build.sh RELEASE DIR"
release=$1
out=$(mkdir -p "$2" && cd "$2" && pwd)
[ "$(id -u)" -eq 0 ] || die "needs root (chroot, overlay mount)"
cd "$top"

tree=$(selftests/deb/tree.sh "$release")
version=$(sed -n 's/^VERSION[[:space:]]*:=[[:space:]]*//p' lib/Makefile)
[ -n "$version" ] || die "no VERSION in lib/Makefile"
find "$out" -mindepth 1 -maxdepth 1 \( -name '*.deb' -o -name '*.changes' \
	-o -name '*.buildinfo' -o -name build.log -o -name .overlay \) \
	-exec rm -rf {} +
ov=$out/.overlay
trap 'rm -rf "$ov"' EXIT
src=$ov/upper/tmp/arc4-build/arc4-$version
mkdir -p "$src" "$ov/work" "$ov/root"
if git rev-parse --git-dir >/dev/null 2>&1; then
	git ls-files -z --cached --others --exclude-standard
else
	find . -path ./build -prune -o -path ./.git -prune -o -type f -print0 |
		sed -z 's|^\./||'
fi | tar --null -T - --ignore-failed-read -cf - 2>/dev/null | tar -C "$src" -xf -
[ -e "$src/debian/control" ] || die "copying the sources into $src failed"

# tree.sh's lock, shared: the tree is not rebuilt under the overlay.
exec 8>"${tree%/*}/deb-$release.lock"
flock -s 8
start=$(date +%s)
echo "selftests/deb/build.sh: building in an overlay of $tree (log: $out/build.log)" >&2
if ! unshare --mount --propagation private /bin/sh -c '
	t=$1 ov=$2 v=$3
	mount -t overlay overlay \
		-o "lowerdir=$t,upperdir=$ov/upper,workdir=$ov/work" "$ov/root" &&
		mount -t proc proc "$ov/root/proc" &&
		mount --rbind /sys "$ov/root/sys" &&
		mount --rbind /dev "$ov/root/dev" || exit 125
	exec chroot "$ov/root" /usr/bin/env -i \
		PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root LC_ALL=C.UTF-8 \
		sh -c "cd /tmp/arc4-build/arc4-$v && dpkg-checkbuilddeps &&
			dpkg-buildpackage -us -uc -b -j$(nproc)"' \
	sh "$tree" "$ov" "$version" >"$out/build.log" 2>&1; then
	tail -n 30 "$out/build.log" >&2
	die "dpkg-buildpackage in the $release tree failed; see $out/build.log"
fi
mv "$ov"/upper/tmp/arc4-build/*.deb "$ov"/upper/tmp/arc4-build/*.changes \
	"$ov"/upper/tmp/arc4-build/*.buildinfo "$out/"
echo "selftests/deb/build.sh: $release packages built in $(($(date +%s) - start)) s" >&2
