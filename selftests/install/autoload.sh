#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# autoload.sh [MODULE-PATH]: in the test VM, packaging/arc4dev.conf, put in
# /run/modules-load.d, makes systemd-modules-load load arc4dev, and the
# device then works.  With MODULE-PATH (relative to /lib/modules/RELEASE,
# e.g. updates/dkms/arc4dev.ko) the loaded module must be that file.  The
# module is left loaded or not as it was found.  Prints TAP.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 1
. selftests/install/tap.sh

want=${1:-}
kver=$(uname -r)
sml=
for p in /usr/lib/systemd/systemd-modules-load /lib/systemd/systemd-modules-load; do
	[ -x "$p" ] && sml=$p && break
done

tap_plan 7
if [ "$(id -u)" -ne 0 ] || [ ! -d /run ] || [ -z "$sml" ]; then
	for i in 1 2 3 4 5 6 7; do
		tap_skip "autoload $i" "needs root in the test VM and systemd-modules-load"
	done
	exit 0
fi

was_loaded=0
[ -e /sys/module/arc4dev ] && was_loaded=1
restore() {
	rm -f /run/modules-load.d/arc4dev.conf
	if [ "$was_loaded" = 1 ]; then
		[ -e /sys/module/arc4dev ] || modprobe arc4dev
	else
		[ -e /sys/module/arc4dev ] && rmmod arc4dev
	fi
}
trap restore EXIT

unloaded() {
	[ -e /sys/module/arc4dev ] && { rmmod arc4dev || return 1; }
	[ ! -e /sys/module/arc4dev ]
}
tap_check "arc4dev is unloaded before the test" unloaded

loads() {
	mkdir -p /run/modules-load.d &&
		cp packaging/arc4dev.conf /run/modules-load.d/ &&
		"$sml" /run/modules-load.d/arc4dev.conf && [ -e /sys/module/arc4dev ]
}
tap_check "systemd-modules-load loads arc4dev from /run/modules-load.d/arc4dev.conf" loads

right_file() {
	local f
	f=$(modinfo -n arc4dev) || return 1
	if [ -n "$want" ] && [ "$f" != "/lib/modules/$kver/$want" ]; then
		echo "modprobe finds $f, not /lib/modules/$kver/$want"
		return 1
	fi
	# The module in memory is that file.
	[ "$(cat /sys/module/arc4dev/srcversion)" = "$(modinfo -F srcversion "$f")" ] ||
		{ echo "srcversion differs from $f"; return 1; }
}
tap_check "the loaded module is ${want:-the one modprobe finds}" right_file

node() {
	[ -c /dev/arc4 ] && [ "$(stat -c %a /dev/arc4)" = 666 ]
}
tap_check "/dev/arc4 is a character device, mode 0666" node

strong_read() {
	local a b
	a=$(head -c 32 /dev/arc4 | od -An -tx1 | tr -d ' \n')
	b=$(head -c 32 /dev/arc4 | od -An -tx1 | tr -d ' \n')
	[ ${#a} -eq 64 ] && [ "$a" != "$b" ]
}
tap_check "two opens read different strong bytes" strong_read

# RFC 8439, appendix A.1, test vector 1: all-zero key and nonce, block 0.
rfc=76b8e0ada0f13d90405d6ae55386bd28bdd219b8a08ded1aa836efcc8b770dc7
rfc+=da41597c5157488d7724e03fb8d84a376a43b8f41518a11cc387b669b2ee6586
if [ -x build/tools/arc4ctl ]; then
	kat() {
		local got
		got=$(build/tools/arc4ctl stream -k "$(printf '%064x' 0)" -l 64 | tr -dc '0-9a-f')
		[ "$got" = "$rfc" ] || { echo "got $got"; return 1; }
	}
	tap_check "its deterministic stream is RFC 8439's ChaCha20 test vector 1" kat
else
	tap_skip "its deterministic stream is RFC 8439's ChaCha20 test vector 1" "build/tools/arc4ctl not built (make)"
fi

unloads() {
	rmmod arc4dev && [ ! -e /sys/module/arc4dev ] && [ ! -e /dev/arc4 ]
}
tap_check "rmmod arc4dev removes it and /dev/arc4" unloads

tap_done
