"""The one random source of the engine.

`Rng` is SplitMix64 on Python integers: the same seed gives the same numbers on every
Python version, in CPython and in Pyodide, and its whole state is one integer, so a round
or a session can be saved and replayed exactly. `below(n)` is unbiased (rejection
sampling). Default seeds come from the system's secure source (`random.SystemRandom`:
the browser's crypto inside Pyodide).
"""

from __future__ import annotations

import struct
from collections.abc import Sequence
from functools import lru_cache
from random import SystemRandom

__all__ = ["MASK64", "Rng", "ScriptedRng", "new_seed"]

MASK64 = (1 << 64) - 1
_GAMMA = 0x9E3779B97F4A7C15
_M1 = 0xBF58476D1CE4E5B9
_M2 = 0x94D049BB133111EB


def new_seed() -> int:
    """A fresh 64-bit seed from the operating system's (or browser's) secure source."""
    return SystemRandom().getrandbits(64)


class Rng:
    """Deterministic 64-bit generator (SplitMix64)."""

    __slots__ = ("state",)

    def __init__(self, seed: int) -> None:
        if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed <= MASK64:
            raise ValueError(f"seed must be an integer from 0 to 2**64-1, not {seed!r}")
        self.state = seed

    @classmethod
    def from_state(cls, state: int) -> Rng:
        """A generator at ``state`` without the seed check (the caller holds a valid 64-bit value)."""
        rng = cls.__new__(cls)
        rng.state = state
        return rng

    def next64(self) -> int:
        """The next 64-bit output."""
        self.state = s = (self.state + _GAMMA) & MASK64
        z = ((s ^ (s >> 30)) * _M1) & MASK64
        z = ((z ^ (z >> 27)) * _M2) & MASK64
        return z ^ (z >> 31)

    def next64s(self, count: int) -> list[int]:
        """The next ``count`` outputs of `next64`, in order, worked out side by side.

        SplitMix64's states step by a constant whatever the outputs are, so ``count`` of
        them are mixed at once, as 64-bit lanes 128 bits apart in one big integer (a lane
        times a 64-bit constant stays within its lane; the bits a right shift brings down
        from the next lane are masked off). CPython's cost is mostly per operation, not
        per bit, so 16 outputs cost about a quarter of 16 calls to `next64`.
        """
        if count <= 0:
            return []
        ones, steps, lanes, layout = _lanes(count)
        state = self.state & MASK64
        p = (state * ones + steps) & lanes  # lane i: the state after i + 1 steps
        self.state = (state + count * _GAMMA) & MASK64
        z = (((p ^ (p >> 30)) & lanes) * _M1) & lanes
        z = (((z ^ (z >> 27)) & lanes) * _M2) & lanes
        z ^= z >> 31
        return list(layout.unpack(z.to_bytes(16 * count, "little")))

    def state_back(self, count: int) -> int:
        """The state ``count`` outputs ago: before the last ``count`` draws of `next64`."""
        if not count:
            return self.state
        return (self.state - count * _GAMMA) & MASK64

    def below(self, n: int) -> int:
        """A uniform integer in ``range(n)``, without modulo bias."""
        if n <= 0:
            raise ValueError(f"below() needs a positive bound, not {n}")
        if n > 1 << 64:
            return self._below_big(n)
        while True:
            self.state = s = (self.state + _GAMMA) & MASK64
            z = ((s ^ (s >> 30)) * _M1) & MASK64
            z = ((z ^ (z >> 27)) * _M2) & MASK64
            z ^= z >> 31
            # Rejected: the top 2**64 % n values (an incomplete block of n). They all lie
            # above 2**64 - n, so that cheaper test settles almost every draw.
            if z <= (1 << 64) - n or z < (1 << 64) - (1 << 64) % n:
                return z % n

    def _below_big(self, n: int) -> int:
        """`below` for bounds past 2**64: whole 64-bit words, trimmed to n's bit length."""
        bits = n.bit_length()
        words = (bits + 63) // 64
        while True:
            x = 0
            for _ in range(words):
                x = (x << 64) | self.next64()
            x >>= words * 64 - bits
            if x < n:
                return x

    def weighted(self, weights: Sequence[int]) -> int:
        """An index drawn with probability proportional to the integer ``weights``."""
        total = sum(weights)
        x = self.below(total)
        for i, w in enumerate(weights):
            if x < w:
                return i
            x -= w
        raise AssertionError("unreachable: weights changed while drawing")


@lru_cache(maxsize=8)
def _lanes(count: int) -> tuple[int, int, int, struct.Struct]:
    """For `Rng.next64s`: 1 in every lane; lane i's steps (i + 1) x gamma; every lane's mask;
    and the unpacking of each lane's low 64 bits (the high half holds shifted-in bits)."""
    ones = sum(1 << (128 * i) for i in range(count))
    steps = sum(((i + 1) * _GAMMA) << (128 * i) for i in range(count))
    return ones, steps, ones * MASK64, struct.Struct("<" + "Q8x" * count)


class ScriptedRng(Rng):
    """A source that returns given values, for tests that need a chosen outcome.

    Each call to `below`/`weighted` takes the next scripted value (it must lie in range);
    when the script is used up it falls back to SplitMix64 from ``seed``.
    """

    __slots__ = ("script",)

    def __init__(self, script: Sequence[int], seed: int = 0) -> None:
        super().__init__(seed)
        self.script = list(script)

    def below(self, n: int) -> int:
        if self.script:
            v = self.script.pop(0)
            if not 0 <= v < n:
                raise ValueError(f"scripted value {v} is outside range({n})")
            return v
        return super().below(n)

    def weighted(self, weights: Sequence[int]) -> int:
        if self.script:
            v = self.script.pop(0)
            if not 0 <= v < len(weights) or weights[v] == 0:
                raise ValueError(f"scripted index {v} cannot be drawn from weights {list(weights)}")
            return v
        return super().weighted(weights)
