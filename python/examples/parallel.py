# SPDX-License-Identifier: GPL-2.0
"""Parallel Monte Carlo with no coordination: the same answer for any N.

The work is CHUNKS chunks; chunk j draws from split(root, j), whichever
process runs it.  N processes take chunks j = rank, rank + N, ...; the
sum over chunks is then the same exact integer for every N, and each
process derives its streams from the root key alone, with nothing
passed between them but the key and the indices.

    PYTHONPATH=build/python python3 python/examples/parallel.py 4
"""
import multiprocessing
import sys

import numpy as np

import arc4.numpy

KEY = bytes(range(32))
STREAM = 2026
CHUNKS = 12
POINTS = 100_000


def chunk(j):
    """Points of chunk j inside the unit quarter circle."""
    g = np.random.Generator(arc4.numpy.ARC4(KEY, STREAM).split(j))
    x, y = g.random(POINTS), g.random(POINTS)
    return int(np.count_nonzero(x * x + y * y < 1.0))


def rank_work(args):
    rank, n = args
    return sum(chunk(j) for j in range(rank, CHUNKS, n))


def run(n):
    """The count over all chunks, computed by n processes."""
    ctx = multiprocessing.get_context("spawn")
    with ctx.Pool(n) as pool:
        return sum(pool.map(rank_work, [(r, n) for r in range(n)]))


if __name__ == "__main__":
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 2
    inside = run(n)
    print("%d processes: %d of %d points inside, pi ~ %.6f"
          % (n, inside, CHUNKS * POINTS, 4 * inside / (CHUNKS * POINTS)))
