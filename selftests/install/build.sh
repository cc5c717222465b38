#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# build.sh: the top-level build's promises to a newcomer.  `make lib` and
# `make -C lib` build the shim with a C compiler and nothing else: in a
# copy of the tree whose `make deps` step fails, with a PATH that holds the
# toolchain and a few basic commands but no QEMU, kernel or package tools.
# Prints TAP.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 1
. selftests/install/tap.sh

work=$top/build/selftests/build
rm -rf "$work"
mkdir -p "$work/tree" "$work/bin"
trap 'rm -rf "$work"' EXIT

tap_plan 2

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
tap_done
