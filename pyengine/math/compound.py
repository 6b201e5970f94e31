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
coefficients of G up to z^cap, each polynomial cut after z^cap. A forest with R
retriggering spins has n = start + award R spins, and by the hitting-time theorem (the
cycle lemma) there are start / n C(n, R) orders of its spins' kinds, so
G = sum over R of start / n C(n, R) A^(n - R) B^R = A^start H(A^(award - 1) B), a polynomial
H with known coefficients, evaluated by Horner's rule: one product per term, the terms
taken until what they leave out is below `TOLERANCE` (a bound on the terms' ratio).
Near the critical rate (award x P(retrigger) close to 1) the terms fall slowly; where
they would cost more products, G comes from the iteration T <- A + B T^award instead:
round k holds every tree of at most k generations, so the mass still missing falls by the
factor award x P(retrigger) per round. For a feature of 10 spins, 10 more a retrigger and
P(retrigger) about 0.0045, that is 16 terms, some 26 products, against 14 rounds, some 74
products. Products of
polynomials are FFTs in float64 (`pyengine.math.poly`: numpy's, or the browser math page's
own); the result is accurate to about 1e-12 of the cap (tests check it against exact
fractions). The engine that plays the games has no runtime dependency.

`random_sum` gives the distribution of a feature without a cap or retriggers whose number of
spins is drawn from a table: the sum of N independent spins. `tilt_rate` chooses how far to
tilt the polynomials of such a chain of products so that their far tail keeps its digits.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction

from ..errors import EngineError
from .poly import product

__all__ = ["TILT_MASS", "CappedFeature", "capped_feature", "capped_total", "random_sum", "tilt_rate"]

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


def capped_feature(spin: Mapping[tuple[int, bool], int], *, start: int, award: int, cap: int) -> CappedFeature:
    """E[(S - cap)+] and P(S > cap) for a feature whose spins follow ``spin``.

    ``spin`` maps (win, retriggers) to a weight (for example a number of stop
    combinations); wins are non-negative integers and ``cap`` is in the same unit.
    """
    mean, g, rounds = _below_cap(spin, start=start, award=award, cap=cap)
    # E[(S - cap)+] = E[S] - cap + sum over s < cap of (cap - s) P(S = s)
    excess = float(mean - cap) + math.fsum((cap - s) * g[s] for s in range(cap))
    over = 1.0 - math.fsum(g)
    return CappedFeature(mean, max(excess, 0.0), max(over, 0.0), rounds)


def capped_total(spin: Mapping[tuple[int, bool], int], *, start: int, award: int, cap: int) -> list[float]:
    """The distribution of what the feature pays, min(S, ``cap``): a list whose entry s is
    P(min(S, cap) = s) for s = 0 .. ``cap`` (the last holds P(S >= cap)), in float64."""
    _, g, _ = _below_cap(spin, start=start, award=award, cap=cap)
    out = [max(p, 0.0) for p in g]  # the FFT's rounding noise around zero set to 0
    out[cap] = max(0.0, 1.0 - math.fsum(out[:cap]))
    return out


_KEPT: list[tuple[Mapping[tuple[int, bool], int], int, int, int, tuple[Fraction, list[float], int]]] = []
"""The last results of `_below_cap`, by the spin mapping's identity (a report and its
distribution ask for the same features)."""
KEEP = 16


def _below_cap(
    spin: Mapping[tuple[int, bool], int], *, start: int, award: int, cap: int
) -> tuple[Fraction, list[float], int]:
    """E[S] (exact), the coefficients of G up to z^cap and the rounds of the iteration
    (kept for the last `KEEP` spin mappings asked about, which must not change)."""
    for known, s, a, c, result in _KEPT:
        if known is spin and (s, a, c) == (start, award, cap):
            return result
    result = _compute_below_cap(spin, start=start, award=award, cap=cap)
    _KEPT[:] = [*_KEPT[-(KEEP - 1) :], (spin, start, award, cap, result)]
    return result


def _compute_below_cap(
    spin: Mapping[tuple[int, bool], int], *, start: int, award: int, cap: int
) -> tuple[Fraction, list[float], int]:
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

    size = cap + 1  # coefficients z^0 .. z^cap
    a = [0.0] * size
    b = [0.0] * size
    for (w, again), n in spin.items():
        if w <= cap:
            (b if again else a)[w] += n / total
    p = float(p_re)
    rounds = _iteration_rounds(p, start, award)
    terms = _lagrange_terms(p, start, award, limit=rounds * (_power_cost(award) + 1))
    if terms is not None:
        return mean, _by_retriggers(a, b, terms, p, start, award, size), len(terms) - 1
    return mean, _by_generations(a, b, rounds, start, award, size), rounds


def _power(t: list[float], k: int, size: int) -> list[float]:
    """t^k (k >= 1) cut after ``size`` coefficients, by repeated squaring."""
    out: list[float] | None = None
    while True:
        if k & 1:
            out = t if out is None else product(out, t, size)
        k >>= 1
        if not k:
            assert out is not None
            return out
        t = product(t, t, size)


def _power_cost(k: int) -> int:
    """The products `_power` makes for t^k."""
    return k.bit_length() - 1 + bin(k).count("1") - 1


def _iteration_rounds(p: float, start: int, award: int) -> int:
    """Rounds of T <- A + B T^award that leave out less than `TOLERANCE`: after k rounds every
    tree of more than k generations is missing, for one root at most (award p)^k of the
    probability, for the feature ``start`` times that."""
    if not p:
        return 1
    return max(1, math.ceil(math.log(TOLERANCE / start) / math.log(award * p)))


def _by_generations(a: list[float], b: list[float], rounds: int, start: int, award: int, size: int) -> list[float]:
    """G = T^start with T iterated ``rounds`` times from A: T <- A + B T^award."""
    t = a
    for _ in range(rounds):
        t = [x + y for x, y in zip(a, product(b, _power(t, award, size), size), strict=True)]
    return _power(t, start, size)


def _lagrange_terms(p: float, start: int, award: int, *, limit: int) -> list[float] | None:
    """P(the feature has R retriggering spins), R = 0 .. M, with M the fewest that leave out less
    than `TOLERANCE`; None when that takes more than ``limit`` terms.

    A feature with R retriggers plays n = start + award R spins, and by the hitting-time
    theorem (the cycle lemma) P(R) = start / n C(n, R) p^R q^(n - R), q = 1 - p. The ratio
    of consecutive terms is r_R = p q^(award-1) n / (R + 1) prod_{i<award} (n + i) / (n - R + i);
    the product grows towards (award / (award - 1))^(award - 1) and n / (R + 1) is at most
    award + max(0, start - award) / (R + 1), so every later ratio is at most
    rho_R = p q^(award-1) award^award / (award - 1)^(award - 1) (1 + max(0, start - award) /
    (award (R + 1))), and the terms after R add up to at most P(R + 1) / (1 - rho_(R + 1)).
    """
    q = 1.0 - p
    k = award
    rho = p * q ** (k - 1) * k**k / (k - 1) ** (k - 1) if k > 1 else p
    terms = [q**start]
    r = 0
    while True:
        n = start + k * r
        ratio = p * q ** (k - 1) * n / (r + 1)
        for i in range(1, k):
            ratio *= (n + i) / (n - r + i)
        following = terms[-1] * ratio  # P(r + 1)
        bound = rho * (1 + max(0, start - k) / (k * (r + 2)))
        if bound < 1 and following / (1 - bound) <= TOLERANCE:
            return terms
        if len(terms) > limit:
            return None
        terms.append(following)
        r += 1


def _by_retriggers(
    a: list[float], b: list[float], terms: list[float], p: float, start: int, award: int, size: int
) -> list[float]:
    """G = sum over R of start / n C(n, R) A^(n - R) B^R (n = start + award R), the terms of
    `_lagrange_terms`: G = A^start H(Q) with Q = A^(award - 1) B, evaluated by Horner's rule
    on Q scaled to its mass m = p q^(award - 1), whose coefficients are P(R) / q^start."""
    if len(terms) == 1:
        return _power(a, start, size)
    mass = p * (1.0 - p) ** (award - 1)
    qpoly = product(_power(a, award - 1, size), b, size) if award > 1 else b
    scaled = [x / mass for x in qpoly]
    coef = [t / terms[0] for t in terms]
    h = [c * coef[-1] for c in scaled]
    for c in reversed(coef[1:-1]):
        h[0] += c
        h = product(scaled, h, size)
    h[0] += coef[0]
    return product(_power(a, start, size), h, size)


def random_sum(x: Sequence[float], counts: Mapping[int, float], size: int) -> list[float]:
    """The distribution of X_1 + ... + X_N, cut after ``size`` coefficients: the X_i independent,
    each distributed as ``x`` (``x[k]`` = P(X = k)), N independent of them with P(N = n) =
    ``counts[n]``. Each power x^n needed is one product from a smaller one already known
    (the largest, times the power that makes up the difference), so a table of counts such
    as 5, 8, 10, ..., 50 costs about one product per count; products by `pyengine.math.poly`
    (float64), rounding noise around zero set to 0."""
    if any(n < 0 for n in counts) or size <= 0:
        raise EngineError("the number of terms must be >= 0 and the size positive")
    top = len(x) - 1
    while top > 0 and not x[top]:
        top -= 1
    known: dict[int, list[float]] = {1: list(x[: min(top + 1, size)])}

    def power(n: int) -> list[float]:
        got = known.get(n)
        if got is None:
            below = max(k for k in known if k < n)
            length = min(n * top + 1, size)
            got = known[n] = product(power(below), power(n - below), length)
        return got

    out = [0.0] * min(max(counts, default=0) * top + 1, size)
    for n in sorted(counts):
        p = counts[n]
        if n == 0:
            out[0] += p
            continue
        term = power(n)
        out[: len(term)] = [a + p * max(b, 0.0) for a, b in zip(out, term, strict=False)]
    return out + [0.0] * (size - len(out))


TILT_MASS = 8.0
"""How far `tilt_rate` lets a tilt raise the total probability of a polynomial it tilts."""


def tilt_rate(mass: Callable[[float], float], size: int) -> float:
    """The rate r at which to tilt the polynomials of a chain of products (coefficient w times
    e^(r w)) whose results run to ``size`` coefficients: the largest, by bisection, at which
    ``mass(r)`` (the largest total of a tilted polynomial of the chain, such as E[e^(r W)] of
    the final distribution) stays below `TILT_MASS`, and at most 600 / size (no coefficient
    tilted beyond e^600, far from the float64 limit).

    Why: the product of tilted polynomials is the tilted product, and an FFT product is exact
    to about 1e-16 of its largest coefficient; once the tilt is undone that error is e^(r w)
    times smaller at coefficient w, so a far tail well below 1e-16 keeps its digits, while near
    the head the error grows by at most the tilted total. ``mass`` must grow with r."""

    def low_enough(rate: float) -> bool:
        try:
            return mass(rate) <= TILT_MASS
        except OverflowError:
            return False

    low, high = 0.0, 600.0 / max(size, 1)
    if low_enough(high):
        return high
    for _ in range(12):  # the rate need not be sharp
        mid = (low + high) / 2
        low, high = (mid, high) if low_enough(mid) else (low, mid)
    return low
