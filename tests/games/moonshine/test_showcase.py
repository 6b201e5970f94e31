"""Moonshine's showcase: the report's ``features`` (well-formed ids, exact odds agreeing
with the report's own figures), the finder `shown` registered in the plug-in, a seed whose
first round shows each feature (checked on the round's events without `shown`), and `shown`
over the first rounds of many seeds agreeing with the exact odds."""

from __future__ import annotations

import math
import re
from collections import Counter
from fractions import Fraction
from typing import Any

import pytest

from pyengine.events import (
    DecisionPending,
    Event,
    FreeSpinsAwarded,
    PickReveal,
    PickStart,
    ScatterWin,
    Spin,
    WinMultiplier,
)
from pyengine.games import get_game, plugin
from pyengine.games.moonshine import FEATURE, Moonshine
from pyengine.games.moonshine.report import five_wilds_probability
from pyengine.games.moonshine.showcase import shown
from pyengine.link import first_round
from pyengine.math.rtp import rtp_report


def _game() -> Moonshine:
    g = get_game("moonshine")
    assert isinstance(g, Moonshine)
    return g


GAME = _game()
G, SH, BO = "GRANDMA", "SHERIFF", "BONUS"
ROUNDS = 40_000
"""Seeds 1..ROUNDS are played once for the whole module (about 4 s)."""

FIRST_SEED = {
    "moonshine_bonus": 137,
    "bonus_3": 137,
    "multiplier_2": 137,
    "sheriff_3": 186,
    "multiplier_4": 461,
    "sheriff_4": 596,
    "multiplier_3": 807,
    "bonus_4": 4873,
    "most_spins": 12119,
    "full_board": 12119,
    "bonus_5": 132197,
    "sheriff_5": 171359,
    "five_grandmas": 292319,
}
"""The first seed whose first round shows each feature (found by a search of the seeds in
order; those within 1..ROUNDS are checked to be the first)."""


def _clock() -> float:
    return 1_767_225_600.0


def _round(seed: int) -> tuple[tuple[str, ...], list[Event]]:
    record, events = first_round("moonshine", seed, clock=_clock)
    return record.features, events


@pytest.fixture(scope="module")
def report() -> dict[str, Any]:
    return rtp_report("moonshine")


