# SPDX-License-Identifier: GPL-2.0
"""arc4.Stream and arc4.numpy.ARC4 against independent oracles: the
known-answer files of selftests/shim/kat/ (written from Python
cryptography's ChaCha20), cryptography's ChaCha20 itself at positions up
to 2**64, pickling, and a child derived in another process.

Run: PYTHONPATH=build/python /usr/bin/python3 -m unittest python/tests/test_arc4.py
(from the top of the tree; make python builds build/python).
"""
import multiprocessing
import os
import pickle
import random
import struct
import sys
import unittest

import numpy as np
from cryptography.hazmat.primitives.ciphers import Cipher, algorithms

import arc4
import arc4.numpy

TOP = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
KAT = os.path.join(TOP, "selftests", "shim", "kat")


def ossl_bytes(key, stream, pos, n):
    """n bytes from pos (pos + n at most 2**64)."""
    nonce = struct.pack("<QQ", pos // 64, stream)
    c = Cipher(algorithms.ChaCha20(key, nonce), mode=None)
    return c.encryptor().update(bytes(pos % 64 + n))[pos % 64:]


def read_kat(name):
    """(key, stream, split index or None, {kind: (arg, values)})."""
    with open(os.path.join(KAT, name)) as f:
        lines = f.read().split("\n")
    head, lists, i = {}, [], 0
    while i < len(lines) and lines[i]:
        w = lines[i].split()
        if w[0] in ("u32", "u64", "double", "uniform"):
            count = int(w[-1])
            lists.append((w[0], w[1:-1], lines[i + 1:i + 1 + count]))
            i += 1 + count
            continue
        if w[0] != "#":
            head[w[0]] = w[1]
        i += 1
    split = int(head["split"]) if "split" in head else None
    return bytes.fromhex(head["key"]), int(head["stream"]), split, lists


def kat_stream(name):
    key, stream, split, lists = read_kat(name)
    s = arc4.Stream(key, stream)
    return (s if split is None else s.split(split)), lists


def child_raw(args):
    key, stream, index, n = args
    return arc4.numpy.ARC4(key, stream).split(index).random_raw(n).tolist()


class KnownAnswers(unittest.TestCase):
    def test_stream_calls_give_the_files_values(self):
        for name in ("a.txt", "b.txt", "split.txt"):
            s, lists = kat_stream(name)
            for kind, arg, want in lists:
                s.seek(0)
                if kind == "u32":
                    got = [s.u32() for _ in want]
                elif kind == "u64":
                    got = [s.u64() for _ in want]
                elif kind == "double":
                    got = [s.double() for _ in want]
                    want = [float(v) for v in want]
                else:
                    got = [s.uniform(int(arg[0])) for _ in want]
                if kind != "double":
                    want = [int(v) for v in want]
                self.assertEqual(want, got, "%s %s" % (name, kind))

    def test_numpy_raw_is_the_u64_sequence_and_random_the_doubles(self):
        for name in ("a.txt", "b.txt", "split.txt"):
            s, lists = kat_stream(name)
            want = {k: v for k, _, v in lists}
            bg = arc4.numpy.ARC4(s)
            self.assertEqual([int(v) for v in want["u64"]],
                             bg.random_raw(len(want["u64"])).tolist())
            bg.seek(0)
            g = np.random.Generator(bg)
            self.assertEqual([float(v) for v in want["double"]],
                             g.random(len(want["double"])).tolist())


class Oracle(unittest.TestCase):
    def test_bytes_at_positions_up_to_2_64_equal_cryptography(self):
        rnd = random.Random(os.urandom(16))
        spots = [0, 1, 63, (1 << 38) - 9, (1 << 60) + 5, (1 << 64) - 100]
        for i in range(200):
            key = rnd.randbytes(32)
            stream = rnd.getrandbits(64)
            pos = spots[i] if i < len(spots) else \
                rnd.getrandbits(64) % ((1 << 64) - 100)
            n = rnd.randrange(1, 100)
            s = arc4.Stream(key, stream)
            s.seek(pos)
            self.assertEqual(ossl_bytes(key, stream, pos, n), s.buf(n))
            self.assertEqual(pos + n, s.tell())

    def test_position_wraps_at_2_64(self):
        key = bytes(range(32))
        s = arc4.Stream(key, 5)
        s.seek((1 << 64) - 3)
        want = ossl_bytes(key, 5, (1 << 64) - 3, 3) + ossl_bytes(key, 5, 0, 5)
        self.assertEqual(want, s.buf(8))
        self.assertEqual(5, s.tell())


class Pickling(unittest.TestCase):
    def test_stream_round_trips_with_split_path_and_position(self):
        s = arc4.Stream(os.urandom(32), 9).split(3).split(1 << 63)
        s.seek((1 << 50) + 7)
        t = pickle.loads(pickle.dumps(s))
        self.assertEqual(s.origin, t.origin)
        self.assertEqual(s.tell(), t.tell())
        self.assertEqual(s.buf(100), t.buf(100))

    def test_bit_generator_round_trips_and_state_restores_in_place(self):
        bg = arc4.numpy.ARC4(os.urandom(32), 1).split(7)
        g = np.random.Generator(bg)
        g.random(5)
        saved = bg.state
        copy = pickle.loads(pickle.dumps(bg))
        a = g.integers(0, 1 << 40, 50).tolist()
        self.assertEqual(a, np.random.Generator(copy).integers(
            0, 1 << 40, 50).tolist())
        bg.state = saved        # under the same Generator
        self.assertEqual(a, g.integers(0, 1 << 40, 50).tolist())

    def test_generator_round_trips(self):
        g = np.random.Generator(arc4.numpy.ARC4(os.urandom(32), 2).split(5))
        g.normal(size=7)
        h = pickle.loads(pickle.dumps(g))
        self.assertEqual(g.random(20).tolist(), h.random(20).tolist())
        self.assertEqual(g.bit_generator.state, h.bit_generator.state)


class Processes(unittest.TestCase):
    def test_parallel_example_gives_the_same_count_for_any_n(self):
        sys.path.insert(0, os.path.join(TOP, "python", "examples"))
        import parallel
        counts = {n: parallel.run(n) for n in (1, 2, 3)}
        self.assertEqual(1, len(set(counts.values())), counts)
        # And it is a count of uniform points: pi within 0.01.
        self.assertLess(abs(4 * counts[1] / (parallel.CHUNKS * parallel.POINTS)
                            - 3.14159265), 0.01)

    def test_a_child_derived_in_another_process_is_the_same(self):
        key = os.urandom(32)
        jobs = [(key, 11, i, 64) for i in range(4)]
        ctx = multiprocessing.get_context("spawn")
        with ctx.Pool(2) as pool:
            theirs = pool.map(child_raw, jobs)
        self.assertEqual([child_raw(j) for j in jobs], theirs)
        self.assertEqual(4, len({tuple(t) for t in theirs}))


if __name__ == "__main__":
    unittest.main()
