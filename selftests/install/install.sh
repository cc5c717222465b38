#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# install.sh: `make install` into a DESTDIR puts every file where doc/install.md
# says, with the SONAME links; programs build against the installed tree
# with pkg-config (shared, static, and the uapi header) and behave as the
# shim promises; depmod runs only where it should; `make uninstall` removes
# every file again; install-dkms gives a source tree that builds alone;
# install-autoload installs the opt-in modules-load.d entry.  The host is
# not touched.  Prints TAP.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 1
. selftests/install/tap.sh

work=$top/build/selftests/install
rm -rf "$work"
mkdir -p "$work"
# mktemp under build/, never the host's /usr or /lib.
d=$(mktemp -d "$work/destdir.XXXXXX")
trap 'rm -rf "$work"/destdir.* "$work"/sysroot.* "$work"/multi.*' EXIT

# dkms.sh, this tree's or another's, changes the host's module indexes while
# it runs: hold its lock, shared, so that the before/after comparison at the
# end sees none of that.
exec 8>/run/lock/arc4-dkms.lock
if ! flock -s -w 900 8; then
	tap_plan 1
	tap_fail "make install tests (a DKMS run held the host lock for 900 s)"
	exit 1
fi

kver=$(sed -n 's/^#define UTS_RELEASE "\(.*\)"/\1/p' \
	"${KDIR:-/lib/modules/$(scripts/kver)/build}/include/generated/utsrelease.h" 2>/dev/null)
version=$(sed -n 's/^VERSION[[:space:]]*:=[[:space:]]*//p' lib/Makefile)
host_moddep=/lib/modules/$kver/modules.dep
host_before=$(sha1sum "$host_moddep" 2>/dev/null; ls /usr/local/lib/libarc4* /usr/local/include/arc4random.h /usr/local/bin/arc4-audit /etc/arc4 2>/dev/null)

tap_plan 29

# --- make install DESTDIR=... (PREFIX=/usr/local) -------------------------
if make -s -C "$top" install DESTDIR="$d" >"$work/install.log" 2>&1; then
	tap_ok "make install DESTDIR=... succeeds"
else
	tap_fail "make install DESTDIR=... succeeds"
	tap_diag "$(tail -n 20 "$work/install.log")"
fi
u=$d/usr/local

