#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# classify.sh: arc4-audit classifies every seed pattern of seeds.c, as
# built by the Makefile with gcc and clang, -m64 and -m32, -O0/-O2/-Os,
# PIE and not, the way the program was written (the table below is read
# off seeds.c, not off the tool); the address it reports is a call of the
# seeder in objdump's disassembly; --json, --policy, --jobs, the table,
# a shared library, a foreign architecture and the options behave as
# arc4-audit(1) says.  Prints TAP.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 1
. selftests/install/tap.sh

audit=$top/build/tools/arc4-audit
b=$top/build/selftests/audit
work=$(mktemp -d "$b/classify.XXXXXX")
trap 'rm -rf "$work"' EXIT

# pattern: verdict, seeder, class, value (constant) or origin (entropy and
# unknown; a substring), as seeds.c writes them.
declare -A want=(
	[constant]="needs-deterministic srand constant 12345"
	[zero]="needs-deterministic srandom constant 0"
	[time]="strong-ok srand entropy time"
	[pid]="strong-ok srandom entropy getpid"
	[time_pid]="strong-ok srand entropy time+getpid"
	[gettimeofday]="strong-ok srand entropy gettimeofday"
	[clock_gettime]="strong-ok srandom entropy clock_gettime"
	[urandom]="strong-ok srand entropy urandom"
	[uid_pid]="strong-ok srand entropy getpid"
	[argument]="review srand unknown result"
	[parameter]="review srandom unknown parameter"
	[pointer]="review srand unknown no direct call"
	[srand48_const]="needs-deterministic srand48 constant 42"
	[seed48_const]="needs-deterministic seed48 constant $((1 + (2 << 16) + (3 << 32)))"
	[initstate_time]="strong-ok initstate entropy time"
	[unseeded]="unseeded - - -"
)

seeds=("$b"/seeds/*)
if [ ! -x "$audit" ] || [ ${#seeds[@]} -lt 100 ]; then
	tap_plan 1
	tap_fail "arc4-audit and the seed programs are built (make)"
	exit 1
fi
tap_plan $((${#seeds[@]} + 13))

"$audit" --json -j 2 "$b/seeds" >"$work/seeds.json" 2>"$work/err"
rc=$?

# One line a file: path, verdict, number of seeds, the first seed's
# function, class, value, origin and address.
declare -A row
while IFS=$'\t' read -r path rest; do
	row[$path]=$rest
done < <(jq -r '.files[] | [.path, .verdict, (.seeds | length),
	(.seeds[0] // {} | .function, .class, .value, .origin, .address)] |
	map(. // "null" | tostring) | @tsv' "$work/seeds.json")

# check FILE: the file's entry against the table.
check() {
	local f=$1 name pattern verdict fn class what
	local got n gfn gclass gvalue gorigin addr line
	name=${f##*/}
	pattern=${name%%-*}
	read -r verdict fn class what <<<"${want[$pattern]}"
	[ -n "${row[$f]:-}" ] || { echo "not in the report"; return 1; }
	IFS=$'\t' read -r got n gfn gclass gvalue gorigin addr <<<"${row[$f]}"
	[ "$got" = "$verdict" ] || { echo "verdict $got, want $verdict: ${row[$f]}"; return 1; }
	if [ "$pattern" = unseeded ]; then
		[ "$n" = 0 ] || { echo "seeds: ${row[$f]}"; return 1; }
		return 0
	fi
	[ "$n" = 1 ] && [ "$gfn" = "$fn" ] && [ "$gclass" = "$class" ] ||
		{ echo "want one $fn seed, $class: ${row[$f]}"; return 1; }
	case $class in
	constant) [ "$gvalue" = "$what" ] || { echo "value: ${row[$f]}"; return 1; } ;;
	*) [[ $gorigin == *"$what"* ]] || { echo "origin: ${row[$f]}"; return 1; } ;;
	esac
	if [ "$pattern" = pointer ]; then
		[ "$addr" = null ] || { echo "address: ${row[$f]}"; return 1; }
		return 0
	fi
	# objdump, not arc4-audit, says what is at that address.
	printf -v addr '%x' "$addr"
	line=$(objdump -d --no-show-raw-insn --start-address=0x$addr \
		--stop-address=$((0x$addr + 16)) "$f" | grep -E "^ +$addr:")
	grep -qE "(call|jmp).*<$fn@plt>" <<<"$line" || { echo "objdump at $addr: $line"; return 1; }
}

