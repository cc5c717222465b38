# SPDX-License-Identifier: LGPL-2.1-or-later
"""arc4: deterministic, seekable, splittable ChaCha20 streams (arc4_stream(3)).

    s = arc4.Stream(key, stream)    # key: 32 bytes; stream: 0 .. 2**64 - 1
    s.buf(n), s.u32(), s.u64(), s.uniform(n), s.double()
    s.tell(), s.seek(p), s.split(i)

The same bytes and values as the C library at every position; a child of
split(i) is the C arc4_stream_split()'s.  A Stream pickles as its key,
stream number, split path and position.  arc4.numpy.ARC4 is a numpy bit
generator over a Stream.

A child is not a capability: its pickle, .origin and ARC4.state carry the
ROOT key and the split path, not the child's own key, so whoever holds a
child's pickle can compute its root, siblings and ancestors.  Python
objects are never wiped.  Stream.lock (an RLock) is taken by every
method and by numpy through every ARC4 over the Stream; __init__ runs
once.
"""
from . import _arc4

__all__ = ["Stream"]


def _restore(key, stream, path, pos):
    s = Stream(key, stream)
    for i in path:
        s = s.split(i)
    s.seek(pos)
    return s


class Stream(_arc4.Stream):
    """Stream(key, stream=0): the stream of a 32-byte key and a 64-bit number."""

    def __init__(self, key, stream=0):
        super().__init__(key, stream)
        self._origin = (bytes(key), stream, ())

    def split(self, index):
        """The child stream of index i (0 .. 2**64 - 1), at position 0."""
        c = super().split(index)
        key, stream, path = self._origin
        c._origin = (key, stream, path + (index,))
        return c

    @property
    def origin(self):
        """(root key, stream, split path): what makes this stream.  For a
        child it holds the root's key: it reveals every sibling."""
        return self._origin

    def __reduce__(self):
        return (_restore, self._origin + (self.tell(),))

    def __repr__(self):
        key, stream, path = self._origin
        return "arc4.Stream(<key>, %d)%s at %d" % (
            stream, "".join(".split(%d)" % i for i in path), self.tell())
