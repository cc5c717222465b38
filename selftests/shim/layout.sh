#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# layout.sh: what a preloaded libarc4.so.1 costs every process at load,
# read off the built library (doc/performance.md, "The exec budget").
# Its writable data ends in the page the loader maps from the file, so
# ld.so maps no anonymous pages for .bss; its read-only data shares the
# headers' read-only segment (three loadable segments, none both
# writable and executable, the code alone executable); and it keeps RELRO.  (That no
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
tap_plan 3
if [ ! -f "$lib" ]; then
	for i in 1 2 3; do
		tap_fail "lib/libarc4.so.1 is built (make lib)"
	done
	exit 1
fi

# A sanitizer's build (make test-sanitize) lays its data out its own way:
# ASan pads every global with a red zone; and gcov's (make coverage) adds
# its counters to the writable data.
san=$(readelf -dW "$lib" | grep -oE 'lib[at]san\.so[.0-9]*' | head -n 1)
if [ -z "$san" ] && readelf -sW "$lib" | grep '__gcov' >/dev/null; then
	san="gcov's counters (make coverage)"
fi

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

# Three PT_LOADs: R (headers, symbols, .rodata, .eh_frame), R E (the
# code and nothing else), RW; .rodata and .eh_frame in no executable one.
three_segments() {
	local flags sec addr x
	# A LOAD line's flags are fields 7 to NF - 1 ("R E" is two).
	local loads='$1 == "LOAD" { f = ""; for (i = 7; i < NF; i++) f = f $i'
	flags=$(readelf -lW "$lib" | awk "$loads; print f }" | paste -sd ' ')
	[ "$flags" = "R RE RW" ] || { echo "segments: $flags"; return 1; }
	for sec in .rodata .eh_frame; do
		addr=$(readelf -SW "$lib" | sed 's/^ *\[ *[0-9]*\]//' |
			awk -v s="$sec" '$1 == s { print $3 }')
		[ -n "$addr" ] || { echo "no $sec"; return 1; }
		x=$(readelf -lW "$lib" | awk "$loads"'; print $3, $6, f }' |
			while read -r va ms f; do
				((16#$addr >= va && 16#$addr < va + ms)) && echo "$f"
			done)
		[ "$x" = R ] || { echo "$sec in a segment with flags '$x'"; return 1; }
	done
}
name="read-only data in the headers' segment: three segments, only code executable"
if readelf -hW "$lib" | grep -q 'Machine:.*AArch64' ||
	readelf -SW "$lib" | grep -q '\.note\.gnu\.gold-version'; then
	# aarch64's GNU ld by default, and gold, map the headers, the code
	# and the read-only data as one segment: nothing to merge.
	tap_skip "$name" "aarch64's ld and gold keep code and read-only data in one segment"
else
	tap_check "$name" three_segments
fi

relro() {
	readelf -lW "$lib" | grep -q GNU_RELRO || { echo "no GNU_RELRO"; return 1; }
}
tap_check "RELRO kept (the relocated data read-only after load)" relro
tap_done
