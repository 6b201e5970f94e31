"""Book of Spells' line, scatter and expanding wins (from the shared ``tests/test_evaluators.py``):
pyengine.evaluators on hand-built windows with its paytable, paylines and scatter pays (the Book
wild and scatter, a line of Books paying as the Archmage), and a cross-check of the fast 5-reel
line path against a slow reference written from its rules on its real-reel windows."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pyengine.evaluators import LineEvaluator, evaluate_expanding, evaluate_scatter
from pyengine.evaluators.lines import LineResult
from pyengine.games import get_game
from pyengine.games.book_of_spells import BookOfSpells
from pyengine.model import Window
from pyengine.rng import Rng


def _book() -> BookOfSpells:
    game = get_game("book_of_spells")
    assert isinstance(game, BookOfSpells)
    return game


GAME = _book()
PAYTABLE = GAME.data.paytable
PAYLINES = GAME.data.paylines
SCATTER_PAYS = GAME.data.scatter_pays
EV = LineEvaluator(PAYLINES, PAYTABLE, wild="BOOK", wild_pays_as="MAGE")
W = "BOOK"

# Rows 0 and 2 of the hand-built windows; the tests on the middle row use one line only.
TOP = ("J", "Q", "K", "J", "Q")
BOTTOM = ("Q", "K", "J", "Q", "K")


def middle(*syms: str) -> Window:
    """A window whose middle row (payline 1) is ``syms``."""
    return tuple((TOP[i], s, BOTTOM[i]) for i, s in enumerate(syms))


def columns(*cols: str) -> Window:
    """A window given column by column as space-separated symbols, top first."""
    return tuple(tuple(c.split()) for c in cols)


# -- lines ------------------------------------------------------------------------------------
LINE1_CASES: list[tuple[tuple[str, ...], tuple[str, int, int] | None]] = [
    (("A", "A", "A", "K", "Q"), ("A", 3, 5)),
    (("A", "A", "A", "A", "Q"), ("A", 4, 40)),
    (("A", "A", "A", "A", "A"), ("A", 5, 150)),
    (("A", "A", "K", "A", "A"), None),  # two A only: A pays from 3
    (("K", "A", "A", "A", "A"), None),  # left to right: reel 1 decides
    (("Q", "Q", "J", "J", "J"), None),
    (("MAGE", "MAGE", "A", "K", "Q"), ("MAGE", 2, 10)),  # premium pays from 2
    (("WITCH", "WITCH", "K", "K", "K"), ("WITCH", 2, 5)),
    (("OWL", "OWL", "OWL", "Q", "J"), ("OWL", 3, 30)),
    (("POTION", "POTION", "POTION", "POTION", "J"), ("POTION", 4, 100)),
    (("A", W, "A", "Q", "J"), ("A", 3, 5)),  # wild substitutes
    (("A", W, W, W, W), ("A", 5, 150)),
    ((W, "A", "A", "Q", "J"), ("A", 3, 5)),  # one wild pays nothing alone
    ((W, "MAGE", W, "MAGE", "J"), ("MAGE", 4, 1000)),
    (("WITCH", W, W, W, W), ("WITCH", 5, 2000)),
    ((W, W, W, W, W), (W, 5, 5000)),  # wild-only line pays as MAGE
    ((W, W, W, "Q", "J"), (W, 3, 100)),  # wild-only 3 (100) beats Q 4 (25)
    ((W, W, W, W, "TEN"), (W, 4, 1000)),  # wild-only 4 (1000) beats TEN 5 (100)
    ((W, W, W, W, "MAGE"), ("MAGE", 5, 5000)),  # MAGE 5 (5000) beats wild-only 4 (1000)
    ((W, W, "A", "A", "A"), ("A", 5, 150)),  # A 5 (150) beats wild-only 2 (10)
    ((W, W, "K", "Q", "J"), (W, 2, 10)),  # wild-only 2 (10) beats K 3 (5)
    ((W, W, "WITCH", "WITCH", "J"), ("WITCH", 4, 400)),
    ((W, W, W, "OWL", "J"), (W, 3, 100)),  # tie OWL 4 = wild 3 = 100: the wild win is kept
    ((W, "J", "Q", "K", "A"), None),
    (("TEN", W, "J", "J", "J"), None),  # the run is TEN: J does not continue it
]


@pytest.mark.parametrize(("syms", "expected"), LINE1_CASES, ids=[" ".join(c[0]) for c in LINE1_CASES])
def test_line_1(syms: tuple[str, ...], expected: tuple[str, int, int] | None) -> None:
    assert EV.evaluate_symbols(syms) == expected
    wins = EV.evaluate(middle(*syms), 1)
    if expected is None:
        assert wins == []
    else:
        symbol, count, multiplier = expected
        assert wins == [LineResult(1, symbol, count, tuple((r, 1) for r in range(count)), multiplier)]


def test_positions_follow_the_payline() -> None:
    # Payline 4 is V-shaped (rows 0,1,2,1,0): put MAGE on it and nowhere else on rows it uses.
    window = columns("MAGE J Q", "K MAGE A", "K Q MAGE", "J MAGE TEN", "WITCH A Q")
    wins = EV.evaluate(window, 9)
    assert wins == [LineResult(4, "MAGE", 4, ((0, 0), (1, 1), (2, 2), (3, 1)), 1000)]
    assert EV.evaluate(window, 3) == []  # line 4 is not active with 3 lines


def test_only_the_highest_win_per_line_and_every_line() -> None:
    window = columns(*["A A A"] * 5)
    wins = EV.evaluate(window, 9)
    assert [w.line for w in wins] == list(range(1, 10))
    assert {(w.symbol, w.count, w.multiplier) for w in wins} == {("A", 5, 150)}
    assert [w.positions for w in wins][:2] == [
        tuple((r, 1) for r in range(5)),
        tuple((r, 0) for r in range(5)),
    ]


@pytest.mark.parametrize("lines", range(1, 10))
def test_lines_beyond_the_active_count_are_ignored(lines: int) -> None:
    window = columns(*[f"{W} {W} {W}"] * 5)
    wins = EV.evaluate(window, lines)
    assert [w.line for w in wins] == list(range(1, lines + 1))
    assert all(w.multiplier == 5000 and w.symbol == W for w in wins)


def test_lines_zero_pays_nothing() -> None:
    assert EV.evaluate(columns(*["A A A"] * 5), 0) == []


# -- slow reference -----------------------------------------------------------------------------
def reference_line(syms: tuple[str, ...]) -> tuple[str, int, int] | None:
    """Best win of one line, written out from the rules: every symbol tried as the paying one."""
    w = 0
    while w < len(syms) and syms[w] == W:
        w += 1
    # The wild-only win (pays as MAGE) comes first, so that on a tie it is kept.
    candidates = [(PAYTABLE.pay("MAGE", w) if w else 0, W, w)]
    for symbol in PAYTABLE.pays:
        count = 0
        for s in syms:
            if s not in (symbol, W):
                break
            count += 1
        if count > w:  # the symbol itself starts after the wilds
            candidates.append((PAYTABLE.pay(symbol, count), symbol, count))
    best = candidates[0]
    for c in candidates[1:]:
        if c[0] > best[0]:
            best = c
    return (best[1], best[2], best[0]) if best[0] > 0 else None


def reference_window(window: Window, lines: int) -> list[LineResult]:
    out = []
    for line in PAYLINES[:lines]:
        syms = tuple(window[reel][row] for reel, row in enumerate(line.rows))
        hit = reference_line(syms)
        if hit is not None:
            symbol, count, multiplier = hit
            positions = tuple((reel, line.rows[reel]) for reel in range(count))
            out.append(LineResult(line.number, symbol, count, positions, multiplier))
    return out


@pytest.mark.parametrize(("syms", "expected"), LINE1_CASES, ids=[" ".join(c[0]) for c in LINE1_CASES])
def test_reference_agrees_with_the_hand_cases(syms: tuple[str, ...], expected: tuple[str, int, int] | None) -> None:
    assert reference_line(syms) == expected


@given(index=st.integers(0, GAME.base_reels.radix - 1), lines=st.integers(1, 9))
@settings(max_examples=500, deadline=None)
def test_fast_path_equals_reference_on_real_windows(index: int, lines: int) -> None:
    _, window = GAME.base_reels.draw(index)
    assert EV.evaluate(window, lines) == reference_window(window, lines)


def test_fast_path_equals_reference_on_many_seeded_windows() -> None:
    rng = Rng(20_240_601)
    reels = GAME.base_reels
    paying = 0
    for _ in range(10_000):
        _, window = reels.draw(rng.below(reels.radix))
        fast = EV.evaluate(window, 9)
        assert fast == reference_window(window, 9)
        paying += bool(fast)
    assert paying > 500  # the sample does exercise wins (hit rate ~ 30%)


@given(
    syms=st.lists(
        st.sampled_from([W, "MAGE", "WITCH", "OWL", "POTION", "A", "K", "Q", "J", "TEN"]), min_size=5, max_size=5
    )
)
@settings(max_examples=400, deadline=None)
def test_evaluate_symbols_equals_reference(syms: list[str]) -> None:
    assert EV.evaluate_symbols(tuple(syms)) == reference_line(tuple(syms))


@given(
    window=st.lists(
        st.lists(st.sampled_from([W, "MAGE", "OWL", "A", "J"]), min_size=3, max_size=3).map(tuple),
        min_size=5,
        max_size=5,
    ).map(tuple),
    lines=st.integers(1, 9),
)
@settings(max_examples=250, deadline=None)
def test_dense_windows_equal_reference(window: Window, lines: int) -> None:
    # Few symbols: many wins, wild prefixes and ties.
    assert EV.evaluate(window, lines) == reference_window(window, lines)


# -- scatter --------------------------------------------------------------------------------------
SCATTER_CASES: list[tuple[Window, int, tuple[tuple[int, int], ...], int]] = [
    (columns("A K Q", "J Q K", "A A A", "K Q J", "TEN J Q"), 0, (), 0),
    (columns(f"{W} K Q", "J Q K", "A A A", "K Q J", "TEN J Q"), 1, ((0, 0),), 0),
    (columns(f"{W} K Q", f"J {W} K", "A A A", "K Q J", "TEN J Q"), 2, ((0, 0), (1, 1)), 0),
    (columns(f"{W} K Q", "J Q K", f"A A {W}", "K Q J", f"TEN {W} Q"), 3, ((0, 0), (2, 2), (4, 1)), 2),
    (columns(f"{W} K Q", f"{W} Q K", f"A A {W}", f"K Q {W}", "TEN J Q"), 4, ((0, 0), (1, 0), (2, 2), (3, 2)), 20),
    (columns(*[f"A {W} K"] * 5), 5, tuple((r, 1) for r in range(5)), 200),
    # Two on one reel count twice: positions stay in reel order, then row order.
    (columns(f"{W} K {W}", "J Q K", f"A {W} A", "K Q J", "TEN J Q"), 3, ((0, 0), (0, 2), (2, 1)), 2),
    (
        columns(f"{W} {W} {W}", f"{W} {W} {W}", "A A A", "K Q J", "TEN J Q"),
        6,
        tuple((r, c) for r in (0, 1) for c in (0, 1, 2)),
        0,
    ),
]


@pytest.mark.parametrize(("window", "count", "positions", "multiplier"), SCATTER_CASES)
def test_scatter(window: Window, count: int, positions: tuple[tuple[int, int], ...], multiplier: int) -> None:
    result = evaluate_scatter(window, W, SCATTER_PAYS)
    assert result.symbol == W
    assert result.count == count
    assert result.positions == positions
    assert result.multiplier == multiplier


# -- expanding ------------------------------------------------------------------------------------
EXPANDING_CASES: list[tuple[Window, str, tuple[int, ...] | None, int]] = [
    # premiums pay from 2 reels, on non-adjacent reels too
    (columns("MAGE A K", "J Q K", "A MAGE A", "K Q J", "TEN J Q"), "MAGE", (0, 2), 10),
    (columns("A K Q", "WITCH Q K", "A A A", "K Q J", "TEN J WITCH"), "WITCH", (1, 4), 5),
    (columns("OWL K Q", "J Q K", "A A A", "K Q OWL", "TEN J Q"), "OWL", (0, 3), 5),
    (columns("A K Q", "J Q K", "A A POTION", "K Q J", "POTION J Q"), "POTION", (2, 4), 5),
    (columns("MAGE K Q", "J MAGE K", "MAGE A A", "K Q MAGE", "TEN MAGE Q"), "MAGE", (0, 1, 2, 3, 4), 5000),
    (columns("MAGE MAGE MAGE", "J Q K", "A A A", "K Q J", "TEN J Q"), "MAGE", None, 0),  # one reel
    # A..TEN pay from 3 reels
    (columns("A K Q", "J Q K", "TEN A J", "K Q J", "TEN J Q"), "A", None, 0),
    (columns("A K Q", "J Q K", "TEN A J", "K Q J", "A J Q"), "A", (0, 2, 4), 5),
    (columns("A K Q", "J Q K", "TEN A J", "K Q J", "A J Q"), "K", (0, 1, 3), 5),
    (columns("A K Q", "J Q K", "TEN A J", "K Q J", "A J Q"), "J", (1, 2, 3, 4), 25),
    (columns("TEN K Q", "J TEN K", "TEN A J", "K TEN J", "A J TEN"), "TEN", (0, 1, 2, 3, 4), 100),
    (columns("K K K", "J Q Q", "TEN A J", "A A Q", "A J A"), "K", None, 0),  # K on one reel only
    # no wild substitution for the expanding symbol
    (columns("MAGE K Q", f"J {W} K", "A A A", "K Q J", "TEN J Q"), "MAGE", None, 0),
    (columns(f"{W} K Q", f"J {W} K", f"A {W} A", "K Q J", "TEN J Q"), "A", (2,), 0),
]


@pytest.mark.parametrize(("window", "symbol", "reels", "multiplier"), EXPANDING_CASES)
def test_expanding(window: Window, symbol: str, reels: tuple[int, ...] | None, multiplier: int) -> None:
    result = evaluate_expanding(window, symbol, PAYTABLE)
    if multiplier == 0:
        assert result is None
    else:
        assert result is not None
        assert result.symbol == symbol
        assert result.reels == reels
        assert result.multiplier == multiplier


@pytest.mark.parametrize("symbol", ["MAGE", "WITCH", "OWL", "POTION", "A", "K", "Q", "J", "TEN"])
def test_expanding_minimum_reel_counts(symbol: str) -> None:
    low = 2 if symbol in ("MAGE", "WITCH", "OWL", "POTION") else 3
    for n in range(6):
        reels = (0, 4, 2, 1, 3)[:n]  # non-adjacent first
        window = tuple((symbol if i in reels else "X", "X", "X") for i in range(5))
        result = evaluate_expanding(window, symbol, PAYTABLE)
        if n < low:
            assert result is None
        else:
            assert result is not None
            assert result.reels == tuple(sorted(reels))
            assert result.multiplier == PAYTABLE.pay(symbol, n) > 0
