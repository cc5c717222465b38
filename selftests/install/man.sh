#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# man.sh: the man pages render with `man -l` without a warning, fit 80
# columns, have the sections a reader looks for, and agree with the code:
# every arc4-specific public symbol has a page, every ioctl and module
# parameter is in arc4(4), the seed-rule example is what the library
# returns.  Prints TAP.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 1
. selftests/install/tap.sh

pages=(man/*.[1-9])

if ! command -v man >/dev/null || ! command -v groff >/dev/null; then
	"$top/scripts/deps-install" man-db groff-base >/dev/null 2>&1
fi
if ! command -v man >/dev/null || ! command -v groff >/dev/null; then
	tap_plan 1
	tap_skip "man pages render" "man-db or groff-base missing (scripts/deps-install man-db groff-base)"
	exit 0
fi

# render PAGE: the page as a terminal shows it, in ASCII, 80 columns.
render() { LC_ALL=C MANWIDTH=80 man --warnings=all -l "$1"; }

renders_cleanly() {
	local err
	err=$(render "$1" 2>&1 >/dev/null) || { echo "man -l failed: $err"; return 1; }
	[ -z "$err" ] || { echo "$err"; return 1; }
	[ "$(render "$1" 2>/dev/null | wc -l)" -gt 20 ] || { echo "page is nearly empty"; return 1; }
}

fits_80_columns() {
	local long
	long=$(render "$1" 2>/dev/null | awk 'length > 80')
	[ -z "$long" ] || { echo "$long"; return 1; }
}

has_sections() {
	local p=$1 text s
	text=$(render "$p" 2>/dev/null)
	for s in NAME SYNOPSIS DESCRIPTION "SEE ALSO" STANDARDS; do
		grep -qx "$s" <<<"$text" || { echo "no $s section"; return 1; }
	done
	case $p in
	*.3) grep -qx "RETURN VALUES" <<<"$text" || { echo "no RETURN VALUES"; return 1; } ;;
	*.4) grep -qx "ERRORS" <<<"$text" || { echo "no ERRORS"; return 1; } ;;
	esac
}

# Names the pages document (their .Nm lines).
documented=$(grep -h '^\.Nm [a-z]' "${pages[@]}" | awk '{print $2}' | sort -u)

every_extension_has_a_page() {
	# The shim's public symbols that glibc does not have.
	local missing=() s
	for s in $(sed -n 's/^[[:space:]]*\([a-z0-9_]*\);$/\1/p' lib/libarc4.map |
		grep -E '^arc4random|^arc4_stream_|_deterministic$|^srandomdev$'); do
		grep -qx "$s" <<<"$documented" || missing+=("$s")
	done
	[ ${#missing[@]} -eq 0 ] || { echo "no page names: ${missing[*]}"; return 1; }
}

every_link_names_its_page() {
	# mk/install.mk's link list: LINK.3:PAGE.3, PAGE must have .Nm LINK.
	local l name target bad=()
	for l in $(sed -n '/^ARC4_MAN_LINKS/,/^$/p' mk/install.mk |
		grep -oE '[a-z0-9_]+\.[1-9]:[a-z0-9_]+\.[1-9]'); do
		name=${l%%:*} target=${l#*:}
		[ -f "man/$target" ] && grep -qx "\.Nm ${name%.*} *,\{0,1\}" "man/$target" ||
			bad+=("$l")
	done
	[ ${#bad[@]} -eq 0 ] || { echo "bad links: ${bad[*]}"; return 1; }
}

device_page_covers_the_abi() {
	local missing=() n
	for n in $(grep -oE '\bARC4_(IOC|MODE)_[A-Z_]+' include/uapi/linux/arc4.h | sort -u) \
		$(grep -ohE 'module_param_cb\([a-z_]+' kmod/*.c | sed 's/.*(//'); do
		grep -q "$n" man/arc4.4 || missing+=("$n")
	done
	[ ${#missing[@]} -eq 0 ] || { echo "arc4(4) does not mention: ${missing[*]}"; return 1; }
}

seed_example_matches_library() {
	local prog=$top/build/selftests/install/seed2024 want got
	[ -e lib/libarc4.so ] || make -s -C lib >/dev/null || return 1
	mkdir -p "${prog%/*}"
	cat >"$prog.c" <<-'EOF'
	#include <stdio.h>
	#include <stdlib.h>
	#include <arc4random.h>
	int main(void)
	{
		srand_deterministic(2024);
		for (int i = 0; i < 3; i++)
			printf("%d\n", rand());
		return 0;
	}
	EOF
	cc -Iinclude -o "$prog" "$prog.c" -Llib -Wl,-rpath,"$top/lib" -larc4 || return 1
	got=$("$prog" | paste -sd' ')
	want=$(render man/srand_deterministic.3 2>/dev/null | tr -s ' \n' '  ' |
		grep -oE 'srand_deterministic\(2024\). the first three calls of rand\(\) return [0-9]+, [0-9]+ and [0-9]+' |
		sed 's/.* return //' | grep -oE '[0-9]+' | paste -sd' ')
	[ -n "$want" ] || { echo "example not found in srand_deterministic(3)"; return 1; }
	[ "$got" = "$want" ] || { echo "page says $want, library gives $got"; return 1; }
}

tap_plan $((3 * ${#pages[@]} + 4))
for p in "${pages[@]}"; do
	tap_check "${p#man/}: man -l renders it without warnings" renders_cleanly "$p"
	tap_check "${p#man/}: fits 80 columns" fits_80_columns "$p"
	tap_check "${p#man/}: has the usual sections" has_sections "$p"
done
tap_check "every arc4random, arc4_stream and *_deterministic call has a page" every_extension_has_a_page
tap_check "every man page link names a page that documents it" every_link_names_its_page
tap_check "arc4(4) names every ioctl, mode and module parameter" device_page_covers_the_abi
tap_check "srand_deterministic(3)'s example is what libarc4 returns" seed_example_matches_library
tap_done
