#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# guest.sh WORKDIR: selftests/deb's checks inside the test VM, booted on the
# bookworm tree that has the packages installed (VM_ROOT, VM_MODULES=host,
# VM_LOAD=0): nothing from the checkout is used but this script and
# tap.sh.  WORKDIR holds expected.txt, what the test program prints in
# deterministic mode when built against the checkout's lib/; the
# known-answer files of selftests/shim/kat/ are the Python module's
# oracle.  Prints TAP.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
. "$top/selftests/install/tap.sh"
work=${1:?usage: guest.sh WORKDIR}
kver=$(uname -r)
multiarch=$(gcc -print-multiarch)

tap_plan 11

# arc4-preload put the shim in /etc/ld.so.preload: this VM's init and
# everything since run under it.
preloaded() {
	local shim=/usr/lib/$multiarch/libarc4.so.1 real
	real=$(readlink -f "$shim")
	grep -qxF "$shim" /etc/ld.so.preload || { echo "/etc/ld.so.preload: $(cat /etc/ld.so.preload)"; return 1; }
	grep -qF "$real" /proc/1/maps || { echo "PID 1 does not map $real"; return 1; }
	grep -qF "$real" /proc/self/maps || { echo "grep does not map $real"; return 1; }
}
tap_check "arc4-preload: /etc/ld.so.preload names the shim, PID 1 and a program started now map it" preloaded

dkms_module_loads() {
	[ ! -e /sys/module/arc4dev ] || { echo "arc4dev was loaded before the test"; return 1; }
	modprobe arc4dev || return 1
	[ -e /sys/module/arc4dev ] || { echo "no /sys/module/arc4dev"; return 1; }
	local path
	path=$(modinfo -n arc4dev) || return 1
	case $path in
	*/lib/modules/$kver/updates/dkms/arc4dev.ko*) ;;
	*) echo "modprobe found $path, not DKMS's"; return 1 ;;
	esac
}
tap_check "modprobe arc4dev loads the module DKMS built for $kver" dkms_module_loads

