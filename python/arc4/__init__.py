# SPDX-License-Identifier: LGPL-2.1-or-later
"""arc4: deterministic, seekable, splittable ChaCha20 streams (arc4_stream(3)).

    s = arc4.Stream(key, stream)    # key: 32 bytes; stream: 0 .. 2**64 - 1
    s.buf(n), s.u32(), s.u64(), s.uniform(n), s.double()
    s.tell(), s.seek(p), s.split(i)

The same bytes and values as the C library at every position; a child of
split(i) is the C arc4_stream_split()'s.  A Stream pickles as its key,
stream number and position.  arc4.numpy.ARC4 is a numpy bit
generator over a Stream.

A child of split(i) is the stream of its own key (derived by the split
rule) and stream number 0, and pickles, shows in .origin and in
ARC4.state as that key: a child handed to a worker reveals its own
descendants, never its parent, siblings or ancestors.  Python objects
are never wiped.  Stream.lock (an RLock) is taken by every method and by
numpy through every ARC4 over the Stream; __init__ runs once.
"""
import operator

from . import _arc4

__all__ = ["Stream"]


def _restore(key, stream, path, pos):
    # A path (children of key, stream) is followed key by key: the stream
    # made is the last child's own, with no trace of the keys above it.
    for i in path:
        key, stream = _arc4._split_key(key, stream, i), 0
    s = Stream(key, stream)
    s.seek(pos)
    return s


class Stream(_arc4.Stream):
    """Stream(key, stream=0): the stream of a 32-byte key and a 64-bit number."""

    def __init__(self, key, stream=0):
        super().__init__(key, stream)
        self._origin = (bytes(key), operator.index(stream), ())

    def split(self, index):
        """The child stream of index i (0 .. 2**64 - 1), at position 0."""
        c = super().split(index)
        key, stream, _ = self._origin
        # Its own key, stream 0: the C child's (arc4_stream(3)).
        c._origin = (_arc4._split_key(key, stream, index), 0, ())
        return c

    @property
    def origin(self):
        """(key, stream, ()): what makes this stream.  A child's is its
        own derived key and stream 0, never its parent's key (the empty
        split path is kept for pickles made before)."""
        return self._origin

    def __reduce__(self):
        return (_restore, self._origin + (self.tell(),))

    def __repr__(self):
        key, stream, path = self._origin
        return "arc4.Stream(<key>, %d)%s at %d" % (
            stream, "".join(".split(%d)" % i for i in path), self.tell())
