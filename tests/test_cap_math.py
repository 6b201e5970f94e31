"""The free-spin cap's tools: one spin's exact win distribution, and a feature compounded under a cap.

`spin_distribution` is checked against enumerating every stop combination of small reels;
`capped_feature` (float64 FFT) against the same computation in exact fractions. A game's own
cap term, built from them, is checked in its folder (``tests/games/<id>/``), against its exact
expectations and against its own feature code played many times.
"""

from __future__ import annotations

import itertools
import math
import sys
from collections import Counter
from collections.abc import Mapping
from fractions import Fraction

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from pyengine.errors import EngineError
from pyengine.evaluators import LineEvaluator
from pyengine.math import compound
from pyengine.math.compound import capped_feature
from pyengine.math.poly import fast_length as _fast_length
from pyengine.math.exact import spin_distribution
from pyengine.model import Payline, Paytable, ReelSet

PAYS = Paytable({"H": {2: 4, 3: 20, 4: 60, 5: 200}, "L": {3: 2, 4: 5, 5: 10}, "M": {1: 1, 3: 8, 5: 30}})
LINES = (
    Payline(1, (0, 0, 0, 0, 0)),
    Payline(2, (1, 1, 1, 1, 1)),
    Payline(3, (0, 1, 1, 1, 0)),
    Payline(4, (1, 0, 0, 0, 1)),
)
SCATTER_PAYS = {2: 1, 3: 5, 4: 50, 5: 500}


def _brute(rs: ReelSet, wild_pays_as: str | None, nosub: tuple[str, ...], expand: str) -> dict[tuple[int, bool], int]:
    """Every stop combination through the engine's line evaluator, with the scatter and an expansion."""
    ev = LineEvaluator(LINES, PAYS, wild="W", wild_pays_as=wild_pays_as, not_substituted=nosub)
    out: Counter[tuple[int, bool]] = Counter()
    for stops in itertools.product(*(range(len(s)) for s in rs.strips)):
        window = rs.window(stops)
        win = sum(r.multiplier for r in ev.evaluate(window, len(LINES)))
        scatters = sum(col.count("S") for col in window)
        reels = sum(expand in col for col in window)
        win += len(LINES) * (SCATTER_PAYS.get(scatters, 0) + PAYS.pay(expand, reels))
        out[(win, scatters >= 3)] += 1
    return dict(out)


def _dp(rs: ReelSet, wild_pays_as: str | None, nosub: tuple[str, ...], expand: str) -> dict[tuple[int, bool], int]:
    return spin_distribution(
        rs,
        LINES,
        PAYS,
        wild="W",
        wild_pays_as=wild_pays_as,
        not_substituted=nosub,
        counts=lambda col: (col.count("S"), int(expand in col)),
        settle=lambda c: (len(LINES) * (SCATTER_PAYS.get(c[0], 0) + PAYS.pay(expand, c[1])), c[0] >= 3),
    )


@given(
    strips=st.lists(st.lists(st.sampled_from("WHLMS"), min_size=3, max_size=5).map(tuple), min_size=5, max_size=5),
    wild_pays_as=st.sampled_from(["H", "L", None]),
    nosub=st.sampled_from([(), ("H",), ("M",)]),
    expand=st.sampled_from("HLM"),
)
@settings(max_examples=40, deadline=None)
def test_spin_distribution_equals_enumeration(
    strips: list[tuple[str, ...]], wild_pays_as: str | None, nosub: tuple[str, ...], expand: str
) -> None:
    rs = ReelSet(tuple(strips), rows=2)
    got = _dp(rs, wild_pays_as, nosub, expand)
    assert got == _brute(rs, wild_pays_as, nosub, expand)
    assert sum(got.values()) == rs.radix


# -- compounding under the cap: float64 FFT against exact fractions --------------------------------------------
def _exact_capped(spin: Mapping[tuple[int, bool], int], start: int, award: int, cap: int) -> tuple[Fraction, Fraction]:
    """(E[(S - cap)+], P(S > cap)) in fractions; every retriggering spin must win at least 1."""
    total = sum(spin.values())
    assert all(w >= 1 for (w, again) in spin if again)
    size = cap + 1

    def mul(x: list[Fraction], y: list[Fraction]) -> list[Fraction]:
        out = [Fraction(0)] * size
        for i, p in enumerate(x):
            if p:
                for j in range(size - i):
                    if y[j]:
                        out[i + j] += p * y[j]
        return out

    def power(x: list[Fraction], k: int) -> list[Fraction]:
        out = [Fraction(1)] + [Fraction(0)] * cap
        for _ in range(k):
            out = mul(out, x)
        return out

    a = [Fraction(0)] * size
    b = [Fraction(0)] * size
    for (w, again), n in spin.items():
        if w <= cap:
            (b if again else a)[w] += Fraction(n, total)
    t = list(a)
    # Each generation of retriggers adds at least 1 to the win: cap + 1 rounds fix every coefficient.
    for _ in range(size):
        t = [x + y for x, y in zip(a, mul(b, power(t, award)), strict=True)]
    g = power(t, start)
    mean_x = Fraction(sum(w * n for (w, _), n in spin.items()), total)
    p_re = Fraction(sum(n for (_, again), n in spin.items() if again), total)
    mean = start * mean_x / (1 - award * p_re)
    over = 1 - sum(g, Fraction(0))
    capped = sum((min(s, cap) * p for s, p in enumerate(g)), Fraction(0)) + cap * over
    return mean - capped, over


