#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# guest.sh: the guest side of whole-system.sh, run by scripts/vm-run in a
# VM whose root is a Debian release tree with /etc/ld.so.preload naming
# the shim, so that every process since the VM's init runs under it.
# Checks that the system came up that way, that ordinary programs work,
# that mawk's srand(1) loses its replay and gets it back from the policy
# file, and which seeded programs change behaviour.  Prints TAP.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 1
. selftests/install/tap.sh
unset ARC4_LEGACY LD_PRELOAD

work=$(mktemp -d /tmp/system.XXXXXX)
shim=$(grep -v '^#' /etc/ld.so.preload 2>/dev/null | head -n1)
conf=/etc/arc4/legacy.conf

# The ordinary programs: a description, then a command (bash) that must
# exit 0 and write nothing on stderr.
programs=(
	"coreutils: ls, cp, sort -R, shuf, mktemp, sha256sum, dd, date"
	"ls -la /usr/bin >/dev/null && cp /etc/os-release $work/c && sort -R /etc/passwd >/dev/null && shuf -i 1-100 -n 3 && mktemp -u && sha256sum $work/c && dd if=/dev/urandom of=/dev/null bs=4k count=16 status=none && date -u"
	"python3: random, secrets, uuid, tempfile, hashlib, ssl"
	"python3 -c 'import random, secrets, uuid, tempfile, hashlib, ssl, os; print(random.random(), secrets.token_hex(8), uuid.uuid4(), hashlib.sha256(os.urandom(16)).hexdigest()); os.close(tempfile.mkstemp()[0]); ssl.create_default_context()'"
	"perl: File::Temp, List::Util shuffle, rand"
	"perl -MFile::Temp=tempfile -MList::Util=shuffle -e 'my (\$fh, \$n) = tempfile(); unlink \$n; print join(\",\", shuffle(1 .. 10)), \" \", rand(), \"\\n\"'"
	"mawk: fields, srand() from the time, rand()"
	"echo a b c | mawk '{ print \$2 }' && mawk 'BEGIN { srand(); print rand() }'"
	"apt-get --version, apt-cache policy, dpkg-query"
	"apt-get --version | head -n1 && apt-cache policy libc6 | head -n3 && dpkg-query -W libc6"
	"a compiler run: make, gcc, as, ld build a program that runs"
	"make -s -C $work seeded && $work/seeded rand"
	"openssl: rand, genpkey"
	"openssl rand -hex 16 && openssl genpkey -algorithm ed25519 >/dev/null"
	"tar, xz, zstd, gzip: a round trip"
	"tar -C /etc -cf - os-release | xz | unxz | zstd -q | unzstd -q | gzip | gunzip | tar -tf -"
	"strace -f of a shell pipeline"
	"strace -f -o /dev/null sh -c 'echo x | cat >/dev/null'"
	"bash: \$RANDOM, \$SRANDOM"
	"bash -c 'echo \$RANDOM \$SRANDOM'"
	"find, grep, sed, ps, modinfo"
	"find /usr/share/doc -name copyright | grep -c . && sed -n 1p /etc/os-release && ps -e | wc -l && modinfo -F name arc4dev"
	"e2fsprogs: mke2fs, e2fsck on an image file"
	"mke2fs -q -F -t ext4 $work/ext4.img 8M && e2fsck -fn $work/ext4.img 2>&1"
	"a program as nobody (setpriv): /dev/arc4 without root"
	"setpriv --reuid=65534 --regid=65534 --clear-groups $work/seeded rand"
)

# The seeded programs: a description, a command that seeds for replay (or
# relies on glibc's default seed) and prints what it draws, and what the
# shim does to the replay: "keeps" it, "changes" it (each run draws anew),
# or "varies" (a few bits drawn: 8 runs, not all alike).  The C program is
# built by the compiler run above, the image by mke2fs.
seeded=(
	"mawk srand(1)"
	"mawk 'BEGIN { srand(1); print rand(), rand(), rand() }'" changes
	"C srand(1), rand() (gcc)"
	"$work/seeded rand" changes
	"C srandom(1), random()"
	"$work/seeded random" changes
	"C srand48(1), lrand48()"
	"$work/seeded rand48" changes
	"C initstate(1, buf), random()"
	"$work/seeded initstate" keeps
	"C rand_r()"
	"$work/seeded rand_r" keeps
	"C erand48()"
	"$work/seeded erand48" keeps
	"python3 ctypes: libc srand(1), rand()"
	"python3 -c 'import ctypes; c = ctypes.CDLL(None); c.srand(1); print(c.rand(), c.rand(), c.rand())'" changes
	"python3 random.seed(1) (its own Mersenne Twister)"
	"python3 -c 'import random; random.seed(1); print(random.random(), random.random())'" keeps
	"perl srand(1) (its own drand48)"
	"perl -e 'srand(1); print rand(), \" \", rand(), \"\\n\"'" keeps
	"bash RANDOM=1 (its own generator)"
	"bash -c 'RANDOM=1; echo \$RANDOM \$RANDOM \$RANDOM'" keeps
	"shuf --random-source"
	"seq 100 | shuf --random-source=/bin/bash | head -n5 | tr '\\n' ' '" keeps
	"tune2fs -c random (e2fsprogs; random() never seeded, so glibc picks one count)"
	"tune2fs -c random $work/ext4.img >/dev/null && dumpe2fs -h $work/ext4.img 2>/dev/null | sed -n 's/^Maximum mount count: *//p'" varies
	"sort -R --random-source"
	"seq 100 | sort -R --random-source=/bin/bash | head -n5 | tr '\\n' ' '" keeps
)

