#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# preload.sh: `arc4ctl preload` on the file /etc/ld.so.preload, in scratch
# root trees (--root), never the host's.  The library must be a shared
# object this machine loads: missing, text, another machine's or byte
# order's ELF, an executable, a group-writable file are refused with the
# reason and the file left alone.  `on` writes exactly the library's line
# before the old bytes, keeping the file's mode; again is a no-op; `off`
# gives back the old file byte for byte (removed if `on` created it), and
# refuses a line where the library is one name among others.  Prints TAP.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 1
. selftests/install/tap.sh

ctl=${ARC4CTL:-$top/build/tools/arc4ctl}	# ARC4CTL: another build to compare
lib=/usr/lib/libarc4.so.1
host_before=$(sha1sum /etc/ld.so.preload 2>/dev/null || echo none)
make -s -C lib >/dev/null && make -s -C tools "$top/build/tools/arc4ctl" >/dev/null ||
	{ tap_plan 1; tap_fail "build lib/ and arc4ctl"; exit 1; }
scratch=$(mktemp -d "${TMPDIR:-/tmp}/arc4-preload.XXXXXX")
trap 'rm -rf "$scratch"' EXIT

# A fresh tree: R/etc, the shim at R$lib, and what `on` test-loads it
# with in the tree (chroot): this machine's loader, libc and /bin/true,
# at their paths (merged /usr's links too).
tree() {
	R=$scratch/$1
	mkdir -p "$R/etc" "$R/usr/bin" "$R/usr/lib" "$R/usr/lib64" "$R${lib%/*}"
	local d f
	for d in bin lib lib64; do
		[ -L "/$d" ] && ln -sfn "$(readlink "/$d")" "$R/$d"
	done
	for f in /bin/true $(ldd /bin/true | grep -o '/[^ ]*'); do
		mkdir -p "$(dirname "$R$f")" && cp -L "$f" "$R$f"
	done
	install -m 0644 lib/libarc4.so.1 "$R$lib"
}
pl() { "$ctl" preload "$@" --root "$R" --library "$lib"; }
# patch FILE OFFSET BYTES...: overwrite bytes (octal escapes) at OFFSET.
patch() {
	local f=$1 off=$2
	shift 2
	# shellcheck disable=SC2059 # the bytes are octal escapes
	printf "$@" | dd of="$f" bs=1 seek="$off" conv=notrunc status=none
}

tap_plan 36

# refused FILE-MAKER WHY: on with the library the maker leaves exits 1,
# says WHY, and leaves the old file as it was.
refused() {
	local why=$1 out rc
	shift
	tree "refused-$RANDOM"
	printf '/opt/other.so\n' >"$R/etc/ld.so.preload"
	"$@" "$R$lib"
	out=$(pl on 2>&1) rc=$?
	[ "$rc" = 1 ] || { echo "exit $rc, not 1: $out"; return 1; }
	grep -qF -- "$why" <<<"$out" || { echo "no '$why' in: $out"; return 1; }
	grep -qF 'not switched on' <<<"$out" || { echo "$out"; return 1; }
	[ "$(cat "$R/etc/ld.so.preload")" = /opt/other.so ] || { echo "the file changed"; return 1; }
}
tap_check "refused: a missing library" refused "No such file" rm -f
not_elf() { echo 'not a library' >"$1"; }
tap_check "refused: a text file" refused "not an ELF file" not_elf
# Another machine's e_machine (elf.h): AArch64's 183, or on arm64 x86-64's 62.
if [ "$(uname -m)" = aarch64 ]; then
	other() { patch "$1" 18 '\076\000'; }
	tap_check "refused: an x86-64 ELF on this arm64 machine (e_machine 62)" refused "built for x86-64" other
else
	other() { patch "$1" 18 '\267\000'; }
	tap_check "refused: an AArch64 ELF on this $(uname -m) machine (e_machine 183)" refused "built for AArch64" other
fi
class32() { patch "$1" 4 '\001'; }	# EI_CLASS ELFCLASS32
tap_check "refused: a 32-bit ELF" refused "32-bit ELF" class32
bigend() { patch "$1" 5 '\002'; }	# EI_DATA ELFDATA2MSB
tap_check "refused: a big-endian ELF" refused "other byte order" bigend
exec_type() { patch "$1" 16 '\002\000'; }	# e_type ET_EXEC
tap_check "refused: an ELF executable (ET_EXEC)" refused "not a shared object" exec_type
pie() { install -m 0755 /usr/bin/true "$1"; }	# Debian builds it PIE
tap_check "refused: a position-independent executable (/usr/bin/true)" refused "position-independent executable" pie
tap_check "refused: a group-writable library" refused "writable by group" chmod 0664

