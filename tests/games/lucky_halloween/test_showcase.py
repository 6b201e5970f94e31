"""Lucky Halloween's showcase: the report's ``features`` (well formed, exact, and the new exact
figures checked against the report's own and against a second computation), the finder
registered in the plug-in, a seed whose first round shows each feature (checked on the
round's events independently of `shown`), and the counts over the first rounds of 20,000
seeds against the exact chances.

The seeds are the smallest that show each feature among the first rounds of seeds 1 to
1,000,000 (the game's default bet, every decision its first choice, the showcase's clock).
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import pytest

from pyengine.events import (
    DecisionPending,
    Event,
    FreeSpinsAwarded,
    FreeSpinsEnd,
    FreeSpinStart,
    PickReveal,
    RoundStart,
    ScatterWin,
    Spin,
    WinMultiplier,
)
from pyengine.games import get_game, plugin
from pyengine.games.lucky_halloween import FEATURES, LadderClimb, LadderStart, LadderWin, LuckyHalloween, RiderAppears
from pyengine.games.lucky_halloween import report as lhm
from pyengine.games.lucky_halloween.showcase import shown
from pyengine.link import first_round
from pyengine.math.rtp import rtp_report

GAME_ID = "lucky_halloween"
CLOCK_T = 1_767_225_600.0
"""The showcase's fixed clock (2026-01-01 00:00 UTC)."""


def _game() -> LuckyHalloween:
    g = get_game(GAME_ID)
    assert isinstance(g, LuckyHalloween)
    return g


GAME = _game()
SEEDS = {
    "rider_special_reels": 169,
    "rider_pumpkin_tree": 116,
    "rider_random_wilds": 506,
    "rider_mega_wild": 1678,
    "rider_free_spins": 99,
    "rider_full_moon_bonus": 161,
    "tree_20x": 2346,
    "free_spins": 99,
    "four_free": 1184,
    "five_free": 1895,
    "cauldron_20": 2777,
    "bonus_spins": 1184,
    "bonus_spins_max": 13541,
    "full_moon_bonus": 161,
    "four_bonus": 444,
    "five_bonus": 161,
    "ladder_shortcut": 161,
    "rung_300x": 18604,
    "rung_400x": 11195,
    "rung_500x": 3729,
    "rung_800x": 25004,
    "both_features": 475466,
}
COUNTED = 20_000
"""Seeds whose first rounds are counted against the exact chances."""


def play(seed: int) -> list[Event]:
    """The first round of ``seed`` as the showcase plays it."""
    return first_round(GAME_ID, seed, clock=lambda: CLOCK_T)[1]


@pytest.fixture(scope="module")
def report() -> dict[str, Any]:
    return rtp_report(GAME_ID)


@pytest.fixture(scope="module")
def m() -> lhm.HalloweenMath:
    return lhm.halloween_math(GAME)


@pytest.fixture(scope="module")
def features(report: dict[str, Any]) -> dict[str, dict[str, Any]]:
    return {f["id"]: f for f in report["features"]}


@pytest.fixture(scope="module")
def counted() -> Counter[str]:
    out: Counter[str] = Counter()
    for seed in range(1, COUNTED + 1):
        out.update(shown(play(seed)))
    return out


# -- the report's list --------------------------------------------------------------------------
def test_the_features_are_well_formed_and_exact(report: dict[str, Any]) -> None:
    feats = report["features"]
    ids = [f["id"] for f in feats]
    assert len(ids) == len(set(ids))
    assert set(ids) == set(SEEDS)
    for f in feats:
        assert set(f) == {"id", "title", "probability", "exact", "method"}
        assert re.fullmatch(r"[a-z0-9_]+", f["id"])
        assert f["title"][:1].isupper()
        assert 0 < f["probability"] <= 1
        assert f["exact"] is not None
        assert float(Fraction(f["exact"])) == f["probability"]
        assert f["method"].startswith("exact")


def test_every_mode_reports_them(report: dict[str, Any]) -> None:
    assert GAME.modes == ("base",)  # no feature buy: the base report is every mode's
    assert report["mode"] == "base"
    assert {f["id"] for f in report["features"]} == set(SEEDS)


