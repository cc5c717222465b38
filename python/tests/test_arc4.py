# SPDX-License-Identifier: GPL-2.0
"""arc4.Stream and arc4.numpy.ARC4 against independent oracles: the
known-answer files of selftests/shim/kat/ (written from Python
cryptography's ChaCha20), cryptography's ChaCha20 itself at positions up
to 2**64, the C library called through ctypes, numpy's own Generator
methods over the files' values (Lemire's rule for integers), pickling,
children derived in other processes, and the parallel example for 1 to 4
processes.  Wrong arguments must raise Python exceptions, not crash.

Run: PYTHONPATH=build/python /usr/bin/python3 -m unittest python/tests/test_arc4.py
(from the top of the tree; make python builds build/python).
"""
import ctypes
import multiprocessing
import os
import pickle
import random
import struct
import subprocess
import sys
import threading
import time
import unittest
import weakref

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


def libarc4():
    """The checkout's C library, the one build/python links."""
    lib = ctypes.CDLL(os.path.join(TOP, "lib", "libarc4.so.1"))
    p, u64 = ctypes.c_void_p, ctypes.c_uint64
    for name, res, args in (
            ("arc4_stream_new", p, [ctypes.c_char_p, u64]),
            ("arc4_stream_split", p, [p, u64]),
            ("arc4_stream_free", None, [p]),
            ("arc4_stream_seek", None, [p, u64]),
            ("arc4_stream_tell", u64, [p]),
            ("arc4_stream_u32", ctypes.c_uint32, [p]),
            ("arc4_stream_u64", u64, [p]),
            ("arc4_stream_uniform", ctypes.c_uint32, [p, ctypes.c_uint32]),
            ("arc4_stream_double", ctypes.c_double, [p]),
            ("arc4_stream_buf", None, [p, ctypes.c_char_p, ctypes.c_size_t])):
        f = getattr(lib, name)
        f.restype, f.argtypes = res, args
    return lib


def c_values(key, stream, path, pos, kinds):
    """The C library's values of kinds ("u32", ...) read in turn from pos."""
    lib = libarc4()
    s = lib.arc4_stream_new(key, stream)
    for i in path:
        c = lib.arc4_stream_split(s, i)
        lib.arc4_stream_free(s)
        s = c
    lib.arc4_stream_seek(s, pos)
    out = []
    for k in kinds:
        if k == "buf":
            b = ctypes.create_string_buffer(13)
            lib.arc4_stream_buf(s, b, 13)
            out.append(b.raw)
        elif k.startswith("uniform"):
            out.append(lib.arc4_stream_uniform(s, int(k[7:])))
        else:
            out.append(getattr(lib, "arc4_stream_" + k)(s))
    out.append(lib.arc4_stream_tell(s))
    lib.arc4_stream_free(s)
    return out


def py_values(s, kinds):
    out = []
    for k in kinds:
        if k == "buf":
            out.append(s.buf(13))
        elif k.startswith("uniform"):
            out.append(s.uniform(int(k[7:])))
        else:
            out.append(getattr(s, k)())
    return out + [s.tell()]


def lemire(u32s, low, high):
    """numpy's Generator.integers(low, high) for a range below 2**32: Lemire's
    rule over 32-bit draws (numpy's distributions.c, written from the
    paper: multiply, keep the high half, reject a low half below
    2**32 mod range)."""
    n = high - low
    threshold = (1 << 32) % n
    it = iter(u32s)
    while True:
        m = next(it) * n
        if (m & 0xffffffff) >= threshold:
            yield low + (m >> 32)


def continue_generator(g):
    """A pickled Generator, in another process: its next values."""
    return g.random(8).tolist(), g.bit_generator.tell()


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

