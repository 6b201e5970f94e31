"""Book of Spells' showcase: the report's ``features`` (`pyengine.games.book_of_spells.report.features`)
and the finder `pyengine.games.book_of_spells.showcase.shown`.

The list is well formed in every mode's report and its figures agree with the report's own;
for every feature a pinned seed whose first round (as the showcase plays it) shows it, the
round's events checked independently of the finder; over the first rounds of many seeds the
finder gives only listed ids, consistently, and as often as the exact odds say.
"""

from __future__ import annotations

import itertools
import math
import re
from collections import Counter
from fractions import Fraction
from typing import Any

import pytest

from pyengine.evaluators import evaluate_scatter
from pyengine.events import (
    Event,
    ExpandedWin,
    ExpandingSymbolChosen,
    FreeSpinsAwarded,
    FreeSpinsEnd,
    FreeSpinStart,
    Spin,
)
from pyengine import showcase as sc
from pyengine.games import get_game, plugin
from pyengine.games.book_of_spells import BookOfSpells
from pyengine.games.book_of_spells.report import retrigger_shown
from pyengine.games.book_of_spells.showcase import shown
from pyengine.link import first_round
from pyengine.math.rtp import rtp_report
from pyengine.math.simulate import SIM_START


def _book() -> BookOfSpells:
    game = get_game("book_of_spells")
    assert isinstance(game, BookOfSpells)
    return game


GAME = _book()
SYMBOLS = tuple(s for s, _ in GAME.free_spins.expanding)
CLOCK_START = SIM_START
ROUNDS = 50_000
"""The seeds whose first rounds are counted against the odds."""

# The first seed whose first round shows each feature, found once by searching seeds 1, 2, 3, ...
# (the showcase's search) and pinned; each test checks the round really shows it.
SEEDS = {
    "free_spins": 17,
    "three_books": 17,
    "four_books": 3346,
    "five_books": 588_468,
    "expanding_mage": 1059,
    "expanding_witch": 17,
    "expanding_owl": 2557,
    "expanding_potion": 1913,
    "expanding_a": 1514,
    "expanding_k": 333,
    "expanding_q": 3346,
    "expanding_j": 2117,
    "expanding_ten": 3544,
    "retrigger": 5351,
}


def _clock() -> float:
    return CLOCK_START


def _round(seed: int) -> list[Event]:
    return first_round("book_of_spells", seed, clock=_clock)[1]


@pytest.fixture(scope="module")
def reports() -> dict[str, dict[str, Any]]:
    return {mode: rtp_report("book_of_spells", mode) for mode in GAME.modes}


@pytest.fixture(scope="module")
def features(reports: dict[str, dict[str, Any]]) -> dict[str, dict[str, Any]]:
    return {f["id"]: f for f in reports["base"]["features"]}


# -- the list -----------------------------------------------------------------------------------------------------
def test_every_mode_lists_well_formed_features(reports: dict[str, dict[str, Any]]) -> None:
    assert set(reports) == {"base"}  # the game sells no feature
    for report in reports.values():
        listed = report["features"]
        assert isinstance(listed, list)
        assert listed
        ids = [f["id"] for f in listed]
        assert len(ids) == len(set(ids))
        for f in listed:
            assert set(f) == {"id", "title", "probability", "exact", "method"}
            assert re.fullmatch(r"[a-z0-9_]+", f["id"]), f["id"]
            assert isinstance(f["title"], str)
            assert f["title"]
            assert isinstance(f["method"], str)
            assert f["method"].startswith("exact")
            assert isinstance(f["probability"], float)
            assert 0 < f["probability"] <= 1
            if f["exact"] is not None:
                assert float(Fraction(f["exact"])) == f["probability"]


def test_the_list_is_what_the_pinned_seeds_cover(features: dict[str, dict[str, Any]]) -> None:
    assert set(features) == set(SEEDS)


def test_the_odds_agree_with_the_report(reports: dict[str, dict[str, Any]], features: dict[str, Any]) -> None:
    report = reports["base"]
    p = {ident: Fraction(f["exact"]) for ident, f in features.items() if f["exact"] is not None}
    trigger = p["free_spins"]
    assert float(trigger) == report["feature_frequency"]
    assert trigger == Fraction(12497, 2778256)  # the par sheet's figure
    # The trigger is 3, 4 or 5 Books (each reel shows at most one), and one of the symbols expands.
    assert p["three_books"] + p["four_books"] + p["five_books"] == trigger
    assert (p["three_books"], p["four_books"], p["five_books"]) == tuple(Fraction(n, 2778256) for n in (11969, 519, 9))
    assert all(p[f"expanding_{s.lower()}"] == trigger / len(SYMBOLS) for s in SYMBOLS)
    # A retrigger in the first 10 free spins: 1 - (1 - p)^10 without the limit, a little less with it
    # (the limit may end a feature before its retrigger).
    q = report["retrigger_probability"]
    uncapped = float(trigger) * (1 - (1 - q) ** 10)
    assert uncapped * (1 - 1e-3) < features["retrigger"]["probability"] < uncapped
    # The win limit's end is not listed: 1 round in about 1.8 million (the first seed that shows it is
    # 3,171,870), beyond the showcase's search.
    assert "win_cap" not in features
    assert 1 / (float(trigger) * report["free_spin_cap"]["feature_capped_probability"]) > sc.LIMIT


