# SPDX-License-Identifier: LGPL-2.1-or-later
"""arc4.numpy.ARC4: a numpy bit generator over an arc4 Stream.

    g = numpy.random.Generator(arc4.numpy.ARC4(key, stream))

Its raw output (random_raw) is the C stream's u64 sequence; next_uint32
is the stream's u32 (4 bytes), next_double its double.  state (for
pickling and copying), seek/tell, and split/spawn giving children equal
to the C arc4_stream_split()'s: split(i) is child i, spawn(n) the next n
children in numpy's way (successive calls give new ones: the first n
calls' children are split(0) .. split(n - 1)).

Threads: lock is the Stream's own lock, shared by every ARC4 over that
Stream and taken by the Stream's methods, so numpy's draws (which hold
it with the GIL released) and direct calls on the Stream never run the
C stream at once.  capsule, stream and lock are read-only: the capsule
holds the Stream, and a numpy Generator keeps this object.
"""
import numpy as np

from . import Stream, _restore

__all__ = ["ARC4"]


class ARC4:
    """ARC4(key, stream=0): numpy's BitGenerator interface over a Stream."""

    __slots__ = ("_ARC4__s", "_ARC4__cap", "_spawned", "__weakref__")

    def __init__(self, key, stream=0):
        s = key if isinstance(key, Stream) else Stream(key, stream)
        object.__setattr__(self, "_ARC4__cap", s._bitgen_capsule())
        object.__setattr__(self, "_ARC4__s", s)
        self._spawned = 0

    def __setattr__(self, name, value):
        # A numpy Generator copies the capsule's pointer: what it points
        # into must stay as long as this object.
        if name.startswith("_ARC4__"):
            raise AttributeError("%s is read-only" % name)
        object.__setattr__(self, name, value)

    @property
    def capsule(self):
        """numpy's "BitGenerator" capsule (it holds the Stream)."""
        return self.__cap

    @property
    def lock(self):
        """The Stream's lock: numpy holds it while it draws."""
        return self.__s.lock

    @property
    def stream(self):
        """The arc4.Stream underneath (shared, not a copy)."""
        return self.__s

    @property
    def _stream(self):
        return self.__s

    def random_raw(self, size=None, output=True):
        """size u64 values of the stream (one if size is None)."""
        n = 1 if size is None else int(np.prod(size))
        b = self._stream.buf(8 * n)
        if not output:
            return None
        a = np.frombuffer(b, dtype="<u8").astype(np.uint64)
        return a[0] if size is None else a.reshape(size)

    def tell(self):
        return self._stream.tell()

    def seek(self, pos):
        self._stream.seek(pos)

    def split(self, index):
        """The child generator of index i: the C arc4_stream_split()'s."""
        return ARC4(self._stream.split(index))

    def spawn(self, n_children):
        """The next n_children children: split(k) .. split(k + n - 1), where
        k counts the children spawned before (numpy's SeedSequence.spawn
        convention: never the same child twice)."""
        n = int(n_children)
        if n < 0:
            raise ValueError("a negative number of children")
        with self.lock:
            start = self._spawned
            if start + n > 1 << 64:
                raise OverflowError("2**64 children at most")
            self._spawned += n
        return [self.split(start + i) for i in range(n)]

    @property
    def state(self):
        """key, stream, split path (empty), position, children spawned.
        A child's key is its own (stream 0): never its parent's."""
        key, stream, path = self._stream.origin
        return {"bit_generator": "ARC4",
                "state": {"key": key.hex(), "stream": stream,
                          "split": list(path), "position": self.tell(),
                          "spawned": self._spawned}}

    @state.setter
    def state(self, value):
        if value.get("bit_generator") != "ARC4":
            raise ValueError("not an ARC4 state")
        st = value["state"]
        new = _restore(bytes.fromhex(st["key"]), st["stream"],
                       tuple(st["split"]), st["position"])
        with self.lock:
            # In place: a numpy Generator holds this object's capsule.
            self._stream._assign(new)
            self._stream._origin = new.origin
            self._spawned = int(st.get("spawned", 0))

    # numpy's protocol: (constructor, (name,), state); a Generator's
    # pickle calls the constructor with the name, then sets the state.
    def __reduce__(self):
        return (_from_name, ("ARC4",), self.state)

    def __setstate__(self, state):
        self.state = state

    def __repr__(self):
        return "arc4.numpy.ARC4(%r)" % (self._stream,)


def _from_name(name):
    if name != "ARC4":
        raise ValueError("not an ARC4 state")
    return ARC4(bytes(32))
