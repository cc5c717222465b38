#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# build.sh: the top-level build's promises to a newcomer.  `make lib` and
# `make -C lib` build the shim with a C compiler and nothing else: in a
# copy of the tree whose `make deps` step fails, with a PATH that holds the
# toolchain and a few basic commands but no QEMU, kernel or package tools.
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

tap_plan 3

# The tree as a clean clone has it (tracked and new files, not build/).
if git rev-parse --git-dir >/dev/null 2>&1; then
	git ls-files -z --cached --others --exclude-standard
else
	find . -path ./build -prune -o -type f -print0
fi | tar --null -T - -cf - | tar -C "$work/tree" -xf -

# What pulls in QEMU, kernel images and sources, made to fail loudly.
for s in deps-install kernel-src kver; do
	printf '#!/bin/sh\necho "build.sh: %s called" >&2\nexit 1\n' "$s" \
		>"$work/tree/scripts/$s"
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
