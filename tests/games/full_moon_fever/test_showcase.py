"""Full Moon Fever's showcase: the report's ``features`` (ids, exact odds, the same in every
mode), the finder `shown` registered in the plug-in, a seed whose first round shows each
feature (checked on the round's events without `shown`), and `shown` over the first rounds
of many seeds agreeing with the exact odds."""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import pytest

from pyengine.events import Cascade, Event, FreeSpinsAwarded, FreeSpinsEnd, FreeSpinStart, LineWin, PickReveal, Spin
from pyengine.games import get_game, plugin
from pyengine.games.full_moon_fever import FullMoonFever
from pyengine.games.full_moon_fever import showcase
from pyengine.games.full_moon_fever.showcase import shown
from pyengine.link import first_round
from pyengine.math.rtp import rtp_report

GAME = get_game("full_moon_fever")
assert isinstance(GAME, FullMoonFever)
G: FullMoonFever = GAME
BET_PER_LINE = G.bets.default.bet_per_line
ROUNDS = 50_000
"""Seeds 1..ROUNDS are played once for the whole module (about 2 s)."""

FIRST_SEED = {
    "winfalls": 442,
    "three_houses": 442,
    "pet_dog": 442,
    "spins_10": 442,
    "spins_12": 737,
    "four_houses": 756,
    "multiplier_x5": 909,
    "spins_8": 943,
    "spins_20": 1181,
    "spins_15": 1353,
    "spins_25": 2345,
    "spins_5": 2524,
    "spins_50": 2814,
    "longest_cascade": 15107,
    "five_houses": 172716,
}
"""The first seed whose first round shows each feature (found by the showcase's search; the
ones within 1..ROUNDS are checked to be the first)."""


def _clock() -> float:
    return 1_767_225_600.0


def _round(seed: int) -> list[Event]:
    return first_round("full_moon_fever", seed, clock=_clock)[1]


@pytest.fixture(scope="module")
def reports() -> dict[str, dict[str, Any]]:
    return {mode: rtp_report("full_moon_fever", mode) for mode in G.modes}


