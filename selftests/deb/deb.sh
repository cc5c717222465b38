#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# deb.sh [--release RELEASE]: the Debian packages on a fresh Debian system.
# A copy of the tree of selftests/deb/tree.sh RELEASE (default the host's,
# bookworm) gets them with `apt-get install --no-install-recommends
# ./*.deb` (in a chroot, missing dependencies from the archive, DKMS
# building arc4dev for the tree's kernel; no recommendations, which the
# purge would leave behind: criu's python3 recommends ca-certificates, and
# apt's own recommendation keeps it); the test VM boots that copy (scripts/vm-run with VM_ROOT) and
# runs guest.sh: modprobe loads the DKMS build, /dev/arc4 reads, a program
# built with pkg-config links libarc4 and runs strong and deterministic,
# the man pages open; arc4-preload has put the shim first in the tree's
# /etc/ld.so.preload (which held an unrelated line before), so PID 1 and
# the checks run under it; an administrator's off survives a reinstall;
# libarc4-1 removed by force without arc4ctl takes the line out itself
# and arc4-preload's removal does not fail; then `apt-get purge` (and autoremove) must
# leave the tree as it was before the install, file for file, and
# /etc/ld.so.preload byte for byte.  python3's arc4 and arc4.numpy give
# the known answers.  The packages are
# those of `make deb` (build/deb/*.deb) for the host's release; for another
# (trixie) they are built in the copy first, with dpkg-buildpackage from
# the checkout's files.  RELEASE-arm64 (bookworm-arm64, trixie-arm64) is
# the same in that release's arm64 tree, booted in the arm64 VM; the host
# release's arm64 packages are those of `make deb ARCH=arm64` on amd64
# (build/deb-arm64/*.deb).  Never touches the host's own system.  Needs root
# and the archive.  Prints TAP.
#
# ARC4_DEB_KEEP=1 keeps the copy (build/selftests/deb/RELEASE/root).
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 1
host=$(. /etc/os-release && echo "${VERSION_CODENAME:-}")
release=$host
while [ $# -gt 0 ]; do
	case "$1" in
	-h | --help) sed -n '4,/^set -uo/{/^set -uo/d;s/^# \{0,1\}//;p}' "$0"; exit 0 ;;
	--release) release=${2:?--release needs a release name}; shift ;;
	*) echo "deb.sh: unknown argument $1" >&2; exit 2 ;;
	esac
	shift