tap_plan $((4 + ${#programs[@]} / 2 + 7 + ${#seeded[@]} / 3))

# --- the system came up under the shim -----------------------------------
tap_check "/etc/ld.so.preload names the shim, $shim, a file root owns" \
	test -n "$shim" -a -f "$shim" -a -O "$shim"
maps() { grep -qF "$shim" "/proc/$1/maps" || { echo "PID $1 ($(cat /proc/"$1"/comm)) does not map $shim"; return 1; }; }
tap_check "the VM's init (PID 1) runs with the shim mapped" maps 1
tap_check "so does this test, and a program it starts" eval 'maps $$ && grep -qF "$shim" /proc/self/maps'
tap_check "arc4dev is loaded: /dev/arc4 is a character device" test -c /dev/arc4

# --- ordinary programs ---------------------------------------------------
cat >"$work/seeded.c" <<'EOF'
/* Seeds one of libc's generators with 1 and prints four values. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
	const char *f = argc > 1 ? argv[1] : "rand";
	static char state[128];
	unsigned int r = 1;
	unsigned short x[3] = { 1, 2, 3 };
	int i;

	if (!strcmp(f, "rand"))
		srand(1);
	else if (!strcmp(f, "random"))
		srandom(1);
	else if (!strcmp(f, "rand48"))
		srand48(1);
	else if (!strcmp(f, "initstate"))
		initstate(1, state, sizeof(state));
	for (i = 0; i < 4; i++) {
		if (!strcmp(f, "rand"))
			printf("%d ", rand());
		else if (!strcmp(f, "random") || !strcmp(f, "initstate"))
			printf("%ld ", random());
		else if (!strcmp(f, "rand48"))
			printf("%ld ", lrand48());
		else if (!strcmp(f, "rand_r"))
			printf("%d ", rand_r(&r));
		else if (!strcmp(f, "erand48"))
			printf("%.17g ", erand48(x));
		else
			return 2;
	}
	printf("\n");
	return 0;
}
EOF
printf 'CFLAGS = -O2 -Wall -Werror\n' >"$work/Makefile"
chmod 755 "$work"

clean_run() {
	local rc=0
	bash -c "$1" >"$work/out" 2>"$work/err" || rc=$?
	[ "$rc" = 0 ] && [ ! -s "$work/err" ] && return 0
	echo "exit status $rc; stdout: $(head -c 300 "$work/out")"
	echo "stderr: $(head -c 600 "$work/err")"
	return 1
}
# A command whose first word is a program this release's tree lacks is a
# failure: scripts/release-tree installs every one of them.
absent() {
	local w=${1%% *}
	[[ $w != */* ]] && ! command -v "$w" >/dev/null
}
for ((i = 0; i < ${#programs[@]}; i += 2)); do
	if absent "${programs[i + 1]}"; then
		tap_fail "${programs[i]}: ${programs[i + 1]%% *} is not in the tree"
		continue
	fi
	tap_check "${programs[i]}: exit 0, nothing on stderr" clean_run "${programs[i + 1]}"
done

# --- mawk, the shim and the policy file ----------------------------------
# Without the shim: the same command in a mount namespace whose
# /etc/ld.so.preload is empty, so glibc's own generator runs.
: >"$work/empty"
bare() {
	unshare --mount --propagation private -- bash -c '
		mount --bind "$1" /etc/ld.so.preload || exit 125
		shift
		exec bash -c "$1"' bare "$work/empty" "$1"
}
mawk1="mawk 'BEGIN { srand(1); print rand() }'"
mawk3="mawk 'BEGIN { srand(1); print rand(), rand(), rand() }'"
runs() { local _; for _ in 1 2 3; do bash -c "$1" 2>>"$work/err"; done; }

glibc=$(bare "$mawk3")
tap_diag "$mawk1, 3 runs without the shim: $(for _ in 1 2 3; do bare "$mawk1"; done | tr '\n' ' ')"
tap_diag "$mawk1, 3 runs under the shim: $(runs "$mawk1" | tr '\n' ' ')"

without_shim() {
	[ "$(bare "grep -cF '$shim' /proc/self/maps")" = 0 ] || { echo "the shim is still mapped"; return 1; }
	[ -n "$glibc" ] && [ "$(bare "$mawk3")" = "$glibc" ] || { echo "no replay without the shim: '$glibc'"; return 1; }
}
tap_check "without the shim (empty ld.so.preload), mawk's srand(1) replays: $glibc" without_shim

# strong: three runs, three different lines, none glibc's; stderr as $1 says.
strong() {
	local out
	: >"$work/err"
	out=$(runs "$mawk3")
	[ "$(sort -u <<<"$out" | wc -l)" = 3 ] && ! grep -qxF "$glibc" <<<"$out" ||
		{ echo "runs: $out"; echo "glibc: $glibc"; return 1; }
	[ "$(grep -c . "$work/err")" = "${1:-0}" ] || { echo "stderr: $(cat "$work/err")"; return 1; }
}
# replay CMD: three runs, each glibc's, nothing on stderr.
replay() {
	local out
	: >"$work/err"
	out=$(runs "$1")
	[ "$out" = "$(printf '%s\n%s\n%s' "$glibc" "$glibc" "$glibc")" ] && [ ! -s "$work/err" ] ||
		{ echo "runs: $out"; echo "glibc: $glibc"; echo "stderr: $(cat "$work/err")"; return 1; }
}
policy() {
	local mode=$1
	shift
	printf '%s\n' "# written by selftests/system/guest.sh" "$@" >"$conf" && chmod "$mode" "$conf"
}
tap_check "under the shim, no program listed: a new value each run" strong

# The policy on a tmpfs over /etc/arc4: the tree stays as it is.
mount -t tmpfs -o mode=0755,uid=0,gid=0 arc4-policy /etc/arc4 || tap_diag "cannot mount a tmpfs on /etc/arc4"
policy 644 /usr/bin/mawk
tap_check "mawk listed in $conf (root's, 0644): the same value every run, glibc's" replay "$mawk3"
tap_check "... also run as awk (Debian's alternatives symlink)" replay "${mawk3/mawk/awk}"
policy 644 /usr/bin/perl
tap_check "another program listed, not mawk: mawk stays strong" strong
policy 664 /usr/bin/mawk
tap_check "mawk listed in a group-writable file: ignored, one message, strong" strong 3
umount /etc/arc4
tap_check "ARC4_LEGACY=1, no policy: glibc's value" replay "ARC4_LEGACY=1 $mawk3"

# --- seeded programs: which lose their replay ----------------------------
census() {
	local cmd=$1 want=$2 a b c
	a=$(bare "$cmd") b=$(bare "$cmd")
	[ -n "$a" ] && [ "$a" = "$b" ] || { echo "no replay without the shim: '$a' '$b'"; return 1; }
	echo "without the shim: $a"
	if [ "$want" = varies ]; then
		b=$(for _ in 1 2 3 4 5 6 7 8; do bash -c "$cmd"; done)
		echo "under the shim:   $(tr '\n' ' ' <<<"$b")"
		[ "$(sort -u <<<"$b" | wc -l)" -gt 1 ]
		return
	fi
	b=$(bash -c "$cmd") c=$(bash -c "$cmd")
	echo "under the shim:   $b"
	echo "                  $c"
	case $want in
	keeps) [ "$b" = "$a" ] && [ "$c" = "$a" ] ;;
	changes) [ "$b" != "$a" ] && [ "$c" != "$a" ] && [ "$b" != "$c" ] ;;
	esac
}
for ((i = 0; i < ${#seeded[@]}; i += 3)); do
	desc=${seeded[i]} cmd=${seeded[i + 1]} want=${seeded[i + 2]}
	case $want in
	keeps) what="still replays under the shim" ;;
	changes | varies) what="loses its replay under the shim" ;;
	esac
	if absent "$cmd"; then
		tap_fail "$desc: $what: ${cmd%% *} is not in the tree"
		continue
	fi
	if out=$(census "$cmd" "$want" 2>&1); then
		tap_ok "$desc: $what"
		[ "$want" = keeps ] || tap_diag "$out"
	else
		tap_fail "$desc: $what"
		tap_diag "$out"
	fi
done

rm -rf "$work"
tap_done