def test_the_features_are_the_reports_own_figures(features: dict[str, dict[str, Any]], m: lhm.HalloweenMath) -> None:
    def exact(fid: str) -> Fraction:
        return Fraction(features[fid]["exact"])

    for f in FEATURES:
        assert exact(f"rider_{f}") == GAME.rider.chance(f)
    assert exact("tree_20x") == GAME.rider.chance("pumpkin_tree") * Fraction(30, 1000)
    assert exact("free_spins") == m.free_spins_frequency
    assert exact("full_moon_bonus") == m.full_moon_frequency
    assert exact("rung_800x") == m.top_rung_probability
    assert exact("cauldron_20") == m.free_spins_frequency * Fraction(8, 100)
    # the counts split the trigger
    five_free = exact("five_free")
    assert exact("four_free") + five_free < m.free_spins_frequency
    assert exact("four_bonus") + exact("five_bonus") < m.full_moon_frequency
    assert exact("bonus_spins_max") < exact("bonus_spins") < m.free_spins_frequency
    assert exact("both_features") < min(five_free, exact("five_bonus"))


def test_the_joint_scatter_counts_have_the_reports_marginals(m: lhm.HalloweenMath) -> None:
    joint = lhm.scatter_joint(GAME)
    assert set(joint) == set(m.spins)
    for kind, dist in joint.items():
        assert sum(dist.values()) == 1
        st = m.spins[kind]
        for which, marginal in ((0, st.free), (1, st.bonus)):
            got: dict[int, Fraction] = {}
            for key, p in dist.items():
                got[key[which]] = got.get(key[which], Fraction(0)) + p
            assert {n: p for n, p in got.items() if p} == {n: p for n, p in enumerate(marginal) if p}
    # Both features need the Rider's dropped scatters: a reel shows at most one scatter.
    for kind, dist in joint.items():
        if kind not in ("free_spins", "full_moon_bonus"):
            assert all(f + b <= 5 for f, b in dist)


def test_the_bonus_award_odds_agree_with_the_reports_spin_counts(m: lhm.HalloweenMath) -> None:
    rules = GAME.free
    mean_extra = Fraction(sum(v for v, _ in rules.bonus_cauldron), len(rules.bonus_cauldron))
    q = Fraction(rules.bonus_numerator, rules.bonus_denominator)
    starts = sorted({rules.spins(c, n) for c in m.cauldron_odds for n in m.expected_spins})
    odds = lhm.bonus_award_odds(GAME, starts)
    for start in starts:
        p = odds[start]
        assert sum(p) == 1
        assert p[0] == (1 - q) ** start  # no award: none in the first spins
        a1, a0 = lhm.free_spin_counts(GAME, start)
        # Wald: E[spins] = start + E[awards] E[extra]
        assert a1 + a0 == start + mean_extra * sum(j * pj for j, pj in enumerate(p))


def test_the_shortcut_chance_agrees_with_a_backward_pass() -> None:
    lad = GAME.ladder
    for count in (3, 4, 5, 7):
        c = lad.count(count)
        cp = Fraction(*lad.collect[c])
        hit: dict[int, Fraction] = {}
        for p in range(lad.top - 1, -1, -1):
            total = Fraction(0)
            for k in range(1, lad.steps + 1):
                landed, to = lad.move(p, k)
                if landed != to:
                    total += 1
                elif to != lad.top:
                    total += (1 - cp) * hit[to] if lad.collect_allowed(c, to) else hit[to]
            hit[p] = total / lad.steps
        assert lhm.ladder_shortcut_chance(GAME, count) == hit[0] > 0


def test_the_plugin_registers_the_finder() -> None:
    assert plugin(GAME_ID).showcase_function() is shown


# -- a round that shows each feature ------------------------------------------------------------
def _paid(evs: list[Event]) -> list[Event]:
    """The paid spin's events: up to the first decision."""
    cut = next((i for i, e in enumerate(evs) if isinstance(e, DecisionPending)), len(evs))
    return evs[:cut]


def _scatter_count(evs: list[Event], symbol: str) -> int:
    return max((e.count for e in _paid(evs) if isinstance(e, ScatterWin) and e.symbol == symbol), default=0)


def _free_start(evs: list[Event]) -> int:
    """The spins the free-spins feature started with (0 without one)."""
    return next((e.count for e in evs if isinstance(e, FreeSpinsAwarded) and not e.retrigger), 0)


def _stake(evs: list[Event]) -> int:
    return next(e.stake for e in evs if isinstance(e, RoundStart))


def _ladder_win(evs: list[Event]) -> int:
    return next((e.win for e in evs if isinstance(e, LadderWin)), 0)


def _rider(feature: str) -> Callable[[list[Event]], bool]:
    def check(evs: list[Event]) -> bool:
        paid = _paid(evs)
        riders = [e for e in paid if isinstance(e, RiderAppears)]
        spins = [i for i, e in enumerate(paid) if isinstance(e, Spin)]
        return [r.feature for r in riders] == [feature] and paid.index(riders[0]) < spins[0]

    return check


def _free_spins_played(evs: list[Event]) -> bool:
    starts = [e for e in evs if isinstance(e, FreeSpinStart)]
    end = [e for e in evs if isinstance(e, FreeSpinsEnd)]
    return bool(starts) and len(end) == 1 and end[0].spins == len(starts) == starts[-1].total


