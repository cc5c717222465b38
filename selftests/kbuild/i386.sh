#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# i386.sh: arc4dev builds for a 32-bit x86 kernel, whose FRAME_WARN is
# 1024 bytes: with W=1 -Werror, so a read whose frame outgrew that fails.
# The kernel is the release's linux-headers-686 (Debian 12: 6.1), fetched
# with apt-get download and unpacked, not installed, into
# build/kbuild/i386/ (about 12 MB, once); its build tools come from the
# host's linux-kbuild of the same series.  Prints TAP.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 1
. selftests/install/tap.sh
. selftests/kbuild/sources.sh

tap_plan 3
work=$top/build/kbuild/i386
root=$work/root
mkdir -p "$work"
# find_headers: the 686 headers package and its -common, from apt's lists.
find_headers() {
	pkg=$(apt-cache depends linux-headers-686:i386 2>/dev/null |
		sed -n 's/^ *Depends: \(linux-headers-[^:]*\).*/\1/p' | head -n 1)
	common=$(apt-cache depends "$pkg:i386" 2>/dev/null |
		sed -n 's/^ *Depends: <\{0,1\}\(linux-headers-[^:>]*-common\).*/\1/p' | head -n 1)
	[ -n "$pkg" ] && [ -n "$common" ]
}

# not_run WHY: the archive, not the module, is missing; a record for the
# NOT RUN banner of tests-run and .ci/run, and a skip here.
not_run() {
	local dir=${ARC4_NOT_RUN_DIR:-$top/build/not-run}
	mkdir -p "$dir"
	echo "NOT RUN: kbuild-i386: $1" | tee "$dir/kbuild-i386" >&2
	tap_skip "linux-headers-686 can be downloaded" "NOT RUN: $1"
	tap_skip "arc4dev builds with W=1 -Werror, no warning" "NOT RUN"
	tap_skip "the module is for i386" "NOT RUN"
	exit 0
}

if ! ls -d "$root"/usr/src/linux-headers-*-686 >/dev/null 2>&1; then
	rm -rf "$root" "$work"/*.deb
	if ! find_headers && [ "$(id -u)" -eq 0 ]; then
		# The i386 index: dpkg's foreign architecture, and apt's lists.
		. scripts/lib/apt.sh
		dpkg --add-architecture i386
		apt_update || true
		find_headers
	fi
	if [ -z "$pkg" ] || [ -z "$common" ]; then
		[ "$(id -u)" -eq 0 ] ||
			not_run "not root: cannot add the i386 architecture (dpkg --add-architecture i386; apt-get update)"
		not_run "the archive has no linux-headers-686:i386 ${apt_update_errors:+($apt_update_errors)}"
	fi
	if ! out=$(cd "$work" && . "$top/scripts/lib/apt.sh" &&
		apt_retry "apt-get download $pkg" apt-get download "$pkg:i386" "$common" 2>&1); then
		not_run "the archive cannot serve $pkg:i386 $common: $(echo "$out" | grep -E '^E:' | head -n 2 | tr '\n' ' ')"
	fi
	for deb in "$work"/*.deb; do
		dpkg-deb -x "$deb" "$root" || exit 1
	done
fi
rm -f "${ARC4_NOT_RUN_DIR:-$top/build/not-run}/kbuild-i386"
arch=$(ls -d "$root"/usr/src/linux-headers-*-686 | head -n 1)
kbuild=$(readlink "$arch/scripts")
kbuild=/usr/lib/${kbuild#../../lib/}
kbuild=${kbuild%/scripts}
if [ ! -x "$kbuild/scripts/basic/fixdep" ]; then
	tap_fail "the host has ${kbuild##*/} (linux-kbuild of the headers' series)"
	exit 1
fi
# The unpacked headers point at each other and at linux-kbuild by path.
sed -i "s|^include /usr/src/|include $root/usr/src/|" "$arch/Makefile"
mkdir -p "$root/usr/lib"
ln -sfn "$kbuild" "$root/usr/lib/${kbuild##*/}"
tap_ok "$(basename "$arch") is unpacked"

mod=$work/arc4
module_sources "$mod" || exit 1
out=$(make -C "$arch" M="$mod" W=1 KCFLAGS=-Werror modules 2>&1)
if [ $? -eq 0 ] && [ -e "$mod/kmod/arc4dev.ko" ] &&
	! echo "$out" | grep -q 'warning:'; then
	tap_ok "arc4dev builds with W=1 -Werror, no warning"
else
	tap_fail "arc4dev builds with W=1 -Werror, no warning"
	tap_diag "$(echo "$out" | grep -E 'error|warning|\*\*\*' | head -n 20)"
	tap_done
	exit
fi
if file "$mod/kmod/arc4dev.ko" | grep -q 'ELF 32-bit.*80386'; then
	tap_ok "the module is for i386"
else
	tap_fail "the module is for i386"
	tap_diag "$(file "$mod/kmod/arc4dev.ko")"
fi
tap_done