def test_the_retrigger_odds_against_every_sequence_of_spins() -> None:
    # A toy spin: win 0, 1 or 2 without a retrigger, or 1 with one; 3 spins, a limit of 2. Every
    # sequence of 3 spins is played spin by spin: shown when a retrigger comes before the wins pass 2.
    spin = {(0, False): 3, (1, False): 2, (2, False): 1, (1, True): 2}
    total = sum(spin.values())
    expected = Fraction(0)
    for seq in itertools.product(spin.items(), repeat=3):
        won = 0
        for (w, again), _ in seq:
            if again:
                expected += math.prod(Fraction(n, total) for _, n in seq)
                break
            won += w
            if won > 2:
                break
    assert retrigger_shown(spin, start=3, cap=2) == pytest.approx(float(expected), abs=1e-15)
    # Without a reachable limit: 1 - (1 - p)^start.
    p = Fraction(2, total)
    assert retrigger_shown(spin, start=3, cap=100) == pytest.approx(float(1 - (1 - p) ** 3), abs=1e-15)


def test_the_plugin_names_the_finder() -> None:
    assert plugin("book_of_spells").showcase_function() is shown


# -- a round for each feature -------------------------------------------------------------------------------------
def _base_window(events: list[Event]) -> tuple[tuple[str, ...], ...]:
    spins = [e for e in events if isinstance(e, Spin)]
    assert spins[0].phase == "base"
    return spins[0].window


def _free_spins(events: list[Event]) -> int:
    return sum(isinstance(e, FreeSpinStart) for e in events)


def _check(ident: str, events: list[Event]) -> None:
    """That the round ``events`` plays ``ident``, read from the events themselves."""
    books = evaluate_scatter(_base_window(events), GAME.book, {}).count
    chosen = [e.symbol for e in events if isinstance(e, ExpandingSymbolChosen)]
    end = next(e for e in events if isinstance(e, FreeSpinsEnd))  # every feature plays free spins
    assert books >= 3
    assert len(chosen) == 1
    assert end.spins == _free_spins(events) >= 1
    if ident in ("three_books", "four_books", "five_books"):
        assert books == {"three_books": 3, "four_books": 4, "five_books": 5}[ident]
    elif ident.startswith("expanding_"):
        symbol = ident.removeprefix("expanding_").upper()
        assert chosen == [symbol]
        assert all(e.symbol == symbol for e in events if isinstance(e, ExpandedWin))
    elif ident == "retrigger":
        free_books = [
            evaluate_scatter(e.window, GAME.book, {}).count for e in events if isinstance(e, Spin) and e.phase == "free"
        ]
        assert max(free_books) >= 3
        assert end.spins > GAME.free_spins.award or end.capped
        assert any(isinstance(e, FreeSpinsAwarded) and e.retrigger for e in events)


@pytest.mark.parametrize("ident", sorted(SEEDS))
def test_a_seed_shows_each_feature(ident: str) -> None:
    events = _round(SEEDS[ident])
    assert ident in shown(events)
    _check(ident, events)


def test_the_seeds_are_the_first_that_show_the_common_features() -> None:
    firsts: dict[str, int] = {}
    for seed in range(1, 6000):
        for ident in shown(_round(seed)):
            firsts.setdefault(ident, seed)
    assert firsts == {k: v for k, v in SEEDS.items() if v < 6000}


# -- many rounds --------------------------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def counted() -> tuple[Counter[str], int]:
    counts: Counter[str] = Counter()
    awarded = 0
    for seed in range(1, ROUNDS + 1):
        events = _round(seed)
        found = shown(events)
        counts.update(found)
        # Independent of the finder: the base spin's free spins.
        awarded += any(isinstance(e, FreeSpinsAwarded) and not e.retrigger for e in events)
        if "free_spins" in found:
            assert len(found & {"three_books", "four_books", "five_books"}) == 1
            assert len({f for f in found if f.startswith("expanding_")}) == 1
        else:
            assert not found
    return counts, awarded


def test_the_finder_gives_only_listed_ids(counted: tuple[Counter[str], int], features: dict[str, Any]) -> None:
    counts, awarded = counted
    assert set(counts) <= set(features)
    assert counts["free_spins"] == awarded


@pytest.mark.parametrize("ident", ["free_spins", "three_books", "expanding_j"])
def test_the_common_features_come_as_often_as_the_odds_say(
    ident: str, counted: tuple[Counter[str], int], features: dict[str, Any]
) -> None:
    p = features[ident]["probability"]
    sd = math.sqrt(ROUNDS * p * (1 - p))
    assert abs(counted[0][ident] - ROUNDS * p) <= 4.5 * sd
