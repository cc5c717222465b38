#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# build.sh: the top-level build's promises to a newcomer.  `make lib` and
# `make -C lib` build the shim with a C compiler and nothing else: in a
# copy of the tree whose installing scripts fail, with a PATH that holds the
# toolchain and a few basic commands but no QEMU, kernel or package tools.
# `make -n` of the default target, module, lib, tools, install and deb runs
# no apt-get and none of the scripts that install the rig, and the default
# target builds no test program; a missing kernel tree, libelf.h or
# capstone.h stops the build with a message naming the Debian package
# (headers hidden from a compiler that sees every other one).
# `make help` has a line for every target of the Makefile and mk/*.mk: each
# with a recipe there, and each declared .PHONY there.  Prints TAP.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 1
. selftests/install/tap.sh

work=$top/build/selftests/build
rm -rf "$work"
mkdir -p "$work/tree" "$work/bin"
trap 'rm -rf "$work"' EXIT

tap_plan 7

# The tree as a clean clone has it (tracked and new files, not build/).
if git rev-parse --git-dir >/dev/null 2>&1; then
	git ls-files -z --cached --others --exclude-standard
else
	find . -path ./build -prune -o -type f -print0
fi | tar --null -T - -cf - | tar -C "$work/tree" -xf -

# What pulls in QEMU, kernel images and sources, made to fail loudly; the
# installers (and apt-get, apt on PATH) also say so in $work/called.
for s in deps-install kernel-src kver apt-get apt; do
	f=$work/tree/scripts/$s
	case $s in apt*) mkdir -p "$work/stub" && f=$work/stub/$s ;; esac
	printf '#!/bin/sh\necho "build.sh: %s called" >&2\n' "$s" >"$f"
	[ "$s" = kver ] || printf 'echo "%s $*" >>"%s"\n' "$s" "$work/called" >>"$f"
	echo 'exit 1' >>"$f"
	chmod +x "$f"
done
for c in make cc gcc as ld ar sh bash sed cat echo ln rm mkdir cmp uname; do
	p=$(command -v "$c") && ln -s "$p" "$work/bin/$c"
done

# build_lib ARGS...: make ARGS in the copy with that PATH; libarc4 appears.
build_lib() {
	rm -f "$work"/tree/lib/libarc4.so* "$work"/tree/lib/libarc4.a
	env -i HOME="$work" PATH="$work/bin" make -C "$work/tree" "$@" &&
		[ -e "$work/tree/lib/libarc4.so.1" ] &&
		[ -e "$work/tree/lib/libarc4.a" ]
}

tap_check "make lib needs a C compiler only (no make deps, no QEMU)" build_lib lib
tap_check "make -C lib needs a C compiler only" build_lib -C lib

# A kernel build tree that builds nothing: what make -n needs to get past
# the module's recipes.
kdir=$work/kdir
mkdir -p "$kdir/include/generated"
printf 'modules clean:\n\t@:\n' >"$kdir/Makefile"
echo '#define UTS_RELEASE "1.2.3-arc4test"' >"$kdir/include/generated/utsrelease.h"