# The next checks share one tree (each runs in a subshell).
tree kept
kept() {
	printf '/opt/a.so /opt/b.so\n/usr/lib/libarc4.so.1.0.0\n/opt/last.so' >"$R/etc/ld.so.preload"
	chmod 0600 "$R/etc/ld.so.preload"
	cp -p "$R/etc/ld.so.preload" "$scratch/kept.orig"
	pl on >/dev/null || return 1
	{ printf '%s\n' "$lib"; cat "$scratch/kept.orig"; } | cmp - "$R/etc/ld.so.preload" ||
		{ od -c "$R/etc/ld.so.preload"; return 1; }
	[ "$(stat -c %a "$R/etc/ld.so.preload")" = 600 ] || { echo "mode $(stat -c %a "$R/etc/ld.so.preload")"; return 1; }
}
tap_check "on: the library's line first, every old byte after it, mode 0600 kept" kept
again() {
	local before out
	before=$(sha1sum <"$R/etc/ld.so.preload")
	out=$(pl on) || return 1
	grep -q 'already on' <<<"$out" || { echo "$out"; return 1; }
	[ "$(sha1sum <"$R/etc/ld.so.preload")" = "$before" ]
}
tap_check "on again: already on, the file unchanged" again
status_on() {
	local out rc
	out=$(pl status) rc=$?
	[ "$rc" = 0 ] && grep -q "^preload: *on: .* line 1 names $lib" <<<"$out" &&
		grep -q "^library: .*a loadable shared object" <<<"$out" || { echo "exit $rc: $out"; return 1; }
}
tap_check "status: on, line 1, a loadable library, exit 0" status_on
off_exact() {
	pl off >/dev/null || return 1
	cmp "$scratch/kept.orig" "$R/etc/ld.so.preload" && [ "$(stat -c %a "$R/etc/ld.so.preload")" = 600 ] &&
		[ "$(ls -A "$R/etc")" = ld.so.preload ] || { ls -lA "$R/etc"; return 1; }
}
tap_check "off: the file as before byte for byte (libarc4.so.1.0.0's line kept), mode kept, no temporary file left" off_exact
status_off() {
	local out rc
	out=$(pl status) rc=$?
	[ "$rc" = 3 ] && grep -q "^preload: *off:" <<<"$out" || { echo "exit $rc: $out"; return 1; }
}
tap_check "status: off, exit 3" status_off

created() {
	tree created
	pl on >/dev/null || return 1
	[ "$(cat "$R/etc/ld.so.preload")" = "$lib" ] && [ "$(stat -c '%a %s' "$R/etc/ld.so.preload")" = "644 $((${#lib} + 1))" ] ||
		{ od -c "$R/etc/ld.so.preload"; return 1; }
	pl off >/dev/null || return 1
	[ -z "$(ls -A "$R/etc")" ] || { ls -lA "$R/etc"; return 1; }
}
tap_check "no file before: on creates it (the line, 0644), off removes it" created

among() {
	tree among
	printf '/opt/a.so %s:/opt/b.so\n' "$lib" >"$R/etc/ld.so.preload"
	local out rc
	out=$(pl off 2>&1) rc=$?
	[ "$rc" = 0 ] || { echo "exit $rc: $out"; return 1; }
	[ "$(cat "$R/etc/ld.so.preload")" = "/opt/a.so /opt/b.so" ] || { od -c "$R/etc/ld.so.preload"; return 1; }
}
tap_check "off takes the library out of a line naming it among others, and keeps the others" among

# --- the library must load: a test load in the tree --------------------
# A library that needs a library the tree lacks: every program would fail.
needs_missing() {
	printf 'int nothere(void) { return 0; }\n' >"$scratch/nothere.c"
	printf 'int nothere(void); int shim(void) { return nothere(); }\n' >"$scratch/needs.c"
	cc -shared -fPIC -Wl,-soname,libnothere.so.1 -o "$scratch/libnothere.so.1" "$scratch/nothere.c" &&
		cc -shared -fPIC -o "$1" "$scratch/needs.c" "$scratch/libnothere.so.1" && chmod 0644 "$1"
}
tap_check "refused: a library whose DT_NEEDED the loader cannot find (test load with /bin/true)" \
	refused "cannot run /bin/true" needs_missing

