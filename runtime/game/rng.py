# cython: annotation_typing=False
"""The game's random numbers: SplitMix64, the same interpreted and compiled (Cython's pure-Python mode, typed by
rng.pxd), from any integer seed. The wall's shuffle, the dice and the built-in agents' choices all draw from it."""
from __future__ import annotations

MASK64 = 0xFFFFFFFFFFFFFFFF
_GOLDEN = 0x9E3779B97F4A7C15
_MIX1 = 0xBF58476D1CE4E5B9
_MIX2 = 0x94D049BB133111EB


class Rng:
    """SplitMix64: the game's and the built-in agents' random numbers. The same numbers interpreted and
    compiled (every step is reduced modulo 2**64), from any integer seed."""

    def __init__(self, seed: int = 0):
        x = seed if seed >= 0 else ~seed
        state = 0x6A09E667F3BCC909 if seed >= 0 else 0xBB67AE8584CAA73B
        while True:  # every 64-bit word of the seed, least significant first
            state = _mix64((state ^ (x & MASK64)) & MASK64)
            x >>= 64
            if not x:
                break
        self.state = state

    def next64(self) -> int:
        """The next 64-bit number."""
        self.state = (self.state + _GOLDEN) & MASK64
        return _mix64(self.state)

    def below(self, n: int) -> int:
        """A number in 0..n-1 (n >= 1)."""
        return ((self.next64() >> 32) * n) >> 32

    def shuffle(self, items: list) -> None:
        """Fisher-Yates, in place."""
        i = len(items) - 1
        while i > 0:
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]
            i -= 1


def _mix64(z: int) -> int:
    z = ((z ^ (z >> 30)) * _MIX1) & MASK64
    z = ((z ^ (z >> 27)) * _MIX2) & MASK64
    return z ^ (z >> 31)