def _scatters_and_spins(n: int, *, more: bool = False) -> Callable[[list[Event]], bool]:
    """The paid spin paid n (or more) Free Spins symbols and the feature started with the
    cauldron's count plus 10 per symbol past the third."""

    def check(evs: list[Event]) -> bool:
        got = _scatter_count(evs, GAME.free_symbol)
        cauldron = next(int(e.prize) for e in evs if isinstance(e, PickReveal) and e.name == "cauldron")
        return (got >= n if more else got == n) and _free_start(evs) == cauldron + 10 * (got - 3)

    return check


def _retriggers(evs: list[Event]) -> int:
    return sum(1 for e in evs if isinstance(e, FreeSpinsAwarded) and e.retrigger)


def _bonus_symbols(n: int, minimum_x: int, *, more: bool = False) -> Callable[[list[Event]], bool]:
    def check(evs: list[Event]) -> bool:
        got = _scatter_count(evs, GAME.bonus_symbol)
        start = [e for e in evs if isinstance(e, LadderStart)]
        return (got >= n if more else got == n) and len(start) == 1 and start[0].minimum_x == minimum_x

    return check


def _shortcut(evs: list[Event]) -> bool:
    rungs = GAME.ladder.rungs_x
    return any(
        isinstance(e, LadderClimb) and (rungs[e.landed - 1], rungs[e.position - 1]) in {(19, 60), (20, 100)}
        for e in evs
    )


def _pays(x: int) -> Callable[[list[Event]], bool]:
    return lambda evs: _ladder_win(evs) == x * _stake(evs)


def _both(evs: list[Event]) -> bool:
    ladder = next(i for i, e in enumerate(evs) if isinstance(e, LadderWin))
    return _free_spins_played(evs) and ladder < next(i for i, e in enumerate(evs) if isinstance(e, FreeSpinStart))


CHECKS: dict[str, Callable[[list[Event]], bool]] = {
    **{f"rider_{f}": _rider(f) for f in FEATURES},
    "tree_20x": lambda evs: (
        _rider("pumpkin_tree")(evs) and [e.multiplier for e in evs if isinstance(e, WinMultiplier)] == [20]
    ),
    "free_spins": _free_spins_played,
    "four_free": _scatters_and_spins(4),
    "five_free": _scatters_and_spins(5, more=True),
    "cauldron_20": lambda evs: (
        _free_start(evs) > 0 and _free_start(evs) - 10 * (_scatter_count(evs, GAME.free_symbol) - 3) == 20
    ),
    "bonus_spins": lambda evs: _free_spins_played(evs) and _retriggers(evs) >= 1,
    "bonus_spins_max": lambda evs: _free_spins_played(evs) and _retriggers(evs) == 3,
    "full_moon_bonus": lambda evs: _ladder_win(evs) >= 12 * _stake(evs),
    "four_bonus": _bonus_symbols(4, 17),
    "five_bonus": _bonus_symbols(5, 40, more=True),
    "ladder_shortcut": _shortcut,
    "rung_300x": _pays(300),
    "rung_400x": _pays(400),
    "rung_500x": _pays(500),
    "rung_800x": lambda evs: (
        _pays(800)(evs) and [e.position for e in evs if isinstance(e, LadderClimb)][-1] == GAME.ladder.top
    ),
    "both_features": _both,
}


@pytest.mark.parametrize("fid", sorted(SEEDS))
def test_a_seed_shows_each_feature(fid: str) -> None:
    evs = play(SEEDS[fid])
    assert fid in shown(evs)
    assert CHECKS[fid](evs), fid


def test_a_plain_round_shows_nothing() -> None:
    evs = play(1)
    assert not any(isinstance(e, (RiderAppears, DecisionPending)) for e in evs)
    assert shown(evs) == set()


# -- the counts ---------------------------------------------------------------------------------
def test_the_first_rounds_show_only_listed_features(counted: Counter[str], features: dict[str, Any]) -> None:
    assert set(counted) <= set(features)
    assert counted["both_features"] <= counted["free_spins"]


@pytest.mark.parametrize("fid", ["rider_pumpkin_tree", "rider_special_reels", "free_spins", "full_moon_bonus"])
def test_the_common_features_come_as_often_as_the_exact_chance(
    fid: str, counted: Counter[str], features: dict[str, dict[str, Any]]
) -> None:
    p = features[fid]["probability"]
    expected = COUNTED * p
    sd = math.sqrt(COUNTED * p * (1 - p))
    assert abs(counted[fid] - expected) <= 4.5 * sd, (fid, counted[fid], expected)