# --- every directory on the library's path root's alone ------------------
group_dir() { chmod 2775 "$(dirname "$1")"; }
tap_check "refused: the library's directory group-writable (Debian's root:staff 2775 /usr/local/lib)" \
	refused "is not root's alone" group_dir
other_dir() { chown 65534 "$(dirname "$1")"; }
tap_check "refused: the library's directory owned by another user" refused "is not root's alone" other_dir

# --- the file as the loader reads it ------------------------------------
commented() {
	tree commented
	printf '# disabled for now: %s\n' "$lib" >"$R/etc/ld.so.preload"
	local out rc
	out=$(pl status) rc=$?
	[ "$rc" = 3 ] || { echo "status of a commented-out line: exit $rc: $out"; return 1; }
	out=$(pl on) || { echo "$out"; return 1; }
	printf '%s\n# disabled for now: %s\n' "$lib" "$lib" | cmp - "$R/etc/ld.so.preload" ||
		{ od -c "$R/etc/ld.so.preload"; return 1; }
}
tap_check "a commented-out line (# ... LIB) is off: status exit 3, on adds the line" commented
trailing() {
	local form
	for form in '%s # the arc4 shim\n' '%s \n' '\t%s\t#\n' '%s:\n'; do
		tree trailing
		# shellcheck disable=SC2059 # the forms are formats
		{ printf "$form" "$lib"; printf '/opt/x.so\n'; } >"$R/etc/ld.so.preload"
		pl off >/dev/null 2>&1 || { echo "off of '$form': exit $?"; return 1; }
		[ "$(cat "$R/etc/ld.so.preload")" = /opt/x.so ] || { echo "'$form':"; od -c "$R/etc/ld.so.preload"; return 1; }
	done
}
tap_check "off removes the line of the library with a trailing comment, blank, tab or colon" trailing
bad_names() {
	local name rc
	for name in '/opt/arc4#1/libarc4.so.1' '/opt/$LIB/libarc4.so.1' '/opt/a b/libarc4.so.1' \
		'/opt/a:b/libarc4.so.1'; do
		"$ctl" preload on --root "$R" --library "$name" >/dev/null 2>&1
		rc=$?
		[ "$rc" = 2 ] || { echo "--library '$name': exit $rc"; return 1; }
	done
}
tap_check "usage error (exit 2): a library path with #, \$, a blank or a colon" bad_names

# --- the audit runs before the file is read --------------------------------
audit_first() {
	tree audit-first
	printf '/opt/old.so\n' >"$R/etc/ld.so.preload"
	# Another tool edits the file while the audit runs.
	printf '#!/bin/sh\nprintf "/opt/new.so\\n" >"%s/etc/ld.so.preload"\n' "$R" >"$scratch/audit-edits"
	chmod 755 "$scratch/audit-edits"
	ARC4_AUDIT=$scratch/audit-edits pl on --audit >/dev/null 2>&1 || return 1
	printf '%s\n/opt/new.so\n' "$lib" | cmp - "$R/etc/ld.so.preload" || { od -c "$R/etc/ld.so.preload"; return 1; }
}
tap_check "on --audit: an edit of the file during the audit is kept (the file is read after it)" audit_first

# --- the lock: not the directory, which any user can flock -----------------
lock() {
	tree lock
	flock "$R/etc" sleep 20 &
	local holder=$! rc
	sleep 0.3
	timeout 10 "$ctl" preload on --root "$R" --library "$lib" >/dev/null 2>&1
	rc=$?
	kill "$holder" 2>/dev/null
	wait "$holder" 2>/dev/null
	[ "$rc" = 0 ] || { echo "on while another process holds a lock on etc/: exit $rc"; return 1; }
	[ "$(ls -A "$R/etc")" = ld.so.preload ] || { ls -lA "$R/etc"; return 1; }
}
tap_check "a lock on the etc directory (any user can take one) does not hold on back; no lock file left" lock

# --- --root stays in the tree -----------------------------------------------
root_escape() {
	local rc
	"$ctl" preload status --root "" --library "$lib" >/dev/null 2>&1
	rc=$?
	[ "$rc" = 2 ] || { echo "--root '': exit $rc"; return 1; }
	tree escape
	mkdir -p "$scratch/outside"
	rmdir "$R/etc" && ln -s "$scratch/outside" "$R/etc"
	"$ctl" preload on --root "$R" --library "$lib" >/dev/null 2>&1
	rc=$?
	[ "$rc" = 1 ] && [ -z "$(ls -A "$scratch/outside")" ] || { echo "etc -> outside: exit $rc"; ls -lA "$scratch/outside"; return 1; }
}
tap_check "--root '' is a usage error; an etc symbolic link out of the tree is refused, its target untouched" root_escape
abs_link() {
	tree abslink
	local name=/usr/lib/arc4-only-in-tree/libarc4.so.1.0.0
	[ ! -e "$name" ] || return 1
	mkdir -p "$R${name%/*}" && mv "$R$lib" "$R$name" && ln -s "$name" "$R$lib"
	pl on >/dev/null || return 1
	[ "$(cat "$R/etc/ld.so.preload")" = "$lib" ]
}
tap_check "a library's absolute symbolic link is resolved inside the tree, not on the host" abs_link

