"""pyengine.model (reel sets, bets, paytable, symbols) and pyengine.data's loading of a missing file,
on hand-built values and on the reels of a registered game (a game's own data file, and the
checks its loader makes of it, are tested in its folder: ``tests/games/<id>/``)."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pyengine.data import read_data_file
from pyengine.errors import BetError, GameDataError
from pyengine.games import game_ids, get_game
from pyengine.games.base import LinesGame
from pyengine.model import Bet, BetConfig, Paytable, ReelSet, Symbol, SymbolKind
from tests.games import a_game


def base_reels(game_id: str) -> ReelSet:
    """The base reel set of the lines game ``game_id``."""
    game = get_game(game_id)
    assert isinstance(game, LinesGame)
    return game.data.reels["base"]


REELS = base_reels(a_game())
"""The real base reels of a registered game: the fast draw is checked on them."""


# -- reel sets -----------------------------------------------------------------------------
def test_window_wraps_around_the_strip_end() -> None:
    rs = ReelSet((("A", "B", "C", "D"), ("E", "F", "G")), rows=3)
    assert rs.window((0, 0)) == (("A", "B", "C"), ("E", "F", "G"))
    assert rs.window((2, 1)) == (("C", "D", "A"), ("F", "G", "E"))
    assert rs.window((3, 2)) == (("D", "A", "B"), ("G", "E", "F"))
    assert rs.lengths == (4, 3)
    assert rs.radix == 12


def test_window_with_more_rows_than_a_short_strip_repeats() -> None:
    rs = ReelSet((("A", "B"),), rows=3)
    assert rs.window((1,)) == (("B", "A", "B"),)


def test_window_needs_one_stop_per_reel() -> None:
    rs = ReelSet((("A", "B", "C"), ("D", "E", "F")), rows=1)
    with pytest.raises(ValueError, match="zip"):
        rs.window((0,))


@pytest.mark.parametrize("game_id", game_ids())
def test_real_windows_wrap(game_id: str) -> None:
    rs = base_reels(game_id)
    for reel, strip in enumerate(rs.strips):
        last = len(strip) - 1
        stops = tuple(last if i == reel else 0 for i in range(len(rs.strips)))
        assert rs.window(stops)[reel] == (strip[last], *strip[: rs.rows - 1])


@pytest.mark.parametrize(
    "strips", [(("A", "B", "C"),) * 3, (("A", "B"), ("C", "D", "E"), ("F",), ("G", "H", "I", "J"))]
)
def test_decode_is_a_bijection_on_small_sets(strips: tuple[tuple[str, ...], ...]) -> None:
    rs = ReelSet(strips, rows=1)
    seen = [rs.decode(i) for i in range(rs.radix)]
    assert sorted(seen) == sorted(itertools.product(*(range(len(s)) for s in strips)))
    for i, stops in enumerate(seen):
        assert rs.draw(i) == (stops, rs.window(stops))


def test_decode_and_draw_on_a_small_five_reel_set() -> None:
    strips = (("A", "B"), ("C", "D", "E"), ("F", "G"), ("H", "I", "J", "K"), ("L", "M", "N"))
    rs = ReelSet(strips, rows=2)
    all_stops = [rs.decode(i) for i in range(rs.radix)]
    assert len(set(all_stops)) == rs.radix == 2 * 3 * 2 * 4 * 3
    # Reel 1 is the most significant digit, the last reel the least.
    assert all_stops[:4] == [(0, 0, 0, 0, 0), (0, 0, 0, 0, 1), (0, 0, 0, 0, 2), (0, 0, 0, 1, 0)]
    assert all_stops[-1] == (1, 2, 1, 3, 2)
    for i, stops in enumerate(all_stops):
        assert rs.draw(i) == (stops, rs.window(stops))


@given(index=st.integers(0, REELS.radix - 1))
@settings(max_examples=400, deadline=None)
def test_fast_draw_agrees_with_decode_and_window(index: int) -> None:
    rs = REELS
    stops = rs.decode(index)
    assert all(0 <= s < n for s, n in zip(stops, rs.lengths, strict=True))
    assert rs.draw(index) == (stops, rs.window(stops))
    # Encoding the stops again gives the index back.
    back = 0
    for s, n in zip(stops, rs.lengths, strict=True):
        back = back * n + s
    assert back == index


# -- paytable and symbols --------------------------------------------------------------------
def test_paytable_min_count_is_the_first_paying_count() -> None:
    assert Paytable({"X": {2: 0, 4: 7}}).min_count("X") == 4


def test_symbol_kinds() -> None:
    assert Symbol("W", "w", SymbolKind.WILD).is_wild
    assert not Symbol("W", "w", SymbolKind.WILD).is_scatter
    assert Symbol("S", "s", SymbolKind.SCATTER).is_scatter
    assert not Symbol("R", "r", SymbolKind.REGULAR).is_wild


# -- bets -------------------------------------------------------------------------------------
def test_coin_bets() -> None:
    """A coin game: coins per line x coin size; Bet Max is the most lines and coins at the
    player's coin size; a coin count not offered is refused."""
    bets = BetConfig(lines=(1, 5, 10), levels=(1, 2, 5), default=Bet(10, 1, 1), coins=(1, 2, 3, 4, 5))
    bet = Bet(5, 2, 3)
    assert (bet.coin, bet.line_bet, bet.total_coins, bet.total) == (2, 6, 15, 30)
    assert bets.coin_game
    assert bets.bet_max(bet) == Bet(10, 2, 5)
    assert bets.step_coins(bet, 1) == Bet(5, 2, 4)
    assert bets.step_coins(Bet(5, 2, 5), 1) == Bet(5, 2, 5)
    assert bets.step_level(bet, 1) == Bet(5, 5, 3)
    assert bets.next_lines(bet) == Bet(10, 2, 3)
    with pytest.raises(BetError, match="6 coins per line is not offered; choose one of 1, 2, 3, 4, 5"):
        bets.validate(Bet(5, 2, 6))


