#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# stream-oracles.sh: arc4_stream through libarc4.so's exported API
# (build/selftests/shim/stream-dump) against two oracles built here at
# test time from Debian's packages, offline:
#   - Rust rand_chacha 0.3 (librust-rand-chacha-dev, cargo): at word
#     position w, next_u32(), next_u64() and fill_bytes() of
#     ChaCha20Rng::from_seed(key) after set_stream() and set_word_pos(w)
#     equal u32(), u64() and buf() after seek(4 w);
#   - libsodium (libsodium-dev): crypto_stream_chacha20 gives the bytes at
#     any position, crypto_core_hchacha20 with the constants
#     "arc4-split-key-1" the key of split()'s child;
#   - Python's cryptography (python3-cryptography): kat/gen.py writes
#     the known-answer files in selftests/shim/kat/ again, byte for byte.
# Random keys, streams and positions, 300 requests each.  Prints TAP.
#
# Release builds (build/dist/RELEASE) run the shim's host tests in that
# release's tree, which carries neither toolchain: this test runs on the
# host, whose `make test` installs both (scripts/deps-install).
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 1

# TAP, here (make test-sanitize runs this in a copy of lib/ and selftests/shim/).
n=0 failed=0 broken=0
ok() { n=$((n + 1)); echo "ok $n $1${2:+ # SKIP $2}"; }
check() {
	local desc=$1 out
	shift
	if [ "$broken" = 1 ]; then
		ok "$desc" "the oracles did not build"
	elif out=$("$@" 2>&1); then
		ok "$desc"
	else
		n=$((n + 1)) failed=1
		echo "not ok $n $desc"
		[ -z "$out" ] || sed 's/^/# /' <<<"$out"
		return 1
	fi
}

bdir=build/selftests/shim
dump=$bdir/stream-dump

skip_all() { echo "1..1"; ok "rand_chacha and libsodium oracles" "$1"; exit 0; }
[ -e .arc4-dist ] && skip_all "a release build: the oracles run on the host"
# Under valgrind (make test-sanitize) every child, cargo and rustc too,
# would run under it; the ASan and TSan builds run this test.
case ${LD_PRELOAD:-} in
*vgpreload*) skip_all "under valgrind: the sanitizer builds run it" ;;
esac
echo "1..5"

# The Rust crate is copied into build/ (cargo writes Cargo.lock beside
# it) with a source replacement that points crates.io at Debian's
# registry directory; CARGO_HOME in build/ keeps ~/.cargo out.  Debian's
# own cargo and rustc, whatever else PATH holds.
build_oracles() {
	local rs=$bdir/chacha-rs
	[ -x "$dump" ] || { echo "$dump missing: make selftests/shim"; return 1; }
	cc -O2 -Wall -Wextra -Werror -o "$bdir/stream-sodium" \
		selftests/shim/stream-sodium.c -lsodium || return 1
	rm -rf "$rs" && mkdir -p "$rs/.cargo" "$rs/home" &&
		cp -r selftests/shim/chacha-rs/Cargo.toml selftests/shim/chacha-rs/src "$rs/" || return 1
	cat > "$rs/.cargo/config.toml" <<-'CFG'
	[source.crates-io]
	replace-with = "debian"
	[source.debian]
	directory = "/usr/share/cargo/registry"
	[net]
	offline = true
	CFG
	(cd "$rs" && CARGO_HOME=$PWD/home RUSTC=/usr/bin/rustc \
		/usr/bin/cargo build --release --offline --quiet) || return 1
	[ -x "$rs/target/release/chacha-oracle" ]
}

# OP BITS: 300 request lines, the argument below 2^BITS (BITS < 64) or
# any 64-bit number (64), with edges: 0, the top, multiples of 256.  The
# randomness comes from one od call per kind (no process per line).
requests() {
	local op=$1 bits=$2 i arg stream top keys nums
	top=18446744073709551615
	[ "$bits" -lt 64 ] && top=$(( (1 << bits) - 1 ))
	mapfile -t keys < <(od -An -v -tx1 -w32 -N$((32 * 300)) /dev/urandom | tr -d ' ')
	mapfile -t nums < <(od -An -v -tu8 -w8 -N$((16 * 300)) /dev/urandom | tr -d ' ')
	for i in $(seq 0 299); do
		arg=${nums[2 * i]} stream=${nums[2 * i + 1]}
		[ "$bits" -lt 64 ] && arg=$(( arg & top ))
		case $((i % 10)) in
		0) arg=0 ;;
		1) arg=$top ;;
		2) [ "$bits" -lt 64 ] && arg=$(( arg & ~255 )) ;;
		esac
		[ $((i % 7)) = 0 ] && stream=0
		[ $((i % 7)) = 1 ] && stream=18446744073709551615
		echo "$op ${keys[i]} $stream $arg $((1 + i % 70))"
	done
}

# The known-answer files are what their generator writes now.
kat_again() {
	local out=$bdir/kat
	rm -rf "$out" && mkdir -p "$out" &&
		/usr/bin/python3 selftests/shim/kat/gen.py "$out" || return 1
	for f in a.txt b.txt split.txt; do
		cmp "$out/$f" "selftests/shim/kat/$f" || return 1
	done
}

# compare ORACLE OP BITS: the oracle's lines equal stream-dump's.
compare() {
	local oracle=$1 op=$2 bits=$3 req
	req=$(requests "$op" "$bits")
	diff <($oracle <<<"$req") <($dump <<<"$req") >/dev/null ||
		{ echo "$oracle and stream-dump differ on $op requests"; return 1; }
	[ "$(wc -l < <($dump <<<"$req"))" = 300 ] || { echo "stream-dump answered short"; return 1; }
}

check "build the oracles (cc -lsodium, cargo --offline)" build_oracles || broken=1
check "u32, u64, buf at word positions equal rand_chacha's ChaCha20Rng" \
	compare "$bdir/chacha-rs/target/release/chacha-oracle" words 61
check "buf at byte positions equals libsodium's crypto_stream_chacha20" \
	compare "$bdir/stream-sodium" bytes 62
check "split's child equals libsodium's crypto_core_hchacha20 key (arc4-split-key-1), stream 0" \
	compare "$bdir/stream-sodium" split 64
broken=0
check "the known-answer files equal kat/gen.py's (Python cryptography)" kat_again
exit "$failed"