# --- status -----------------------------------------------------------------
status_alias() {
	tree alias
	# The same file by another name: /lib a link to usr/lib in the tree.
	local other=/lib/libarc4.so.1 out rc
	rm -rf "${R:?}/lib" && ln -s usr/lib "$R/lib"
	printf '%s\n' "$other" >"$R/etc/ld.so.preload"
	out=$(pl status) rc=$?
	[ "$rc" = 0 ] && grep -q '^preload: *on:' <<<"$out" || { echo "status: exit $rc: $out"; return 1; }
	pl off >/dev/null || return 1
	[ ! -e "$R/etc/ld.so.preload" ] || { od -c "$R/etc/ld.so.preload"; return 1; }
}
tap_check "status and off know the library by its file: $lib named /lib/libarc4.so.1 (a link)" status_alias
status_broken() {
	tree broken
	printf '%s\n' "$lib" >"$R/etc/ld.so.preload"
	rm -f "$R$lib"
	local out rc
	out=$(pl status) rc=$?
	[ "$rc" = 1 ] && grep -q '^library: *BROKEN' <<<"$out" || { echo "exit $rc: $out"; return 1; }
}
tap_check "status: on, but the library is missing: BROKEN, exit 1" status_broken
status_unknown() {
	tree unknown
	ln -s /nonexistent/preload "$R/etc/ld.so.preload"
	local out rc
	out=$(pl status) rc=$?
	[ "$rc" = 4 ] && grep -q '^preload: *unknown' <<<"$out" || { echo "symbolic link: exit $rc: $out"; return 1; }
	rm "$R/etc/ld.so.preload"
	printf '%s\n' "$lib" >"$R/etc/ld.so.preload"
	chmod 0600 "$R/etc/ld.so.preload"
	chmod 0755 "$scratch"
	out=$(setpriv --reuid=65534 --regid=65534 --clear-groups "$ctl" preload status --root "$R" --library "$lib")
	rc=$?
	chmod 0700 "$scratch"
	[ "$rc" = 4 ] || { echo "unreadable, as nobody: exit $rc: $out"; return 1; }
	out=$(pl status) rc=$?
	[ "$rc" = 0 ] && grep -q '^warning: .*mode 0600' <<<"$out" || { echo "0600: exit $rc: $out"; return 1; }
}
tap_check "status: unknown (exit 4) for a link under --root and for a file it cannot read; a 0600 file warns" status_unknown

# --- no blocking open of a FIFO ----------------------------------------------
fifos() {
	tree fifo
	mkdir -p "$R/etc/arc4" && mkfifo "$R/etc/arc4/legacy.conf"
	timeout 10 "$ctl" preload status --root "$R" --library "$lib" >/dev/null 2>&1
	[ $? != 124 ] || { echo "status hung on a FIFO policy file"; return 1; }
	rm -f "$R$lib" && mkfifo "$R$lib"
	timeout 10 "$ctl" preload on --root "$R" --library "$lib" >/dev/null 2>&1
	local rc=$?
	[ "$rc" = 1 ] || { echo "on with a FIFO as the library: exit $rc"; return 1; }
}
tap_check "a FIFO as the policy file or the library: no hang" fifos
policy_lines() {
	tree policy
	mkdir -p "$R/etc/arc4"
	# The shim's rules (lib/policy.c): 3 programs; a NUL byte, a relative
	# path and comments are not programs.
	printf '/usr/bin/a\n  /usr/bin/b # comment\n#/usr/bin/x\nrelative\n/usr/bin/\0nul\n/usr/bin/c#d\n' \
		>"$R/etc/arc4/legacy.conf"
	local out
	out=$(pl status)
	grep -q '^policy: .*in force, 3 programs' <<<"$out" || { echo "$out"; return 1; }
}
tap_check "status counts the policy file's programs as the shim reads them (a line with a NUL byte is not one)" policy_lines

