#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# dkms.sh: doc/install.md's DKMS commands work.  On the host, as root:
# `make install-dkms`, then `dkms add`, `dkms build` and `dkms install` for
# the test VM's kernel; then a VM booted on the host's modules as installed
# (VM_MODULES=host, nothing loaded beforehand) must load the DKMS-built
# arc4dev.ko through the modules-load.d entry and serve /dev/arc4
# (selftests/install/autoload.sh); then `make uninstall-dkms`.
#
# It changes the host while it runs (/usr/src/arc4-VERSION, /var/lib/dkms,
# /lib/modules/RELEASE/updates, the depmod indexes, perhaps a DKMS signing
# key) and undoes all of it on every exit path, restoring the module
# indexes byte for byte; the last test checks that.  Prints TAP.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 1
. selftests/install/tap.sh

if [ "$(id -u)" -ne 0 ]; then
	tap_plan 1
	tap_skip "DKMS build loads in the test VM" "needs root (dkms install, vm-run)"
	exit 0
fi

# One run at a time on a host: two checkouts testing at once would find
# each other's DKMS tree and skip, or restore each other's indexes.
exec 9>/run/lock/arc4-dkms.lock
if ! flock -w 900 9; then
	tap_plan 1
	tap_fail "DKMS build loads in the test VM (another run held the host lock for 900 s)"
	exit 1
fi

version=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"/\1/p' dkms.conf)
kver=$(scripts/kver) || exit 1
md=/lib/modules/$kver
src=/usr/src/arc4-$version
work=$top/build/selftests/install/dkms
rm -rf "$work"
mkdir -p "$work/indexes"

if ! command -v dkms >/dev/null; then
	scripts/deps-install dkms >"$work/deps.log" 2>&1
fi
if ! command -v dkms >/dev/null; then
	tap_plan 1
	tap_fail "dkms is installed (scripts/deps-install dkms)"
	tap_diag "$(tail -n 5 "$work/deps.log")"
	exit 1
fi
if [ -e "$src" ] || [ -e /var/lib/dkms/arc4 ]; then
	tap_plan 1
	tap_skip "DKMS build loads in the test VM" "arc4 is already in DKMS on this host; not touching it"
	exit 0
fi

# --- what to put back -----------------------------------------------------
snapshot() {
	# Everything the test may touch, by content.
	(
		cd "$md" && find . -path ./build -prune -o -path ./source -prune -o \
			-path ./kernel -prune -o -print | sort
		sha1sum "$md"/modules.* 2>/dev/null
		# Not the link counts: an overlay filesystem reports 1 for
		# every directory it has copied up.
		ls -la /usr/src /var/lib/dkms 2>/dev/null | awk '{ $2 = ""; print }'
	)
}
cp -p "$md"/modules.* "$work/indexes/"
had_updates=0 had_updates_dkms=0 had_key=0 had_cert=0
[ -e "$md/updates" ] && had_updates=1
[ -e "$md/updates/dkms" ] && had_updates_dkms=1
[ -e /var/lib/dkms/mok.key ] && had_key=1
[ -e /var/lib/dkms/mok.pub ] && had_cert=1
dir_times=$(stat -c '%Y %n' "$md" /usr/src /var/lib/dkms 2>/dev/null)
snapshot >"$work/before"

restore_host() {
	if [ -e /var/lib/dkms/arc4 ]; then
		dkms remove "arc4/$version" --all >>"$work/cleanup.log" 2>&1
	fi
	rm -rf /var/lib/dkms/arc4 "$src"
	rm -f "$md"/updates/dkms/arc4dev.ko*
	[ "$had_updates_dkms" = 1 ] || rmdir "$md/updates/dkms" 2>/dev/null
	[ "$had_updates" = 1 ] || rmdir "$md/updates" 2>/dev/null
	[ "$had_key" = 1 ] || rm -f /var/lib/dkms/mok.key
	[ "$had_cert" = 1 ] || rm -f /var/lib/dkms/mok.pub
	local f
	for f in "$md"/modules.*; do
		[ -e "$work/indexes/${f##*/}" ] || rm -f "$f"
	done
	for f in "$work"/indexes/modules.*; do
		cmp -s "$f" "$md/${f##*/}" || cp -p "$f" "$md/"
	done
	local t d
	while read -r t d; do
		touch -m -d "@$t" "$d"
	done <<<"$dir_times"
}
# A signal (tests-run's timeout) ends the VM too, at once: it runs in its
# own process group, in the background, so that the trap is not held up.
vm_pid=
on_signal() {
	local c
	if [ -n "$vm_pid" ]; then
		# vm-run's timeout(1) keeps QEMU in a process group of its own.
		for c in $(ps -o pid= --ppid "$vm_pid"); do
			kill -TERM "$c" 2>/dev/null
		done
		kill -TERM -- "-$vm_pid" 2>/dev/null
	fi
	exit 130
}
trap restore_host EXIT
trap on_signal INT TERM

