"""pyengine.model (reel sets, bets, paytable) and pyengine.data (checked loading of game data)."""

from __future__ import annotations

import copy
import itertools
import json
from collections.abc import Callable
from fractions import Fraction
from importlib import resources
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pyengine.data import load_lines_game, parse_data, read_data_file
from pyengine.errors import BetError, GameDataError
from pyengine.games import get_game
from pyengine.games.book_of_spells import BookOfSpells
from pyengine.model import Bet, BetConfig, Paytable, ReelSet, Symbol, SymbolKind

NAME = "book_of_spells.json"
TEXT = resources.files("pyengine.games.book_of_spells").joinpath(NAME).read_text(encoding="utf-8")
RAW: dict[str, Any] = json.loads(TEXT)


def _book() -> BookOfSpells:
    game = get_game("book_of_spells")
    assert isinstance(game, BookOfSpells)
    return game


GAME = _book()
BETS = GAME.bets

Mutation = Callable[[dict[str, Any]], None]
Path = tuple[str | int, ...]


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


def test_real_windows_wrap() -> None:
    rs = GAME.base_reels
    for reel, strip in enumerate(rs.strips):
        last = len(strip) - 1
        stops = tuple(last if i == reel else 0 for i in range(5))
        assert rs.window(stops)[reel] == (strip[last], strip[0], strip[1])


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


@given(index=st.integers(0, GAME.base_reels.radix - 1))
@settings(max_examples=400, deadline=None)
def test_fast_draw_agrees_with_decode_and_window(index: int) -> None:
    rs = GAME.base_reels
    stops = rs.decode(index)
    assert all(0 <= s < n for s, n in zip(stops, rs.lengths, strict=True))
    assert rs.draw(index) == (stops, rs.window(stops))
    # Encoding the stops again gives the index back.
    back = 0
    for s, n in zip(stops, rs.lengths, strict=True):
        back = back * n + s
    assert back == index


# -- paytable and symbols --------------------------------------------------------------------
def test_paytable_pay_and_min_count() -> None:
    pt = GAME.data.paytable
    assert pt.pay("MAGE", 5) == 5000
    assert pt.pay("A", 2) == 0
    assert pt.pay("BOOK", 3) == 0
    assert pt.pay("nope", 3) == 0
    assert [pt.min_count(s) for s in ("MAGE", "WITCH", "OWL", "POTION")] == [2, 2, 2, 2]
    assert [pt.min_count(s) for s in ("A", "K", "Q", "J", "TEN")] == [3, 3, 3, 3, 3]
    assert pt.min_count("BOOK") == 0
    assert Paytable({"X": {2: 0, 4: 7}}).min_count("X") == 4


def test_symbol_kinds() -> None:
    book = GAME.data.symbol("BOOK")
    assert book.is_wild
    assert book.is_scatter
    assert Symbol("W", "w", SymbolKind.WILD).is_wild
    assert not Symbol("W", "w", SymbolKind.WILD).is_scatter
    assert Symbol("S", "s", SymbolKind.SCATTER).is_scatter
    assert not Symbol("R", "r", SymbolKind.REGULAR).is_wild
    assert GAME.data.wild == GAME.data.scatter == "BOOK"
    with pytest.raises(KeyError):
        GAME.data.symbol("XX")


# -- bets -------------------------------------------------------------------------------------
def test_offered_bets() -> None:
    assert BETS.lines == tuple(range(1, 10))
    assert BETS.levels == (1, 2, 5, 10, 20, 25, 50, 100)
    assert BETS.default == Bet(9, 10)
    assert BETS.max_bet == Bet(9, 100)
    assert Bet(9, 10).total == 90
    assert Bet(3, 25).to_json() == {"lines": 3, "bet_per_line": 25, "coins": 1, "total": 75}
    assert not BETS.coin_game
    assert BETS.bet_max(Bet(1, 5)) == BETS.max_bet


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


@pytest.mark.parametrize("bet", [Bet(1, 1), Bet(9, 100), Bet(5, 25)])
def test_validate_returns_an_offered_bet(bet: Bet) -> None:
    assert BETS.validate(bet) is bet


@pytest.mark.parametrize(
    ("bet", "message"),
    [
        (Bet(10, 10), "10 lines is not offered; choose one of 1, 2, 3, 4, 5, 6, 7, 8, 9"),
        (Bet(0, 10), "0 lines is not offered"),
        (
            Bet(9, 3),
            "bet per line 0.03 is not offered; choose one of 0.01, 0.02, 0.05, 0.10, 0.20, 0.25, 0.50, 1.00",
        ),
        (Bet(9, 0), "bet per line 0.00 is not offered"),
        (Bet(9, 1000), "bet per line 10.00 is not offered"),
    ],
)
def test_validate_rejects_with_what_is_offered(bet: Bet, message: str) -> None:
    with pytest.raises(BetError) as info:
        BETS.validate(bet)
    assert message in str(info.value)


