"""A free-spins feature under a cumulative win cap, from the exact win distribution of one spin.

A feature starts with ``start`` spins. Every spin is alike: its win X and whether it
retriggers come from one joint distribution, and a retrigger adds ``award`` spins. The
feature's uncapped total S is then a sum over a forest: each spin is a node, a
retriggering spin has ``award`` children and the ``start`` first spins are the roots (the
order in which the spins are played does not change the sum). With the generating
functions A(z) = E[z^X; no retrigger] and B(z) = E[z^X; retrigger], one tree's total has
the generating function T with T = A + B T^award, and S has G = T^start.

The cap pays min(S, cap), so what it takes is E[(S - cap)+] = E[S] - E[min(S, cap)], with
E[S] = start E[X] / (1 - award P(retrigger)) exact and E[min(S, cap)] needing only the
coefficients of G up to z^cap. Those come from the iteration T <- A + B T^award, each
polynomial cut after z^cap: round k holds every tree of at most k generations, so the
mass still missing falls by the factor award x P(retrigger) per round, and the rounds
run until it is below `TOLERANCE`. Products of
polynomials use numpy's FFT in float64 (lengths chosen so that nothing wraps around);
the result is accurate to about 1e-12 of the cap (tests check it against exact fractions).

numpy is a tool dependency (the ``cli`` extra), imported only when this runs: the engine
that plays the games has no runtime dependency.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from ..errors import EngineError

__all__ = ["CappedFeature", "capped_feature", "capped_total"]

TOLERANCE = 1e-17
"""The probability the iteration may leave out (trees with more generations than it ran)."""


@dataclass(frozen=True, slots=True)
class CappedFeature:
    """A feature's total S against its cap, in the units of the spin wins."""

    mean: Fraction
    """E[S] without the cap (exact)."""
    excess: float
    """E[(S - cap)+]: what the cap takes from an average feature."""
    over: float
    """P(S > cap): how often the cap ends a feature."""
    rounds: int
    """Rounds of the iteration (generations of retriggers taken into account)."""


def _fast_length(n: int) -> int:
    """The smallest 2^a 3^b 5^c >= n (a length numpy's FFT handles fast)."""
    best = 1 << max(n - 1, 0).bit_length()
    p5 = 1
    while p5 < best:
        p35 = p5
        while p35 < best:
            m = p35
            while m < n:
                m *= 2
            best = min(best, m)
            p35 *= 3
        p5 *= 5
    return best


def _numpy() -> Any:
    try:
        import numpy
    except ImportError:
        raise EngineError("the free-spin cap term needs numpy: pip install 'pyengine[cli]'") from None
    return numpy


def capped_feature(spin: Mapping[tuple[int, bool], int], *, start: int, award: int, cap: int) -> CappedFeature:
    """E[(S - cap)+] and P(S > cap) for a feature whose spins follow ``spin``.

    ``spin`` maps (win, retriggers) to a weight (for example a number of stop
    combinations); wins are non-negative integers and ``cap`` is in the same unit.
    """
    mean, g, rounds = _below_cap(spin, start=start, award=award, cap=cap)
    np = _numpy()
    below = g[:cap]
    gap = np.arange(cap, 0, -1, dtype=float)  # cap - s for s = 0 .. cap - 1
    # E[(S - cap)+] = E[S] - cap + sum over s < cap of (cap - s) P(S = s)
    excess = float(mean - cap) + float(np.dot(gap, below))
    over = 1.0 - float(np.sum(g))
    return CappedFeature(mean, max(excess, 0.0), max(over, 0.0), rounds)


def capped_total(spin: Mapping[tuple[int, bool], int], *, start: int, award: int, cap: int) -> Any:
    """The distribution of what the feature pays, min(S, ``cap``): a numpy array whose entry s
    is P(min(S, cap) = s) for s = 0 .. ``cap`` (the last holds P(S >= cap)), in float64."""
    _, g, _ = _below_cap(spin, start=start, award=award, cap=cap)
    out = g.copy()
    out[cap] = max(0.0, 1.0 - float(out[:cap].sum()))
    out[out < 0] = 0.0  # the FFT's rounding noise around zero
    return out


def _below_cap(spin: Mapping[tuple[int, bool], int], *, start: int, award: int, cap: int) -> tuple[Fraction, Any, int]:
    """E[S] (exact), the coefficients of G up to z^cap and the rounds of the iteration."""
    if cap < 0 or start < 1 or award < 1:
        raise EngineError("cap must be >= 0 and start, award >= 1")
    total = sum(spin.values())
    if total <= 0 or any(w < 0 or n < 0 for (w, _), n in spin.items()):
        raise EngineError("the spin distribution needs non-negative wins and a positive total weight")
    mean_x = Fraction(sum(w * n for (w, _), n in spin.items()), total)
    p_re = Fraction(sum(n for (_, again), n in spin.items() if again), total)
    if award * p_re >= 1:
        raise EngineError("the spins retrigger too often: the expected number of spins is infinite")
    mean = start * mean_x / (1 - award * p_re)

    np = _numpy()
    size = cap + 1  # coefficients z^0 .. z^cap
    a = np.zeros(size)
    b = np.zeros(size)
    for (w, again), n in spin.items():
        if w <= cap:
            (b if again else a)[w] += n / total
    length = _fast_length(2 * cap + 1)  # a product of two cut polynomials does not wrap around
    fft, ifft = np.fft.rfft, np.fft.irfft

    def product(x: Any, y: Any) -> Any:
        fx = fft(x, length)
        return ifft(fx * (fx if y is x else fft(y, length)), length)[:size]

    def power(t: Any, k: int) -> Any:
        """t^k cut after z^cap, by repeated squaring."""
        out = None
        while True:
            if k & 1:
                out = t if out is None else product(out, t)
            k >>= 1
            if not k:
                return out
            t = product(t, t)

    # After k rounds every tree of more than k generations is missing: for one root at most
    # (award x P(retrigger))^k of the probability, for the feature ``start`` times that.
    rounds = 1
    if p_re:
        rounds = max(1, math.ceil(math.log(TOLERANCE / start) / math.log(float(award * p_re))))
    t = a
    for _ in range(rounds):
        t = a + product(b, power(t, award))
    return mean, power(t, start), rounds
