#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# podman.sh: `podman container checkpoint` and `restore` of a container
# whose program uses the shim, in the test VM with arc4dev loaded.  The
# container (a root of prog, its loader and libc, libarc4.so.1; no
# network; /dev/arc4 passed in) runs build/selftests/criu/prog under
# LD_PRELOAD=libarc4.so.1, as criu.sh does.  Without the arc4 plugin the
# checkpoint fails (runc's criu cannot dump the generation page).  With
# it, one exported checkpoint restores as two containers that share no
# strong value, see the generation moved, and go on with the seeded
# sequences exactly.  Prints TAP.
#
# Podman runs as root with runc, in a storage of its own under /tmp (vfs).
# The VM's root is the host's, read-only: /etc and /var get a writable
# overlay in a mount namespace of this script's own, and
# /etc/criu/runc.conf (which runc's criu reads) names the build's plugin
# directory; an installed arc4-criu puts the plugin where criu looks by
# default, so a real machine needs no such file.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 1
. selftests/install/tap.sh
# shellcheck source=selftests/criu/lib.sh
. selftests/criu/lib.sh

prog=$top/build/selftests/criu/prog
plugins=$top/build/criu
shim=$top/lib/libarc4.so.1
for t in podman runc criu; do
	if ! command -v "$t" >/dev/null; then
		echo "1..0 # SKIP $t is not installed (make rig-vm)"
		exit 0
	fi
done
if [ -z "${ARC4_PODMAN_NS:-}" ]; then
	exec env ARC4_PODMAN_NS=1 unshare -m --propagation private \
		"$top/selftests/criu/podman-dbg.sh" "$@"
fi

work=$(mktemp -d /tmp/arc4-podman.XXXXXX) || exit 1
P=(podman --root "$work/store" --runroot "$work/run" --storage-driver vfs
	--cgroup-manager cgroupfs --events-backend file --runtime runc)
cleanup() {
	"${P[@]}" rm -f -a >/dev/null 2>&1
	rm -rf "$work"
}
trap cleanup EXIT
export TMPDIR=$work/tmp
mkdir -p "$TMPDIR" "$work/x"
tap_plan 8
tap_diag "$(podman --version), $(runc --version | head -n 1), $(criu --version | head -n 1)"

# writable DIR: an overlay on DIR, its changes in $work.
writable() {
	local d=$work/ov${1//\//-}
	mkdir -p "$d/up" "$d/wk" &&
		mount -t overlay overlay -o "lowerdir=$1,upperdir=$d/up,workdir=$d/wk" "$1"
}

# image: arc4test, a root of prog, the libraries it and the shim need at
# their paths, and the shim.
image() {
	local r=$work/rootfs f
	mkdir -p "$r"/{bin,lib,x,dev,proc,sys,tmp}
	cp "$prog" "$r/bin/" && cp "$shim" "$r/lib/" || return 1
	for f in $( (ldd "$prog"; ldd "$shim") | grep -o '/[^ ]*' | sort -u); do
		mkdir -p "$r$(dirname "$f")" && cp -L "$f" "$r$f" || return 1
	done
	tar -C "$r" -c . | "${P[@]}" import -q - arc4test
}

setup() {
	writable /etc && writable /var || return 1
	mkdir -p /etc/criu "$work/none" || return 1
	mountpoint -q /sys/fs/cgroup || mount -t cgroup2 none /sys/fs/cgroup
	ip link set lo up 2>/dev/null
	image
}

# start NAME: the container NAME runs prog until it has drawn (x/ready).
start() {
	local i
	rm -f "$work/x/ready" "$work/x/go"
	"${P[@]}" run -d --name "$1" --network none --device /dev/arc4 \
		-v "$work/x:/x" -e LD_PRELOAD=/lib/libarc4.so.1 arc4test \
		/bin/prog /x >/dev/null || return 1
	for i in $(seq 500); do
		[ -s "$work/x/ready" ] && return 0
		sleep 0.02
	done
	echo "prog did not get ready"
	"${P[@]}" logs "$1"
	return 1
}

# nocheckpoint: without the plugin (criu's plugin directory an empty
# one, whatever the machine has installed) the checkpoint fails, for the
# reason the plugin exists, as criu.sh's nodump sees it; the container
# goes on.
nocheckpoint() {
	local log
	echo "libdir $work/none" >/etc/criu/runc.conf || return 1
	"${P[@]}" container checkpoint --leave-running t1 &&
		{ echo "checkpointed"; return 1; }
	log=$(find "$work/store" "$work/run" -name dump.log | head -n 1)
	[ -n "$log" ] || { echo "no dump.log"; return 1; }
	grep -n "" "$log" | sed -n "270,310p"
	grep -E "non-regular mapping|Can't dump file" "$log" ||
		{ tail -n 5 "$log"; return 1; }
	"${P[@]}" container inspect -f '{{.State.Status}}' t1 | grep -x running
}

checkpoint() {
	echo "libdir $plugins" >/etc/criu/runc.conf &&
		"${P[@]}" container checkpoint --export "$work/cp.tar.gz" t1 >/dev/null ||
		{ find "$work/store" "$work/run" -name dump.log | while read -r l; do echo "== $l"; grep -nE "Error|Warn|rror" "$l" | head -40; done; return 1; }
}

# restore NAME TAG: the checkpoint restored as NAME; prog draws into x/TAG.
restore() {
	local i
	rm -f "$work/x/go"
	"${P[@]}" container restore --import "$work/cp.tar.gz" --name "$1" \
		>/dev/null || return 1
	echo "$2" >"$work/x/go.new" && mv "$work/x/go.new" "$work/x/go"
	for i in $(seq 500); do
		[ -s "$work/x/$2" ] && "${P[@]}" wait "$1" >/dev/null && return 0
		sleep 0.02
	done
	echo "no output $2"
	return 1
}

run "set up: overlays, the container image" setup
run "the shim process runs straight (the oracle for its sequences)" \
	env LD_PRELOAD="$shim" "$prog" --straight "$work/straight"
run "a container of the shim process starts" start t1
run "without the arc4 plugin, podman container checkpoint fails; the container runs on" \
	nocheckpoint
run "podman container checkpoint --export, with the plugin" checkpoint
run "first podman container restore --import" restore r1 a
run "second podman container restore --import of the same checkpoint" \
	restore r2 b
tap_check "the two restored containers share no strong value, the generation moved, the seeded sequences go on" \
	eval 'no_shared "$work/x/a" "$work/x/b" strong random fd &&
	      moved "$work/x/a" "$work/x/b" &&
	      continues "$work/x/a" && continues "$work/x/b"'
tap_done