@pytest.mark.parametrize("bet", [Bet(9, 10.0), Bet(True, 10), Bet(9.0, 10)])  # type: ignore[arg-type]  # noqa: FBT003
def test_validate_rejects_non_integer_bets(bet: Bet) -> None:
    with pytest.raises(BetError):
        BETS.validate(bet)


def test_next_lines_wraps_9_to_1_and_prev_1_to_9() -> None:
    bet = Bet(1, 10)
    seen = []
    for _ in range(9):
        bet = BETS.next_lines(bet)
        seen.append(bet.lines)
    assert seen == [2, 3, 4, 5, 6, 7, 8, 9, 1]
    assert BETS.next_lines(Bet(9, 25)) == Bet(1, 25)
    assert BETS.prev_lines(Bet(1, 25)) == Bet(9, 25)
    assert BETS.prev_lines(Bet(5, 25)) == Bet(4, 25)


def test_step_level_clamps_at_both_ends() -> None:
    assert BETS.step_level(Bet(9, 1), -1) == Bet(9, 1)
    assert BETS.step_level(Bet(9, 100), 1) == Bet(9, 100)
    assert BETS.step_level(Bet(9, 10), 1) == Bet(9, 20)
    assert BETS.step_level(Bet(9, 10), -1) == Bet(9, 5)
    bet = Bet(4, 1)
    ups = []
    for _ in range(10):
        bet = BETS.step_level(bet, 1)
        ups.append(bet.bet_per_line)
    assert ups == [2, 5, 10, 20, 25, 50, 100, 100, 100, 100]
    assert bet.lines == 4


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


# -- data files --------------------------------------------------------------------------------
def _load(data: dict[str, Any]) -> BookOfSpells:
    return BookOfSpells(load_lines_game(parse_data(NAME, json.dumps(data))))


def test_real_data_loads() -> None:
    game = _load(copy.deepcopy(RAW))
    d = game.data
    assert d.id == "book_of_spells"
    assert d.target_rtp == Fraction(9613, 10000)
    assert d.rows == 3
    assert len(d.symbols) == 10
    assert len(d.paylines) == 9
    assert d.paylines[3].rows == (0, 1, 2, 1, 0)
    assert d.paylines[0].number == 1
    assert d.scatter_pays == {3: 2, 4: 20, 5: 200}
    assert d.reels["base"].lengths == (37, 38, 38, 36, 39)
    assert game.free_reels is game.base_reels
    assert game.free_spins.award == 10
    assert game.free_spins.trigger == 3
    assert len(game.free_spins.expanding) == 9
    assert game.default_settings() == {"free_spin_cap_x": 5000, "gamble_limit_x": 250, "gamble": 1}
    assert read_data_file(NAME).value == RAW
    # describe() is JSON-ready and carries the strips.
    desc = json.loads(json.dumps(game.describe()))
    assert desc["reels"]["base"] == RAW["reels"]["base"]


def _at(data: Any, path: Path) -> Any:
    for key in path:
        data = data[key]
    return data


def put(path: Path, value: Any) -> Mutation:
    def mutate(data: dict[str, Any]) -> None:
        _at(data, path[:-1])[path[-1]] = value

    return mutate


def drop(path: Path) -> Mutation:
    def mutate(data: dict[str, Any]) -> None:
        del _at(data, path[:-1])[path[-1]]

    return mutate


def add_wild(data: dict[str, Any]) -> None:
    data["symbols"].append({"id": "W2", "name": "Second wild", "kind": "wild"})


def split_book(data: dict[str, Any]) -> None:
    data["symbols"][0]["kind"] = "wild"


