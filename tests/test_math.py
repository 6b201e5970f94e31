"""pyengine.math: its building blocks (convolve, count_distribution, line_stats, max_spin_win)
against brute force on tiny reel sets, and the Monte Carlo simulation's own promises (the same
seed, the same rounds; bad arguments refused). Each game's exact RTP, and its simulation agreeing
with it, is checked in the game's own folder (``tests/games/<id>/``)."""

from __future__ import annotations

import itertools
from collections import Counter
from fractions import Fraction
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pyengine.errors import EngineError
from pyengine.evaluators import LineEvaluator
from pyengine.math.exact import convolve, count_distribution, line_stats, max_spin_win, visible_probability
from pyengine.math.rtp import rtp_report
from pyengine.math.simulate import simulate
from pyengine.model import Payline, Paytable, ReelSet
from tests.games import a_game, has_mode, lacks

GAME_ID = a_game()
"""The game the simulation's own checks play (any game)."""
NO_BUY = a_game(lacks(has_mode("buy")), "no feature buy")
"""A game without a ``buy`` mode."""


# -- convolve and friends ---------------------------------------------------------------------------------
def test_convolve() -> None:
    half = [Fraction(1, 2), Fraction(1, 2)]
    assert convolve([]) == [1]
    assert convolve([half]) == half
    assert convolve([half] * 3) == [Fraction(1, 8), Fraction(3, 8), Fraction(3, 8), Fraction(1, 8)]
    die = [Fraction(0)] + [Fraction(1, 6)] * 6
    two = convolve([die, die])
    assert len(two) == 13
    assert two[7] == Fraction(6, 36)
    assert sum(two) == 1
    assert convolve([[Fraction(1, 3), Fraction(0), Fraction(2, 3)], [Fraction(1, 4), Fraction(3, 4)]]) == [
        Fraction(1, 12),
        Fraction(3, 12),
        Fraction(2, 12),
        Fraction(6, 12),
    ]


@given(
    st.lists(st.lists(st.integers(0, 5), min_size=1, max_size=4).filter(lambda w: sum(w) > 0), min_size=1, max_size=4)
)
@settings(max_examples=50, deadline=None)
def test_convolve_equals_enumeration(weights: list[list[int]]) -> None:
    dists = [[Fraction(x, sum(w)) for x in w] for w in weights]
    expected: dict[int, Fraction] = {}
    for combo in itertools.product(*(range(len(d)) for d in dists)):
        p = Fraction(1)
        for d, k in zip(dists, combo, strict=True):
            p *= d[k]
        expected[sum(combo)] = expected.get(sum(combo), Fraction(0)) + p
    out = convolve(dists)
    assert all(out[k] == expected.get(k, 0) for k in range(len(out)))
    assert sum(out) == 1


def test_count_distribution_and_visible_probability() -> None:
    rs = ReelSet((("B", "x", "x", "B", "x"),), rows=3)
    # windows by stop: B x x, x x B, x B x, B x B (wraps), x B x -> Books 1, 1, 1, 2, 1
    assert count_distribution(rs, 0, lambda col: col.count("B")) == [0, Fraction(4, 5), Fraction(1, 5)]
    assert visible_probability(rs, 0, "B") == 1
    assert visible_probability(rs, 0, "x") == 1
    assert visible_probability(rs, 0, "nope") == 0


# -- line_stats against brute force on tiny reel sets ---------------------------------------------------------
TINY_PAYS = Paytable({"H": {2: 4, 3: 20, 4: 60, 5: 200}, "L": {3: 2, 4: 5, 5: 10}, "M": {1: 1, 3: 8, 5: 30}})
TINY_LINES = (Payline(1, (0, 0, 0, 0, 0)), Payline(2, (1, 1, 1, 1, 1)), Payline(3, (0, 1, 1, 1, 0)))


