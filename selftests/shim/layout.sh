#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# layout.sh: what a preloaded libarc4.so.1 costs every process at load,
# read off the built library (doc/performance.md, "The exec budget").
# Its writable data ends in the page the loader maps from the file, so
# ld.so maps no anonymous pages for .bss; and it keeps RELRO.  (That no
# fork handler is registered at load, selftests/shim/atfork checks.)
#
#   layout.sh [LIBRARY]    default: lib/libarc4.so.1
#
# Prints TAP.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 1
. selftests/install/tap.sh

lib=${1:-$top/lib/libarc4.so.1}
tap_plan 2
if [ ! -f "$lib" ]; then
	tap_fail "lib/libarc4.so.1 is built (make lib)"
	tap_fail "lib/libarc4.so.1 is built (make lib)"
	tap_done
fi

# A sanitizer's build (make test-sanitize) lays its data out its own way:
# ASan pads every global with a red zone.
san=$(readelf -dW "$lib" | grep -oE 'lib[at]san\.so[.0-9]*' | head -n 1)

# Every writable PT_LOAD's memory ends in the page its file part ends in
# (a .bss beyond it is an anonymous mapping made in every process).
bss_in_file_page() {
	local type off va pa fs ms flags rest n=0 bad=0 fend
	while read -r type off va pa fs ms flags rest; do
		[ "$type" = LOAD ] && [[ $flags == *W* ]] || continue
		n=$((n + 1))
		fend=$(((va + fs + 4095) / 4096 * 4096))
		if ((va + ms > fend)); then
			printf 'RW segment at %s: memory to %#x, its file page to %#x\n' \
				"$va" $((va + ms)) "$fend"
			bad=1
		fi
	done < <(readelf -lW "$lib")
	[ "$n" = 1 ] || { echo "$n writable segments"; return 1; }
	return $bad
}
if [ -n "$san" ]; then
	tap_skip "no anonymous .bss mapping: the writable data ends in its file page" \
		"built with $san, not the library that ships"
else
	tap_check "no anonymous .bss mapping: the writable data ends in its file page" bss_in_file_page
fi

relro() {
	readelf -lW "$lib" | grep -q GNU_RELRO || { echo "no GNU_RELRO"; return 1; }
}
tap_check "RELRO kept (the relocated data read-only after load)" relro
tap_done