class CLibrary(unittest.TestCase):
    KINDS = ["u32", "u64", "double", "uniform1000", "uniform2147483649",
             "buf", "u64", "u32"]

    def test_values_at_positions_up_to_2_64_equal_the_c_library(self):
        rnd = random.Random(os.urandom(16))
        spots = [0, 3, (1 << 32) * 64 - 5, (1 << 63) + 1, (1 << 64) - 64,
                 (1 << 64) - 9, (1 << 64) - 1]
        for i in range(60):
            key, stream = rnd.randbytes(32), rnd.getrandbits(64)
            path = tuple(rnd.getrandbits(64) for _ in range(i % 3))
            pos = spots[i] if i < len(spots) else rnd.getrandbits(64)
            s = arc4.Stream(key, stream)
            for j in path:
                s = s.split(j)
            s.seek(pos)
            self.assertEqual(c_values(key, stream, path, pos, self.KINDS),
                             py_values(s, self.KINDS), (i, pos))

    def test_the_numpy_raw_output_is_the_c_u64_sequence_anywhere(self):
        key = os.urandom(32)
        for pos in (0, 12345, (1 << 64) - 40):
            bg = arc4.numpy.ARC4(key, 6).split(99)
            bg.seek(pos)
            want = c_values(key, 6, (99,), pos, ["u64"] * 10)
            self.assertEqual(want[:10], bg.random_raw(10).tolist())
            self.assertEqual(want[10], bg.tell())


class Edges(unittest.TestCase):
    def test_tell_and_seek_take_every_64_bit_position(self):
        s = arc4.Stream(bytes(32), 1)
        for pos in (0, 1, (1 << 63), (1 << 64) - 1):
            s.seek(pos)
            self.assertEqual(pos, s.tell())
        s.buf(1)
        self.assertEqual(0, s.tell())           # 2**64 is position 0
        s.seek((1 << 64) - 2)
        s.u64()
        self.assertEqual(6, s.tell())

    def test_wrong_arguments_raise_python_exceptions(self):
        s = arc4.Stream(bytes(32), 1)
        bg = arc4.numpy.ARC4(bytes(32), 1)
        cases = [
            (OverflowError, lambda: s.seek(1 << 64)),
            (OverflowError, lambda: s.seek(-1)),
            (OverflowError, lambda: bg.seek(1 << 64)),
            (OverflowError, lambda: s.split(1 << 64)),
            (OverflowError, lambda: s.split(-1)),
            (OverflowError, lambda: arc4.Stream(bytes(32), 1 << 64)),
            (OverflowError, lambda: arc4.Stream(bytes(32), -1)),
            (OverflowError, lambda: s.uniform(1 << 32)),
            (OverflowError, lambda: s.uniform(-1)),
            (OverflowError, lambda: bg.spawn(1 << 65)),
            (ValueError, lambda: arc4.Stream(bytes(31))),
            (ValueError, lambda: arc4.Stream(bytes(33), 0)),
            (ValueError, lambda: s.buf(-1)),
            (ValueError, lambda: bg.spawn(-1)),
            (ValueError, lambda: arc4.Stream.__new__(arc4.Stream).u32()),
            (ValueError, lambda: setattr(bg, "state", {"bit_generator": "PCG64"})),
            (TypeError, lambda: s.seek(1.5)),
            (TypeError, lambda: arc4.Stream("x" * 32)),
            (MemoryError, lambda: s.buf(1 << 62)),
        ]
        for i, (exc, f) in enumerate(cases):
            with self.assertRaises(exc, msg="case %d" % i):
                f()
        # The stream still works, where it was.
        self.assertEqual(0, s.tell())
        self.assertEqual(arc4.Stream(bytes(32), 1).buf(8), s.buf(8))

    def test_uniform_below_2_is_0_without_reading(self):
        s = arc4.Stream(bytes(32), 1)
        self.assertEqual([0, 0], [s.uniform(0), s.uniform(1)])
        self.assertEqual(0, s.tell())


