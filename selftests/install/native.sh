#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# native.sh [RELEASE]: arc4 built the way a user builds it on the machine
# itself, in an overlay of scripts/release-tree RELEASE (default
# bookworm-arm64: Debian 12 on arm64, a Raspberry Pi class machine, its
# programs run through qemu-user-static).  The tree holds a compiler, its
# kernel's headers, libelf-dev and libcapstone-dev, not the test rig; a
# clean clone of this checkout's HEAD is copied in, and there, with
# apt-get and apt replaced by stand-ins that fail and say they were called:
# `make` builds arc4dev.ko, libarc4 and the tools for the tree's
# architecture, `make install` installs them and `make uninstall` removes
# them, `make deb` names the packaging tools it lacks.  Those are installed
# from the archive (as the message says), `make deb` builds the packages,
# dpkg installs them and DKMS builds the module.  The test VM then boots
# the overlay: the DKMS module loads (modprobe), and so does the one `make`
# built (insmod), each serving /dev/arc4.  `make test-native` runs it for NATIVE_RELEASES.  Needs root
# and the archive; under qemu-user, 20 to 40 minutes.  Prints TAP.
#
# ARC4_NATIVE_KEEP=1 keeps the overlay's changes (build/selftests/native/).
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 1
. selftests/install/tap.sh
. scripts/lib/apt.sh

# In the VM: each module loads and /dev/arc4 reads.
if [ "${1:-}" = --guest ]; then
	tap_plan 2
	reads() {
		local a b
		[ -c /dev/arc4 ] || { echo "no /dev/arc4"; return 1; }
		a=$(head -c 64 /dev/arc4 | od -An -tx1 | tr -d ' \n')
		b=$(head -c 64 /dev/arc4 | od -An -tx1 | tr -d ' \n')
		[ ${#a} = 128 ] && [ "$a" != "$b" ] &&
			[ "$a" != "$(printf '0%.0s' $(seq 128))" ] || { echo "read: $a / $b"; return 1; }
	}
	dkms_loads() {
		modprobe arc4dev || return 1
		case $(modinfo -n arc4dev) in
		*/updates/dkms/arc4dev.ko*) ;;
		*) echo "modprobe loaded $(modinfo -n arc4dev), not DKMS's"; return 1 ;;
		esac
		reads
	}
	tap_check "the DKMS-built arc4dev loads (modprobe) and /dev/arc4 reads" dkms_loads
	make_loads() {
		rmmod arc4dev && insmod /root/arc4/kmod/arc4dev.ko && reads
	}
	tap_check "the arc4dev.ko that make built loads (insmod) and /dev/arc4 reads" make_loads
	tap_done
	exit
fi

release=${1:-bookworm-arm64}
work=$top/build/selftests/native/$release
root=$work/root
if [ "$(id -u)" -ne 0 ]; then
	tap_plan 1
	tap_fail "$release: native build (needs root: chroot, overlay, the test VM)"
	exit 1
fi

# The rest runs in a mount namespace of its own, where the overlay lives.
if [ -z "${ARC4_NATIVE_NS:-}" ]; then
	tree=$(scripts/release-tree "$release") ||
		{ tap_plan 1; tap_fail "the $release tree (scripts/release-tree)"; exit 1; }
	rm -rf "$work"
	mkdir -p "$work/upper" "$work/ovwork" "$root"
	# release-tree's lock, shared: no rebuild under the overlay.
	exec 8>"${tree%/*}/$release.lock"
	flock -s 8
	ARC4_NATIVE_NS=1 exec unshare --mount --propagation private "$0" "$release" "$tree"
fi
tree=$2
mount -t overlay overlay -o "lowerdir=$tree,upperdir=$work/upper,workdir=$work/ovwork" "$root" ||
	{ tap_plan 1; tap_fail "overlay of $tree"; exit 1; }