# dry_run TARGET...: make -n -k of each with the stubs first on PATH; none
# is called and no command line starts with one.
dry_run() {
	local t out bad=()
	: >"$work/called"
	for t in "$@"; do
		if ! out=$(PATH="$work/stub:$PATH" make -n -k -C "$work/tree" KDIR="$kdir" $t 2>&1); then
			bad+=("make -n $t failed: $(echo "$out" | tail -n 3)")
		fi
		if echo "$out" | grep -En '^[@-]*[^ ]*(deps-install|kernel-src|apt-get|apt)( |$)' >&2; then
			bad+=("make -n $t would run an installer")
		fi
	done
	if [ -s "$work/called" ]; then
		bad+=("called: $(cat "$work/called")")
	fi
	[ ${#bad[@]} -eq 0 ] || { printf '%s\n' "${bad[@]}"; return 1; }
}
tap_check "make -n of the default target, module, lib, tools, install, deb installs nothing" \
	dry_run "" module lib tools install deb

# The default target: the module, the shim, the tools; no test program.
default_is_product() {
	local out
	out=$(make -n -C "$work/tree" KDIR="$kdir" 2>&1)
	grep -q arc4-audit <<<"$out" && grep -q libarc4.so.1 <<<"$out" &&
		grep -q "make -C $kdir .*modules" <<<"$out" ||
		{ echo "make -n does not build the module, the shim and the tools:"; echo "$out" | tail; return 1; }
	! echo "$out" | sed "s|$work||g" | grep -E '(^|[ /])selftests/|kselftest|kernel-src' ||
		{ echo "the default target builds tests"; return 1; }
}
tap_check "the default target builds the module, the shim and the tools, no test program" default_is_product

# says TEXT CMD...: CMD fails and its output has the line TEXT.
says() {
	local want=$1 out
	shift
	if out=$("$@" 2>&1); then
		echo "$* succeeded"; return 1
	fi
	grep -qxF "$want" <<<"$out" || { echo "$*: no line '$want' in:"; echo "$out" | tail -n 5; return 1; }
}
no_kernel() {
	local r
	r=$(uname -r)
	says "arc4: no kernel headers for 1.2.3-arc4gone in KDIR=/lib/modules/1.2.3-arc4gone/build: apt-get install linux-headers-1.2.3-arc4gone (or set KDIR to a kernel build tree)" \
		make -s -C "$work/tree" module KDIR=/lib/modules/1.2.3-arc4gone/build &&
		says "arc4: no kernel headers for $r: apt-get install linux-headers-$r (or set KDIR to a kernel build tree)" \
			make -s -C "$work/tree" install KDIR= DESTDIR="$work/dest" &&
		says "arc4: KDIR=$work/none is not a kernel build tree" \
			make -s -C "$work/tree" module KDIR="$work/none"
}
tap_check "no kernel headers: make module and make install name linux-headers-RELEASE" no_kernel

# A compiler that sees every system header but those $work/inc-NAME hides.
hide() {
	local name=$1 f
	shift
	mkdir -p "$work/inc-$name"
	for f in /usr/include/*; do
		case " $* " in *" ${f#/usr/include/} "*) continue ;; esac
		ln -s "$f" "$work/inc-$name/"
	done
	printf '#!/bin/sh\nexec gcc -nostdinc -isystem %s -isystem %s -isystem %s "$@"\n' \
		"$(gcc -print-file-name=include)" "$work/inc-$name" \
		"/usr/include/$(gcc -print-multiarch)" >"$work/cc-$name"
	chmod +x "$work/cc-$name"
}
no_headers() {
	hide none && hide elf libelf.h gelf.h && hide capstone capstone
	make -s -C "$work/tree/tools/audit" headers CC="$work/cc-none" ||
		{ echo "the control (nothing hidden) fails"; return 1; }
	says "arc4: missing libelf.h: apt-get install libelf-dev" \
		make -s -C "$work/tree" tools CC="$work/cc-elf" &&
		says "arc4: missing capstone/capstone.h: apt-get install libcapstone-dev" \
			make -s -C "$work/tree" tools CC="$work/cc-capstone"
}
tap_check "no libelf.h or capstone.h: make tools names libelf-dev or libcapstone-dev" no_headers

# targets: what `make -qp` knows of the Makefile and mk/*.mk, one a line.
targets() {
	make -C "$work/tree" -qp 2>/dev/null | awk '
		/^# Files/ { f = 1 } /^# Finished Make data base/ { f = 0 }
		f && /^\.PHONY:/ { sub(/^\.PHONY: */, ""); n = split($0, p, " ");
			for (i = 1; i <= n; i++) print p[i]; next }
		f && /^[^#\t .%][^:=]*:([^=]|$)/ { t = $0; sub(/:.*/, "", t); next }
		f && /^#  recipe to execute \(from / {
			src = $0; sub(/^#  recipe to execute \(from ./, "", src)
			sub(/., line .*/, "", src)
			if (src == "Makefile" || src ~ /^mk\//) print t }' | sort -u
}

# every_target_has_help: NAME in a help line stands for any name there.
every_target_has_help() {
	local help t p missing=() n=0
	help=$(make -s -C "$work/tree" help | awk '/^  [^ ]/ { print $1 }')
	for t in $(targets); do
		n=$((n + 1))
		for p in $help; do
			# shellcheck disable=SC2053 # the glob is the point
			[[ $t == ${p//NAME/*} ]] && continue 2
		done
		missing+=("$t")
	done
	[ "$n" -gt 20 ] || { echo "make -qp gave only $n targets"; return 1; }
	[ ${#missing[@]} -eq 0 ] ||
		{ echo "no line in make help for: ${missing[*]}"; return 1; }
}

tap_check "make help has a line for every target of Makefile and mk/*.mk" \
	every_target_has_help
tap_done