def _brute_line_stats(
    rs: ReelSet, wild_pays_as: str | None, nosub: tuple[str, ...]
) -> tuple[Fraction, Fraction, dict[tuple[str, int], Fraction]]:
    """Every stop combination, every payline: the average per line."""
    ev = LineEvaluator(TINY_LINES, TINY_PAYS, wild="W", wild_pays_as=wild_pays_as, not_substituted=nosub)
    n_lines = len(TINY_LINES)
    pay = hits = 0
    combos: Counter[tuple[str, int]] = Counter()
    for stops in itertools.product(*(range(len(s)) for s in rs.strips)):
        for r in ev.evaluate(rs.window(stops), n_lines):
            pay += r.multiplier
            hits += 1
            combos[(r.symbol, r.count)] += 1
    n = rs.radix * n_lines
    return Fraction(pay, n), Fraction(hits, n), {k: Fraction(v, n) for k, v in sorted(combos.items())}


TINY_STRIPS = (
    ("H", "L", "W", "M"),
    ("L", "H", "M"),
    ("W", "L", "L", "H"),
    ("M", "H", "L", "W"),
    ("H", "L", "M"),
)


@pytest.mark.parametrize("wild_pays_as", ["H", None])
@pytest.mark.parametrize("nosub", [(), ("H",), ("L", "M")])
def test_line_stats_brute_force(wild_pays_as: str | None, nosub: tuple[str, ...]) -> None:
    rs = ReelSet(TINY_STRIPS, rows=2)
    stats = line_stats(rs, TINY_PAYS, wild="W", wild_pays_as=wild_pays_as, not_substituted=nosub)
    ev, hit, combos = _brute_line_stats(rs, wild_pays_as, nosub)
    assert stats.ev == ev
    assert stats.hit == hit
    assert stats.by_combo == combos
    assert stats.ev > 0


@given(
    strips=st.lists(st.lists(st.sampled_from("WHLM"), min_size=2, max_size=4).map(tuple), min_size=5, max_size=5),
    wild_pays_as=st.sampled_from(["H", None]),
    nosub=st.sampled_from([(), ("H",), ("M",)]),
)
@settings(max_examples=40, deadline=None)
def test_line_stats_brute_force_random(
    strips: list[tuple[str, ...]], wild_pays_as: str | None, nosub: tuple[str, ...]
) -> None:
    rs = ReelSet(tuple(strips), rows=2)
    stats = line_stats(rs, TINY_PAYS, wild="W", wild_pays_as=wild_pays_as, not_substituted=nosub)
    assert (stats.ev, stats.hit, stats.by_combo) == _brute_line_stats(rs, wild_pays_as, nosub)


# -- max_spin_win against brute force -------------------------------------------------------------------------
def _brute_max(
    rs: ReelSet,
    paytable: Paytable,
    wild_pays_as: str | None,
    scatter: str | None,
    scatter_pays: dict[int, int],
    min_scatter: int,
    lines: tuple[Payline, ...] = TINY_LINES,
) -> int:
    ev = LineEvaluator(lines, paytable, wild="W", wild_pays_as=wild_pays_as)
    best = 0
    for stops in itertools.product(*(range(len(s)) for s in rs.strips)):
        w = rs.window(stops)
        win = sum(r.multiplier for r in ev.evaluate(w, len(lines)))
        if scatter is not None:
            count = sum(col.count(scatter) for col in w)
            if count < min_scatter:
                continue
            win += scatter_pays.get(count, 0) * len(lines)
        best = max(best, win)
    return best


@pytest.mark.parametrize("min_scatter", [0, 1, 2, 3])
def test_max_spin_win_brute_force(min_scatter: int) -> None:
    strips = tuple((*s, "S") for s in TINY_STRIPS)
    rs = ReelSet(strips, rows=2)
    pays = {2: 1, 3: 5, 4: 50}
    got = max_spin_win(
        rs, TINY_LINES, TINY_PAYS, wild="W", wild_pays_as="H", scatter="S", scatter_pays=pays, min_scatter=min_scatter
    )
    assert got == _brute_max(rs, TINY_PAYS, "H", "S", pays, min_scatter)