@pytest.fixture(scope="module")
def features(reports: dict[str, dict[str, Any]]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = reports["base"]["features"]
    return out


@pytest.fixture(scope="module")
def sweep() -> tuple[Counter[str], dict[str, int]]:
    """`shown` over the first rounds of seeds 1..ROUNDS: how often each id, and its first seed."""
    counts: Counter[str] = Counter()
    first: dict[str, int] = {}
    for seed in range(1, ROUNDS + 1):
        found = shown(_round(seed))
        counts.update(found)
        for fid in found:
            first.setdefault(fid, seed)
    return counts, first


def test_the_features_list(reports: dict[str, dict[str, Any]], features: list[dict[str, Any]]) -> None:
    assert G.modes == ("base",)
    for rep in reports.values():
        assert rep["features"] == features
    ids = [f["id"] for f in features]
    assert len(ids) == len(set(ids)) == 15
    for f in features:
        assert set(f) == {"id", "title", "probability", "exact", "method"}
        assert re.fullmatch(r"[a-z0-9_]+", f["id"])
        assert isinstance(f["title"], str)
        assert f["title"]
        assert f["method"].startswith("exact")
        assert 0 < f["probability"] <= 1
        assert f["exact"] is not None
        assert float(Fraction(f["exact"])) == f["probability"]


def test_the_odds_agree_with_the_report(reports: dict[str, dict[str, Any]], features: list[dict[str, Any]]) -> None:
    rep = reports["base"]
    exact = {f["id"]: Fraction(f["exact"]) for f in features}
    p = exact["winfalls"]
    assert p == Fraction(28206, 3541867)
    assert float(p) == rep["feature_frequency"]
    assert exact["pet_dog"] == p
    assert exact["three_houses"] + exact["four_houses"] + exact["five_houses"] == p
    assert sum(exact[f"spins_{n}"] for n, _ in G.winfalls.spins) == p
    assert exact["spins_50"] == p * Fraction(30, 1000)
    for k, word in showcase.HOUSES.items():
        assert float(exact[f"{word.split('_')[0]}_houses"]) == rep["houses"][str(k)]
    # A spin reaching k winning windows, from the report's cascade table, over each number of spins.
    cascades = {int(k): v for k, v in rep["cascade_distribution"].items()}
    radix = rep["cascade_combinations"]
    for fid, k in (("multiplier_x5", 5), ("longest_cascade", rep["longest_cascade"])):
        q = sum(v for n, v in cascades.items() if n >= k) / radix
        spins = rep["spins_distribution"]
        expected = rep["feature_frequency"] * sum(w * (1 - (1 - q) ** int(n)) for n, w in spins.items())
        assert float(exact[fid]) == pytest.approx(expected, rel=1e-12)


def test_the_finder_matches_the_data_and_the_report(reports: dict[str, dict[str, Any]]) -> None:
    rep = reports["base"]
    rules = G.winfalls
    assert plugin("full_moon_fever").showcase_function() is shown
    assert set(showcase.SPINS) == {n for n, _ in rules.spins}
    assert min(showcase.HOUSES) == rules.trigger
    assert max(showcase.HOUSES) == len(G.base_reels.strips)
    assert list(showcase.PETS) == [rules.pets.prizes[0]]
    assert rules.pets.faces is not None  # an open choice: the first cell always holds the first pet
    assert max(rules.cascade.multipliers) == showcase.TOP_MULTIPLIER
    assert rep["longest_cascade"] == showcase.LONGEST_CASCADE


def _free_spins(events: list[Event]) -> list[list[Event]]:
    """The events of each free spin, from its `FreeSpinStart` to the next."""
    spins: list[list[Event]] = []
    for e in events:
        if isinstance(e, FreeSpinStart):
            spins.append([])
        elif spins:
            spins[-1].append(e)
    return spins


def _houses(events: list[Event]) -> int:
    base = next(e for e in events if isinstance(e, Spin) and e.phase == "base")
    return sum(column.count("HOUSE") for column in base.window)


def _winning_windows(spin: list[Event]) -> int:
    return sum(isinstance(e, Cascade) for e in spin)


def _spins(n: int) -> Callable[[list[Event]], bool]:
    def check(events: list[Event]) -> bool:
        end = [e for e in events if isinstance(e, FreeSpinsEnd)]
        return len(_free_spins(events)) == n and len(end) == 1 and end[0].spins == n

    return check


def _pet_dog(events: list[Event]) -> bool:
    reveals = [e.prize for e in events if isinstance(e, PickReveal)]
    windows = [e.window for e in events if isinstance(e, Cascade) or (isinstance(e, Spin) and e.phase == "free")]
    symbols = {s for window in windows for column in window for s in column}
    return reveals == ["DOG"] and "WOLF" in symbols and not symbols & {"PET", "PANTHER", "RAVEN", "GREMLIN"}


def _top_multiplier(events: list[Event]) -> bool:
    # A free spin with 5 winning windows, its 5th window's wins paid x5 (the Winfalls pay x bet per line x 5).
    for spin in _free_spins(events):
        wins = [e for e in spin if isinstance(e, LineWin | Cascade)]
        windows = 0
        for e in wins:
            if isinstance(e, Cascade):
                windows += 1
            elif windows == 4 and e.win == e.multiplier * BET_PER_LINE * 5:
                return True
    return False


CHECKS: dict[str, Callable[[list[Event]], bool]] = {
    "winfalls": lambda ev: _houses(ev) >= 3 and len(_free_spins(ev)) >= 5,
    "three_houses": lambda ev: _houses(ev) == 3 and bool(_free_spins(ev)),
    "four_houses": lambda ev: _houses(ev) == 4 and bool(_free_spins(ev)),
    "five_houses": lambda ev: _houses(ev) == 5 and bool(_free_spins(ev)),
    "pet_dog": _pet_dog,
    **{f"spins_{n}": _spins(n) for n in (5, 8, 10, 12, 15, 20, 25, 50)},
    "multiplier_x5": _top_multiplier,
    "longest_cascade": lambda ev: max(map(_winning_windows, _free_spins(ev)), default=0) == 10,
}
"""Each feature seen in a round's events without `shown`."""


def test_every_feature_has_a_seed(features: list[dict[str, Any]]) -> None:
    assert set(FIRST_SEED) == set(CHECKS) == {f["id"] for f in features}
    for fid, seed in FIRST_SEED.items():
        events = _round(seed)
        assert fid in shown(events), (fid, seed)
        assert CHECKS[fid](events), (fid, seed)


def test_the_checks_agree_with_shown_on_every_feature_round() -> None:
    """On the first rounds that start Winfalls (seeds 1..5000), each independent check is
    true exactly for the ids `shown` gives."""
    played = 0
    for seed in range(1, 5001):
        events = _round(seed)
        if not any(isinstance(e, FreeSpinsAwarded) for e in events):
            assert shown(events) == set()
            continue
        played += 1
        found = shown(events)
        assert {fid for fid, check in CHECKS.items() if check(events)} == found, seed
    assert played > 20
    assert not any(isinstance(e, FreeSpinsAwarded) for e in _round(1))
    assert shown(_round(1)) == set()


def test_the_first_seeds(sweep: tuple[Counter[str], dict[str, int]]) -> None:
    _, first = sweep
    assert first == {fid: seed for fid, seed in FIRST_SEED.items() if seed <= ROUNDS}


def test_shown_agrees_with_the_odds(
    features: list[dict[str, Any]], sweep: tuple[Counter[str], dict[str, int]]
) -> None:
    counts, _ = sweep
    probability = {f["id"]: f["probability"] for f in features}
    assert set(counts) <= set(probability)
    for fid in ("winfalls", "three_houses", "multiplier_x5"):
        p = probability[fid]
        mean = ROUNDS * p
        sd = math.sqrt(ROUNDS * p * (1 - p))
        assert abs(counts[fid] - mean) <= 4.5 * sd, (fid, counts[fid], mean, sd)
    assert counts["pet_dog"] == counts["winfalls"]
    assert counts["three_houses"] + counts["four_houses"] + counts["five_houses"] == counts["winfalls"]
