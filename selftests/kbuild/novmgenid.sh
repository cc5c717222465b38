#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# novmgenid.sh: arc4dev builds for a kernel without CONFIG_VMGENID, where
# <linux/random.h> has the vmfork notifier stubs of its own (compat.h must
# not define them again), and then references no vmfork symbol.  The
# kernel is the release's linux-source (6.1 on Debian 12), configured from
# x86_64 defconfig with VMGENID off and prepared for external modules
# (`make modules_prepare`, no kernel build), once, in
# build/kbuild/novmgenid/ (about 2 minutes).  Prints TAP.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 1
. selftests/install/tap.sh
. selftests/kbuild/sources.sh

tap_plan 3
tarball=$(scripts/kernel-src --tarball) || { tap_fail "linux-source is installed"; exit 1; }
# What `make modules_prepare` needs beyond the module build's packages.
if ! out=$(scripts/deps-install flex bison bc libelf-dev 2>&1); then
	tap_fail "flex, bison, bc and libelf-dev are installed"
	tap_diag "$out"
	exit 1
fi
work=$top/build/kbuild/novmgenid
src=$work/linux
stamp=$work/.prepared
mkdir -p "$work"
if [ ! -e "$stamp" ] || [ "$(cat "$stamp")" != "$tarball" ]; then
	rm -rf "$src" "$stamp"
	mkdir -p "$src"
	log=$work/prepare.log
	if ! {
		tar -C "$src" --strip-components=1 -xf "$tarball" &&
			make -C "$src" x86_64_defconfig &&
			"$src/scripts/config" --file "$src/.config" -d VMGENID -e MODULES &&
			make -C "$src" olddefconfig &&
			nice make -C "$src" -j"$(nproc)" modules_prepare
	} >"$log" 2>&1; then
		tap_fail "a $(basename "$tarball") tree without CONFIG_VMGENID is prepared"
		tap_diag "$(tail -n 20 "$log")"
		exit 1
	fi
	echo "$tarball" >"$stamp"
fi
if grep -q '^CONFIG_VMGENID=' "$src/.config"; then
	tap_fail "the configuration has CONFIG_VMGENID unset"
else
	tap_ok "the configuration has CONFIG_VMGENID unset ($(make -s -C "$src" kernelversion))"
fi

mod=$work/arc4
module_sources "$mod" || exit 1
# No Module.symvers for an unbuilt kernel: modpost warns of every symbol.
if out=$(make -C "$src" M="$mod" W=1 KCFLAGS=-Werror KBUILD_MODPOST_WARN=1 \
	modules 2>&1) && [ -e "$mod/kmod/arc4dev.ko" ]; then
	tap_ok "arc4dev builds with W=1 -Werror"
else
	tap_fail "arc4dev builds with W=1 -Werror"
	tap_diag "$(echo "$out" | grep -E 'error|warning' | head -n 20)"
	tap_done
	exit
fi
syms=$(nm -u "$mod/kmod/arc4dev.ko" | grep -i vmfork)
if [ -z "$syms" ]; then
	tap_ok "it references no vmfork notifier symbol"
else
	tap_fail "it references no vmfork notifier symbol"
	tap_diag "$syms"
fi
tap_done
