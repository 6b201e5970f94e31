"""Lucky Halloween's exact RTP: the figure, its parts checked against the game's own play
path by exhaustive enumeration on small strips, the ladder chain and the free-spin counts
against closed forms and direct play, and the simulation agreeing within its interval."""

from __future__ import annotations

import copy
import itertools
import math
from collections.abc import Iterator
from fractions import Fraction
from typing import Any

import pytest

from pyengine.cli import main
from pyengine.data import Field, load_lines_game, read_data_file
from pyengine.events import FreeSpinsEnd, LineWin, ScatterWin, Spin
from pyengine.games import get_game
from pyengine.games.lucky_halloween import FEATURES, LadderWin, LuckyHalloween, RiderSymbols
from pyengine.games.lucky_halloween import report as lhm
from pyengine.math.rtp import rtp_report
from pyengine.math.simulate import simulate
from pyengine.model import Bet
from pyengine.rng import Rng, ScriptedRng
from pyengine.round import RoundContext

ROOT = read_data_file("lucky_halloween.json").value
BET = Bet(20, 5)


def _game() -> LuckyHalloween:
    g = get_game("lucky_halloween")
    assert isinstance(g, LuckyHalloween)
    return g


GAME = _game()
EXACT_12 = 931_100_121_935
"""The exact RTP (a fraction of about 240 digits each side) to 12 decimals: 0.931100121935."""


@pytest.fixture(scope="module")
def m() -> lhm.HalloweenMath:
    return lhm.halloween_math(GAME)


def build(data: dict[str, Any]) -> LuckyHalloween:
    return LuckyHalloween(load_lines_game(Field("lucky_halloween.json", "", data)))


# -- the figure ------------------------------------------------------------------------------------
def test_the_exact_rtp_is_the_documented_figure(m: lhm.HalloweenMath) -> None:
    assert round(m.rtp * 10**12) == EXACT_12
    assert abs(m.rtp - Fraction("0.9311")) < Fraction(2, 10_000)  # 93.11% +- 0.02 pp
    assert sum(m.components.values()) == m.rtp
    assert m.components["jackpot_contribution"] == Fraction(3, 100)
    assert set(m.components) == {
        "base_lines",
        "base_scatters",
        *(f"rider_{f}" for f in FEATURES),
        "free_spins",
        "full_moon_bonus",
        "jackpot_contribution",
    }


def test_the_report_is_complete_and_fast() -> None:
    r = rtp_report("lucky_halloween")
    # Speed is the bench's to measure (about 2 s here); this only catches a report gone
    # pathological, with room for a busy machine.
    assert r["seconds"] < 120
    assert round(Fraction(r["rtp_exact"]) * 10**12) == EXACT_12
    assert set(r["rider_frequency"]) == set(FEATURES)
    assert all(p > 0 for p in r["rider_frequency"].values())
    # every advertised award is reachable, with its odds
    assert set(r["pumpkin_tree_odds"]) == {"3", "5", "6", "8", "9", "10", "12", "20"}
    assert all(p > 0 for p in r["pumpkin_tree_odds"].values())
    assert set(r["cauldron_odds"]) == {"10", "12", "15", "16", "18", "20"}
    assert all(p > 0 for p in r["cauldron_odds"].values())
    assert set(r["bonus_spins_odds"]) == {"5", "6", "7", "8"}
    assert all(p > 0 for p in r["bonus_spins_odds"].values())
    for n, finals in r["ladder_finals"].items():
        assert all(p > 0 for p in finals.values()), n
        assert "800" in finals
    assert r["top_rung_every"] is not None
    assert r["top_rung_x"] == 800
    assert r["max_win_bound"] is True
    assert r["summary"]