done
suite=${release%%-*} arch=${release#"${release%%-*}"}
arch=${arch#-}
arch=${arch:-amd64}
made=build/deb make="make deb"
[ "$arch" = "$(dpkg --print-architecture)" ] || made=build/deb-$arch make="make deb ARCH=$arch"
. selftests/install/tap.sh
. scripts/lib/apt.sh

if [ "$(id -u)" -ne 0 ]; then
	tap_plan 1
	tap_skip "the packages install, work in the test VM and purge" "needs root (chroot, mmdebstrap)"
	exit 0
fi
shopt -s nullglob
debs=("$made"/*.deb)
if [ "$suite" = "$host" ] && [ ${#debs[@]} -eq 0 ]; then
	tap_plan 1
	tap_fail "$made holds the packages ($make)"
	exit 1
fi

work=$top/build/selftests/deb/$release
root=$work/root
start=$(date +%s)
rm -rf "$work"
mkdir -p "$work"

# chroot_run CMD...: CMD in the tree, with /proc, /sys and /dev mounted in
# a mount namespace of its own (they go away with it, whatever happens).
chroot_run() {
	unshare --mount --propagation private /bin/sh -c '
		r=$1; shift
		mount -t proc proc "$r/proc" && mount --rbind /sys "$r/sys" &&
			mount --rbind /dev "$r/dev" || exit 125
		exec chroot "$r" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin \
			DEBIAN_FRONTEND=noninteractive LC_ALL=C.UTF-8 "$@"' sh "$root" "$@"
}

# snapshot: every path in the tree with its type, mode and owner, and the
# content of the files that an install rewrites and a purge must restore;
# apt's and dpkg's own records and logs left out.
snapshot() {
	(
		cd "$root" &&
			find . -xdev \( -path ./var/lib/dpkg -o -path ./var/lib/apt \
				-o -path ./var/cache/apt -o -path ./var/cache/debconf \
				-o -path ./var/cache/man -o -path ./var/log \
				-o -path ./proc -o -path ./sys -o -path ./dev \) -prune \
				-o -printf '%y %m %u:%g %p\n' | sort -k4 &&
			sha1sum etc/ld.so.cache etc/ld.so.preload lib/modules/*/modules.* | sort -k2
	)
}

base=$(selftests/deb/tree.sh "$release") || { tap_plan 1; tap_fail "the $release tree (selftests/deb/tree.sh)"; exit 1; }
kver=$(scripts/kver --root "$base") || { tap_plan 1; tap_fail "a kernel in $base"; exit 1; }
cleanup() { [ "${ARC4_DEB_KEEP:-0}" = 1 ] || rm -rf "$root"; }
trap cleanup EXIT
# tree.sh's lock, shared: no rebuild of the tree while it is copied.
exec 8>"${base%/*}/deb-$release.lock"
flock -s 8
cp -a "$base" "$root" || { tap_plan 1; tap_fail "copy of $base"; exit 1; }
exec 8>&-
# Another release's packages: built here, before the first snapshot, from
# the files that make deb would take.
if [ "$suite" != "$host" ]; then
	t=$(date +%s)
	version=$(sed -n 's/^VERSION[[:space:]]*:=[[:space:]]*//p' lib/Makefile)
	src=$root/tmp/arc4-build/arc4-$version
	mkdir -p "$src" "$work/debs"
	git ls-files -z --cached --others --exclude-standard |
		tar --null -T - --ignore-failed-read -cf - | tar -C "$src" -xf -
	if ! chroot_run sh -c "cd /tmp/arc4-build/arc4-$version && dpkg-buildpackage -us -uc -b" \
		>"$work/build.log" 2>&1; then
		tap_plan 1
		tap_fail "dpkg-buildpackage in the $release tree"
		tap_diag "$(tail -n 30 "$work/build.log")"
		exit 1
	fi
	mv "$root"/tmp/arc4-build/*.deb "$work/debs/"
	rm -rf "$root/tmp/arc4-build"
	debs=("$work"/debs/*.deb)
	echo "# packages built in the $release tree in $(($(date +%s) - t)) s: $(cd "$work/debs" && echo *.deb)"
fi
# vm-run's mount points for the checkout, made now so that they are in
# both snapshots.
mkdir -p "$root$top"
# ldconfig's own cache (var/cache/ldconfig) exists from its first run on.
chroot_run ldconfig
# An administrator's preload that arc4-preload must keep: a library every
# program can load (libm), no final newline.
multiarch=$(dpkg-architecture -a"$arch" -qDEB_HOST_MULTIARCH 2>/dev/null)
printf '/usr/lib/%s/libm.so.6' "$multiarch" >"$root/etc/ld.so.preload"
chmod 0644 "$root/etc/ld.so.preload"
cp -p "$root/etc/ld.so.preload" "$work/preload.before"
snapshot >"$work/before"
echo "# tree ready in $(($(date +%s) - start)) s: $base copied, kernel $kver"


tap_plan 21
names=()
for d in "${debs[@]}"; do
	names+=("$(dpkg-deb -f "$d" Package)")
done
mkdir -p "$root/tmp/arc4-debs"
cp "${debs[@]}" "$root/tmp/arc4-debs/"

# The packages installed in the tree, one a line.
installed() {
	chroot_run dpkg-query -W -f='${db:Status-Status} ${binary:Package}\n' |
		sed -n 's/^installed //p' | sort
}

apt_installs() {
	installed >"$work/packages-before"
	apt_retry "apt-get update in the $release tree" \
		chroot_run apt-get update -q >"$work/update.log" 2>&1 ||
		{ tail -n 20 "$work/update.log"; return 1; }
	# python3-numpy, python3-arc4's recommendation, by name: the guest
	# checks arc4.numpy over it.
	chroot_run sh -c 'cd /tmp/arc4-debs && apt-get install -y --no-install-recommends ./*.deb python3-numpy' \
		>"$work/install.log" 2>&1 || { tail -n 40 "$work/install.log"; return 1; }
	rm -rf "$root/tmp/arc4-debs"
	# What the packages put there, for the check after the purge.
	chroot_run dpkg -L "${names[@]}" | sort -u >"$work/files"
}
t=$(date +%s)
tap_step "apt-get install ./*.deb (${names[*]}) into a fresh $release tree" apt_installs
echo "# installed in $(($(date +%s) - t)) s"

dkms_built() {
	local ko
	ko=$(cd "$root/lib/modules/$kver" && ls updates/dkms/arc4dev.ko* 2>/dev/null)
	[ -n "$ko" ] || { grep -i -A3 'dkms\|arc4' "$work/install.log" | tail -n 30; return 1; }
	grep -q "^$ko:" "$root/lib/modules/$kver/modules.dep" || { echo "$ko not in modules.dep"; return 1; }
	chroot_run dkms status arc4 | grep "^arc4/[^,]*, $kver, [^:]*: installed" >/dev/null ||
		{ chroot_run dkms status; return 1; }
}
tap_step "DKMS built and installed arc4dev for $kver (postinst), depmod knows it" dkms_built

package_layout() {
	local ma
	ma=$(dpkg-architecture -a"$arch" -qDEB_HOST_MULTIARCH 2>/dev/null)
	[ -e "$root/usr/lib/$ma/libarc4.so.1" ] || { echo "no libarc4.so.1 in /usr/lib/$ma"; return 1; }
	chroot_run ldconfig -p | grep -E "libarc4\.so\.1 .*=> (/usr)?/lib/$ma/libarc4\.so\.1$" >/dev/null ||
		{ echo "ld.so.cache does not list libarc4.so.1"; return 1; }
	chroot_run dpkg-query -W -f='${Conffiles}\n' arc4-tools | grep '^ /etc/arc4/legacy.conf ' >/dev/null ||
		{ echo "/etc/arc4/legacy.conf is not a conffile of arc4-tools"; return 1; }
	[ -f "$root/usr/share/arc4/arc4dev.conf" ] || { echo "no /usr/share/arc4/arc4dev.conf"; return 1; }
	[ -f "$root/usr/lib/criu/arc4_plugin.so" ] && [ -x "$root/usr/sbin/criu" ] ||
		{ echo "no CRIU plugin in /usr/lib/criu, or no criu (arc4-criu)"; return 1; }
	local active=("$root"/etc/modules-load.d/*arc4* "$root"/usr/lib/modules-load.d/*arc4*)
	[ ${#active[@]} -eq 0 ] || { echo "the modules-load.d entry is active: ${active[*]}"; return 1; }
}
tap_step "library in ld.so.cache, legacy.conf a conffile, modules-load.d entry shipped inactive, CRIU plugin beside criu" package_layout

preload_on() {
	{ printf '/usr/lib/%s/libarc4.so.1\n' "$multiarch"; cat "$work/preload.before"; } |
		cmp - "$root/etc/ld.so.preload" || { od -c "$root/etc/ld.so.preload" | head; return 1; }
}
tap_check "arc4-preload's postinst put the shim's line first in /etc/ld.so.preload, the old line kept" preload_on

# The administrator's off survives a reinstall (or an upgrade): the
# postinst switches on at the first configuration only.
off_survives() {
	local deb
	for deb in "${debs[@]}"; do
		[ "$(dpkg-deb -f "$deb" Package)" = arc4-preload ] && cp "$deb" "$root/tmp/arc4-preload.deb"
	done
	[ -e "$root/tmp/arc4-preload.deb" ] || { echo "no arc4-preload package"; return 1; }
	chroot_run arc4ctl preload off >/dev/null || return 1
	chroot_run dpkg -i /tmp/arc4-preload.deb >"$work/reinstall.log" 2>&1 || { tail -n 20 "$work/reinstall.log"; return 1; }
	rm -f "$root/tmp/arc4-preload.deb"
	cmp "$work/preload.before" "$root/etc/ld.so.preload" || { od -c "$root/etc/ld.so.preload" | head; return 1; }
	chroot_run arc4ctl preload on >/dev/null && preload_on
}
tap_check "arc4ctl preload off, then dpkg -i arc4-preload again: still off; on again" off_survives

# What the test program must print in deterministic mode: the checkout's
# own library's answer, which is the same on every machine.
expected() {
	[ -e lib/libarc4.so ] || make -s -C lib >/dev/null || return 1
	sed -n '/^cat >"$prog.c" <<.PROG.$/,/^PROG$/p' selftests/deb/guest.sh | sed '1d;$d' >"$work/prog.c"
	cc -Iinclude -o "$work/prog" "$work/prog.c" -Llib -Wl,-rpath,"$top/lib" -larc4 &&
		"$work/prog" | tail -n +2 >"$work/expected.txt" && [ -s "$work/expected.txt" ]
}
tap_step "the checkout's libarc4 gives the deterministic sequence to compare with" expected

# --- in the VM, booted on the tree ---------------------------------------
if [ "$tap_broken" = 1 ]; then
	for i in 1 2 3 4 5 6 7 8 9 10 11 12; do	# guest.sh's 11 and the boot
		tap_skip "VM check $i" "an earlier step failed"
	done
else
	t=$(date +%s)
	VM_ROOT=$root VM_ARCH=$arch VM_MODULES=host VM_LOAD=0 VM_LOG="$work/console.log" \
		scripts/vm-run "$top/selftests/deb/guest.sh" "$work" \
		>"$work/vm.out" 2>"$work/vm.err" </dev/null
	vmrc=$?
	tap_relay "$work/vm.out"
	guest=$tap_relayed
	for ((i = guest; i < 10; i++)); do
		tap_fail "VM: check $((i + 1)) reported"
	done
	if [ "$vmrc" -eq 0 ] && [ "$guest" -eq 11 ]; then
		tap_ok "the test VM booted the tree ($(($(date +%s) - t)) s) and reported 11 results"
	else
		tap_fail "the test VM booted the tree and reported 11 results"
		tap_diag "vm-run exit $vmrc, $guest results" "$(tail -n 20 "$work/vm.err")"
	fi
fi

# --- libarc4-1 goes, and the preload line with it ------------------------
# Forced, without arc4ctl: arc4-tools goes first (--force-depends), then
# libarc4-1 (--force-depends: arc4-preload's prerm does not run), whose
# own prerm takes the line out by a plain edit; arc4-preload's removal
# then finds no arc4ctl and no line, and must not fail.
preload_off() {
	{ chroot_run dpkg --remove --force-depends arc4-tools &&
		chroot_run dpkg --remove --force-depends "libarc4-1:$arch"; } >"$work/remove.log" 2>&1 ||
		{ tail -n 30 "$work/remove.log"; return 1; }
	cmp "$work/preload.before" "$root/etc/ld.so.preload" || { od -c "$root/etc/ld.so.preload" | head; return 1; }
	[ "$(stat -c '%a %U:%G' "$root/etc/ld.so.preload")" = "644 root:root" ] || return 1
	chroot_run dpkg --remove --force-depends arc4-preload >>"$work/remove.log" 2>&1 ||
		{ tail -n 30 "$work/remove.log"; return 1; }
	cmp "$work/preload.before" "$root/etc/ld.so.preload"
}
if [ -e "$root/var/lib/dpkg/info/arc4-preload.list" ]; then
	tap_check "dpkg --remove --force-depends arc4-tools, then libarc4-1: libarc4-1's prerm leaves /etc/ld.so.preload byte for byte as before; arc4-preload's removal without arc4ctl succeeds" preload_off
else
	tap_skip "dpkg --remove libarc4-1" "arc4-preload was not installed"
fi

# --- purge ----------------------------------------------------------------
purges() {
	# What dpkg still knows: a package removed without conffiles is gone.
	local known=() n
	for n in "${names[@]}"; do
		chroot_run dpkg-query -W -f='${db:Status-Status}\n' "$n" 2>/dev/null |
			grep -qvx not-installed && known+=("$n")
	done
	chroot_run apt-get purge -y "${known[@]}" >"$work/purge.log" 2>&1 &&
		chroot_run apt-get autoremove --purge -y >>"$work/purge.log" 2>&1 ||
		{ tail -n 30 "$work/purge.log"; return 1; }
	# What the install brought that autoremove keeps because a package
	# of the tree recommends it (apt recommends ca-certificates, which
	# python3's stdlib pulled in): not ours, purged too.
	local extra
	extra=$(installed | comm -13 "$work/packages-before" -)
	if [ -n "$extra" ]; then
		echo "kept by autoremove, purged: $(tr "\n" " " <<<"$extra")" >>"$work/purge.log"
		# shellcheck disable=SC2086
		chroot_run apt-get purge -y $extra >>"$work/purge.log" 2>&1 ||
			{ tail -n 30 "$work/purge.log"; return 1; }
	fi
	local left
	left=$(chroot_run dpkg-query -W -f='${Package} ${db:Status-Status}\n' "${names[@]}" 2>/dev/null |
		grep -v ' not-installed$')
	[ -z "$left" ] || { echo "still known to dpkg: $left"; return 1; }
}
if [ -e "$root/var/lib/dpkg/info/libarc4-1:$arch.list" ] || [ -e "$root/var/lib/dpkg/info/arc4-dkms.list" ]; then
	tap_check "apt-get purge ${names[*]}; apt-get autoremove --purge" purges
else
	tap_skip "apt-get purge" "nothing was installed"
fi

nothing_left() {
	snapshot >"$work/after"
	diff "$work/before" "$work/after" || return 1
	local f left=()
	while read -r f; do
		[ -e "$root$f" ] || [ -L "$root$f" ] && [ ! -d "$root$f" ] && left+=("$f")
	done <"$work/files"
	[ ${#left[@]} -eq 0 ] || { echo "left: ${left[*]}"; return 1; }
	[ ! -e "$root/var/lib/dkms/arc4" ] || { echo "left: /var/lib/dkms/arc4"; return 1; }
}
tap_check "after the purge the tree is as before: no file of ours, the same module and library indexes, the same /etc/ld.so.preload" nothing_left

echo "# $(($(date +%s) - start)) s in all"
tap_done
