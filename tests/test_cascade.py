"""Cascades: the refill from the strip above the window, the multiplier ladder, the guard
against endless cascades, and an exact average over every stop checked by simulation."""

from __future__ import annotations

import math
from collections.abc import Sequence

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pyengine.errors import EngineError
from pyengine.evaluators import LineEvaluator, positions_of_wins, refill
from pyengine.events import Cascade, Event, LineWin, WinMultiplier
from pyengine.features.cascade import CascadeRules, play_cascades
from pyengine.math.cascade import cascade_stats
from pyengine.model import Bet, Payline, Paytable, ReelSet, Window
from pyengine.rng import Rng
from pyengine.round import RoundContext

STRIP = ("A", "B", "C", "D", "E", "F")


@pytest.mark.parametrize(
    ("removed", "stop", "column"),
    [
        ([(0, 1)], 2, ("C", "D", "F")),  # E vanishes: D and F keep their order, C drops in from above
        ([(0, 0), (0, 2)], 1, ("B", "C", "E")),
        ([(0, 0), (0, 1), (0, 2)], 0, ("A", "B", "C")),
        ([], 3, ("D", "E", "F")),
    ],
)
def test_refill_drops_the_strip_above_onto_the_survivors(
    removed: list[tuple[int, int]], stop: int, column: tuple[str, ...]
) -> None:
    stops, window = refill((STRIP,), (3,), (("D", "E", "F"),), removed)
    assert stops == (stop,)
    assert window == (column,)


def test_refill_wraps_around_the_strip() -> None:
    stops, window = refill((STRIP,), (1,), (("B", "C", "D"),), [(0, 0), (0, 1)])
    assert stops == (5,)
    assert window == (("F", "A", "D"),)


@st.composite
def _boards(draw: st.DrawFn) -> tuple[tuple[tuple[str, ...], ...], tuple[int, ...], Window, list[tuple[int, int]]]:
    reels = draw(st.integers(1, 5))
    rows = draw(st.integers(1, 4))
    strips = tuple(
        tuple(draw(st.lists(st.sampled_from("ABCDW"), min_size=rows, max_size=12))) for _ in range(reels)
    )
    stops = tuple(draw(st.integers(0, len(s) - 1)) for s in strips)
    window = ReelSet(strips, rows).window(stops)
    removed = draw(st.lists(st.tuples(st.integers(0, reels - 1), st.integers(0, rows - 1)), unique=True))
    return strips, stops, window, removed


@given(_boards())
def test_refill_keeps_survivors_in_order_and_takes_new_symbols_from_above(
    board: tuple[tuple[tuple[str, ...], ...], tuple[int, ...], Window, list[tuple[int, int]]],
) -> None:
    strips, stops, window, removed = board
    new_stops, new_window = refill(strips, stops, window, removed)
    for reel, (strip, col) in enumerate(zip(strips, window, strict=True)):
        gone = {row for r, row in removed if r == reel}
        k = len(gone)
        assert len(new_window[reel]) == len(col)
        assert new_stops[reel] == (stops[reel] - k) % len(strip)
        assert new_window[reel][:k] == tuple(strip[(new_stops[reel] + j) % len(strip)] for j in range(k))
        assert new_window[reel][k:] == tuple(s for row, s in enumerate(col) if row not in gone)


def test_positions_of_wins_lists_each_position_once() -> None:
    assert positions_of_wins([((0, 1), (1, 1)), ((1, 1), (2, 0))], [((0, 0),)]) == ((0, 0), (0, 1), (1, 1), (2, 0))


# -- a small cascading game ---------------------------------------------------------------------
LINES = (Payline(1, (0, 0, 0)), Payline(2, (1, 1, 1)))
PAYS = Paytable({"A": {3: 5}, "B": {3: 2}})
EVAL = LineEvaluator(LINES, PAYS, wild="W")
STRIPS = (
    ("A", "B", "A", "C", "B", "W"),
    ("A", "A", "B", "C", "W", "B"),
    ("B", "A", "C", "A", "B", "C"),
)
REELS = ReelSet(STRIPS, 2)
BET = Bet(2, 10)


def judge(window: Window, multiplier: int) -> tuple[Sequence[Event], int, tuple[tuple[int, int], ...]]:
    hits = EVAL.wins(window, 2)
    events = [LineWin(line, sym, n, pos, pay, pay * 10 * multiplier) for line, sym, n, pos, pay in hits]
    return events, sum(e.win for e in events), positions_of_wins(pos for _, _, _, pos, _ in hits)


def test_the_multiplier_climbs_one_step_per_winning_window_and_stays_at_the_top() -> None:
    rules = CascadeRules((1, 2, 3))
    assert [rules.multiplier(i) for i in range(5)] == [1, 2, 3, 3, 3]
    endless = ReelSet((("A",) * 4, ("A",) * 4, ("A",) * 4), 2)
    ctx = RoundContext(Rng(1), BET, {})
    stops = (0, 0, 0)
    with pytest.raises(EngineError, match="more than 4 cascades"):
        play_cascades(ctx, CascadeRules((1, 2, 3), limit=4), endless.strips, stops, endless.window(stops), judge)
    multipliers = [e.multiplier for e in ctx.events if isinstance(e, WinMultiplier)]
    assert multipliers == [1, 2, 3]
    wins = [e.win for e in ctx.events if isinstance(e, LineWin)]
    assert wins[:2] == [50, 50]
    assert wins[2:4] == [100, 100]
    assert set(wins[4:]) == {150}


def test_a_cascade_event_carries_what_vanished_and_what_fell_in() -> None:
    found = False
    for stops in [(a, b, c) for a in range(6) for b in range(6) for c in range(6)]:
        ctx = RoundContext(Rng(0), BET, {})
        result = play_cascades(ctx, CascadeRules((1, 2)), STRIPS, stops, REELS.window(stops), judge)
        cascades = [e for e in ctx.events if isinstance(e, Cascade)]
        assert len(cascades) == result.cascades
        if cascades:
            found = True
            first = cascades[0]
            assert refill(STRIPS, stops, REELS.window(stops), first.removed) == (first.stops, first.window)
            assert (result.stops, result.window) == (cascades[-1].stops, cascades[-1].window)
    assert found


def test_the_exact_average_over_every_stop_agrees_with_simulation() -> None:
    rules = CascadeRules((1, 2, 3))
    stats = cascade_stats(REELS, rules, judge, BET)
    assert stats.combinations == 216
    assert sum(stats.cascades.values()) == 216
    assert stats.longest >= 1
    rng = Rng(2024)
    n = 20_000
    total = 0
    sq = 0
    for _ in range(n):
        stops, window = REELS.draw(rng.below(REELS.radix))
        ctx = RoundContext(rng, BET, {})
        win = play_cascades(ctx, rules, STRIPS, stops, window, judge).win
        total += win
        sq += win * win
    mean = total / n
    sd = math.sqrt(sq / n - mean * mean)
    assert abs(mean - float(stats.mean_win)) < 4 * sd / math.sqrt(n)