# Two threads drawing through two bit generators over one Stream; the
# position at the end is the bytes both drew (a lost update or a crash
# fails).  Run in a child: a crash must fail the test, not the run.
TWO_THREADS = """
import threading, numpy as np, arc4, arc4.numpy
s = arc4.Stream(bytes(range(32)), 1)
gens = [np.random.Generator(arc4.numpy.ARC4(s)) for _ in range(2)]
def work(g):
    for _ in range(4):
        g.random(1_000_000)
        g.integers(0, 1 << 32, size=1_000_000, dtype=np.uint32)
ts = [threading.Thread(target=work, args=(g,)) for g in gens]
[t.start() for t in ts]
for _ in range(20000):
    s.u32()
[t.join() for t in ts]
print(s.tell())
"""


class Threads(unittest.TestCase):
    def test_bit_generators_over_one_stream_share_its_lock(self):
        s = arc4.Stream(bytes(32), 1)
        a, b = arc4.numpy.ARC4(s), arc4.numpy.ARC4(s)
        self.assertIs(s.lock, a.lock)
        self.assertIs(s.lock, b.lock)
        self.assertIs(s.lock, np.random.Generator(a).bit_generator.lock)

    def test_two_threads_drawing_over_one_stream(self):
        out = subprocess.run([sys.executable, "-c", TWO_THREADS],
                             capture_output=True, text=True, timeout=300)
        self.assertEqual(0, out.returncode, out.stderr)
        # 2 threads x 4 x 1e6 (doubles of 8 bytes + full-range u32 of 4),
        # and the main thread's 20000 u32
        self.assertEqual(2 * 4 * 12 * 1_000_000 + 4 * 20000,
                         int(out.stdout))

    def test_stream_methods_wait_for_the_lock_numpy_holds(self):
        s = arc4.Stream(bytes(32), 1)
        done = threading.Event()

        def call():
            s.u32()
            done.set()
        with s.lock:
            t = threading.Thread(target=call)
            t.start()
            self.assertFalse(done.wait(0.3))
            self.assertEqual(0, s.tell())       # the same thread may
        t.join(10)
        self.assertTrue(done.is_set())
        self.assertEqual(4, s.tell())

    def test_init_again_raises_and_keeps_the_stream(self):
        s = arc4.Stream(bytes(32), 1)
        g = np.random.Generator(arc4.numpy.ARC4(s))
        s.buf(5)
        with self.assertRaises(TypeError):
            s.__init__(bytes(range(32)), 9)
        with self.assertRaises(TypeError):
            arc4._arc4.Stream.__init__(s, bytes(32), 2)
        self.assertEqual(5, s.tell())
        t = arc4.Stream(bytes(32), 1)
        t.seek(5)
        self.assertEqual(t.u64(), g.bit_generator.random_raw())


class Objects(unittest.TestCase):
    def test_split_of_a_subclass_with_its_own_new(self):
        class S(arc4.Stream):
            def __new__(cls, *args, **kw):
                return super().__new__(cls)
        c = S(bytes(32), 1).split(4)
        self.assertIs(S, type(c))
        self.assertEqual(arc4.Stream(bytes(32), 1).split(4).buf(64),
                         c.buf(64))

    def test_no_capsule_without_a_c_stream(self):
        with self.assertRaises(ValueError):
            arc4.numpy.ARC4(arc4.Stream.__new__(arc4.Stream))

    def test_assign_leaves_both_streams_working(self):
        a, b = arc4.Stream(bytes(32), 1), arc4.Stream(bytes(32), 2)
        g = np.random.Generator(arc4.numpy.ARC4(b))
        a._assign(b)
        want = arc4.Stream(bytes(32), 1)
        self.assertEqual(want.u64(), g.bit_generator.random_raw())
        self.assertEqual(arc4.Stream(bytes(32), 2).buf(8), a.buf(8))

    def test_capsule_stream_and_lock_are_read_only(self):
        bg = arc4.numpy.ARC4(bytes(32), 1)
        for name in ("capsule", "_stream", "stream", "lock",
                     "_ARC4__s", "_ARC4__cap"):
            with self.assertRaises(AttributeError, msg=name):
                setattr(bg, name, None)
        with self.assertRaises(AttributeError):
            bg.stream.lock = None

    def test_the_capsule_holds_the_stream(self):
        bg = arc4.numpy.ARC4(bytes(32), 1)
        w = weakref.ref(bg.stream)
        cap = bg.capsule
        del bg
        self.assertIsNotNone(w())
        del cap
        self.assertIsNone(w())

    def test_numpy_integers_are_integers(self):
        s = arc4.Stream(bytes(32), np.uint64(1))
        s.seek(np.int64(8))
        self.assertEqual(8, s.tell())
        ref = arc4.Stream(bytes(32), 1)
        ref.seek(8)
        self.assertEqual(ref.buf(4), s.buf(np.int32(4)))
        self.assertEqual(ref.uniform(10), s.uniform(np.uint32(10)))
        self.assertEqual(ref.split(3).buf(8), s.split(np.uint8(3)).buf(8))
        arc4.numpy.ARC4(bytes(32), np.int16(1)).seek(np.uint64(3))