@pytest.mark.parametrize(
    ("minor", "per_major", "text"),
    [
        (0, 100, "0.00"),
        (1, 100, "0.01"),
        (99, 100, "0.99"),
        (1250, 100, "12.50"),
        (-5, 100, "-0.05"),
        (-1250, 100, "-12.50"),
        (1250, 1, "1,250"),
        (123456789, 100, "1,234,567.89"),
        (-500000, 100, "-5,000.00"),
        (1250, 1000, "1.250"),
        (7, 10, "0.7"),
    ],
)
def test_format(minor: int, per_major: int, text: str) -> None:
    cfg = BetConfig((1,), (1,), Bet(1, 1), "FUN", per_major)
    assert cfg.format(minor) == text


COIN_BETS = BetConfig(lines=tuple(range(1, 26)), levels=(1, 2, 5, 10), default=Bet(25, 2, 1), coins=(1, 2, 3, 4, 5))


@pytest.mark.parametrize(
    ("balance", "expected"),
    [
        (250, Bet(25, 2, 5)),  # covered: 25 lines, 5 coins, the player's coin size
        (30, Bet(15, 2, 1)),  # short: fewer coins, then fewer lines, never another coin size
        (2, Bet(1, 2, 1)),  # one line of one coin at the coin size
        (1, Bet(1, 1, 1)),  # not even that: the smallest coin size
        (0, Bet(1, 1, 1)),  # nothing is covered: the smallest bet
    ],
)
def test_coin_game_bet_max_keeps_the_coin_size_while_it_can(balance: int, expected: Bet) -> None:
    bet = COIN_BETS.bet_max(Bet(25, 2, 1), balance)
    assert bet == expected
    assert bet.total <= balance or bet == COIN_BETS.min_bet


# -- data files --------------------------------------------------------------------------------
def test_missing_file() -> None:
    with pytest.raises(GameDataError) as info:
        read_data_file("no_such_game.json")
    assert str(info.value) == "no_such_game.json: field '<file>': does not exist"