CASES: list[tuple[str, Mutation, str, str]] = [
    ("unknown strip symbol", put(("reels", "base", 2, 14), "XX"), "reels.base[2][14]", "unknown symbol 'XX'"),
    ("strip symbol not a string", put(("reels", "base", 1, 0), 7), "reels.base[1][0]", "must be a non-empty string"),
    ("short strip", put(("reels", "base", 0), ["A", "J"]), "reels.base[0]", "must have at least 3 entries"),
    ("strip not a list", put(("reels", "base", 4), "AJK"), "reels.base[4]", "must be a list, not str"),
    ("four strips", put(("reels", "base"), RAW["reels"]["base"][:4]), "reels.base", "at least 5 entries"),
    ("six strips", put(("reels", "base"), RAW["reels"]["base"] * 2), "reels.base", "exactly 5 strips"),
    ("no base reels", put(("reels",), {"free": RAW["reels"]["base"]}), "reels", "needs a 'base' reel set"),
    ("unknown free strip symbol", put(("reels", "free"), [["A", "K", "ZZ"]] * 5), "reels.free[0][2]", "unknown symbol"),
    ("payline row too big", put(("paylines", 3, 2), 3), "paylines[3][2]", "row 3 is outside 0..2"),
    ("payline row negative", put(("paylines", 0, 0), -1), "paylines[0][0]", "must be at least 0, not -1"),
    ("payline row a string", put(("paylines", 8, 4), "0"), "paylines[8][4]", "must be an integer, not '0'"),
    ("payline too short", put(("paylines", 4), [1, 1, 1, 1]), "paylines[4]", "one row for each of the 5 reels"),
    ("payline too long", put(("paylines", 4), [1] * 6), "paylines[4]", "one row for each of the 5 reels"),
    ("no paylines", put(("paylines",), []), "paylines", "must have at least 1 entries"),
    ("missing name", drop(("name",)), "name", "is missing"),
    ("missing reels", drop(("reels",)), "reels", "is missing"),
    ("missing default lines", drop(("bets", "default_lines")), "bets.default_lines", "is missing"),
    ("missing symbol name", drop(("symbols", 4, "name")), "symbols[4].name", "is missing"),
    ("rows a string", put(("rows",), "3"), "rows", "must be an integer, not '3'"),
    ("rows a bool", put(("rows",), True), "rows", "must be an integer, not True"),  # noqa: FBT003
    ("rows zero", put(("rows",), 0), "rows", "must be at least 1, not 0"),
    ("reel_count a float", put(("reel_count",), 5.0), "reel_count", "must be an integer, not 5.0"),
    ("id empty", put(("id",), ""), "id", "must be a non-empty string"),
    ("target rtp a number", put(("target_rtp",), 0.9613), "target_rtp", "must be a decimal string"),
    ("target rtp not a number", put(("target_rtp",), "abc"), "target_rtp", "is not a number: 'abc'"),
    ("unknown kind", put(("symbols", 2, "kind"), "bonus"), "symbols[2].kind", "must be one of"),
    ("duplicate symbol", put(("symbols", 3, "id"), "MAGE"), "symbols[3].id", "symbol 'MAGE' is listed twice"),
    ("one symbol", put(("symbols",), RAW["symbols"][:1]), "symbols", "must have at least 2 entries"),
    ("symbols an object", put(("symbols",), {}), "symbols", "must be a list, not dict"),
    ("symbol not an object", put(("symbols", 1), "MAGE"), "symbols[1]", "must be an object, not str"),
    ("two wilds in Book of Spells", add_wild, "symbols", "needs one symbol that is wild and scatter"),
    ("paytable unknown symbol", put(("paytable", "XX"), {"3": 5}), "paytable.XX", "unknown symbol 'XX'"),
    ("paytable count 6", put(("paytable", "A", "6"), 500), "paytable.A.6", 'counts must be written as "1" to "5"'),
    ("paytable count 0", put(("paytable", "A", "0"), 1), "paytable.A.0", 'counts must be written as "1" to "5"'),
    ("paytable count word", put(("paytable", "A", "three"), 1), "paytable.A.three", "counts must be written"),
    ("paytable negative", put(("paytable", "A", "3"), -5), "paytable.A.3", "must be at least 0, not -5"),
    ("paytable pay a string", put(("paytable", "K", "4"), "40"), "paytable.K.4", "must be an integer, not '40'"),
    ("paytable pays a list", put(("paytable", "Q"), [5, 25]), "paytable.Q", "must be an object, not list"),
    ("regular without pays", drop(("paytable", "TEN")), "paytable", "regular symbol 'TEN' has no pays"),
    ("scatter count word", put(("scatter_pays", "x"), 1), "scatter_pays.x", "counts must be written as digits"),
    ("scatter pay negative", put(("scatter_pays", "3"), -2), "scatter_pays.3", "must be at least 0"),
    ("too many lines", put(("bets", "lines"), list(range(1, 11))), "bets.lines", "more than the 9 paylines"),
    ("lines zero", put(("bets", "lines"), [0, 1]), "bets.lines[0]", "must be at least 1, not 0"),
    ("no lines", put(("bets", "lines"), []), "bets.lines", "must have at least 1 entries"),
    ("levels not increasing", put(("bets", "bet_per_line"), [5, 1]), "bets", "strictly increasing"),
    ("lines repeated", put(("bets", "lines"), [1, 2, 2]), "bets", "strictly increasing"),
    ("level a float", put(("bets", "bet_per_line", 2), 5.5), "bets.bet_per_line[2]", "must be an integer"),
    ("default level not offered", put(("bets", "default_bet_per_line"), 3), "bets", "default bet must be one of"),
    ("default lines not offered", put(("bets", "default_lines"), 10), "bets", "default bet must be one of"),
    ("minor per major zero", put(("bets", "minor_per_major"), 0), "bets.minor_per_major", "must be at least 1"),
    ("currency empty", put(("bets", "currency"), ""), "bets.currency", "must be a non-empty string"),
    ("bets a list", put(("bets",), [1]), "bets", "must be an object, not list"),
    ("wild pays as unknown", put(("wild_pays_as",), "XX"), "wild_pays_as", "'XX' has no pays"),
    ("wild pays as itself", put(("wild_pays_as",), "BOOK"), "wild_pays_as", "'BOOK' has no pays"),
    ("book not a scatter", split_book, "symbols", "needs one symbol that is wild and scatter"),
    (
        "no expanding symbols",
        put(("free_spins", "expanding_weights"), {}),
        "free_spins.expanding_weights",
        "at least one",
    ),
    (
        "book expands",
        put(("free_spins", "expanding_weights", "BOOK"), 1),
        "free_spins.expanding_weights.BOOK",
        "'BOOK' is not a paying symbol that can expand",
    ),
    (
        "zero weight",
        put(("free_spins", "expanding_weights", "MAGE"), 0),
        "free_spins.expanding_weights.MAGE",
        "at least 1",
    ),
    ("award zero", put(("free_spins", "award"), 0), "free_spins.award", "must be at least 1, not 0"),
    ("missing trigger", drop(("free_spins", "trigger")), "free_spins.trigger", "is missing"),
    ("gamble not a bool", put(("operator_defaults", "gamble"), 1), "operator_defaults.gamble", "must be true or false"),
    ("cap zero", put(("operator_defaults", "free_spin_cap_x"), 0), "operator_defaults.free_spin_cap_x", "at least 1"),
    ("missing limit", drop(("operator_defaults", "gamble_limit_x")), "operator_defaults.gamble_limit_x", "is missing"),
]