files_are_in_place() {
	local f missing=()
	for f in lib/modules/$kver/extra/arc4dev.ko \
		usr/local/lib/libarc4.so.$version usr/local/lib/libarc4.a \
		usr/local/include/arc4random.h usr/local/include/linux/arc4.h \
		usr/local/lib/pkgconfig/arc4.pc usr/local/share/arc4/arc4dev.conf \
		usr/local/share/man/man4/arc4.4 usr/local/share/man/man3/arc4random.3 \
		usr/local/share/man/man3/srand_deterministic.3 \
		usr/local/share/man/man3/srand48_deterministic.3 \
		usr/local/bin/arc4-audit usr/local/share/man/man1/arc4-audit.1 \
		usr/local/bin/arc4ctl usr/local/share/man/man1/arc4ctl.1 \
		etc/arc4/legacy.conf; do
		[ -f "$d/$f" ] || missing+=("$f")
	done
	[ ${#missing[@]} -eq 0 ] || { echo "missing: ${missing[*]}"; return 1; }
	[ -x "$u/lib/libarc4.so.$version" ] || { echo "library not executable"; return 1; }
	[ "$(stat -c %a "$u/include/arc4random.h")" = 644 ] || { echo "header mode"; return 1; }
}
tap_check "module, library, headers, arc4.pc, man pages, modules-load.d template, arc4ctl, arc4-audit, policy file installed" files_are_in_place

soname_links() {
	[ "$(readlink "$u/lib/libarc4.so.1")" = "libarc4.so.$version" ] &&
		[ "$(readlink "$u/lib/libarc4.so")" = libarc4.so.1 ] &&
		readelf -d "$u/lib/libarc4.so.$version" | grep -q 'SONAME.*\[libarc4\.so\.1\]'
}
tap_check "libarc4.so -> libarc4.so.1 -> libarc4.so.$version, SONAME libarc4.so.1" soname_links

man_links() {
	local l
	for l in arc4random_buf arc4random_uniform srandom_deterministic srandomdev \
		seed48_deterministic lcong48_deterministic arc4_stream_new arc4_stream_split; do
		[ -f "$u/share/man/man3/$l.3" ] || { echo "$l.3 dangles"; return 1; }
	done
	LC_ALL=C MANWIDTH=80 man -M "$u/share/man" 3 seed48_deterministic 2>/dev/null |
		grep -q '^SRAND48_DETERMINISTIC(3)' || { echo "man -M cannot show seed48_deterministic"; return 1; }
}
tap_check "man page links resolve; man -M finds seed48_deterministic(3)" man_links

module_for_kver() {
	[ "$(modinfo -F vermagic "$d/lib/modules/$kver/extra/arc4dev.ko" | cut -d' ' -f1)" = "$kver" ]
}
tap_check "installed arc4dev.ko is built for $kver" module_for_kver

no_depmod_in_staging() {
	! compgen -G "$d/lib/modules/$kver/modules.*" >/dev/null ||
		{ echo "depmod wrote into a staging DESTDIR"; return 1; }
	grep -q "run 'depmod -a $kver' on the target" "$work/install.log"
}
tap_check "a staging DESTDIR gets no depmod files, and a note to run depmod" no_depmod_in_staging

# --- pkg-config against the installed tree -------------------------------
pc() { PKG_CONFIG_SYSROOT_DIR=$d PKG_CONFIG_LIBDIR=$u/lib/pkgconfig pkg-config "$@"; }
pkgconfig_answers() {
	local v c l
	v=$(pc --modversion arc4 | xargs) c=$(pc --cflags arc4 | xargs) l=$(pc --libs arc4 | xargs)
	[ "$v" = "$version" ] || { echo "modversion $v"; return 1; }
	[ "$c" = "-I$u/include" ] || { echo "cflags $c"; return 1; }
	[ "$l" = "-L$u/lib -larc4" ] || { echo "libs $l"; return 1; }
}
tap_check "pkg-config arc4: version $version, -I and -L into the installed tree" pkgconfig_answers

cat >"$work/prog.c" <<'EOF'
/* Uses all three installed headers' worth of API. */
#include <stdio.h>
#include <stdlib.h>
#include <arc4random.h>
#include <linux/arc4.h>

_Static_assert(sizeof(struct arc4_seed) == 48, "uapi struct arc4_seed");
_Static_assert(ARC4_IOC_SEED != ARC4_IOC_GET_INFO, "uapi ioctls");

int main(void)
{
	unsigned char buf[16];
	int a, b, c;

	arc4random_buf(buf, sizeof(buf));
	if (arc4random_uniform(10) >= 10)
		return 1;
	srand_deterministic(2024);
	a = rand();
	b = rand();
	c = rand();
	printf("%d %d %d\n", a, b, c);
	srand48_deterministic(42);
	printf("%.17g\n", drand48());
	return 0;
}
EOF
cat >"$work/ref.c" <<'EOF'
/* glibc alone: what srand48(42) gives, and rand() after srand(1). */
#include <stdio.h>
#include <stdlib.h>

int main(int argc, char **argv)
{
	if (argc > 1) {
		int a, b, c;

		srand(1);
		a = rand();
		b = rand();
		c = rand();
		printf("%d %d %d\n", a, b, c);
		return 0;
	}
	srand48(42);
	printf("%.17g\n", drand48());
	return 0;
}
EOF
want_seq="1014331080 315894770 651497328"

# shellcheck disable=SC2046
builds_shared() {
	cc -std=gnu11 -Wall -Wextra -Werror -o "$work/prog" "$work/prog.c" $(pc --cflags --libs arc4) &&
		cc -o "$work/ref" "$work/ref.c"
}
tap_check "a program builds against the installed tree with pkg-config" builds_shared

runs_shared() {
	local out ref
	out=$(LD_LIBRARY_PATH=$u/lib "$work/prog") || return 1
	ref=$("$work/ref")
	[ "$(LD_LIBRARY_PATH=$u/lib ldd "$work/prog" | awk '/libarc4/ {print $3}')" = "$u/lib/libarc4.so.1" ] ||
		{ echo "libarc4.so.1 not resolved from the DESTDIR"; return 1; }
	[ "$(sed -n 1p <<<"$out")" = "$want_seq" ] || { echo "srand_deterministic(2024): $out"; return 1; }
	[ "$(sed -n 2p <<<"$out")" = "$ref" ] || { echo "drand48 $out vs glibc $ref"; return 1; }
}
tap_check "it runs on the installed libarc4.so.1: documented seed rule, glibc's rand48" runs_shared

# shellcheck disable=SC2046
static_build() {
	local out
	cc -static -std=gnu11 -o "$work/prog-static" "$work/prog.c" $(pc --cflags --libs --static arc4) || return 1
	readelf -d "$work/prog-static" 2>/dev/null | grep -q NEEDED && { echo "not static"; return 1; }
	out=$("$work/prog-static" | head -n1)
	[ "$out" = "$want_seq" ] || { echo "static: $out"; return 1; }
}
tap_check "the same program links statically with the installed libarc4.a" static_build

preload_interposes() {
	local glibc a b
	glibc=$("$work/ref" srand)
	a=$(LD_PRELOAD=$u/lib/libarc4.so.1 "$work/ref" srand)
	b=$(LD_PRELOAD=$u/lib/libarc4.so.1 "$work/ref" srand)
	[ "$a" != "$glibc" ] && [ "$a" != "$b" ] ||
		{ echo "preloaded srand(1) still replays: $glibc / $a / $b"; return 1; }
}
tap_check "LD_PRELOAD of the installed libarc4.so.1 makes srand(1); rand() strong" preload_interposes

# --- make uninstall -------------------------------------------------------
if make -s -C "$top" uninstall DESTDIR="$d" >"$work/uninstall.log" 2>&1; then
	tap_ok "make uninstall DESTDIR=... succeeds"
else
	tap_fail "make uninstall DESTDIR=... succeeds"
	tap_diag "$(tail -n 20 "$work/uninstall.log")"
fi
nothing_left() {
	local left
	left=$(find "$d" ! -type d)
	[ -z "$left" ] || { echo "left behind: $left"; return 1; }
}
tap_check "make uninstall leaves no file or link in the DESTDIR" nothing_left

# --- PREFIX=/usr, Debian's multiarch LIBDIR --------------------------------
m=$(mktemp -d "$work/multi.XXXXXX")
ma=$(gcc -print-multiarch 2>/dev/null)
ma=${ma:-x86_64-linux-gnu}
multiarch() {
	make -s -C "$top" install DESTDIR="$m" PREFIX=/usr LIBDIR=/usr/lib/"$ma" >/dev/null 2>&1 ||
		{ echo "install failed"; return 1; }
	[ -f "$m/usr/lib/$ma/libarc4.so.$version" ] && [ -f "$m/usr/lib/$ma/pkgconfig/arc4.pc" ] &&
		[ -f "$m/usr/include/linux/arc4.h" ] && [ -f "$m/usr/share/man/man3/arc4random.3" ] ||
		{ echo "files not under /usr"; return 1; }
	[ "$(PKG_CONFIG_LIBDIR=$m/usr/lib/$ma/pkgconfig pkg-config --variable=libdir arc4)" = "/usr/lib/$ma" ] &&
		[ "$(PKG_CONFIG_LIBDIR=$m/usr/lib/$ma/pkgconfig pkg-config --variable=prefix arc4)" = /usr ] ||
		{ cat "$m/usr/lib/$ma/pkgconfig/arc4.pc"; return 1; }
	make -s -C "$top" uninstall DESTDIR="$m" PREFIX=/usr LIBDIR=/usr/lib/"$ma" >/dev/null 2>&1 &&
		[ -z "$(find "$m" ! -type d)" ] || { echo "uninstall left: $(find "$m" ! -type d)"; return 1; }
}
tap_check "PREFIX=/usr LIBDIR=/usr/lib/$ma: paths and arc4.pc follow; uninstall cleans" multiarch

# --- depmod for a DESTDIR that holds a module tree (chroot, image) ----------
s=$(mktemp -d "$work/sysroot.XXXXXX")
sysroot_depmod() {
	mkdir -p "$s/lib/modules/$kver"
	cp "/lib/modules/$kver/modules.order" "/lib/modules/$kver/modules.builtin" \
		"$s/lib/modules/$kver/" 2>/dev/null || : >"$s/lib/modules/$kver/modules.order"
	make -s -C "$top" install-module DESTDIR="$s" >/dev/null 2>&1 || { echo "install-module failed"; return 1; }
	grep -q '^extra/arc4dev.ko:' "$s/lib/modules/$kver/modules.dep" ||
		{ echo "modules.dep: $(cat "$s/lib/modules/$kver/modules.dep" 2>&1)"; return 1; }
	make -s -C "$top" uninstall-module DESTDIR="$s" >/dev/null 2>&1 &&
		! grep -q arc4dev "$s/lib/modules/$kver/modules.dep" || { echo "uninstall kept it in modules.dep"; return 1; }
}
tap_check "into a tree with modules.order, depmod runs there: modules.dep lists extra/arc4dev.ko" sysroot_depmod

# --- DKMS sources ---------------------------------------------------------
dkms_version_matches() {
	[ "$(sed -n 's/^PACKAGE_VERSION="\(.*\)"/\1/p' dkms.conf)" = "$version" ] &&
		[ "$(sed -n 's/^PACKAGE_NAME="\(.*\)"/\1/p' dkms.conf)" = arc4 ]
}
tap_check "dkms.conf: PACKAGE_NAME arc4, PACKAGE_VERSION $version as lib/Makefile" dkms_version_matches

src=$d/usr/src/arc4-$version
dkms_tree_installed() {
	make -s -C "$top" install-dkms DESTDIR="$d" >/dev/null 2>&1 || return 1
	[ -f "$src/dkms.conf" ] && [ -f "$src/Kbuild" ] && [ -f "$src/kmod/Kbuild" ] &&
		[ -f "$src/include/uapi/linux/arc4.h" ] && [ -f "$src/kmod/main.c" ] ||
		{ find "$src"; return 1; }
	# Only sources: dkms copies this tree for every kernel.
	[ -z "$(find "$src" -name '*.o' -o -name '*.ko' -o -name build -o -name lib)" ]
}
tap_check "make install-dkms puts dkms.conf and only the module's sources in /usr/src/arc4-$version" dkms_tree_installed

# What dkms.conf's MAKE[0] runs, with dkms's variables filled in.
dkms_tree_builds() {
	local kdir=${KDIR:-/lib/modules/$kver/build} cmd
	cmd=$(sed -n 's/^MAKE\[0\]="\(.*\)"$/\1/p' dkms.conf)
	cmd=${cmd//\$\{kernel_source_dir\}/$kdir}
	cmd=${cmd//\$\{dkms_tree\}\/\$\{PACKAGE_NAME\}\/\$\{PACKAGE_VERSION\}\/build/$src}
	$cmd >"$work/dkms-make.log" 2>&1 || { tail -n 20 "$work/dkms-make.log"; return 1; }
	[ -f "$src/$(sed -n 's/^BUILT_MODULE_LOCATION\[0\]="\(.*\)"/\1/p' dkms.conf)/arc4dev.ko" ]
}
tap_check "the DKMS source tree builds arc4dev.ko alone with dkms.conf's MAKE[0]" dkms_tree_builds

exclusive_regex() {
	local re k
	re=$(sed -n 's/^BUILD_EXCLUSIVE_KERNEL="\(.*\)"/\1/p' dkms.conf)
	for k in 5.9.0 5.10.0-28-amd64 6.1.0-57-amd64 6.12.9 10.0.1; do
		[[ $k =~ $re ]] || { echo "$k refused"; return 1; }
	done
	for k in 4.19.0-26-amd64 5.8.18 5.4.0; do
		[[ $k =~ $re ]] && { echo "$k accepted"; return 1; }
	done
	return 0
}
tap_check "BUILD_EXCLUSIVE_KERNEL accepts 5.9 and later, refuses older kernels" exclusive_regex

dkms_tree_removed() {
	make -s -C "$top" uninstall-dkms DESTDIR="$d" >/dev/null 2>&1 && [ ! -e "$src" ]
}
tap_check "make uninstall-dkms removes the source tree" dkms_tree_removed

# --- the opt-in modules-load.d entry ---------------------------------------
conf=$d/etc/modules-load.d/arc4dev.conf
autoload_format() {
	# modules-load.d(5): one module name a line, # comments.
	[ "$(grep -vE '^[[:space:]]*(#|;|$)' packaging/arc4dev.conf)" = arc4dev ]
}
tap_check "packaging/arc4dev.conf names arc4dev and nothing else" autoload_format
not_by_default() {
	make -s -C "$top" install DESTDIR="$d" >/dev/null 2>&1 &&
		[ ! -e "$conf" ] && [ -z "$(find "$d" -path '*modules-load.d*' ! -type d)" ]
}
tap_check "make install does not enable loading at boot" not_by_default
autoload_installs() {
	make -s -C "$top" install-autoload DESTDIR="$d" >/dev/null 2>&1 && cmp -s packaging/arc4dev.conf "$conf"
}
tap_check "make install-autoload installs /etc/modules-load.d/arc4dev.conf" autoload_installs
autoload_uninstalls() {
	make -s -C "$top" uninstall DESTDIR="$d" >/dev/null 2>&1 && [ ! -e "$conf" ] &&
		[ -z "$(find "$d" ! -type d)" ]
}
tap_check "make uninstall removes it with the rest" autoload_uninstalls
edited_kept() {
	make -s -C "$top" install-autoload DESTDIR="$d" >/dev/null 2>&1 &&
		echo "# local note" >>"$conf" &&
		make -s -C "$top" uninstall-autoload DESTDIR="$d" >/dev/null 2>&1 && [ -e "$conf" ]
}
tap_check "an edited modules-load.d entry is left in place" edited_kept

# --- the policy file ---------------------------------------------------------
policy=$d/etc/arc4/legacy.conf
policy_installed() {
	rm -rf "$d"/etc
	make -s -C "$top" install-policy DESTDIR="$d" >/dev/null 2>&1 &&
		cmp -s packaging/legacy.conf "$policy" &&
		[ "$(stat -c '%a %u' "$policy" "${policy%/*}" | paste -sd' ')" = "644 0 755 0" ] &&
		[ -z "$(grep -vE '^[[:space:]]*(#|$)' "$policy")" ]
}
tap_check "the policy file: only comments, 0644 in a 0755 directory (root's when installed by root)" policy_installed
policy_not_overwritten() {
	echo /usr/bin/mawk >>"$policy" &&
		make -s -C "$top" install DESTDIR="$d" >/dev/null 2>&1 &&
		[ "$(tail -n1 "$policy")" = /usr/bin/mawk ]
}
tap_check "make install keeps an existing policy file" policy_not_overwritten
policy_edited_kept() {
	make -s -C "$top" uninstall DESTDIR="$d" >/dev/null 2>&1 && [ -e "$policy" ] &&
		[ "$(find "$d" ! -type d)" = "$policy" ] && rm -f "$policy"
}
tap_check "make uninstall leaves an edited policy file, and only it" policy_edited_kept

host_untouched() {
	local after
	after=$(sha1sum "$host_moddep" 2>/dev/null; ls /usr/local/lib/libarc4* /usr/local/include/arc4random.h /usr/local/bin/arc4-audit /etc/arc4 2>/dev/null)
	[ "$after" = "$host_before" ]
}
tap_check "the host's modules.dep and /usr/local are as before" host_untouched

tap_done