device_reads() {
	[ -c /dev/arc4 ] || { echo "no /dev/arc4"; return 1; }
	local a b
	a=$(head -c 32 /dev/arc4 | od -An -tx1 -v | tr -d ' \n')
	b=$(head -c 32 /dev/arc4 | od -An -tx1 -v | tr -d ' \n')
	[ ${#a} -eq 64 ] || { echo "read ${#a} hex digits, not 64"; return 1; }
	[ "$a" != "$b" ] || { echo "two opens gave the same bytes"; return 1; }
}
tap_check "/dev/arc4 reads: 32 bytes, different for two opens" device_reads

# RFC 8439 A.1 test vector 2: key 0, nonce 0, block counter 1.
rfc=9f07e7be5551387a98ba977c732d080dcb0f29a048e3656912c6533e32ee7aed
rfc+=29b721769ce64e43d57133b074d839d531ed1f28510afb45ace10a1f4b794d6f
arc4ctl_stream() {
	local got
	got=$(arc4ctl stream -k "$(printf '0%.0s' $(seq 64))" -o 64 | tr -d ' \n') || return 1
	[ "$got" = "$rfc" ] || { echo "got $got"; return 1; }
	arc4ctl read 16 >/dev/null
}
tap_check "arc4ctl (arc4-tools): the deterministic stream is RFC 8439's keystream" arc4ctl_stream

prog=/tmp/arc4-pc-test
cat >"$prog.c" <<'PROG'
#include <stdio.h>
#include <stdlib.h>
#include <arc4random.h>

/* One line of strong output, then the deterministic sequence of seed 2024. */
int main(void)
{
	srand(1);
	printf("strong %d %d %u\n", rand(), rand(), arc4random());
	srand_deterministic(2024);
	for (int i = 0; i < 5; i++)
		printf("%d\n", rand());
	return 0;
}
PROG

builds_with_pkg_config() {
	# shellcheck disable=SC2046
	cc -Wall -Werror -o "$prog" "$prog.c" $(pkg-config --cflags --libs arc4) || return 1
	# Linked: NEEDED libarc4.so.1, which the loader finds in the multiarch
	# directory (ldd lists it without "=>" when /etc/ld.so.preload has it).
	readelf -d "$prog" | grep '(NEEDED)' | grep -qF '[libarc4.so.1]' ||
		{ readelf -d "$prog" | grep NEEDED; return 1; }
	ldd "$prog" | grep -E "(=> |^\s*)(/usr)?/lib/$multiarch/libarc4\.so\.1 " >/dev/null ||
		{ ldd "$prog"; return 1; }
	[ "$(pkg-config --modversion arc4)" = "$(dpkg-query -W -f='${Version}' libarc4-dev)" ] ||
		{ echo "arc4.pc's version is not the package's"; return 1; }
}
tap_check "a program builds with pkg-config --cflags --libs arc4 and links /usr/lib/$multiarch/libarc4.so.1" builds_with_pkg_config

runs_strong() {
	local a b
	a=$("$prog" | head -n1) && b=$("$prog" | head -n1) || return 1
	[ "$a" != "$b" ] || { echo "two runs after srand(1) both printed: $a"; return 1; }
}
tap_check "it runs strong: rand() after srand(1) differs between runs" runs_strong

runs_deterministic() {
	local got
	got=$("$prog" | tail -n +2) || return 1
	[ "$got" = "$(cat "$work/expected.txt")" ] ||
		{ echo "got $(echo $got), want $(echo $(cat "$work/expected.txt"))"; return 1; }
}
tap_check "it runs deterministic: srand_deterministic(2024) gives the checkout's sequence" runs_deterministic

man_pages_open() {
	local p text bad=()
	for p in "1 arc4ctl" "1 arc4-audit" "3 arc4random" "3 arc4random_uniform" \
		"3 srand_deterministic" "3 srandomdev" "3 srand48_deterministic" \
		"3 seed48_deterministic" "4 arc4"; do
		# shellcheck disable=SC2086
		text=$(LC_ALL=C MANWIDTH=80 man -P cat $p 2>/dev/null)
		grep -qx NAME <<<"$text" && [ "$(wc -l <<<"$text")" -gt 20 ] || bad+=("$p")
	done
	[ ${#bad[@]} -eq 0 ] || { echo "do not open: ${bad[*]}"; return 1; }
}
tap_check "man opens arc4ctl(1), arc4-audit(1), the section 3 pages and links, arc4(4)" man_pages_open

tap_check "arc4-audit --help runs" arc4-audit --help

# python3-arc4: the installed module (and arc4.numpy over the archive's
# numpy) gives the known-answer files' values, and the installed C library's
# values for a split child at a far position.
cat >/tmp/arc4-py-test.c <<'PROG'
#include <stdio.h>
#include <stdint.h>
#include <arc4random.h>

int main(void)
{
	uint8_t key[32];
	for (int i = 0; i < 32; i++)
		key[i] = 0xa0 + i;
	arc4_stream *s = arc4_stream_new(key, 77);
	arc4_stream *c = arc4_stream_split(s, 1234567);
	arc4_stream_seek(c, (1ULL << 63) + 5);
	for (int i = 0; i < 8; i++)
		printf("%llu\n", (unsigned long long)arc4_stream_u64(c));
	printf("%.17g\n", arc4_stream_double(c));
	arc4_stream_free(c);
	arc4_stream_free(s);
	return 0;
}
PROG
python_module() {
	cc -Wall -Werror -o /tmp/arc4-py-test /tmp/arc4-py-test.c -larc4 || return 1
	/tmp/arc4-py-test >/tmp/arc4-py-c.txt || return 1
	(cd / && python3 -I - "$top/selftests/shim/kat" /tmp/arc4-py-c.txt) <<'PY'
import sys
import numpy as np
import arc4
import arc4.numpy
kat, c_out = sys.argv[1], sys.argv[2]
if not arc4.__file__.startswith("/usr/lib/python3/dist-packages/arc4/"):
    sys.exit("arc4 imported from " + arc4.__file__)
for name in ("a.txt", "split.txt"):
    lines = open(kat + "/" + name).read().split("\n")
    head = {w[0]: w[1] for w in (l.split() for l in lines[:8]) if len(w) == 2}
    s = arc4.Stream(bytes.fromhex(head["key"]), int(head["stream"]))
    if "split" in head:
        s = s.split(int(head["split"]))
    for i, line in enumerate(lines):
        w = line.split()
        if not w or w[0] not in ("u32", "u64", "double", "uniform"):
            continue
        want = lines[i + 1:i + 1 + int(w[-1])]
        s.seek(0)
        if w[0] == "uniform":
            got = [str(s.uniform(int(w[1]))) for _ in want]
        elif w[0] == "double":
            got, want = [s.double() for _ in want], [float(v) for v in want]
        else:
            got = [str(getattr(s, w[0])()) for _ in want]
        if got != want:
            sys.exit("%s %s: %s, not %s" % (name, w[0], got[:3], want[:3]))
        if w[0] == "u64":
            s.seek(0)
            raw = arc4.numpy.ARC4(s).random_raw(len(want)).tolist()
            if raw != [int(v) for v in want]:
                sys.exit("%s random_raw: %s, not %s" % (name, raw[:3], want[:3]))
c = [l for l in open(c_out).read().split("\n") if l]
g = np.random.Generator(arc4.numpy.ARC4(bytes(range(0xa0, 0xc0)), 77).split(1234567))
g.bit_generator.seek((1 << 63) + 5)
raw = [str(v) for v in g.bit_generator.random_raw(8).tolist()]
d = g.random()
if raw != c[:8] or d != float(c[8]):
    sys.exit("split child at 2**63 + 5: %s %r, C: %s %s" % (raw[:2], d, c[:2], c[8]))
PY
}
tap_check "python3-arc4: import arc4, arc4.numpy; the known answers, and the C library's values (split child, 2^63)" python_module

unloads() { rmmod arc4dev && [ ! -e /sys/module/arc4dev ]; }
tap_check "rmmod arc4dev" unloads
tap_done
