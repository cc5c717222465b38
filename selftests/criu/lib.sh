# shellcheck shell=bash
# SPDX-License-Identifier: GPL-2.0
# lib.sh: what criu.sh and podman.sh check in the outputs of prog (one
# value a line, "KIND VALUE"), and their TAP step for commands that set
# the caller's variables.  Sourced after selftests/install/tap.sh; $work
# is the caller's scratch directory, $work/straight the output of an
# uninterrupted run (the oracle for the deterministic sequences).

# polls: how many 20 ms polls make a wait's 10 s; ARC4_TIME_SCALE times
# more where the rig runs the tests on its debug kernel (KASAN under TCG).
# (A whole number from 1 to 100, as selftests/harness_scale.h takes it;
# anything else counts as 1.)
polls() {
	local scale=${ARC4_TIME_SCALE:-1}
	[[ $scale =~ ^[0-9]+$ ]] && [ "$scale" -ge 1 ] && [ "$scale" -le 100 ] ||
		scale=1
	echo $((500 * 10#$scale))
}

# values FILE KIND...: the values of those lines, one a line.
values() {
	local f=$1
	shift
	grep -E "^($(IFS='|'; echo "$*")) " "$f" | cut -d' ' -f2
}

# no_shared A B KIND...: fails, printing them, if the two outputs share
# a value of those kinds (each at least 32).
no_shared() {
	local a=$1 b=$2 common
	shift 2
	common=$(comm -12 <(values "$a" "$@" | sort) <(values "$b" "$@" | sort))
	[ -z "$common" ] || { echo "shared:" $common; return 1; }
	[ "$(values "$a" "$@" | wc -l)" -ge 32 ] || { echo "short output"; return 1; }
}

# seeded_oracle: bytes 100 to 227 of prog's seeded stream, by OpenSSL: IV
# is the 64-bit block counter (0) then the nonce, little-endian.
seeded_oracle() {
	local key= i
	for i in $(seq 0 31); do key+=$(printf '%02x' $(((0x11 * i + 3) & 0xff))); done
	head -c 228 /dev/zero |
		openssl enc -chacha20 -K "$key" -iv 0000000000000000efcdab8967452301 |
		tail -c 128 | od -An -v -tx1 | tr -d ' \n'
}

continues() {
	local want
	want=$(seeded_oracle)
	[ "$(values "$1" seeded)" = "$want" ] || { echo "seeded: $(values "$1" seeded) != $want"; return 1; }
	[ "$(values "$1" det)" = "$(values "$work/straight" det)" ] ||
		{ echo "det: $(values "$1" det | tr '\n' ' ') != $(values "$work/straight" det | tr '\n' ' ')"; return 1; }
	[ "$(values "$1" det | wc -l)" -eq 16 ] || { echo "no det values"; return 1; }
}

moved() {
	local g0 ga gb
	g0=$(sed -n 's/^gen //p' "$work/straight")
	ga=$(sed -n 's/^gen //p' "$1") gb=$(sed -n 's/^gen //p' "$2")
	[ "$ga" != 0 ] && [ "$ga" != "$g0" ] && [ "$gb" != "$ga" ] && [ "$gb" != "$g0" ] ||
		{ echo "generation: before $g0, restores $ga and $gb"; return 1; }
}

# run DESC CMD...: tap_step for a command that must run in this shell
# (start and dump set and reap $pid).
run() {
	local desc=$1
	shift
	if [ "$tap_broken" = 1 ]; then
		tap_skip "$desc" "an earlier step failed"
	elif "$@" >"$work/run.out" 2>&1; then
		tap_ok "$desc"
	else
		tap_fail "$desc"
		tap_diag "$(cat "$work/run.out")"
		tap_broken=1
	fi
}
