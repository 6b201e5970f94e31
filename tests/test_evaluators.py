"""pyengine.evaluators on hand-built paytables (a symbol the wild does not stand in for, no wild,
one-symbol pays, several wilds and each wild rule), and the scatter count on a game's real
windows. A game's own pays, on hand-built windows and against a reference written from its
rules, are checked in its folder (``tests/games/<id>/``)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pyengine.evaluators import LineEvaluator, evaluate_scatter
from pyengine.evaluators.lines import LineResult
from pyengine.games import Game, get_game
from pyengine.games.base import LinesGame
from pyengine.model import Payline, Paytable
from tests.games import a_game


def _has_scatter(game: Game) -> bool:
    return isinstance(game, LinesGame) and game.data.scatter is not None


def _scatter_game() -> LinesGame:
    game = get_game(a_game(_has_scatter, "a scatter symbol"))
    assert isinstance(game, LinesGame)
    return game


GAME = _scatter_game()
"""A game with a scatter symbol: its real windows are counted."""
SCATTER = GAME.data.scatter or ""
SCATTER_PAYS = GAME.data.scatter_pays
REELS = GAME.data.reels["base"]


# -- lines ------------------------------------------------------------------------------------
def test_not_substituted_symbol() -> None:
    pt = Paytable({"S": {3: 50}, "A": {3: 5}, "W": {3: 100}})
    ev = LineEvaluator([Payline(1, (0, 0, 0, 0, 0))], pt, wild="W", not_substituted=["S"])
    assert ev.evaluate_symbols(("S", "S", "S", "A", "A")) == ("S", 3, 50)
    assert ev.evaluate_symbols(("S", "W", "S", "A", "A")) is None  # W does not stand in for S
    assert ev.evaluate_symbols(("W", "S", "S", "S", "A")) is None  # W then S: neither continues
    assert ev.evaluate_symbols(("W", "W", "W", "S", "S")) == ("W", 3, 100)  # pays as itself
    assert ev.evaluate_symbols(("A", "W", "A", "S", "S")) == ("A", 3, 5)
    assert ev.evaluate((("W",), ("W",), ("W",), ("S",), ("S",)), 1) == [
        LineResult(1, "W", 3, ((0, 0), (1, 0), (2, 0)), 100)
    ]


def test_no_wild() -> None:
    pt = Paytable({"A": {2: 1, 3: 5}})
    ev = LineEvaluator([Payline(1, (0, 0, 0))], pt, wild=None)
    assert ev.evaluate_symbols(("A", "A", "B")) == ("A", 2, 1)
    assert ev.evaluate_symbols(("B", "A", "A")) is None
    assert ev.evaluate((("A",), ("A",), ("A",)), 1) == [LineResult(1, "A", 3, ((0, 0), (1, 0), (2, 0)), 5)]


def test_one_symbol_pays_use_the_general_path() -> None:
    # A one-symbol pay disables the 5-reel shortcut (lines whose first two symbols differ can pay).
    pt = Paytable({"A": {1: 1, 3: 5}, "B": {3: 2}})
    ev = LineEvaluator([Payline(1, (0,) * 5), Payline(2, (1,) * 5)], pt, wild="W")
    window = (("A", "B"), ("B", "B"), ("B", "B"), ("A", "A"), ("A", "A"))
    assert ev.evaluate(window, 2) == [
        LineResult(1, "A", 1, ((0, 0),), 1),
        LineResult(2, "B", 3, ((0, 1), (1, 1), (2, 1)), 2),
    ]


# -- scatter on real windows ----------------------------------------------------------------------
@given(index=st.integers(0, REELS.radix - 1))
@settings(max_examples=300, deadline=None)
def test_scatter_counts_every_scatter(index: int) -> None:
    _, window = REELS.draw(index)
    result = evaluate_scatter(window, SCATTER, SCATTER_PAYS)
    expected = tuple((reel, row) for reel, col in enumerate(window) for row, s in enumerate(col) if s == SCATTER)
    assert result.positions == expected
    assert result.count == len(expected)
    assert result.multiplier == SCATTER_PAYS.get(len(expected), 0)


@given(index=st.integers(0, REELS.radix - 1))
@settings(max_examples=300, deadline=None)
def test_positions_of_the_stops_are_the_scatter_positions(index: int) -> None:
    # The games look the scatters up per reel stop (ReelSet.positions_of), not in the window.
    stops, window = REELS.draw(index)
    at = REELS.positions_of(SCATTER)
    joined = tuple(p for reel, stop in enumerate(stops) for p in at[reel][stop])
    assert joined == evaluate_scatter(window, SCATTER, SCATTER_PAYS).positions


# -- several wilds and each game's wild rule ----------------------------------------------------------
RULE_PAYS = Paytable({"A": {3: 5, 4: 20, 5: 100}, "K": {3: 4, 4: 10, 5: 50}, "G": {3: 30, 4: 60, 5: 300}})
ONE_LINE = [Payline(1, (0, 0, 0, 0, 0))]


@pytest.mark.parametrize(
    ("wilds", "pays_as", "line", "expected"),
    [
        # Two wilds stand in for each other and for A.
        (("W", "P"), "A", ("W", "P", "A", "A", "K"), ("A", 4, 20)),
        (("W", "P"), "A", ("P", "P", "P", "P", "P"), ("P", 5, 100)),
        # A wild without pays of its own "works only in conjunction with other symbols".
        (("W",), None, ("W", "W", "W", "W", "W"), None),
        (("W",), None, ("W", "W", "W", "K", "A"), ("K", 4, 10)),
        # A wild with pays of its own: the higher of its pay and the pay it completes.
        (("G",), "G", ("G", "G", "G", "K", "A"), ("G", 3, 30)),
        (("G",), "G", ("G", "G", "A", "A", "A"), ("A", 5, 100)),
    ],
)
def test_several_wilds_and_the_wild_rule(
    wilds: tuple[str, ...], pays_as: str | None, line: tuple[str, ...], expected: tuple[str, int, int] | None
) -> None:
    ev = LineEvaluator(ONE_LINE, RULE_PAYS, wild=wilds, wild_pays_as=pays_as)
    window = tuple((s,) for s in line)
    got = ev.evaluate(window, 1)
    assert [(r.symbol, r.count, r.multiplier) for r in got] == ([expected] if expected else [])
