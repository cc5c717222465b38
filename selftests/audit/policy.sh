#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# policy.sh: the policy file, $(SYSCONFDIR)/arc4/legacy.conf.  A program it
# lists gets glibc's rand() (the oracle: the same program without the
# shim); a program it does not list, or any program when the file is not
# root's alone, gets strong rand().  Runs a test build of the shim whose
# SYSCONFDIR is build/selftests/audit/policy/etc; the production library
# reads /etc, which this test never touches.  Prints TAP.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 1
. selftests/install/tap.sh

P=$top/build/selftests/audit/policy
lib=$P/libarc4.so.1
hook=$P/policy_hook.so
etc=$P/etc
conf=$etc/arc4/legacy.conf
work=$(mktemp -d "$top/build/selftests/audit/policy-test.XXXXXX")
chmod 755 "$work"
trap 'rm -rf "$work" "$etc"' EXIT

if [ ! -x "$P/prog" ] || [ ! -f "$lib" ] || [ ! -f "$hook" ]; then
	tap_plan 1
	tap_fail "the test shim and program are built (make)"
	exit 1
fi
tap_plan 34

prog=$work/prog
cp "$P/prog" "$prog"
glibc=$("$prog")	# glibc's own srand(1): the oracle

# policy MODE LINE...: write the file (root's, MODE) in a root-only directory.
policy() {
	local mode=$1
	shift
	rm -rf "$etc"
	mkdir -p "$etc/arc4"
	chmod 755 "$etc" "$etc/arc4"
	printf '%s\n' "$@" >"$conf"
	chmod "$mode" "$conf"
}
# PRELOAD: what goes before the test shim in LD_PRELOAD (policy_hook.so).
run() { LD_PRELOAD="${PRELOAD:+$PRELOAD }$lib" "$@" 2>"$work/stderr"; }
# legacy PROG...: glibc's sequence, errno kept, nothing on stderr.
legacy() {
	local out
	out=$(run "$@") || { echo "exit status"; return 1; }
	[ "$out" = "$glibc" ] || { echo "got '$out', glibc '$glibc'"; return 1; }
	[ ! -s "$work/stderr" ] || { echo "stderr: $(cat "$work/stderr")"; return 1; }
}
# strong PROG...: neither glibc's sequence nor a repeat.  (errno is not
# checked here: the shim suite checks the strong path's refill.)
strong() {
	local a b
	a=$(run "$@") && b=$(run "$@") || { echo "exit status"; return 1; }
	a=${a% errno-changed} b=${b% errno-changed}
	[ "$a" != "${glibc}" ] && [ "$a" != "$b" ] || { echo "replays: '$a' '$b' (glibc '$glibc')"; return 1; }
}

# The directory's name is a string of its own (it is opened first, the
# file from it); the file's is split up by the compiler.
production_path() {
	local prod test
	prod=$(strings "$top/lib/libarc4.so.1") test=$(strings "$lib")
	grep -qx /etc/arc4 <<<"$prod" && ! grep -q "$P" <<<"$prod" &&
		grep -qx "$etc/arc4" <<<"$test"
}
tap_check "the production shim reads /etc/arc4/legacy.conf, this test build $conf" production_path

rm -rf "$etc"
tap_check "no policy file: srand(1) is ignored, rand() strong" strong "$prog"

policy 644 "$prog"
tap_check "listed (root's, 0644): glibc's sequence, errno unchanged, nothing said" legacy "$prog"

policy 644 "# programs that replay" "" "/nonexistent/prog" "   $prog   # mine" "/usr/bin/other"
tap_check "comments, blank lines, blanks around the path; a missing file's line (errno kept)" legacy "$prog"

policy 644 "/usr/bin/true"
tap_check "another program listed: this one stays strong" strong "$prog"

ln -s "$prog" "$work/link"
policy 644 "$work/link"
tap_check "listed by a symbolic link to the program: the same file" legacy "$prog"