cleanup() {
	umount "$root" 2>/dev/null
	[ "${ARC4_NATIVE_KEEP:-0}" = 1 ] || rm -rf "$work"
}
trap cleanup EXIT
kver=$(scripts/kver --root "$tree") || { tap_plan 1; tap_fail "a kernel in $tree"; exit 1; }
arch=$(head -n1 "$tree/var/lib/dpkg/arch" 2>/dev/null || dpkg --print-architecture)
machine=$(case $arch in arm64) echo AArch64 ;; *) echo X86-64 ;; esac)
src=/root/arc4

# in_tree CMD: CMD (a shell command line) as root in the tree, in the
# clone, with /proc, /sys and /dev mounted in a namespace of its own.
in_tree() {
	unshare --mount --propagation private /bin/sh -c '
		r=$1; shift
		mount -t proc proc "$r/proc" && mount --rbind /sys "$r/sys" &&
			mount --rbind /dev "$r/dev" || exit 125
		exec chroot "$r" /usr/bin/env -i HOME=/root LC_ALL=C.UTF-8 \
			PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
			DEBIAN_FRONTEND=noninteractive sh -c "cd '"$src"' && $*"' sh "$root" "$@"
}
# stand_ins on|off: apt-get and apt first on PATH, failing, logging.
stand_ins() {
	local c
	for c in apt-get apt; do
		if [ "$1" = on ]; then
			printf '#!/bin/sh\necho "%s $*" >>/tmp/apt-called\necho "native.sh: %s called" >&2\nexit 100\n' \
				"$c" "$c" >"$root/usr/local/sbin/$c"
			chmod 755 "$root/usr/local/sbin/$c"
		else
			rm -f "$root/usr/local/sbin/$c"
		fi
	done
}
no_apt() {
	[ ! -s "$root/tmp/apt-called" ] || { echo "called:"; cat "$root/tmp/apt-called"; return 1; }
}
# built FILE...: each is an ELF file for the tree's machine.
built() {
	local f
	for f in "$@"; do
		readelf -h "$root$f" 2>&1 | grep "Machine:.*$machine" >/dev/null ||
			{ echo "$f: not an $machine ELF file"; ls -l "$root$f"; return 1; }
	done
}
log() { echo "$work/$1.log"; }
step() {
	local name=$1
	shift
	in_tree "$*" >"$(log "$name")" 2>&1 || { tail -n 25 "$(log "$name")"; return 1; }
}

tap_plan 10
start=$(date +%s)
git clone -q --no-hardlinks "$top" "$root$src" && stand_ins on ||
	{ tap_fail "a clean clone of HEAD in the tree"; exit 1; }
echo "# $release ($arch, kernel $kver): clone of $(git rev-parse --short HEAD)"

make_all() {
	step make "make -j2" && no_apt &&
		built "$src/kmod/arc4dev.ko" "$src/lib/libarc4.so.1" \
			"$src/build/tools/arc4ctl" "$src/build/tools/arc4-audit" &&
		modinfo -F vermagic "$root$src/kmod/arc4dev.ko" | grep "^$kver " >/dev/null ||
		{ echo "vermagic: $(modinfo -F vermagic "$root$src/kmod/arc4dev.ko")"; return 1; }
}
tap_step "make: arc4dev.ko (for $kver), libarc4.so.1, arc4ctl, arc4-audit for $arch; no apt-get" make_all
echo "# make: $(($(date +%s) - start)) s"

make_install() {
	step install "make install" && no_apt &&
		built /usr/local/lib/libarc4.so.1 /usr/local/bin/arc4ctl \
			"/lib/modules/$kver/extra/arc4dev.ko" &&
		grep -q '^extra/arc4dev.ko:' "$root/lib/modules/$kver/modules.dep" &&
		in_tree "ldconfig -p" | grep 'libarc4.so.1 .*/usr/local/lib/libarc4.so.1' >/dev/null ||
		{ echo "not in modules.dep or ld.so.cache"; return 1; }
}
tap_step "make install: module (depmod), shim (ldconfig), tools under /usr/local" make_install