# --- temporary files and an empty file ---------------------------------------
stale() {
	tree stale
	: >"$R/etc/.ld.so.preload.arc4-Ab12Cd"
	: >"$R/etc/.ld.so.preload.arc4-notours.txt"
	pl on >/dev/null || return 1
	[ ! -e "$R/etc/.ld.so.preload.arc4-Ab12Cd" ] && [ -e "$R/etc/.ld.so.preload.arc4-notours.txt" ] ||
		{ ls -lA "$R/etc"; return 1; }
}
tap_check "on removes a temporary file a killed run left (its name pattern only)" stale
empty_kept() {
	tree empty
	: >"$R/etc/ld.so.preload"
	pl on >/dev/null && pl off >/dev/null || return 1
	[ -f "$R/etc/ld.so.preload" ] && [ ! -s "$R/etc/ld.so.preload" ] || { ls -lA "$R/etc"; return 1; }
}
tap_check "an empty file there before: on, then off, leave it there, empty" empty_kept

audit() {
	tree audit
	local out rc
	printf '#!/bin/sh\necho "$@" >"%s/args"; exit 1\n' "$scratch" >"$scratch/audit-fails"
	printf '#!/bin/sh\necho "/usr/bin/replayer"\n' >"$scratch/audit-finds"
	chmod 755 "$scratch/audit-fails" "$scratch/audit-finds"
	out=$(ARC4_AUDIT=$scratch/audit-fails pl on --audit 2>&1) rc=$?
	[ "$rc" = 1 ] && [ ! -e "$R/etc/ld.so.preload" ] || { echo "failing audit: exit $rc: $out"; return 1; }
	[ "$(cat "$scratch/args")" = "--policy -q $R/usr" ] || { echo "audit ran with: $(cat "$scratch/args")"; return 1; }
	out=$(ARC4_AUDIT=$scratch/audit-finds pl on --audit 2>&1) rc=$?
	[ "$rc" = 0 ] && grep -qx /usr/bin/replayer <<<"$out" && [ "$(cat "$R/etc/ld.so.preload")" = "$lib" ] ||
		{ echo "exit $rc: $out"; return 1; }
}
tap_check "on --audit runs arc4-audit --policy first: shows what it finds; a failed audit switches nothing on" audit

usage() {
	tree usage
	local rc
	"$ctl" preload on --root "$R" --library usr/lib/libarc4.so.1 >/dev/null 2>&1
	rc=$?
	[ "$rc" = 2 ] || { echo "relative --library: exit $rc"; return 1; }
	"$ctl" preload sideways --root "$R" >/dev/null 2>&1
	rc=$?
	[ "$rc" = 2 ] || { echo "unknown subcommand: exit $rc"; return 1; }
	"$ctl" preload --help | grep -q 'arc4ctl preload on' || return 1
	# Without --root, on and off are root's alone.
	if [ "$(id -u)" = 0 ]; then
		local out
		out=$(setpriv --reuid=65534 --regid=65534 --clear-groups "$ctl" preload on 2>&1)
		rc=$?
		[ "$rc" = 1 ] && grep -q 'must be root' <<<"$out" || { echo "as nobody: exit $rc: $out"; return 1; }
	fi
	[ ! -e "$R/etc/ld.so.preload" ]
}
tap_check "usage errors exit 2; --help; on as another user than root: refused" usage

# make uninstall (its library part) takes the line out before the library goes.
uninstall() {
	tree uninstall
	local out
	rm -f "$R$lib"
	out=$(make -s install-lib DESTDIR="$R" PREFIX=/usr LIBDIR=/usr/lib LDCONFIG=true 2>&1) ||
		{ echo "$out"; return 1; }
	printf '/opt/admin.so\n' >"$R/etc/ld.so.preload"
	pl on >/dev/null || return 1
	out=$(make -s uninstall-lib DESTDIR="$R" PREFIX=/usr LIBDIR=/usr/lib LDCONFIG=true 2>&1) ||
		{ echo "$out"; return 1; }
	[ ! -e "$R$lib" ] && [ "$(cat "$R/etc/ld.so.preload")" = /opt/admin.so ] ||
		{ echo "$out"; ls -l "$R$lib"; cat "$R/etc/ld.so.preload"; return 1; }
}
tap_check "make uninstall-lib DESTDIR=R: the preload line goes before the library" uninstall

host_same() { [ "$(sha1sum /etc/ld.so.preload 2>/dev/null || echo none)" = "$host_before" ]; }
tap_check "the host's /etc/ld.so.preload untouched" host_same
tap_done