policy 644 "$prog"
tap_check "run through a symbolic link, the program listed: /proc/self/exe is resolved" legacy "$work/link"

ln "$prog" "$work/hardlink"
policy 644 "$work/hardlink"
tap_check "listed under another hard link: the same inode" legacy "$prog"

# The program is replaced (a package upgrade) after it started and before
# its first rand(): /proc/self/exe then ends in " (deleted)".
replaced() {
	local out
	policy 644 "$prog"
	mkfifo "$work/go"
	LD_PRELOAD=$lib "$prog" wait <"$work/go" >"$work/out" 2>"$work/stderr" &
	local pid=$!
	exec 9>"$work/go"
	sleep 0.2
	cp "$P/prog" "$prog.new" && mv -f "$prog.new" "$prog"
	echo go >&9
	exec 9>&-
	wait "$pid" || { echo "exit status"; return 1; }
	out=$(cat "$work/out")
	[ "$out" = "$glibc" ] || { echo "got '$out', glibc '$glibc'"; return 1; }
}
tap_check "the program file replaced while it runs: still listed by its path" replaced

policy 664 "$prog"
ignored_with_message() {
	strong "$prog" || return 1
	[ "$(grep -c "arc4: $conf: ignored" "$work/stderr")" = 1 ] || { cat "$work/stderr"; return 1; }
}
tap_check "group-writable: ignored, with one message" ignored_with_message

policy 646 "$prog"
tap_check "writable by others: ignored" ignored_with_message

policy 644 "$prog"
chmod 775 "$etc/arc4"
tap_check "its directory group-writable: ignored" ignored_with_message

# The file is opened from the directory that was checked, not through a
# symbolic link whose target's directory nobody checked.
symlink_elsewhere() {
	policy 644 "/usr/bin/true"
	mkdir -m 777 "$work/open"
	printf '%s\n' "$prog" >"$work/open/legacy.conf"
	chmod 644 "$work/open/legacy.conf"
	ln -sf "$work/open/legacy.conf" "$conf"
	strong "$prog" || return 1
	[ "$(grep -c "arc4: $conf: ignored: a symbolic link" "$work/stderr")" = 1 ] ||
		{ echo "stderr: $(cat "$work/stderr")"; return 1; }
}
tap_check "a symbolic link at the path (to a file in a world-writable directory): ignored, with one message" symlink_elsewhere