CASES = [
    ({(0, False): 50, (3, False): 30, (10, False): 15, (40, False): 4, (5, True): 1}, 3, 3, 30),
    ({(0, False): 6, (2, False): 3, (25, False): 1}, 4, 1, 40),  # no retrigger at all
    ({(0, False): 20, (1, False): 5, (2, True): 2, (9, True): 1, (70, False): 1}, 2, 2, 25),
]


@pytest.mark.parametrize(("spin", "start", "award", "cap"), CASES)
def test_capped_feature_equals_exact_fractions(
    spin: dict[tuple[int, bool], int], start: int, award: int, cap: int
) -> None:
    excess, over = _exact_capped(spin, start, award, cap)
    got = capped_feature(spin, start=start, award=award, cap=cap)
    assert excess > 0
    assert got.excess == pytest.approx(float(excess), rel=1e-10, abs=1e-13)
    assert got.over == pytest.approx(float(over), rel=1e-10, abs=1e-13)
    total = sum(spin.values())
    mean_x = Fraction(sum(w * n for (w, _), n in spin.items()), total)
    assert got.mean >= start * mean_x


@given(
    wins=st.lists(st.tuples(st.integers(0, 30), st.booleans(), st.integers(1, 20)), min_size=1, max_size=6),
    start=st.integers(1, 4),
    award=st.integers(1, 3),
    cap=st.integers(0, 25),
)
@settings(max_examples=25, deadline=None)
def test_capped_feature_random(wins: list[tuple[int, bool, int]], start: int, award: int, cap: int) -> None:
    spin: Counter[tuple[int, bool]] = Counter({(0, False): 60})
    for w, again, n in wins:
        spin[(max(w, 1) if again else w, again)] += n
    p_re = Fraction(sum(n for (_, again), n in spin.items() if again), sum(spin.values()))
    assume(award * p_re < Fraction(1, 2))
    excess, over = _exact_capped(spin, start, award, cap)
    got = capped_feature(spin, start=start, award=award, cap=cap)
    assert got.excess == pytest.approx(float(excess), rel=1e-9, abs=1e-12)
    assert got.over == pytest.approx(float(over), rel=1e-9, abs=1e-12)


@pytest.mark.parametrize(
    ("p", "start", "award"),
    [(Fraction(9, 2000), 10, 10), (Fraction(1, 7), 3, 2), (Fraction(2, 5), 1, 1), (Fraction(1, 40), 12, 3)],
)
def test_the_retrigger_terms_are_the_hitting_time_law_and_leave_out_less_than_the_tolerance(
    p: Fraction, start: int, award: int
) -> None:
    # P(R retriggers) = start / n C(n, R) p^R (1 - p)^(n - R), n = start + award R, in fractions.
    terms = compound._lagrange_terms(float(p), start, award, limit=10_000)
    assert terms is not None
    exact = []
    for r in range(len(terms)):
        n = start + award * r
        exact.append(Fraction(start, n) * math.comb(n, r) * p**r * (1 - p) ** (n - r))
    for got, want in zip(terms, exact, strict=True):
        assert got == pytest.approx(float(want), rel=1e-12)
    assert 1 - sum(exact, Fraction(0)) <= compound.TOLERANCE * (1 + 1e-9)
    assert 1 - sum(exact[:-1], Fraction(0)) > compound.TOLERANCE / 1000  # not many more than needed


def test_near_the_critical_rate_the_generations_are_iterated_and_still_exact() -> None:
    # award x P(retrigger) = 0.9: the terms fall too slowly, and the iteration over generations is
    # cheaper; both give the exact fractions' answer.
    spin = {(0, False): 40, (4, False): 30, (2, True): 30}
    p = Fraction(30, 100)
    assert compound._lagrange_terms(float(p), 2, 3, limit=compound._iteration_rounds(0.3, 2, 3) * 6) is None
    excess, over = _exact_capped(spin, 2, 3, 20)
    got = capped_feature(spin, start=2, award=3, cap=20)
    assert got.rounds == compound._iteration_rounds(0.3, 2, 3)
    assert got.excess == pytest.approx(float(excess), rel=1e-9, abs=1e-12)
    assert got.over == pytest.approx(float(over), rel=1e-9, abs=1e-12)


def test_capped_feature_refuses_bad_input() -> None:
    with pytest.raises(EngineError, match="retrigger too often"):
        capped_feature({(1, True): 1, (0, False): 1}, start=10, award=10, cap=100)
    with pytest.raises(EngineError, match="non-negative wins"):
        capped_feature({(-1, False): 1}, start=1, award=1, cap=10)
    with pytest.raises(EngineError, match="cap must be"):
        capped_feature({(1, False): 1}, start=0, award=1, cap=10)


def _smooth(m: int) -> bool:
    for p in (2, 3, 5):
        while m % p == 0:
            m //= p
    return m == 1


@pytest.mark.parametrize("n", [1, 2, 7, 97, 90_001, 450_001])
def test_fast_length(n: int) -> None:
    got = _fast_length(n)
    assert got >= n
    assert _smooth(got)
    assert not any(_smooth(m) for m in range(n, got))


def test_without_numpy_the_cap_term_says_what_to_install(monkeypatch: pytest.MonkeyPatch) -> None:
    # numpy is a tool dependency (the cli extra): an engine installed without it plays every game,
    # and the cap term says what it needs.
    monkeypatch.setitem(sys.modules, "numpy", None)  # import numpy now raises ImportError
    with pytest.raises(EngineError, match=r"needs numpy: pip install 'pyengine\[cli\]'"):
        capped_feature({(0, False): 1, (2, False): 1}, start=2, award=1, cap=3)