class NumpyGenerator(unittest.TestCase):
    def kat(self):
        s, lists = kat_stream("a.txt")
        return s, {k: [int(x) for x in v] for k, _, v in lists
                   if k in ("u32", "u64")}

    def test_integers_follow_numpy_rule_over_the_u32_sequence(self):
        s, want = self.kat()
        g = np.random.Generator(arc4.numpy.ARC4(s))
        got = g.integers(0, 1000, 500).tolist()
        oracle = lemire(want["u32"], 0, 1000)
        self.assertEqual([next(oracle) for _ in got], got)
        got = g.integers(-5, 3000000007, 10)
        self.assertTrue(((got >= -5) & (got < 3000000007)).all())

    def test_oracle_rule_is_numpy_over_its_own_pcg64(self):
        # The test's own rule checked on numpy's PCG64, whose 32-bit draws
        # are the low then the high half of each raw u64.
        raw = np.random.PCG64(2026).random_raw(600).tolist()
        u32s = [h for r in raw for h in (r & 0xffffffff, r >> 32)]
        g = np.random.Generator(np.random.PCG64(2026))
        got = g.integers(0, 1000, 500).tolist()
        oracle = lemire(u32s, 0, 1000)
        self.assertEqual([next(oracle) for _ in got], got)

    def test_random_normal_and_reproducibility(self):
        key = os.urandom(32)
        a = np.random.Generator(arc4.numpy.ARC4(key, 3))
        b = np.random.Generator(arc4.numpy.ARC4(key, 3))
        x = a.random(200000)
        self.assertTrue(((x >= 0) & (x < 1)).all())
        self.assertLess(abs(x.mean() - 0.5), 0.005)
        n = a.normal(2.0, 3.0, 200000)
        self.assertLess(abs(n.mean() - 2.0), 0.05)
        self.assertLess(abs(n.std() - 3.0), 0.05)
        b.random(200000)
        self.assertEqual(n.tolist(), b.normal(2.0, 3.0, 200000).tolist())
        self.assertEqual(a.bit_generator.tell(), b.bit_generator.tell())
        self.assertEqual(a.integers(0, 7, 10, dtype=np.uint8).tolist(),
                         b.integers(0, 7, 10, dtype=np.uint8).tolist())
        c = a.choice(50, 50, replace=False)
        self.assertEqual(list(range(50)), sorted(c.tolist()))