# swapped FIRST SECOND: the directory FIRST holds the policy file when it
# is opened; then (policy_hook.so) SECOND is renamed into its place.  Each
# is root's, mode 755 (trusted) or 775 (not), its file listing the program.
# Prints what the program printed.
swapped() {
	rm -rf "$etc"
	mkdir -p "$etc/arc4" "$etc/other"
	chmod 755 "$etc"
	chmod "$1" "$etc/arc4"
	chmod "$2" "$etc/other"
	printf '%s\n' "$prog" | tee "$conf" >"$etc/other/legacy.conf"
	chmod 644 "$conf" "$etc/other/legacy.conf"
	PRELOAD=$hook ARC4_HOOK_SWAP="$etc/arc4:$etc/other" run "$prog" ||
		{ echo "exit status"; return 1; }
	[ "$(stat -c %a "$etc/arc4")" = "$2" ] || { echo "the directories were not swapped"; return 1; }
}
# The file's own directory is untrusted, a trusted one renamed in after
# the open: ignored.  The converse: read.
swapped_in_trusted() {
	local a b
	a=$(swapped 775 755) && b=$(swapped 775 755) || { echo "$a"; return 1; }
	[ "$a" != "$glibc" ] && [ "$a" != "$b" ] || { echo "listed: '$a' '$b'"; return 1; }
	[ "$(grep -c "ignored: its directory is not root's alone" "$work/stderr")" = 1 ] ||
		{ echo "stderr: $(cat "$work/stderr")"; return 1; }
}
swapped_in_untrusted() {
	local out
	out=$(swapped 755 775) || { echo "$out"; return 1; }
	[ "$out" = "$glibc" ] || { echo "got '$out', glibc '$glibc'"; return 1; }
	[ ! -s "$work/stderr" ] || { echo "stderr: $(cat "$work/stderr")"; return 1; }
}
tap_check "opened from a group-writable directory, a trusted one renamed into place after: ignored" swapped_in_trusted
tap_check "opened from a trusted directory, a group-writable one renamed into place after: read" swapped_in_untrusted

# /proc/self/exe's target longer than the shim's buffer (policy_hook.so
# cuts it as the kernel would): a line naming the part that fits is not
# the program.
cut_short() {
	local long
	long=$work/$(head -c 5000 /dev/zero | tr '\0' x)
	policy 644 "${long:0:4095}"
	ARC4_HOOK_EXE=$long PRELOAD=$hook strong "$prog"
}
tap_check "the executable's path longer than the buffer: a line naming its first 4095 bytes does not match" cut_short

# The hook itself: a listed program is matched through it.
hook_passes() {
	policy 644 "$prog"
	PRELOAD=$hook legacy "$prog"
}
tap_check "policy_hook.so without its variables changes nothing: the listed program matched" hook_passes

not_root() {
	[ "$(id -u)" = 0 ] || { echo "SKIP"; return 0; }
	policy 644 "$prog"
	chown 65534 "$conf"
	ignored_with_message
}
if [ "$(id -u)" = 0 ]; then
	tap_check "owned by another user: ignored" not_root
else
	tap_skip "owned by another user: ignored" "not root: cannot make a root-owned file to compare"
fi

bad_lines() {
	local long
	long=/$(head -c 5000 /dev/zero | tr '\0' x)
	policy 644 "relative/path" "$long" "no-slash # with a comment" "$prog"
	legacy "$prog" 2>/dev/null
	run "$prog" >/dev/null
	[ "$(wc -l <"$work/stderr")" = 3 ] &&
		grep -q ":1: not an absolute path; line ignored" "$work/stderr" &&
		grep -q ":2: path too long; line ignored" "$work/stderr" &&
		grep -q ":3: not an absolute path; line ignored" "$work/stderr" ||
		{ echo "stderr: $(cut -c1-100 "$work/stderr")"; return 1; }
}
tap_check "bad lines: one message each, skipped; the good line still counts" bad_lines

many_bad_lines() {
	policy 644 $(seq 1 500) "$prog"
	[ "$(run "$prog")" = "$glibc" ] && [ "$(wc -l <"$work/stderr")" = 11 ] ||
		{ echo "$(wc -l <"$work/stderr") messages"; return 1; }
	grep -q ":10: not an absolute path" "$work/stderr" ||
		{ echo "no message names line 10: $(sed -n 10p "$work/stderr")"; return 1; }
}
tap_check "500 bad lines: ten messages and one that says there are more" many_bad_lines

# A message names its line by number, however many digits it has.
line_numbers() {
	local -a comments
	mapfile -t comments < <(seq -f '# comment %g' 1 320)
	policy 644 "${comments[@]}" relative "$prog"
	run "$prog" >/dev/null
	grep -q ":321: not an absolute path" "$work/stderr" ||
		{ echo "stderr: $(cat "$work/stderr")"; return 1; }
}
tap_check "a bad line's message names its number (line 321)" line_numbers

binary_junk() {
	rm -rf "$etc"
	mkdir -p "$etc/arc4"
	head -c 65536 /dev/urandom >"$conf"
	printf '\n%s\n' "$prog" >>"$conf"
	chmod 644 "$conf"
	[ "$(run "$prog")" = "$glibc" ]
}
tap_check "random bytes before the good line: no crash, still listed" binary_junk

fifo_no_hang() {
	rm -rf "$etc"
	mkdir -p "$etc/arc4"
	mkfifo "$conf"
	timeout 10 env LD_PRELOAD="$lib" "$prog" >/dev/null 2>&1 || { echo "hung or failed"; return 1; }
	strong "$prog"
}
tap_check "a FIFO at the path: not a hang, not a policy (strong rand())" fifo_no_hang

dir_at_path() {
	rm -rf "$etc"
	mkdir -p "$conf"
	chmod 755 "$etc" "$etc/arc4" "$conf"
	strong "$prog"
}
tap_check "a directory at the path: not a policy (strong rand())" dir_at_path

nul_byte() {
	rm -rf "$etc"
	mkdir -p "$etc/arc4"
	printf '/usr/bin/\0true\n%s\n' "$prog" >"$conf"
	chmod 644 "$conf"
	legacy "$prog" 2>/dev/null
	run "$prog" >/dev/null
	[ "$(wc -l <"$work/stderr")" = 1 ] &&
		grep -q ":1: a NUL byte in the line; line ignored" "$work/stderr" ||
		{ echo "stderr: $(cat -v "$work/stderr")"; return 1; }
}
tap_check "a NUL byte in a line: one message, the line skipped, the next one counts" nul_byte

too_large() {
	policy 644 "$prog"
	head -c 1048576 /dev/zero | tr '\0' '#' >>"$conf"
	ignored_with_message && grep -q "larger than 1 MiB" "$work/stderr"
}
tap_check "larger than 1 MiB: ignored, with one message" too_large

# The program closed descriptor 0: the policy file, opened as 0, moves up.
stdin_closed() {
	policy 644 "$prog"
	legacy "$prog" <&-
}
tap_check "stdin closed: the policy file is still read, the program listed" stdin_closed

# Nowhere to complain: the bad line is skipped all the same.
stderr_closed() {
	local out
	policy 644 "relative/path" "$prog"
	out=$(LD_PRELOAD=$lib "$prog" 2>&-) || { echo "exit status"; return 1; }
	[ "$out" = "$glibc" ] || { echo "got '$out', glibc '$glibc'"; return 1; }
}
tap_check "stderr closed: a bad line costs no message and no crash" stderr_closed

# A chroot without /proc: the running executable cannot be named, so no
# line can match it and rand() stays strong.
no_proc_run() {
	unshare -m sh -c 'mount -t tmpfs none /proc && exec env LD_PRELOAD="$1" "$2"' \
		sh "$lib" "$prog" 2>/dev/null
}
no_proc() {
	local a b
	policy 644 "$prog"
	a=$(no_proc_run) && b=$(no_proc_run) || { echo "cannot run"; return 1; }
	[ "$a" != "$glibc" ] && [ "$a" != "$b" ] || { echo "listed without /proc: '$a' '$b'"; return 1; }
}
if [ "$(id -u)" = 0 ] && command -v unshare >/dev/null &&
	unshare -m true 2>/dev/null; then
	tap_check "no /proc: the program cannot be matched, rand() strong" no_proc
else
	tap_skip "no /proc: the program cannot be matched, rand() strong" "needs root and unshare"
fi

read_once() {
	command -v strace >/dev/null || { echo "no strace"; return 1; }
	policy 644 "/usr/bin/true"
	LD_PRELOAD=$lib strace -f -e trace=openat,open -o "$work/strace" "$prog" >/dev/null 2>&1
	[ "$(grep -c "legacy.conf" "$work/strace")" = 1 ] || { grep legacy.conf "$work/strace"; return 1; }
}
tap_check "1003 calls open the policy file once" read_once

# closed_after MODE: the descriptor the policy file was opened on is closed
# again, whether the file was read (0644) or ignored (0664).
closed_after() {
	local fd
	policy "$1" "$prog"
	LD_PRELOAD=$lib strace -e trace=openat,open,close -o "$work/strace" "$prog" >/dev/null 2>&1
	fd=$(sed -n 's/.*legacy\.conf".* = \([0-9][0-9]*\)$/\1/p' "$work/strace" | head -1)
	[ -n "$fd" ] || { echo "mode $1: the policy file was not opened"; return 1; }
	sed -n "/legacy\.conf\".* = $fd\$/,\$p" "$work/strace" | grep -qE "^close\($fd\) += 0" ||
		{ echo "mode $1: descriptor $fd of the policy file left open"; return 1; }
}
closed() { closed_after 644 && closed_after 664; }
tap_check "the policy file's descriptor is closed, read or ignored" closed

# cheap_lookup: with no policy file, and with an empty one, the lookup is
# one stat of the file's path: nothing opened, /proc/self/exe not read.
# The control: a file that lists something is opened and /proc/self/exe read.
lookup_calls() {
	LD_PRELOAD=$lib strace -f -e trace=openat,open,statx,newfstatat,fstatat64,readlink,readlinkat \
		-o "$work/strace" "$prog" >/dev/null 2>&1
	grep -E 'etc/arc4|/proc/self/exe' "$work/strace"
}
cheap_lookup() {
	local out
	command -v strace >/dev/null || { echo "no strace"; return 1; }
	rm -rf "$etc"
	out=$(lookup_calls)
	[ "$(wc -l <<<"$out")" = 1 ] && grep -qE "^[0-9]* *(statx|newfstatat|fstatat64)\\(.*legacy\.conf.* = -1 ENOENT" <<<"$out" ||
		{ echo "no file: $out"; return 1; }
	policy 644
	: >"$conf"
	out=$(lookup_calls)
	[ "$(wc -l <<<"$out")" = 1 ] && grep -qE "^[0-9]* *(statx|newfstatat|fstatat64)\\(.*legacy\.conf.* = 0$" <<<"$out" ||
		{ echo "empty file: $out"; return 1; }
	policy 644 /usr/bin/true
	out=$(lookup_calls)
	grep -q "openat(.*etc/arc4" <<<"$out" && grep -q "/proc/self/exe" <<<"$out" ||
		{ echo "a listing file: $out"; return 1; }
}
tap_check "no policy file, or an empty one: one stat call, nothing opened, /proc/self/exe not read" cheap_lookup

rm -rf "$etc"
env_still_works() {
	local out
	out=$(ARC4_LEGACY=1 LD_PRELOAD=$lib "$prog")
	[ "$out" = "$glibc" ]
}
tap_check "ARC4_LEGACY=1 without a policy file: glibc's sequence" env_still_works

# Set-user-ID: the environment is the user's and is ignored; the policy
# file is root's and is honoured (arc4random(3)).
setuid_run() {
	setpriv --reuid=65534 --regid=65534 --clear-groups env ARC4_LEGACY=1 "$work/suid" 2>/dev/null
}
setuid_policy() {
	local a b
	cp "$P/prog-linked" "$work/suid"
	chmod 4755 "$work/suid"
	rm -rf "$etc"
	a=$(setuid_run) && b=$(setuid_run) || { echo "cannot run"; return 1; }
	[ "$a" != "$glibc" ] && [ "$a" != "$b" ] || { echo "ARC4_LEGACY=1 honoured set-user-ID: $a"; return 1; }
	policy 644 "$work/suid"
	a=$(setuid_run)
	[ "$a" = "$glibc" ] || { echo "policy not honoured set-user-ID: $a"; return 1; }
}
if [ "$(id -u)" != 0 ] || ! command -v setpriv >/dev/null; then
	tap_skip "set-user-ID: ARC4_LEGACY ignored, the policy file honoured" "needs root and setpriv"
elif ! setpriv --reuid=65534 --regid=65534 --clear-groups test -x "$work/"; then
	tap_skip "set-user-ID: ARC4_LEGACY ignored, the policy file honoured" "an unprivileged user cannot reach $work (a parent directory without o+x, as mktemp -d makes)"
elif findmnt -no OPTIONS -T "$work" | grep -qw nosuid; then
	tap_skip "set-user-ID: ARC4_LEGACY ignored, the policy file honoured" "$work is on a nosuid mount"
else
	tap_check "set-user-ID: ARC4_LEGACY ignored, the policy file honoured" setuid_policy
fi

tap_done
