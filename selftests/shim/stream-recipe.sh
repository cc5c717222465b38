#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# stream-recipe.sh: the Python recipe of arc4_stream(3), taken from the
# man page as printed there (between its python-recipe markers), run
# with Python's cryptography against
#   - the known-answer files of selftests/shim/kat/ (u32, u64, double,
#     uniform(1000) of two streams);
#   - the C library through libarc4.so (build/selftests/shim/stream-dump):
#     bytes, u32 and u64 at random keys, streams and positions (across
#     byte 2^38, where the block counter carries into word 13, and up to
#     the top), doubles, and uniform() for bounds that reject often, with
#     the position after them.
# Debian's own python3 (python3-cryptography), whatever else PATH holds.
# Prints TAP.  Host only, like stream-oracles.sh: release trees and
# valgrind runs skip it.
set -uo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
cd "$top" || exit 1

bdir=build/selftests/shim
dump=$bdir/stream-dump
n=0 failed=0
ok() { n=$((n + 1)); echo "ok $n $1${2:+ # SKIP $2}"; }
check() {
	local desc=$1 out
	shift
	if out=$("$@" 2>&1); then
		ok "$desc"
	else
		n=$((n + 1)) failed=1
		echo "not ok $n $desc"
		[ -z "$out" ] || sed 's/^/# /' <<<"$out"
	fi
}

skip_all() { echo "1..1"; ok "the Python recipe of arc4_stream(3)" "$1"; exit 0; }
[ -e .arc4-dist ] && skip_all "a release build: the recipe runs on the host"
case ${LD_PRELOAD:-} in
*vgpreload*) skip_all "under valgrind: the sanitizer builds run it" ;;
esac
echo "1..3"

recipe=$bdir/arc4_recipe.py
extract() {
	[ -x "$dump" ] || { echo "$dump missing: make selftests/shim"; return 1; }
	sed -n '/^\.\\" python-recipe-begin/,/^\.\\" python-recipe-end/p' \
		man/arc4_stream.3 | sed -e '/^\./d' -e 's/\\e/\\/g' >"$recipe"
	grep -q '^def uniform' "$recipe" || { echo "no recipe in man/arc4_stream.3"; return 1; }
	/usr/bin/python3 -c "import sys; sys.path.insert(0, '$bdir'); import arc4_recipe"
}

# The known-answer files: each list from position 0.
kat() {
	/usr/bin/python3 - "$bdir" <<-'PY'
	import sys
	sys.path.insert(0, sys.argv[1])
	from arc4_recipe import u32, u64, double, uniform
	for name in ("a.txt", "b.txt"):
	    lines = open("selftests/shim/kat/" + name).read().split("\n")
	    key = bytes.fromhex(lines[3].split()[1])
	    stream = int(lines[4].split()[1])
	    i = 5
	    while i < len(lines) and lines[i]:
	        head = lines[i].split()
	        count = int(head[-1])
	        want = lines[i + 1:i + 1 + count]
	        pos = 0
	        for k, w in enumerate(want):
	            if head[0] == "u32":
	                got = u32(key, stream, 4 * k) == int(w)
	            elif head[0] == "u64":
	                got = u64(key, stream, 8 * k) == int(w)
	            elif head[0] == "double":
	                got = double(key, stream, 8 * k) == float(w)
	            else:
	                v, pos = uniform(key, stream, pos, int(head[1]))
	                got = v == int(w)
	            if not got:
	                sys.exit("%s: %s value %d differs" % (name, head[0], k))
	        i += 1 + count
	PY
}

# The C library at random keys, streams and positions.
library() {
	/usr/bin/python3 - "$bdir" "$dump" <<-'PY'
	import os, random, subprocess, sys
	sys.path.insert(0, sys.argv[1])
	from arc4_recipe import stream_bytes, u32, u64, double, uniform
	rnd = random.Random(os.urandom(16))
	reqs, want = [], []
	poss = [0, 1, 63, (1 << 38) - 9, (1 << 38) - 64, (1 << 60) + 5,
	        (1 << 64) - 24]
	for i in range(60):
	    key = rnd.randbytes(32)
	    stream = rnd.choice([0, (1 << 64) - 1, rnd.getrandbits(64)])
	    pos = poss[i % len(poss)] if i < 2 * len(poss) else \
	        rnd.getrandbits(rnd.choice([10, 38, 63, 64])) & ~3
	    pos = min(pos, (1 << 64) - 24)
	    k = key.hex()
	    reqs.append("bytes %s %d %d 21" % (k, stream, pos))
	    want.append(stream_bytes(key, stream, pos, 21).hex())
	    if pos % 4 == 0:
	        reqs.append("words %s %d %d 2" % (k, stream, pos // 4))
	        w = [u32(key, stream, pos + 4 * j) for j in range(2)] + \
	            [u64(key, stream, pos + 8 * j) for j in range(2)]
	        want.append(" ".join(map(str, w)) + " " +
	                    stream_bytes(key, stream, pos, 7).hex())
	    reqs.append("doubles %s %d %d 3" % (k, stream, pos))
	    want.append([double(key, stream, pos + 8 * j) for j in range(3)])
	    bound = rnd.choice([0, 1, 3, 1000, 0x80000001, 0xC0000001, 0xFFFFFFFF])
	    reqs.append("uniform %s %d %d 9" % (k, stream, bound))
	    p, vals = 0, []
	    for j in range(9):
	        v, p = uniform(key, stream, p, bound)
	        vals.append(v)
	    want.append(" ".join(map(str, vals)) + " " + str(p))
	out = subprocess.run([sys.argv[2]], input="\n".join(reqs) + "\n",
	                     capture_output=True, text=True, check=True).stdout
	got = out.split("\n")[:-1]
	if len(got) != len(reqs):
	    sys.exit("stream-dump answered %d of %d" % (len(got), len(reqs)))
	for r, g, w in zip(reqs, got, want):
	    if isinstance(w, list):
	        same = [float(x) for x in g.split()] == w
	    else:
	        same = g.strip() == w
	    if not same:
	        sys.exit("%s:\n  library %s\n  recipe  %s" % (r, g, w))
	PY
}

check "the recipe is in man/arc4_stream.3 and imports (python3-cryptography)" extract
check "the recipe gives the known-answer files' u32, u64, double, uniform(1000)" kat
check "the recipe equals libarc4.so: bytes, u32, u64, doubles, uniform" library
exit "$failed"