class Splitting(unittest.TestCase):
    def test_spawn_continues_like_seedsequence_and_split_is_by_index(self):
        bg = arc4.numpy.ARC4(os.urandom(32), 8)
        first = [c.random_raw(4).tolist() for c in bg.spawn(2)]
        second = [c.random_raw(4).tolist() for c in bg.spawn(3)]
        want = [bg.split(i).random_raw(4).tolist() for i in range(5)]
        self.assertEqual(want, first + second)
        self.assertEqual(5, len({tuple(w) for w in want}))
        # numpy's own: successive spawn calls give new children too.
        ss = np.random.SeedSequence(1)
        self.assertEqual([(0,), (1,), (2,)],
                         [c.spawn_key for c in ss.spawn(2) + ss.spawn(1)])

    def test_a_child_does_not_depend_on_the_parent_position(self):
        s = arc4.Stream(os.urandom(32), 8)
        a = s.split(5).buf(64)
        s.seek(1 << 40)
        s.buf(3)
        self.assertEqual(a, s.split(5).buf(64))
        self.assertNotEqual(a, s.split(6).buf(64))
        self.assertNotEqual(a, s.buf(64))


class Pickling(unittest.TestCase):
    def test_stream_round_trips_with_split_path_and_position(self):
        s = arc4.Stream(os.urandom(32), 9).split(3).split(1 << 63)
        s.seek((1 << 50) + 7)
        t = pickle.loads(pickle.dumps(s))
        self.assertEqual(s.origin, t.origin)
        self.assertEqual(s.tell(), t.tell())
        self.assertEqual(s.buf(100), t.buf(100))

    def test_a_child_pickles_as_its_own_key_not_its_parents(self):
        key, stream, split, lists = read_kat("split.txt")
        with open(os.path.join(KAT, "split.txt")) as f:
            child_key = bytes.fromhex([l.split()[1] for l in f
                                       if l.startswith("child-key ")][0])
        root = arc4.Stream(key, stream)
        c = root.split(split)
        c.buf(3)
        self.assertEqual((child_key, 0, ()), c.origin)
        bg = arc4.numpy.ARC4(root).split(split)
        for blob in (pickle.dumps(c), pickle.dumps(bg),
                     repr(bg.state).encode(), repr(c).encode()):
            self.assertNotIn(key, blob)
            self.assertNotIn(key.hex().encode(), blob)
        self.assertEqual(child_key.hex(), bg.state["state"]["key"])
        self.assertEqual(0, bg.state["state"]["stream"])
        d = pickle.loads(pickle.dumps(c))
        self.assertEqual((3, c.buf(64)), (d.tell(), d.buf(64)))
        # A pickle made with a split path restores the same stream.
        self.assertEqual(root.split(split).split(9).buf(64),
                         arc4._restore(key, stream, (split, 9), 0).buf(64))
        self.assertEqual((arc4._arc4._split_key(child_key, 0, 9), 0, ()),
                         arc4._restore(key, stream, (split, 9), 0).origin)

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
        counts = {n: parallel.run(n) for n in (1, 2, 3, 4)}
        self.assertEqual(1, len(set(counts.values())), counts)
        # And it is a count of uniform points: pi within 0.01.
        self.assertLess(abs(4 * counts[1] / (parallel.CHUNKS * parallel.POINTS)
                            - 3.14159265), 0.01)

    def test_the_example_run_as_a_program_prints_the_same_count(self):
        out = subprocess.run(
            [sys.executable, os.path.join(TOP, "python", "examples",
                                          "parallel.py"), "3"],
            check=True, capture_output=True, text=True).stdout
        sys.path.insert(0, os.path.join(TOP, "python", "examples"))
        import parallel
        self.assertIn("3 processes: %d of " % parallel.run(1), out)

    def test_a_child_derived_in_another_process_is_the_same(self):
        key = os.urandom(32)
        jobs = [(key, 11, i, 64) for i in range(4)]
        ctx = multiprocessing.get_context("spawn")
        with ctx.Pool(2) as pool:
            theirs = pool.map(child_raw, jobs)
        self.assertEqual([child_raw(j) for j in jobs], theirs)
        g = np.random.Generator(arc4.numpy.ARC4(key, 12).split(3))
        g.normal(size=5)
        with ctx.Pool(1) as pool:
            there = pool.map(continue_generator, [g])[0]
        self.assertEqual(continue_generator(g), there)
        self.assertEqual(4, len({tuple(t) for t in theirs}))


if __name__ == "__main__":
    unittest.main()
