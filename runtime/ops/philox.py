"""TensorFlow's Philox4x32-10 generator, drawn one 32-bit word at a time as TF's kernels draw it.

Philox (Salmon et al., "Parallel random numbers: as easy as 1, 2, 3", SC 2011) encrypts a 128-bit
counter under a 64-bit key.  TF seeds it with two 64-bit seeds: the first is the key, the second
the upper half of the counter; each block gives four words, used in order.  ``tf.data``'s shuffle
draws from it, so the same seeds give TF's order (see runtime/data.py).
"""

import numpy as np

__all__ = ["Philox"]

_M0, _M1 = np.uint64(0xD2511F53), np.uint64(0xCD9E8D57)
_W0, _W1 = 0x9E3779B9, 0xBB67AE85
_MASK32 = 0xFFFFFFFF
_CHUNK = 256  # blocks computed at once (the sequence is the same whatever the chunk)


class Philox:
    """``Philox(seed, seed2)()`` -> the next uint32 (TF: PhiloxRandom + SingleSampleAdapter)."""

    def __init__(self, seed, seed2):
        seed, seed2 = int(seed) & (2 ** 64 - 1), int(seed2) & (2 ** 64 - 1)
        self._key = (seed & _MASK32, seed >> 32)
        self._high = (seed2 & _MASK32, seed2 >> 32)   # counter words 2 and 3
        self._low = 0                                # counter words 0 and 1, as one integer
        self._words = []
        self._pos = 0

    def _blocks(self, count):
        low = [(self._low + i) for i in range(count)]
        self._low += count
        high = [(self._high[0] | self._high[1] << 32) + (v >> 64) for v in low]  # 128-bit carry
        index = np.array([v & (2 ** 64 - 1) for v in low], dtype=np.uint64)
        high = np.array([v & (2 ** 64 - 1) for v in high], dtype=np.uint64)
        c0, c1 = index & np.uint64(_MASK32), index >> np.uint64(32)
        c2, c3 = high & np.uint64(_MASK32), high >> np.uint64(32)
        k0, k1 = self._key
        mask = np.uint64(_MASK32)
        for _ in range(10):
            p0, p1 = _M0 * c0, _M1 * c2
            c0, c1, c2, c3 = ((p1 >> np.uint64(32)) ^ c1 ^ np.uint64(k0), p1 & mask,
                              (p0 >> np.uint64(32)) ^ c3 ^ np.uint64(k1), p0 & mask)
            k0, k1 = (k0 + _W0) & _MASK32, (k1 + _W1) & _MASK32
        return np.stack([c0, c1, c2, c3], axis=1).reshape(-1).tolist()

    def __call__(self):
        if self._pos == len(self._words):
            self._words = self._blocks(_CHUNK)
            self._pos = 0
        word = self._words[self._pos]
        self._pos += 1
        return word