for f in "${seeds[@]}"; do
	n=${f##*/}
	tap_check "$n: ${want[${n%%-*}]}" check "$f"
done

tap_check "--json exits 0, nothing on stderr" test "$rc" = 0 -a ! -s "$work/err"

summary_adds_up() {
	local j=$work/seeds.json v n
	for v in needs-deterministic review strong-ok unseeded; do
		n=$(jq --arg v "$v" '[.files[] | select(.verdict == $v)] | length' "$j")
		[ "$n" = "$(jq --arg k "${v//-/_}" '.summary[$k]' "$j")" ] || { echo "$v: $n"; return 1; }
	done
	[ "$(jq '.summary.use_families' "$j")" = "${#seeds[@]}" ] &&
		[ "$(jq '.summary.elf' "$j")" = "${#seeds[@]}" ]
}
tap_check "the summary counts what the files list" summary_adds_up

policy_lists_constants() {
	local want got
	want=$(for f in "${seeds[@]}"; do
		case ${f##*/} in constant-* | zero-* | srand48_const-* | seed48_const-*) realpath "$f" ;; esac
	done | sort)
	got=$("$audit" --policy "$b/seeds" "$b/libseed.so" | grep -v '^#' | sort)
	[ "$got" = "$want" ] || { diff <(echo "$want") <(echo "$got"); return 1; }
	"$audit" --policy "$b/libseed.so" | grep -q "^# $b/libseed.so (a library)" ||
		{ echo "library not a comment"; return 1; }
}
tap_check "--policy lists exactly the constant-seeding executables, a library as a comment" policy_lists_constants

library_verdict() {
	"$audit" --json "$b/libseed.so" | jq -e '.files[0] | .verdict == "needs-deterministic"
		and .executable == false and .seeds[0].value == 2024' >/dev/null
}
tap_check "a shared library seeding srandom(2024) is needs-deterministic, not executable" library_verdict

foreign_listed() {
	local f=$work/foreign
	cp "$b/seeds/constant-gcc-m64-O2-pie" "$f"
	printf '\xb7\x00' | dd of="$f" bs=1 seek=18 conv=notrunc status=none	# EM_AARCH64
	"$audit" --json "$f" | jq -e --arg f "$f" '(.files | length) == 0 and
		.not_analysed == [{"path": $f, "machine": "aarch64"}] and .summary.not_analysed == 1' >/dev/null &&
		"$audit" "$f" | grep -qE "aarch64 +$f"
}
tap_check "an ELF file of another architecture is listed as not analysed" foreign_listed

jobs_agree() {
	diff <("$audit" --json -j 1 "$b/seeds" | jq -S 'del(.summary.seconds, .summary.jobs)') \
		<("$audit" --json -j 3 "$b/seeds" | jq -S 'del(.summary.seconds, .summary.jobs)') >/dev/null
}
tap_check "--jobs 1 and --jobs 3 give the same report" jobs_agree

each_file_once() {
	mkdir -p "$work/tree/a" "$work/tree/b"
	ln "$b/seeds/time-gcc-m64-O2-pie" "$work/tree/a/one"
	ln "$b/seeds/time-gcc-m64-O2-pie" "$work/tree/b/two"
	ln -s "$b/seeds/zero-gcc-m64-O2-pie" "$work/tree/link"
	echo "not ELF, long enough to be looked at: ........................................" >"$work/tree/text"
	[ "$("$audit" --json "$work/tree" "$work/tree/a" | jq '.summary | [.files, .elf, .use_families]' -c)" = "[2,1,1]" ]
}
tap_check "hard links and overlapping paths count once; symlinks are not followed in a walk" each_file_once

table_reads() {
	local out
	out=$("$audit" "$b/seeds/constant-gcc-m64-O0-nopie" "$b/seeds/time-clang-m64-Os-pie")
	grep -qE "^needs-deterministic +$b/seeds/constant-gcc-m64-O0-nopie +- +rand,srand,random +srand@0x[0-9a-f]+ constant: 12345$" <<<"$out" &&
		grep -qE "^strong-ok +$b/seeds/time-clang-m64-Os-pie .* entropy: time$" <<<"$out" &&
		grep -qE "^ +2 use the rand families$" <<<"$out" &&
		grep -qE "^ +1 +with a constant \(needs-deterministic\)$" <<<"$out" ||
		{ echo "$out"; return 1; }
}
tap_check "the table: verdict, file, package, families, seeds; the summary" table_reads

help_and_usage() {
	"$audit" --help | grep -q '^Usage: arc4-audit' &&
		{ "$audit" --bogus >/dev/null 2>&1; [ $? = 2 ]; } &&
		{ "$audit" --json --policy . >/dev/null 2>&1; [ $? = 2 ]; } &&
		{ "$audit" --jobs 0 . >/dev/null 2>&1; [ $? = 2 ]; } &&
		{ "$audit" "$work/missing" >/dev/null 2>&1; [ $? = 1 ]; }
}
tap_check "--help; a bad option, --json with --policy, --jobs 0: status 2; a missing path: 1" help_and_usage

progress_on_a_terminal() {
	# script(1) gives the tool a terminal; the progress line goes to it.
	command -v script >/dev/null || { echo "no script(1)"; return 1; }
	script -qec "$audit -j 1 $b/seeds >/dev/null" /dev/null | tr '\r' '\n' |
		grep -qE '^arc4-audit: [0-9]+/[0-9]+ files, [0-9]+ use the rand families' ||
		return 1
	[ -z "$("$audit" "$b/seeds" 2>&1 >/dev/null)" ] || { echo "progress without a terminal"; return 1; }
}
tap_check "a progress line on a terminal, none otherwise" progress_on_a_terminal

dpkg_package_named() {
	# The real tree: /usr/bin/bash imports arc4random; Debian 12 lists it as /bin/bash.
	local p
	p=$("$audit" --json /usr/bin/bash | jq -r '.files[0].package')
	[ "$p" = bash ] || { echo "package $p"; return 1; }
}
tap_check "the Debian package of a file dpkg lists under merged /usr (/bin/bash)" dpkg_package_named

# 300 copies of two programs and the library with random bytes changed
# (perl's srand(13): the same files every run): headers, PLT, unwind
# table, code.  The tool may skip or misjudge them, never crash or hang.
corrupted_files_no_crash() {
	local dir=$work/corrupt rc
	mkdir -p "$dir"
	perl -e '
		srand(13);
		my ($dir, @src) = @ARGV;
		for my $n (0 .. 299) {
			my $f = $src[$n % @src];
			open(my $in, "<:raw", $f) or die; local $/; my $b = <$in>; close $in;
			my $flips = 1 + int(rand(64));
			for (1 .. $flips) {
				my $at = $n % 3 ? int(rand(length $b)) : int(rand(4096));
				substr($b, $at, 1) = chr(int(rand(256)));
			}
			open(my $out, ">:raw", "$dir/c$n") or die; print $out $b; close $out;
		}' "$dir" "$b/seeds/time_pid-gcc-m64-O2-pie" "$b/seeds/gettimeofday-clang-m32-O0-pie" "$b/libseed.so"
	timeout 120 "$audit" --json "$dir" >"$work/corrupt.json" 2>"$work/corrupt.err"
	rc=$?
	[ "$rc" -le 1 ] || { echo "exit status $rc"; tail -n 3 "$work/corrupt.err"; return 1; }
	jq -e '.summary.files == 300' "$work/corrupt.json" >/dev/null
}
tap_check "300 corrupted ELF files: no crash, no hang, valid JSON" corrupted_files_no_crash

tap_check "a file that imports no family is not listed" \
	bash -c "'$audit' --json /usr/bin/true | jq -e '(.files | length) == 0 and .summary.elf == 1' >/dev/null"

tap_done
