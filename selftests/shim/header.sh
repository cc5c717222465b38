#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# header.sh: <arc4random.h> is an installed header, so it must compile with
# every C compiler and libc that can include it, each with -Wall -Wextra
# -Werror.  A call of every function it declares compiles without an
# implicit declaration (the header declares what the libc does not), and
# -Wredundant-decls shows it does not declare again what the libc's
# <stdlib.h> already does (glibc 2.36 and later declare arc4random();
# C++ would reject a second declaration without glibc's exception
# specification).  With optimisation on, the inline arc4_stream_u32() and
# arc4_stream_u64() are compiled too (and with ARC4_NO_INLINE, the plain
# calls), and the exported functions stay reachable by address.  Compiles
# only: nothing here is linked.  Prints TAP.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 1
. selftests/install/tap.sh

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# C89 as far as the header goes: <stdint.h> is C99's, but every compiler
# here provides it in C89 mode too, and the header needs nothing else.
cat >"$work/use.c" <<'C'
#include <arc4random.h>

int main(void)
{
	unsigned char b[4];
	unsigned short x[3] = { 1, 2, 3 }, p[7] = { 1, 2, 3, 4, 5, 6, 7 };
	static const uint8_t key[32] = { 1 };
	arc4_stream *s = arc4_stream_new(key, 7), *c;

	arc4_stream_buf(s, b, sizeof(b));
	(void)arc4_stream_u32(s);
	(void)arc4_stream_u64(s);
	(void)arc4_stream_uniform(s, 6);
	(void)arc4_stream_double(s);
	{
		uint32_t u[2];
		uint64_t w[2];
		double d[2];
		uint32_t (*f32)(arc4_stream *) = arc4_stream_u32;
		uint64_t (*f64)(arc4_stream *) = arc4_stream_u64;

		arc4_stream_u32s(s, u, 2);
		arc4_stream_u64s(s, w, 2);
		arc4_stream_doubles(s, d, 2);
		(void)(f32(s) + (arc4_stream_u32)(s) + f64(s));
	}
	arc4_stream_seek(s, arc4_stream_tell(s));
	c = arc4_stream_split(s, 1);
	arc4_stream_free(c);
	arc4_stream_free(s);
	arc4random_buf(b, sizeof(b));
	srand_deterministic(1);
	srandom_deterministic(1);
	srandomdev();
	srand48_deterministic(1);
	(void)seed48_deterministic(x);
	lcong48_deterministic(p);
	return (int)((arc4random() + arc4random_uniform(6) + b[0]) & 1);
}
C
cp "$work/use.c" "$work/use.cc"

flags=(-Wall -Wextra -Werror -Wredundant-decls -Iinclude -c -o /dev/null)
# compiles CC ARG...: the test program compiles with CC and ARGs.
compiles() { "$@" "${flags[@]}" 2>&1; }

# name CC ARGS (a word list) FILE
cases=(
	"gcc|gcc -std=c89 -pedantic|use.c"
	"gcc|gcc -std=c99 -pedantic|use.c"
	"gcc|gcc -std=gnu11|use.c"
	"gcc|gcc -std=gnu11 -D_GNU_SOURCE|use.c"
	"clang|clang -std=c99 -pedantic|use.c"
	"clang|clang -std=gnu17|use.c"
	"g++|g++ -std=c++98 -pedantic|use.cc"
	"g++|g++ -std=c++17|use.cc"
	"musl-gcc|musl-gcc -std=c99 -pedantic|use.c"
	"musl-gcc|musl-gcc -std=gnu11|use.c"
	"gcc|gcc -std=c89 -pedantic -O2|use.c"
	"gcc|gcc -std=gnu11 -O2 -DARC4_NO_INLINE|use.c"
	"clang|clang -std=c99 -pedantic -O2|use.c"
	"g++|g++ -std=c++98 -pedantic -O2|use.cc"
	"musl-gcc|musl-gcc -std=c99 -pedantic -O2|use.c"
)
tap_plan ${#cases[@]}
for c in "${cases[@]}"; do
	IFS='|' read -r tool cmd file <<<"$c"
	if ! command -v "$tool" >/dev/null; then
		tap_skip "$cmd: the program using every declaration compiles" \
			"$tool is not installed in this root (scripts/deps-install installs it on the host; release trees have gcc and g++ only)"
		continue
	fi
	# shellcheck disable=SC2086 # cmd is a word list
	tap_check "$cmd: the program using every declaration compiles" \
		compiles $cmd "$work/$file"
done
tap_done
