#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# chacha-state.sh: arc4dev builds for a kernel whose ChaCha library takes a
# struct chacha_state, as upstream's does from 6.16 on, while its version
# says older: a distribution kernel with that change backported.  Kbuild
# must find the struct in the headers, not go by the version number.  The
# kernel is a copy of the installed headers (Debian 12's 6.1) in
# build/kbuild/chacha-state/, whose crypto/chacha.h is rewritten to the
# struct's signatures.  Prints TAP.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 1
. selftests/install/tap.sh
. selftests/kbuild/sources.sh

tap_plan 4
kver=$(scripts/kver) || { tap_fail "kernel headers are installed"; exit 1; }
arch=$(readlink -f "/lib/modules/$kver/build")
common=$(sed -n 's/^include \(.*\)\/Makefile$/\1/p' "$arch/Makefile")
if [ ! -d "$arch/include" ] || [ ! -e "$common/include/crypto/chacha.h" ]; then
	tap_fail "the headers of $kver are installed (make rig-vm)"
	exit 1
fi
work=$top/build/kbuild/chacha-state
rm -rf "$work"
mkdir -p "$work"
cp -a "$arch" "$work/arch" && cp -a "$common" "$work/common" || exit 1
# Debian's split headers point at each other and at linux-kbuild by path.
sed -i "s|^include .*/Makefile$|include $work/common/Makefile|" "$work/arch/Makefile"
for link in $(find "$work" -type l); do
	rel=${link#"$work/"}
	case $rel in
	arch/*) orig=$arch/${rel#arch/} ;;
	*) orig=$common/${rel#common/} ;;
	esac
	ln -sfn "$(readlink -f "$orig")" "$link"
done

# The 6.16 shape: the state is a struct chacha_state { u32 x[16]; } and
# every function of the library takes a pointer to it.
h=$work/common/include/crypto/chacha.h
sed -i -e 's/\bu32 \*state\b/struct chacha_state *state/g' \
	-e 's/\bstate\[\([0-9]*\)\]/state->x[\1]/g' \
	-e '/^#define CHACHA_STATE_WORDS/a\
\
struct chacha_state {\
	u32 x[CHACHA_STATE_WORDS];\
};' "$h"
if grep -q '^struct chacha_state {' "$h" && ! grep -q 'u32 \*state' "$h" &&
	grep -q 'chacha20_block(struct chacha_state \*state' "$h"; then
	tap_ok "the copy's crypto/chacha.h takes struct chacha_state ($kver)"
else
	tap_fail "the copy's crypto/chacha.h takes struct chacha_state ($kver)"
	tap_diag "$(grep -n 'state' "$h" | head -n 20)"
	tap_done
	exit
fi

mod=$work/arc4
module_sources "$mod" || exit 1
out=$(make -C "$work/arch" M="$mod" W=1 KCFLAGS=-Werror modules 2>&1)
if [ $? -eq 0 ] && [ -e "$mod/kmod/arc4dev.ko" ]; then
	tap_ok "arc4dev builds with W=1 -Werror"
else
	tap_fail "arc4dev builds with W=1 -Werror"
	tap_diag "$(echo "$out" | grep -E 'error|warning|\*\*\*' | head -n 20)"
	tap_done
	exit
fi
warnings=$(echo "$out" | grep -c 'warning:')
if [ "$warnings" -eq 0 ]; then
	tap_ok "the build prints no warning"
else
	tap_fail "the build prints no warning"
	tap_diag "$(echo "$out" | grep 'warning:' | head -n 10)"
fi
# The probe, not a version check, chose the struct: the flag is on the
# compiler's command line for the stream's code.
if grep -q -- '-DARC4_HAVE_CHACHA_STATE' "$mod/kmod/.stream.o.cmd"; then
	tap_ok "Kbuild's probe found struct chacha_state"
else
	tap_fail "Kbuild's probe found struct chacha_state"
fi
tap_done
