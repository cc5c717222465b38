#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Write arc4_stream's known-answer files from an independent oracle.

The bytes come from Python `cryptography`'s ChaCha20 (OpenSSL's), whose
16-byte nonce is LE64(block counter) || LE64(stream): the stream layout.
The rules of arc4_stream(3) are written again here, from the man page:

  u32      the next 4 bytes, little-endian
  u64      the next 8 bytes, little-endian
  double   (u64 >> 11) * 2^-53
  uniform  draw u32 values, reject those below 2^32 mod bound, r % bound
           (bounds 1000 and 2^31 + 1)
  split    key HChaCha20(parent key, LE64(parent stream) || LE64(index))
           under the constants "arc4-split-key-1", stream 0

HChaCha20 is written here too (cryptography has no HChaCha20); it is
checked against the XChaCha20 draft's test vector and against
cryptography's ChaCha20 block before it is used.

Usage: gen.py DIR   writes DIR/a.txt, DIR/b.txt, DIR/split.txt
       gen.py -     prints them (stream-oracles.sh compares)
"""
import hashlib
import struct
import sys

from cryptography.hazmat.primitives.ciphers import Cipher, algorithms

COUNT = 1000
# uniform(1000) rejects 296 of 2^32 values: never in 1000 draws; uniform
# (2^31 + 1) rejects nearly half, so the rule is exercised.
BOUNDS = (1000, 0x80000001)
M32 = 0xFFFFFFFF
SIGMA = b"expand 32-byte k"
SPLIT = b"arc4-split-key-1"


def keystream(key, stream, nbytes):
    """nbytes from position 0 of (key, stream)."""
    nonce = struct.pack("<QQ", 0, stream)
    enc = Cipher(algorithms.ChaCha20(key, nonce), mode=None).encryptor()
    return enc.update(bytes(nbytes))


def rotl(v, n):
    return ((v << n) | (v >> (32 - n))) & M32


def quarter(x, a, b, c, d):
    x[a] = (x[a] + x[b]) & M32
    x[d] = rotl(x[d] ^ x[a], 16)
    x[c] = (x[c] + x[d]) & M32
    x[b] = rotl(x[b] ^ x[c], 12)
    x[a] = (x[a] + x[b]) & M32
    x[d] = rotl(x[d] ^ x[a], 8)
    x[c] = (x[c] + x[d]) & M32
    x[b] = rotl(x[b] ^ x[c], 7)


def hchacha20(key, inp, constants):
    x = list(struct.unpack("<4I", constants) + struct.unpack("<8I", key) +
             struct.unpack("<4I", inp))
    for _ in range(10):
        quarter(x, 0, 4, 8, 12)
        quarter(x, 1, 5, 9, 13)
        quarter(x, 2, 6, 10, 14)
        quarter(x, 3, 7, 11, 15)
        quarter(x, 0, 5, 10, 15)
        quarter(x, 1, 6, 11, 12)
        quarter(x, 2, 7, 8, 13)
        quarter(x, 3, 4, 9, 14)
    return struct.pack("<8I", *(x[0:4] + x[12:16]))


def check_hchacha20():
    # draft-irtf-cfrg-xchacha-03, 2.2.1
    key = bytes(range(32))
    inp = bytes.fromhex("000000090000004a0000000031415927")
    want = bytes.fromhex("82413b4227b27bfed30e42508a877d73"
                         "a0f9e4d58a74a853c12ec41326d3ecdc")
    assert hchacha20(key, inp, SIGMA) == want, "HChaCha20 test vector"
    # Under ChaCha's constants: the block minus its input state.
    key = hashlib.sha256(b"hchacha check").digest()
    stream = 0x0F1E2D3C4B5A6978
    inp = struct.pack("<QQ", 3, stream)
    blk = keystream(key, stream, 64 * 4)[192:]
    w = struct.unpack("<16I", blk)
    s = struct.unpack("<4I", SIGMA) + struct.unpack("<4I", inp)
    sub = [(w[i] - s[i]) & M32 for i in range(4)] + \
          [(w[12 + i] - s[4 + i]) & M32 for i in range(4)]
    assert hchacha20(key, inp, SIGMA) == struct.pack("<8I", *sub), \
        "HChaCha20 against the ChaCha20 block"


def uniform(key, stream, bound):
    """COUNT values of uniform(bound) from position 0."""
    lowest = (1 << 32) % bound
    uni, words, need = [], [], 0
    while len(uni) < COUNT:
        if need >= len(words):
            more = keystream(key, stream, 4 * (len(words) + 4 * COUNT))
            words = struct.unpack("<%dI" % (len(more) // 4), more)
        r = words[need]
        need += 1
        if r >= lowest:
            uni.append(r % bound)
    return uni


def values(key, stream):
    """The lists, each from position 0 of a fresh stream."""
    b = keystream(key, stream, 8 * COUNT)
    u32 = list(struct.unpack("<%dI" % COUNT, b[:4 * COUNT]))
    u64 = list(struct.unpack("<%dQ" % COUNT, b))
    dbl = [(v >> 11) * 2.0 ** -53 for v in u64]
    return u32, u64, dbl, [uniform(key, stream, b) for b in BOUNDS]


def text(title, key, stream, split=None):
    lines = ["# arc4_stream known answers: %s." % title,
             "# Written by gen.py (Python cryptography's ChaCha20); each",
             "# list is the first %d values of the stream from position 0." %
             COUNT,
             "key %s" % key.hex(), "stream %d" % stream]
    if split is not None:
        inp = struct.pack("<QQ", stream, split)
        child = hchacha20(key, inp, SPLIT)
        lines += ["split %d" % split, "child-key %s" % child.hex()]
        key, stream = child, 0
    u32, u64, dbl, uni = values(key, stream)
    lines.append("u32 %d" % COUNT)
    lines += ["%d" % v for v in u32]
    lines.append("u64 %d" % COUNT)
    lines += ["%d" % v for v in u64]
    lines.append("double %d" % COUNT)
    lines += [repr(v) for v in dbl]
    for bound, vals in zip(BOUNDS, uni):
        lines.append("uniform %d %d" % (bound, COUNT))
        lines += ["%d" % v for v in vals]
    return "\n".join(lines) + "\n"


def main():
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    check_hchacha20()
    key_a = bytes(range(32))
    key_b = hashlib.sha256(b"arc4 known answers: key b").digest()
    files = {
        "a.txt": text("key 00 01 .. 1f, stream 0", key_a, 0),
        "b.txt": text("key SHA-256(\"arc4 known answers: key b\"), "
                      "stream 0xfedcba9876543210", key_b,
                      0xFEDCBA9876543210),
        "split.txt": text("split(new(key 00 01 .. 1f, stream "
                          "0x0123456789abcdef), 42)", key_a,
                          0x0123456789ABCDEF, split=42),
    }
    for name, body in files.items():
        if sys.argv[1] == "-":
            sys.stdout.write("== %s\n%s" % (name, body))
        else:
            with open("%s/%s" % (sys.argv[1], name), "w") as f:
                f.write(body)


if __name__ == "__main__":
    main()