def test_max_spin_win_wild_prefix_worth_more_than_the_symbol() -> None:
    # W W W L L: the Books-only win (pays as H: 85) beats L, which pays nothing; the bound must see it.
    pays = Paytable({"H": {3: 85, 4: 103}, "L": {}})
    rs = ReelSet((("W",), ("W",), ("W",), ("L",), ("L",)), rows=1)
    line = (Payline(1, (0,) * 5),)
    got = max_spin_win(rs, line, pays, wild="W", wild_pays_as="H", scatter=None, scatter_pays={})
    assert got == 85 == _brute_max(rs, pays, "H", None, {}, 0, line)


@given(
    strips=st.lists(st.lists(st.sampled_from("WHLMS"), min_size=2, max_size=4).map(tuple), min_size=5, max_size=5),
    wild_pays_as=st.sampled_from(["H", "L", None]),
    min_scatter=st.integers(0, 3),
)
@settings(max_examples=40, deadline=None)
def test_max_spin_win_brute_force_random(
    strips: list[tuple[str, ...]], wild_pays_as: str | None, min_scatter: int
) -> None:
    rs = ReelSet(tuple(strips), rows=2)
    pays = {3: 3, 4: 30, 5: 300}
    got = max_spin_win(
        rs,
        TINY_LINES,
        TINY_PAYS,
        wild="W",
        wild_pays_as=wild_pays_as,
        scatter="S",
        scatter_pays=pays,
        min_scatter=min_scatter,
    )
    assert got == _brute_max(rs, TINY_PAYS, wild_pays_as, "S", pays, min_scatter)


# -- the simulation's own promises -----------------------------------------------------------------------------
def test_simulation_is_reproducible() -> None:
    a = simulate(GAME_ID, 500, seed=9, choices="random")
    b = simulate(GAME_ID, 500, seed=9, choices="random")
    assert (a.total_win, a.hits, a.sum_sq_x, a.features) == (b.total_win, b.hits, b.sum_sq_x, b.features)
    assert a.to_json()["rounds"] == 500


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"rounds": 0}, "rounds must be a positive integer"),
        ({"rounds": 10, "choices": "best"}, "is not a policy"),
        ({"rounds": 10, "mode": "buy"}, "has no mode 'buy'"),
    ],
)
def test_simulation_bad_arguments(kwargs: dict[str, Any], message: str) -> None:
    with pytest.raises(EngineError, match=message):
        simulate(NO_BUY, **kwargs)


def test_rtp_report_bad_mode() -> None:
    with pytest.raises(EngineError, match="has no mode 'buy'"):
        rtp_report(NO_BUY, "buy")


# -- several wilds and the game's wild rule, exact against brute force -----------------------------------------
OWN_PAYS = Paytable({**TINY_PAYS.pays, "G": {3: 50, 4: 100, 5: 400}})


@pytest.mark.parametrize(
    ("wilds", "wild_pays_as", "paytable"),
    [
        (("W", "P"), "H", TINY_PAYS),  # two wilds; a line of wilds alone pays as H
        (("W", "P"), None, TINY_PAYS),  # wilds without pays "work only with other symbols"
        (("G",), "G", OWN_PAYS),  # a wild with pays of its own: the higher of its pay and the one it completes
    ],
)
def test_line_stats_with_several_wilds_and_wild_rules(
    wilds: tuple[str, ...], wild_pays_as: str | None, paytable: Paytable
) -> None:
    swap = {"W": wilds[0], "M": wilds[-1]} if len(wilds) > 1 else {"W": wilds[0]}
    strips = tuple(tuple(swap.get(s, s) for s in strip) for strip in TINY_STRIPS)
    rs = ReelSet(strips, rows=2)
    ev = LineEvaluator(TINY_LINES, paytable, wild=wilds, wild_pays_as=wild_pays_as)
    pay = 0
    for stops in itertools.product(*(range(len(s)) for s in rs.strips)):
        pay += sum(r.multiplier for r in ev.evaluate(rs.window(stops), len(TINY_LINES)))
    stats = line_stats(rs, paytable, wild=wilds, wild_pays_as=wild_pays_as)
    assert stats.ev == Fraction(pay, rs.radix * len(TINY_LINES))
    assert stats.ev > 0
