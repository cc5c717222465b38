#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# criu.sh: CRIU checkpoints of a shim process, in the test VM with arc4dev
# loaded.  build/selftests/criu/prog under LD_PRELOAD=libarc4.so (strong
# values buffered, a strong and a seeded /dev/arc4 descriptor, the
# generation page mapped, srand_deterministic() in use) is dumped with the
# arc4 plugin (build/criu) and restored twice from the one image: the
# restores succeed, share no strong value, see the generation moved, and
# go on with the seeded sequences exactly (rand() as an uninterrupted run
# draws it, the descriptor's bytes as OpenSSL's ChaCha20 computes them).
# Without the plugin the dump fails, and so does a restore.  The same
# program under plain glibc, without /dev/arc4, is the control: it dumps
# and restores without the plugin; glibc 2.36's restores share no
# arc4random() value, glibc 2.41's (vDSO getrandom) repeat them all.
# Prints TAP.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 1
. selftests/install/tap.sh
# shellcheck source=selftests/criu/lib.sh
. selftests/criu/lib.sh

prog=$top/build/selftests/criu/prog
plugins=$top/build/criu
shim=$top/lib/libarc4.so
if ! command -v criu >/dev/null; then
	echo "1..0 # SKIP criu is not installed (scripts/deps-install criu)"
	exit 0
fi
# criu probes TCP repair on the loopback, which the VM leaves down.
ip link set lo up 2>/dev/null || busybox ip link set lo up 2>/dev/null
work=$(mktemp -d /tmp/arc4-criu.XXXXXX) || exit 1
trap 'rm -rf "$work"' EXIT
mkdir "$work/none"
tap_plan 16
tap_diag "$(criu --version | head -n 1)"

# start DIR [ENV=VALUE...] -- [--plain]: prog in a session of its own (no
# terminal, so no --shell-job), until it has drawn and written DIR/ready.
pid=
start() {
	local dir=$1 i
	shift
	mkdir -p "$dir"
	local envs=()
	while [ "$1" != -- ]; do envs+=("$1"); shift; done
	shift
	env "${envs[@]}" setsid "$prog" "$@" "$dir" </dev/null >/dev/null 2>"$dir/err" &
	pid=$!
	for i in $(seq "$(polls)"); do
		[ -s "$dir/ready" ] && return 0
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.02
	done
	echo "prog did not get ready: $(cat "$dir/err")"
	return 1
}

# dump DIR PLUGINS: criu dump of $pid into DIR/img; criu kills it.
dump() {
	mkdir -p "$1/img"
	criu dump -t "$pid" -D "$1/img" -L "$2" -o dump.log -v4 ||
		{ grep -E "Error|arc4" "$1/img/dump.log" | tail -n 8; return 1; }
	wait "$pid" 2>/dev/null
	return 0
}

# restore DIR PLUGINS TAG: criu restore from DIR/img; the restored prog
# draws into DIR/TAG.  criu stays its parent and returns its status.
restore() {
	local dir=$1 plug=$2 tag=$3 cpid i
	criu restore -D "$dir/img" -L "$plug" -o "restore-$tag.log" -v4 &
	cpid=$!
	echo "$tag" >"$dir/go.new" && mv "$dir/go.new" "$dir/go"
	wait "$cpid" || {
		grep -E "Error|arc4" "$dir/img/restore-$tag.log" | tail -n 8
		return 1
	}
	[ -s "$dir/$tag" ] || { echo "no output $tag"; return 1; }
}

# no_strong_key DIR: every strong file's record is zero past its mode
# and flags (struct arc4_img in criu/arc4_plugin.c); one at least.
no_strong_key() {
	local f n=0
	for f in "$1"/arc4-file-*.img; do
		[ "$(od -An -j 12 -N 4 -tu4 "$f" | tr -d ' ')" = 0 ] || continue
		n=$((n + 1))
		od -An -j 24 -v -tx1 "$f" | grep -q '[1-9a-f]' &&
			{ echo "$f holds more than zeroes"; return 1; }
	done
	[ "$n" -gt 0 ] || { echo "no strong file in the image"; return 1; }
}

# nodump DIR: criu dump of $pid without plugins fails, for the reason
# the plugin exists; the process goes on.
nodump() {
	mkdir -p "$1"
	criu dump -t "$pid" -D "$1" -L "$work/none" -o dump.log -v4 \
		--leave-running && { echo "dumped"; return 1; }
	grep -E "non-regular mapping|Can't dump file" "$1/dump.log"
}

# norestore DIR: criu restore of DIR/img without plugins fails (CRIU 4:
# the image names the plugin; 3.17: the /dev/arc4 descriptors).
norestore() {
	restore "$1" "$work/none" c && { echo "restored"; return 1; }
	rm -f "$1/go"
	grep -E "Missing required plugin|Unable to restore" "$1/img/restore-c.log"
}

s=$work/shim
run "the shim process runs straight (the oracle for its sequences)" \
	env LD_PRELOAD="$shim" "$prog" --straight "$work/straight"
run "the shim process starts" start "$s" LD_PRELOAD="$shim" --
run "criu dump with the arc4 plugin" dump "$s" "$plugins"
tap_check "the image holds no strong key" no_strong_key "$s/img"
run "first criu restore" restore "$s" "$plugins" a
run "second criu restore of the same image" restore "$s" "$plugins" b
tap_check "without the plugin, criu restore fails" norestore "$s"
tap_check "the two restores share no strong value" \
	no_shared "$s/a" "$s/b" strong random fd
tap_check "the generation moved on each restore" moved "$s/a" "$s/b"
tap_check "the first restore continues the seeded sequences exactly" continues "$s/a"
tap_check "the second restore continues the seeded sequences exactly" continues "$s/b"

tap_broken=0
p=$work/noplugin
run "a second shim process starts" start "$p" LD_PRELOAD="$shim" --
run "without the plugin, criu dump fails" nodump "$p"
[ -n "$pid" ] && kill "$pid" 2>/dev/null && wait "$pid" 2>/dev/null

tap_broken=0
c=$work/control
run "control: plain glibc starts" start "$c" -- --plain
run "control: it dumps and restores twice without the plugin" \
	eval 'dump "$c" "$work/none" && restore "$c" "$work/none" a &&
	      restore "$c" "$work/none" b'
# glibc's random() is its deterministic generator, seeded 1: only
# arc4random() is strong there.  From glibc 2.41 on a 6.11 or later kernel
# it draws through the vDSO's getrandom(), whose per-thread state is in
# the image and which the kernel invalidates on a VM fork but not on a
# restore: the restores repeat it (doc/threat-model.md says so).
glibc=$(getconf GNU_LIBC_VERSION | cut -d' ' -f2)
kernel=$(uname -r | cut -d- -f1)
vdso_getrandom() {
	printf '%s\n' 2.41 "$glibc" | sort -CV && printf '%s\n' 6.11 "$kernel" | sort -CV
}
same_values() {
	[ "$(values "$1" strong | sort)" = "$(values "$2" strong | sort)" ] &&
		[ "$(values "$1" strong | wc -l)" -eq 32 ] ||
		{ echo "they differ: glibc no longer restores the vDSO's state as it was"; return 1; }
}
if vdso_getrandom; then
	tap_check "control: glibc $glibc on $kernel repeats its arc4random() values across the restores (vDSO getrandom state)" \
		same_values "$c/a" "$c/b"
else
	tap_check "control: glibc $glibc's two restores share no arc4random() value" \
		no_shared "$c/a" "$c/b" strong
fi
tap_done