# As a user would before taking the packages: DKMS leaves a module alone
# when the same version is in extra/.
make_uninstall() {
	local f
	step uninstall "make uninstall" && no_apt || return 1
	for f in /usr/local/lib/libarc4.so.1 /usr/local/bin/arc4ctl "/lib/modules/$kver/extra/arc4dev.ko"; do
		[ ! -e "$root$f" ] || { echo "$f is still there"; return 1; }
	done
	! grep -q 'arc4dev' "$root/lib/modules/$kver/modules.dep" || { echo "still in modules.dep"; return 1; }
}
tap_step "make uninstall: all of it gone, modules.dep too" make_uninstall

# What make deb lacks in the tree: the packaging tools (no apt-get).
missing=
for p in debhelper dh-dkms dpkg-dev libelf-dev libcapstone-dev; do
	dpkg-query --admindir="$root/var/lib/dpkg" -W -f='${db:Status-Status}\n' "$p" 2>/dev/null |
		grep -qx installed || missing+=" $p"
done
deb_names() {
	[ -n "$missing" ] || { echo "the tree has every build dependency: nothing to name"; return 1; }
	! step deb-missing "make deb" && no_apt &&
		grep -qxF "arc4: make deb needs$missing: apt-get install$missing" "$(log deb-missing)" ||
		{ tail -n 5 "$(log deb-missing)"; return 1; }
}
tap_check "make deb without packaging tools names them:$missing" deb_names

deb_deps() {
	stand_ins off
	apt_retry "apt-get update in the $release tree" step update "apt-get update -q" &&
		step deb-deps "apt-get install -y --no-install-recommends$missing dkms"
	local rc=$?
	stand_ins on
	return $rc
}
tap_step "apt-get install$missing dkms (the archive, as the message says)" deb_deps

make_deb() {
	local d
	step deb "make deb" && no_apt || return 1
	for d in libarc4-1 arc4-tools; do
		[ "$(dpkg-deb -f "$root$src"/build/deb/${d}_*.deb Architecture)" = "$arch" ] ||
			{ echo "no $arch $d in build/deb:"; ls "$root$src/build/deb"; return 1; }
	done
}
t=$(date +%s)
tap_step "make deb: the packages for $arch in build/deb/" make_deb
echo "# make deb: $(($(date +%s) - t)) s"

dkms_install() {
	# One kernel, as on a user's machine: the rt flavour's headers out of
	# DKMS's sight (each build takes minutes here).
	rm -f "$root"/lib/modules/*-rt-*/build
	stand_ins off
	step dpkg "dpkg -i build/deb/*.deb"
	local rc=$?
	stand_ins on
	[ $rc = 0 ] || return 1
	ls "$root/lib/modules/$kver/updates/dkms/"arc4dev.ko* >/dev/null 2>&1 ||
		{ echo "DKMS built no arc4dev for $kver"; tail -n 20 "$(log dpkg)"; return 1; }
	built "/usr/lib/$(dpkg-architecture -a"$arch" -qDEB_HOST_MULTIARCH 2>/dev/null)/libarc4.so.1"
}
t=$(date +%s)
tap_step "dpkg -i the packages: DKMS builds arc4dev for $kver" dkms_install
echo "# dpkg -i: $(($(date +%s) - t)) s"

if [ "$tap_broken" = 1 ]; then
	tap_skip "the test VM boots the tree" "an earlier step failed"
	tap_skip "VM check 1" "an earlier step failed"
	tap_skip "VM check 2" "an earlier step failed"
else
	t=$(date +%s)
	mkdir -p "$root$top"
	VM_ROOT=$root VM_DIST=$release VM_MODULES=host VM_LOAD=0 VM_LOG="$work/console.log" \
		scripts/vm-run "$top/selftests/install/native.sh" --guest \
		>"$work/vm.out" 2>"$work/vm.err" </dev/null
	vmrc=$?
	if [ "$vmrc" = 0 ]; then
		tap_ok "the test VM booted the tree ($(($(date +%s) - t)) s)"
	else
		tap_fail "the test VM booted the tree (status $vmrc)"
		tap_diag "$(tail -n 20 "$work/vm.err")"
	fi
	tap_relay "$work/vm.out"
	for ((i = tap_relayed; i < 2; i++)); do
		tap_fail "VM: check $((i + 1)) reported"
	done
fi
echo "# $release: $(($(date +%s) - start)) s in all"
tap_done