@pytest.fixture(scope="module")
def features(report: dict[str, Any]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = report["features"]
    return out


@pytest.fixture(scope="module")
def sweep() -> tuple[Counter[str], dict[str, int]]:
    """`shown` over the first rounds of seeds 1..ROUNDS: how often each id, and its first seed."""
    counts: Counter[str] = Counter()
    first: dict[str, int] = {}
    for seed in range(1, ROUNDS + 1):
        found = shown(_round(seed)[1])
        counts.update(found)
        for ident in found:
            first.setdefault(ident, seed)
    return counts, first


# -- the features list --------------------------------------------------------------------------
def test_the_features_are_well_formed_and_exact(features: list[dict[str, Any]]) -> None:
    ids = [f["id"] for f in features]
    assert len(ids) == len(set(ids))
    assert set(ids) == set(FIRST_SEED)
    for f in features:
        assert set(f) == {"id", "title", "probability", "exact", "method"}
        assert re.fullmatch(r"[a-z0-9_]+", f["id"])
        assert isinstance(f["title"], str)
        assert f["title"]
        assert isinstance(f["method"], str)
        assert f["method"].startswith("exact")
        assert isinstance(f["probability"], float)
        assert 0 < f["probability"] <= 1
        assert f["exact"] is not None
        assert float(Fraction(f["exact"])) == f["probability"]


def test_every_mode_and_line_count_reports_the_features(features: list[dict[str, Any]]) -> None:
    assert GAME.modes == ("base",)
    ids = [f["id"] for f in features]
    for lines in (1, 9):
        listed = rtp_report("moonshine", lines=lines)["features"]
        assert [f["id"] for f in listed] == ids
        # Only five Grandmas on a line depend on the lines.
        same = {f["id"]: f["exact"] for f in listed if f["id"] != "five_grandmas"}
        assert same == {f["id"]: f["exact"] for f in features if f["id"] != "five_grandmas"}


def test_the_odds_agree_with_the_reports_own_figures(report: dict[str, Any], features: list[dict[str, Any]]) -> None:
    p = {f["id"]: Fraction(f["exact"]) for f in features}
    bonus = p["moonshine_bonus"]
    assert float(bonus) == report["feature_frequency"]
    assert bonus == p["bonus_3"] + p["bonus_4"] + p["bonus_5"]
    for k in (3, 4, 5):
        assert float(p[f"bonus_{k}"]) == report["bonus_count_distribution"][str(k)]
        assert float(p[f"sheriff_{k}"]) == report["sheriff_count_distribution"][str(k)]
        # One Sheriff and one bonus symbol on every strip: their counts are alike.
        assert p[f"sheriff_{k}"] == p[f"bonus_{k}"]
    # The board is the same for every start, a uniform order of 18 blocks: the 3 multiplier
    # blocks and the 2 Start blocks give 1x, 2x, 3x, 4x with 2/5, 3/10, 1/5, 1/10; every one of
    # the 13 spin blocks comes before a Start block when both Start blocks are last of those
    # 15 (1 in C(15, 2) = 105), every block when they are last of all 18 (1 in C(18, 2) = 153).
    assert p["multiplier_2"] == bonus * Fraction(3, 10)
    assert p["multiplier_3"] == bonus * Fraction(1, 5)
    assert p["multiplier_4"] == bonus / math.comb(5, 2)
    assert p["most_spins"] == bonus / math.comb(15, 2)
    assert p["full_board"] == bonus / math.comb(18, 2)
    for count in ("3", "4", "5"):
        most = report["most"][count]
        assert most["probability"] == float(Fraction(1, 153))
        assert most["spins_probability"] == float(Fraction(1, 105))
        assert most["multiplier_probability"] == float(Fraction(1, 10))


def test_five_grandmas_on_a_line_is_the_product_of_the_reels_times_the_lines() -> None:
    strips = GAME.base_reels.strips
    one_line = math.prod(Fraction(strip.count(G), len(strip)) for strip in strips)
    assert five_wilds_probability(GAME, 1) == one_line
    # No base window shows two Grandmas on a reel, so two lines (which differ in a row on some
    # reel) never both hold five: the chance on n lines is n times one line's.
    assert all(col.count(G) <= 1 for cols in GAME.base_reels.columns for col in cols)
    for lines in (2, 9, 25):
        assert five_wilds_probability(GAME, lines) == lines * one_line


def test_the_finder_is_registered() -> None:
    assert plugin("moonshine").showcase_function() is shown


# -- a round for each feature -------------------------------------------------------------------
def _base(events: list[Event]) -> Spin:
    spins = [e for e in events if isinstance(e, Spin) and e.phase == "base"]
    assert len(spins) == 1
    return spins[0]


def _base_events(events: list[Event]) -> list[Event]:
    """The events of the base spin: up to the bonus's first decision, if any."""
    cut = next((i for i, e in enumerate(events) if isinstance(e, DecisionPending)), len(events))
    return events[:cut]


def _count(spin: Spin, symbol: str) -> int:
    return sum(col.count(symbol) for col in spin.window)


def _bonus(events: list[Event]) -> tuple[int, int, list[str]]:
    """(the free spins played, their one multiplier, the blocks revealed) of a bonus round."""
    free = [e for e in events if isinstance(e, Spin) and e.phase == "free"]
    multipliers = {e.multiplier for e in events if isinstance(e, WinMultiplier)}
    assert len(multipliers) == 1
    awarded = [e for e in events if isinstance(e, FreeSpinsAwarded)]
    assert len(awarded) == 1
    assert awarded[0].count == len(free)
    return len(free), multipliers.pop(), [e.prize for e in events if isinstance(e, PickReveal)]


def _five_grandmas(events: list[Event]) -> bool:
    window = _base(events).window
    lines = GAME.bets.default.lines
    return any(all(window[reel][row] == G for reel, row in enumerate(p.rows)) for p in GAME.data.paylines[:lines])


def _most(count: int) -> tuple[int, int]:
    most = GAME.describe()["moonshine_bonus"]["most"][str(count)]
    return most["spins"], most["multiplier"]


def _played(ident: str, features: tuple[str, ...], events: list[Event]) -> bool:
    """Whether the round did play ``ident``, from its record and events (not by `shown`)."""
    base = _base(events)
    bonus = FEATURE in features
    assert bonus == any(isinstance(e, PickStart) for e in events)
    if ident == "moonshine_bonus":
        return bonus and _count(base, BO) >= 3
    if ident.startswith("bonus_"):
        return bonus and _count(base, BO) == int(ident.removeprefix("bonus_"))
    if ident.startswith("multiplier_"):
        return bonus and _bonus(events)[1] == int(ident.removeprefix("multiplier_"))
    if ident in ("most_spins", "full_board"):
        if not bonus:
            return False
        spins, multiplier, revealed = _bonus(events)
        top_spins, top_multiplier = _most(_count(base, BO))
        if ident == "most_spins":
            return spins == top_spins and revealed.count("spin+1") == 13
        return (spins, multiplier) == (top_spins, top_multiplier) and revealed[-1] == "start" and len(revealed) == 17
    if ident.startswith("sheriff_"):
        n = int(ident.removeprefix("sheriff_"))
        paid = [e for e in _base_events(events) if isinstance(e, ScatterWin) and e.symbol == SH]
        return _count(base, SH) == n and [e.count for e in paid] == [n]
    if ident == "five_grandmas":
        return _five_grandmas(events)
    raise AssertionError(f"no check for {ident!r}")


@pytest.mark.parametrize("ident", list(FIRST_SEED))
def test_a_seed_shows_each_feature(ident: str) -> None:
    features, events = _round(FIRST_SEED[ident])
    assert ident in shown(events)
    assert _played(ident, features, events)


def test_the_first_seeds_are_the_first(sweep: tuple[Counter[str], dict[str, int]]) -> None:
    _, first = sweep
    for ident, seed in FIRST_SEED.items():
        if seed <= ROUNDS:
            assert first[ident] == seed, ident
        else:
            assert ident not in first, ident


def test_shown_agrees_with_the_rounds_on_the_first_seeds() -> None:
    """On the first 10,000 seeds, `shown` names a feature exactly when the round played it."""
    for seed in range(1, 10_001):
        features, events = _round(seed)
        found = shown(events)
        for ident in FIRST_SEED:
            assert (ident in found) == _played(ident, features, events), (seed, ident)


# -- the counts against the odds ----------------------------------------------------------------
def test_shown_names_only_listed_ids(
    sweep: tuple[Counter[str], dict[str, int]], features: list[dict[str, Any]]
) -> None:
    counts, _ = sweep
    assert set(counts) <= {f["id"] for f in features}


@pytest.mark.parametrize("ident", ["moonshine_bonus", "sheriff_3", "multiplier_2"])
def test_the_commonest_features_come_as_often_as_the_odds_say(
    ident: str, sweep: tuple[Counter[str], dict[str, int]], features: list[dict[str, Any]]
) -> None:
    counts, _ = sweep
    p = next(f["probability"] for f in features if f["id"] == ident)
    mean = ROUNDS * p
    sd = math.sqrt(ROUNDS * p * (1 - p))
    assert abs(counts[ident] - mean) <= 4.5 * sd, (ident, counts[ident], mean)