@pytest.mark.parametrize(("mutate", "path", "problem"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_data_error_names_file_and_field(mutate: Mutation, path: str, problem: str) -> None:
    data = copy.deepcopy(RAW)
    mutate(data)
    with pytest.raises(GameDataError) as info:
        _load(data)
    err = info.value
    assert err.source == NAME
    assert err.field == path
    assert problem in err.problem
    assert str(err).startswith(f"{NAME}: field {path!r}: ")
    assert isinstance(err, ValueError)


def test_root_not_an_object() -> None:
    with pytest.raises(GameDataError) as info:
        load_lines_game(parse_data(NAME, "[1, 2]"))
    assert info.value.field == "<root>"
    assert str(info.value) == f"{NAME}: field '<root>': must be an object, not list"


@pytest.mark.parametrize("text", ["", "{", '{"id": "x",}', TEXT[: len(TEXT) // 2]])
def test_invalid_json(text: str) -> None:
    with pytest.raises(GameDataError) as info:
        parse_data(NAME, text)
    assert info.value.source == NAME
    assert info.value.field == "<file>"
    assert "is not valid JSON" in str(info.value)


def test_missing_file() -> None:
    with pytest.raises(GameDataError) as info:
        read_data_file("no_such_game.json")
    assert str(info.value) == "no_such_game.json: field '<file>': does not exist"


def test_target_rtp_division_by_zero_is_a_data_error() -> None:
    data = copy.deepcopy(RAW)
    data["target_rtp"] = "1/0"
    with pytest.raises(GameDataError) as info:
        _load(data)
    assert info.value.field == "target_rtp"


def test_unmutated_copy_still_loads_after_the_cases() -> None:
    # The cases mutate deep copies only.
    assert json.loads(TEXT) == RAW
    assert _load(copy.deepcopy(RAW)).data.paytable == GAME.data.paytable


def test_a_lines_game_may_have_several_wilds_and_no_wild_pays_as() -> None:
    """The shared loader takes several wilds; without ``wild_pays_as`` the wild rule is
    "a line of wilds alone pays nothing" (for wilds without pays)."""
    data = copy.deepcopy(RAW)
    add_wild(data)
    del data["wild_pays_as"]
    game = load_lines_game(parse_data("two_wilds.json", json.dumps(data)))
    assert game.wilds == ("BOOK", "W2")
    assert game.wild_pays_as() is None


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
