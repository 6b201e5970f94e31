"""Book of Spells' data (from the shared ``tests/test_model_data.py``): its paytable, symbols and
bets as pyengine.model reads them, and its data file ``book_of_spells.json`` through pyengine.data's
checked loading, every broken field named by file and field."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from fractions import Fraction
from importlib import resources
from typing import Any

import pytest

from pyengine.data import load_lines_game, parse_data, read_data_file
from pyengine.errors import BetError, GameDataError
from pyengine.games import get_game
from pyengine.games.book_of_spells import BookOfSpells
from pyengine.model import Bet

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


def test_the_book_is_wild_and_scatter() -> None:
    book = GAME.data.symbol("BOOK")
    assert book.is_wild
    assert book.is_scatter
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