installs_sources() { make -s install-dkms >/dev/null && [ -f "$src/dkms.conf" ]; }
tap_step "make install-dkms puts the sources in $src" installs_sources

dkms_add() { dkms add "arc4/$version" >"$work/add.log" 2>&1 || { cat "$work/add.log"; return 1; }; }
tap_step "dkms add arc4/$version" dkms_add

dkms_build() {
	dkms build "arc4/$version" -k "$kver" >"$work/build.log" 2>&1 ||
		{ tail -n 30 "$work/build.log" /var/lib/dkms/arc4/"$version"/build/make.log 2>/dev/null; return 1; }
}
tap_step "dkms build arc4/$version -k $kver" dkms_build

# Where dkms put the module, relative to $md: compressed as the release's
# own modules are (arc4dev.ko.xz on Debian 13).
installed_ko() { (cd "$md" && ls updates/dkms/arc4dev.ko* 2>/dev/null | head -n1); }

dkms_install() {
	dkms install "arc4/$version" -k "$kver" >"$work/install.log" 2>&1 ||
		{ tail -n 30 "$work/install.log"; return 1; }
	dkms_ko=$(installed_ko)
	[ -n "$dkms_ko" ] || { ls -R "$md/updates" 2>&1; return 1; }
	grep -q "^$dkms_ko:" "$md/modules.dep" || { echo "$dkms_ko not in modules.dep"; return 1; }
}
tap_step "dkms install puts arc4dev.ko in updates/dkms and runs depmod" dkms_install

dkms_status() {
	dkms status "arc4/$version" | grep -q "^arc4/$version, $kver, [^:]*: installed"
}
tap_step "dkms status: arc4/$version installed for $kver" dkms_status

# --- the VM, on the host's modules as DKMS left them -----------------------
if [ "$tap_broken" = 1 ]; then
	tap_skip "the test VM loads the DKMS-built module" "an earlier step failed"
else
	VM_MODULES=host VM_LOAD=0 VM_LOG="$work/console.log" \
		setsid scripts/vm-run selftests/install/autoload.sh "$(installed_ko)" \
		>"$work/vm.out" 2>"$work/vm.err" </dev/null &
	vm_pid=$!
	wait "$vm_pid"
	vmrc=$?
	vm_pid=
	tap_relay "$work/vm.out"
	guest=$tap_relayed
	if [ "$vmrc" -eq 0 ] && [ "$guest" -gt 0 ]; then
		tap_ok "the test VM booted on the host's modules and reported $guest results"
	else
		tap_fail "the test VM booted on the host's modules and reported $guest results"
		tap_diag "vm-run exit $vmrc" "$(tail -n 20 "$work/vm.err")"
	fi
fi

uninstalls() {
	make -s uninstall-dkms >"$work/uninstall.log" 2>&1 || { cat "$work/uninstall.log"; return 1; }
	[ ! -e "$src" ] && [ ! -e /var/lib/dkms/arc4 ] &&
		[ -z "$(ls "$md"/updates/dkms/arc4dev.ko* 2>/dev/null)" ] ||
		{ echo "left: $(ls -d "$src" /var/lib/dkms/arc4 "$md"/updates/dkms/arc4dev.ko* 2>/dev/null)"; return 1; }
	! grep -q arc4dev "$md/modules.dep" || { echo "still in modules.dep"; return 1; }
}
if [ -e "$src" ]; then
	tap_check "make uninstall-dkms: dkms remove, sources gone, out of modules.dep" uninstalls
else
	tap_skip "make uninstall-dkms: dkms remove, sources gone, out of modules.dep" "nothing was installed"
fi

restore_host
trap - EXIT
host_as_before() {
	snapshot >"$work/after"
	diff "$work/before" "$work/after"
}
tap_check "the host is as before: /usr/src, /var/lib/dkms, $md and its indexes" host_as_before

tap_plan "$tap_n"
tap_done