def test_cli_prints_the_breakdown(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rtp", "lucky_halloween"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("lucky_halloween (base): RTP 93.11")
    assert "rider_mega_wild" in out
    assert "ladder finals  3:12x" in out


# -- the spins, against the game's own play path ----------------------------------------------------
SMALL_BASE = [
    ["LANTERN", "FREE", "K"],
    ["WILD", "BONUS", "CAT"],
    ["LANTERN", "FREE", "BONUS"],
    ["CAT", "WILD", "FREE"],
    ["BONUS", "LANTERN", "Q"],
]
SMALL_SPECIAL = [
    ["LANTERN", "BAT", "FREE"],
    ["WILD", "CAT", "BAT"],
    ["BONUS", "CAT", "LANTERN"],
    ["BAT", "CAT", "FREE"],
    ["LANTERN", "BONUS", "CAT"],
]


def small_game() -> LuckyHalloween:
    data: dict[str, Any] = copy.deepcopy(ROOT)
    data["reels"] = {"base": SMALL_BASE, "special": SMALL_SPECIAL, "free": [["A", "WILD", "CAT"]] * 5}
    data["rider"]["random_wilds"] = {"2": 1}
    data["rider"]["free_spins"] = {"3": 1}
    data["rider"]["full_moon_bonus"] = {"4": 1}
    return build(data)


def _one_order_per_set(n: int, k: int) -> Iterator[list[int]]:
    """The draws of `_sample` (a partial Fisher-Yates shuffle) that pick ``k`` of ``n``, one
    sequence per set: every set comes from k! equally likely sequences."""
    seen: set[frozenset[int]] = set()
    for draws in itertools.product(*(range(n - i) for i in range(k))):
        cells = list(range(n))
        for i, d in enumerate(draws):
            j = i + d
            cells[i], cells[j] = cells[j], cells[i]
        chosen = frozenset(cells[:k])
        if chosen not in seen:
            seen.add(chosen)
            yield list(draws)


def overlay_scripts(game: LuckyHalloween, feature: str) -> Iterator[list[int]]:
    """Every outcome of the Rider's draws after the stops, each as likely as the others
    (the small game's tables have one value, or equal weights)."""
    r = game.rider
    if feature == "random_wilds":
        ((k, _),) = r.wilds
        yield from ([0, *s] for s in _one_order_per_set(15, k))
    elif feature == "mega_wild":
        yield from ([i] for i in range(len(r.mega)))
    elif feature in ("free_spins", "full_moon_bonus"):
        table = r.free_spins if feature == "free_spins" else r.full_moon
        ((n, _),) = table
        for reels in _one_order_per_set(5, n):
            for rows in itertools.product(range(3), repeat=n):
                yield [0, *reels, *rows]
    else:
        yield []


def brute(game: LuckyHalloween, feature: str) -> tuple[Fraction, dict[int, Fraction], dict[int, Fraction]]:
    """E[the paid spin's line + scatter win] (total bets) and the scatter counts' distributions,
    by playing every stop combination and every Rider draw through `play`."""
    draw = sum(game.rider.weights[: FEATURES.index(feature)])
    reels = game.special_reels if feature == "special_reels" else game.base_reels
    scripts = list(overlay_scripts(game, feature))
    total = Fraction(0)
    free: dict[int, Fraction] = {}
    bonus: dict[int, Fraction] = {}
    weight = Fraction(1, reels.radix * len(scripts))
    for index in range(reels.radix):
        for script in scripts:
            special = feature == "special_reels"
            first = [draw * game.base_reels.radix, index] if special else [draw * reels.radix + index]
            ctx = RoundContext(ScriptedRng([*first, *script]), BET, {})
            next(game.play(ctx), None)
            win = sum(e.win for e in ctx.events if isinstance(e, (LineWin, ScatterWin)))
            placed = [e for e in ctx.events if isinstance(e, RiderSymbols)]
            window = placed[0].window if placed else next(e for e in ctx.events if isinstance(e, Spin)).window
            total += weight * Fraction(win, BET.total)
            nf = sum(col.count(game.free_symbol) for col in window)
            nb = sum(col.count(game.bonus_symbol) for col in window)
            free[nf] = free.get(nf, Fraction(0)) + weight
            bonus[nb] = bonus.get(nb, Fraction(0)) + weight
    return total, free, bonus


@pytest.mark.parametrize("feature", ["special_reels", "random_wilds", "mega_wild", "free_spins", "full_moon_bonus"])
def test_each_rider_spin_equals_exhaustive_play(feature: str) -> None:
    game = small_game()
    stats = lhm.halloween_math(game).spins[feature]
    win, free, bonus = brute(game, feature)
    assert stats.lines + stats.scatters == win
    assert {n: p for n, p in enumerate(stats.free) if p} == free
    assert {n: p for n, p in enumerate(stats.bonus) if p} == bonus


def test_the_plain_spin_equals_exhaustive_play() -> None:
    game = small_game()
    stats = lhm.halloween_math(game).spins["plain"]
    total = Fraction(0)
    for index in range(game.base_reels.radix):
        first = (game.rider.denominator - 1) * game.base_reels.radix + index
        ctx = RoundContext(ScriptedRng([first]), BET, {})
        next(game.play(ctx), None)
        total += Fraction(sum(e.win for e in ctx.events if isinstance(e, (LineWin, ScatterWin))), BET.total)
    assert stats.lines + stats.scatters == total / game.base_reels.radix


def test_the_tree_mean_is_its_table(m: lhm.HalloweenMath) -> None:
    tree = GAME.rider.tree
    assert m.tree_mean == Fraction(sum(v * w for v, w in tree), sum(w for _, w in tree))
    assert m.components["rider_pumpkin_tree"] == m.rider["pumpkin_tree"] * m.tree_mean * (
        m.spins["plain"].lines + m.spins["plain"].scatters
    )


# -- free spins ------------------------------------------------------------------------------------
def with_awards(max_awards: int) -> LuckyHalloween:
    data: dict[str, Any] = copy.deepcopy(ROOT)
    data["free_spins"]["bonus_spins"]["max_awards"] = max_awards
    return build(data)


def test_free_spin_counts_without_awards_and_with_one() -> None:
    assert lhm.free_spin_counts(with_awards(0), 12) == (Fraction(0), Fraction(12))
    game = with_awards(1)
    rules = game.free
    q = Fraction(rules.bonus_numerator, rules.bonus_denominator)
    mean_extra = Fraction(sum(v * w for v, w in rules.bonus_cauldron), sum(w for _, w in rules.bonus_cauldron))
    for start in (10, 15, 20):
        a1, a0 = lhm.free_spin_counts(game, start)
        award = 1 - (1 - q) ** start
        assert a1 + a0 == start + award * mean_extra
        # spins played while the award is still possible: until the first Rider, at most ``start``
        assert a1 == sum(((1 - q) ** i for i in range(start)), Fraction(0))


def test_many_awards_approach_the_branching_series() -> None:
    game = with_awards(40)
    rules = game.free
    q = Fraction(rules.bonus_numerator, rules.bonus_denominator)
    mean_extra = Fraction(sum(v * w for v, w in rules.bonus_cauldron), sum(w for _, w in rules.bonus_cauldron))
    a1, a0 = lhm.free_spin_counts(game, 10)
    series = 10 / (1 - q * mean_extra)
    assert a1 + a0 < series
    assert float(series - a1 - a0) < 1e-9


def test_the_free_spins_value_agrees_with_direct_play(m: lhm.HalloweenMath) -> None:
    """Free spins from 3 scatters, played through `play` (bonus spins included), against
    the exact value."""
    data: dict[str, Any] = copy.deepcopy(ROOT)
    data["reels"]["base"] = [["FREE", "A", "K"], ["Q", "J", "K"]] * 2 + [["FREE", "A", "K"]]
    game = build(data)
    runs = 5000
    wins = []
    for seed in range(runs):
        ctx = RoundContext(ScriptedRng([(game.rider.denominator - 1) * game.base_reels.radix], seed + 1), BET, {})
        proc = game.play(ctx)
        try:
            d = next(proc)
            while True:
                d = proc.send(d.choices[0])
        except StopIteration:
            pass
        wins.append(Fraction(next(e.win for e in ctx.events if isinstance(e, FreeSpinsEnd)), BET.total))
    mean = sum(wins, Fraction(0)) / runs
    var = sum((w - mean) ** 2 for w in wins) / runs
    assert abs(float(mean - m.free_spins_value[3])) < 4 * math.sqrt(float(var) / runs)


# -- the ladder -------------------------------------------------------------------------------------
@pytest.mark.parametrize("count", [3, 4, 5])
def test_the_ladder_chain_is_a_distribution_over_the_documents_finals(count: int, m: lhm.HalloweenMath) -> None:
    finals = m.ladder_finals[count]
    assert sum(finals.values()) == 1
    rungs = GAME.ladder.rungs_x
    expected = {3: 12, 4: 17, 5: 40}[count]
    assert min(rungs[i - 1] for i in finals) == expected
    assert 19 not in {rungs[i - 1] for i in finals}
    assert 20 not in {rungs[i - 1] for i in finals}


def test_the_ladder_chain_agrees_with_direct_play(m: lhm.HalloweenMath) -> None:
    """The real ladder (through `play`, picks answered at random) against the chain's mean."""
    game = build(copy.deepcopy(ROOT) | {"reels": {
        "base": [["BONUS", "A", "K"], ["Q", "J", "K"], ["BONUS", "A", "K"], ["Q", "J", "K"], ["BONUS", "A", "K"]],
        "special": [["CAT", "BAT", "LANTERN"]] * 5,
        "free": [["A", "K", "Q"]] * 5,
    }})
    picker = Rng(7)
    runs = 4000
    wins = []
    for seed in range(runs):
        ctx = RoundContext(ScriptedRng([(game.rider.denominator - 1) * game.base_reels.radix], seed + 1), BET, {})
        proc = game.play(ctx)
        try:
            d = next(proc)
            while True:
                d = proc.send(d.choices[picker.below(len(d.choices))])
        except StopIteration:
            pass
        wins.append(Fraction(sum(e.win for e in ctx.events if isinstance(e, LadderWin)), BET.total))
    value = m.ladder_value[3]
    mean = sum(wins, Fraction(0)) / runs
    var = sum((w - mean) ** 2 for w in wins) / runs
    assert abs(float(mean - value)) < 4 * math.sqrt(float(var) / runs)


# -- seeded simulation through the real play path ------------------------------------------------------
def test_the_simulation_agrees_within_its_interval(m: lhm.HalloweenMath) -> None:
    rounds = 150_000
    result = simulate("lucky_halloween", rounds, seed=2026)
    # The jackpot returns exactly its contribution in the long run; a finite run leaves a pot
    # open, so count the jackpot as what it collected.
    game_rtp = (result.total_win - result.jackpot_paid + Fraction(str(result.jackpot_contributed))) / result.total_stake
    assert abs(float(game_rtp - m.rtp)) < result.ci95
    for feature, p in (("free_spins", m.free_spins_frequency), ("full_moon_bonus", m.full_moon_frequency)):
        seen = result.features.get(feature, 0)
        assert abs(seen - rounds * float(p)) < 4 * math.sqrt(rounds * float(p))
