"""pyengine.games.moon_spell.report: the exact RTP of Moon Spell in both modes, its pieces against brute
force on small cases, and seeded simulations through the real play path."""

from __future__ import annotations

import copy
import itertools
import math
from collections import Counter
from fractions import Fraction
from functools import cache
from typing import Any

import pytest

from pyengine.cli import main
from pyengine.data import Field, load_lines_game, read_data_file
from pyengine.features.hold_and_respin import HoldAndRespinRules, hold_and_respin
from pyengine.games import get_game
from pyengine.games.moon_spell import POSITIONS, MoonSpell
from pyengine.games.moon_spell.report import (
    MoonMath,
    PrizeSums,
    bonus_value,
    cap_terms,
    final_distributions,
    game_finals,
    moon_math,
    prize_moments,
    trigger_spins,
)
from pyengine.math.rtp import rtp_report
from pyengine.math.simulate import simulate
from pyengine.model import Bet
from pyengine.rng import Rng
from pyengine.round import RoundContext


def _game() -> MoonSpell:
    game = get_game("moon_spell")
    assert isinstance(game, MoonSpell)
    return game


GAME = _game()

# `python3 -m pyengine rtp moon_spell [--mode buy] --json` -> "rtp_exact". Pinned: any change of the
# strips, pays, prize weights, respin chance or buy weights must show up here (and in the par sheet).
BASE_RTP = Fraction(
    "9235961957628452260262053209506466956763151634527446756218775358785290213362739305509794402005939709"
    "2106395734767580939912050797255042204812659864163336038462754148368366438231996674660096690977291100"
    "2428782341515172925338309748528175480462802000442371286579466916898187966919654999913041992403508382"
    "208153"
    "/"
    "9916162950363558346672293899011004092374015221096665700927611439363322583228738633718289388134238888"
    "0831751123413075269831784820032185964445798138993420352664789113540754528623427770992924076463654273"
    "2345929894207835088450246896271811448456628516026793142548462305280000000000000000000000000000000000"
    "000000"
)
BUY_RTP = Fraction(
    "6743780878111857338109852895707112809495026252686467111202275425402486524423222793088824010723757154"
    "6580410480897233492271234004697802853224708919043926747262711934857656807216626988531036905560931072"
    "100542930251715465812709484871797923503360442286177571849"
    "/"
    "7043830511341413028066849832339755134507179287653793214433355681379432409256471638387824545899346539"
    "3053038561377865267288453102437706449080274263928876038533923986688098527215327003241863558881990968"
    "830754889400320000000000000000000000000000000000000000000"
)


@pytest.fixture(scope="module")
def m() -> MoonMath:
    return moon_math(GAME)


@pytest.fixture(scope="module")
def base_report() -> dict[str, Any]:
    return rtp_report("moon_spell")


@pytest.fixture(scope="module")
def buy_report() -> dict[str, Any]:
    return rtp_report("moon_spell", "buy")


def _variant(**changes: Any) -> MoonSpell:
    """The game with some top-level sections of its data file replaced."""
    data = copy.deepcopy(read_data_file("moon_spell.json").value)
    for key, value in changes.items():
        if "__" in key:
            outer, inner = key.split("__")
            data[outer][inner] = value
        else:
            data[key] = value
    return MoonSpell(load_lines_game(Field("moon_spell.json", "", data)))


# -- the exact RTPs ------------------------------------------------------------------------------------
def test_rtps_are_pinned(m: MoonMath) -> None:
    assert isinstance(m.base.rtp, Fraction)
    assert m.base.rtp == BASE_RTP
    assert m.buy.rtp == BUY_RTP
    assert abs(m.base.rtp - GAME.target_rtp) < Fraction(2, 10_000)
    assert abs(m.buy.rtp - GAME.buy.target_rtp) < Fraction(2, 10_000)
    # The tuning is tighter than the test: within 0.00005 of both targets.
    assert abs(m.base.rtp - Fraction("0.9314")) <= Fraction(5, 100_000)
    assert abs(m.buy.rtp - Fraction("0.9574")) <= Fraction(5, 100_000)
    assert m.base.rtp == sum(m.base.components.values())
    assert m.buy.rtp == sum(m.buy.components.values())
    assert m.base.components["jackpot_contribution"] == Fraction(1, 100)


def test_base_report(base_report: dict[str, Any], m: MoonMath) -> None:
    r = base_report
    assert {
        "game",
        "mode",
        "rtp",
        "target_rtp",
        "method",
        "breakdown",
        "max_win_x",
        "rtp_exact",
        "feature_frequency",
        "feature_every",
        "final_count_distribution",
        "max_win_probability",
        "max_win_every",
        "seconds",
    } <= set(r)
    assert (r["game"], r["mode"], r["max_win_x"], r["target_rtp"]) == ("moon_spell", "base", 5224, 0.9314)
    assert Fraction(r["rtp_exact"]) == BASE_RTP
    assert set(r["breakdown"]) == {
        "base_lines",
        "moon_cash",
        "hold_and_respin_cash",
        "ladder",
        "max_win_cap",
        "jackpot_contribution",
    }
    assert math.fsum(r["breakdown"].values()) == pytest.approx(r["rtp"], abs=1e-12)
    assert r["breakdown"]["max_win_cap"] < 0
    assert r["feature_every"] == pytest.approx(1 / r["feature_frequency"])
    assert r["max_win_probability"] > 0
    assert r["max_win_every"] == pytest.approx(1 / r["max_win_probability"])
    assert sum(r["final_count_distribution"].values()) == pytest.approx(1, abs=1e-12)
    assert r["seconds"] < 120  # speed is the bench's to measure; this catches a report gone pathological


def test_buy_report(buy_report: dict[str, Any]) -> None:
    r = buy_report
    assert (r["game"], r["mode"], r["target_rtp"], r["feature_buy_price_x"]) == ("moon_spell", "buy", 0.9574, 60)
    assert Fraction(r["rtp_exact"]) == BUY_RTP
    assert set(r["breakdown"]) == {"cash", "ladder", "max_win_cap"}
    assert math.fsum(r["breakdown"].values()) == pytest.approx(r["rtp"], abs=1e-12)
    assert r["feature_frequency"] == 1.0
    assert r["max_win_probability"] > 0
    assert sum(r["final_count_distribution"].values()) == pytest.approx(1, abs=1e-12)
    assert r["feature_average_x"] == pytest.approx(r["rtp"] * 60)


def test_the_game_feels_right(m: MoonMath) -> None:
    """The tuning's targets (see the par sheet): a hold-and-respin slot's shape."""
    base = m.base
    parts = base.components
    bonus = parts["hold_and_respin_cash"] + parts["ladder"] + parts["max_win_cap"]
    assert Fraction(20, 100) < m.spin.line_hit < Fraction(30, 100)
    assert 10 < 1 / m.cash_probability < 20
    assert 120 < 1 / base.feature < 250
    assert Fraction(45, 100) < parts["base_lines"] / base.rtp < Fraction(55, 100)
    assert Fraction(8, 100) < parts["moon_cash"] / base.rtp < Fraction(15, 100)
    assert Fraction(25, 100) < bonus / base.rtp < Fraction(35, 100)
    assert sum(p for n, p in base.finals.items() if 6 <= n <= 9) > Fraction(1, 2)
    assert 0 < base.finals[15] < Fraction(1, 1000)
    # Low prizes dominate, 100x is rare.
    small = sum(w for x, w in zip(GAME.moon.prizes_x, GAME.moon.base_weights, strict=True) if x <= 2)
    assert small / sum(GAME.moon.base_weights) > Fraction(9, 10)
    assert GAME.moon.base_weights[-1] / sum(GAME.moon.base_weights) < Fraction(1, 1000)
    assert GAME.moon.respin_weights[-1] / sum(GAME.moon.respin_weights) < Fraction(3, 100)


def test_distributions_sum_to_one(m: MoonMath) -> None:
    assert sum(m.spin.moons) == 1
    for mode in (m.base, m.buy):
        assert sum(mode.finals.values()) == 1
        assert sum(mode.starts.values()) == 1
        assert 0 < mode.max_win < mode.finals[15] * mode.feature
    for k, dist in m.finals_by_start.items():
        assert sum(dist) == 1
        assert all(p == 0 for p in dist[:k])
    # Every trigger window is counted once: the joint (Moons, line win) adds up to P(k).
    for k, by_win in m.spin.trigger_counts.items():
        assert Fraction(sum(by_win.values()), m.spin.radix) == m.spin.moons[k]
    assert set(m.spin.trigger_counts) == {k for k, p in enumerate(m.spin.moons) if k >= 5 and p}


def test_buy_is_the_weighted_bonus_values(m: MoonMath) -> None:
    weights = dict(GAME.buy.moons)
    total = sum(weights.values())
    values = sum((bonus_value(GAME, k) * w for k, w in weights.items()), Fraction(0)) / total
    assert values / GAME.buy.price_x == m.buy.rtp
    assert values == m.buy.bonus_average_x


# -- the Markov chain ------------------------------------------------------------------------------
def _brute_final(positions: int, respins: int, num: int, den: int, start: int) -> dict[int, Fraction]:
    """Play every respin out position by position: each empty position lands or not."""
    p = Fraction(num, den)

    @cache
    def walk(held: frozenset[int], left: int) -> tuple[tuple[int, Fraction], ...]:
        if left == 0 or len(held) == positions:
            return ((len(held), Fraction(1)),)
        empty = [i for i in range(positions) if i not in held]
        acc: dict[int, Fraction] = {}
        for landed in itertools.product((False, True), repeat=len(empty)):
            new = frozenset(i for i, hit in zip(empty, landed, strict=True) if hit)
            q = p ** len(new) * (1 - p) ** (len(empty) - len(new))
            for n, r in walk(held | new, respins if new else left - 1):
                acc[n] = acc.get(n, Fraction(0)) + q * r
        return tuple(sorted(acc.items()))

    return dict(walk(frozenset(range(start)), respins))


@pytest.mark.parametrize(("positions", "respins", "num", "den"), [(5, 3, 1, 3), (6, 2, 2, 5)])
def test_chain_against_brute_force(positions: int, respins: int, num: int, den: int) -> None:
    chain = final_distributions(positions, respins, num, den)
    for start in range(positions + 1):
        brute = _brute_final(positions, respins, num, den, start)
        assert {n: p for n, p in enumerate(chain[start]) if p} == brute


def test_chain_against_the_bonus_code() -> None:
    """Seeded: the real `hold_and_respin` on 6 positions from 2 held, p = 1/4."""
    positions = tuple((0, i) for i in range(6))
    rules = HoldAndRespinRules(trigger=2, respins=3, numerator=1, denominator=4, ladder={})
    runs = 6000
    seen: Counter[int] = Counter()
    rng = Rng(20240611)
    for _ in range(runs):
        ctx = RoundContext(rng, Bet(20, 1), {})
        result = hold_and_respin(ctx, rules, positions, {(0, 0): 10, (0, 1): 10}, lambda r: 1)
        seen[result.count] += 1
    exact = final_distributions(6, 3, 1, 4)[2]
    for n in range(2, 7):
        p = float(exact[n])
        sigma = math.sqrt(p * (1 - p) / runs)
        assert abs(seen[n] / runs - p) < 5 * sigma + 1e-9, n


def test_game_chain_is_the_rules() -> None:
    r = GAME.respin
    finals = game_finals(GAME)
    assert finals == final_distributions(len(POSITIONS), r.respins, r.numerator, r.denominator)
    assert finals[15][15] == 1
    # From 14 held the one empty position lands within 3 respins, or not.
    miss = 1 - Fraction(r.numerator, r.denominator)
    assert finals[14][14] == miss**3
    assert finals[14][15] == 1 - miss**3


# -- the cap ------------------------------------------------------------------------------------------------
def test_cap_excess_by_hand() -> None:
    """Cap 100x. The base Moon is worth 0.5x or 100x (even odds), the respin Moon 0.5x. A bonus from
    1 Moon ending with 2 pays S = 1x or 100.5x; with L = 0 only S = 100.5 passes the cap, by 0.5x."""
    n_prizes = len(GAME.moon.prizes_x)
    game = _variant(
        max_win_x=100,
        moon__weights={"base": [1] + [0] * (n_prizes - 2) + [1], "respin": [1] + [0] * (n_prizes - 1)},
    )
    final = [Fraction(0)] * 16
    final[2] = Fraction(1)
    t = cap_terms(game, 1, final, {Fraction(0): Fraction(1)})
    assert (t.excess, t.reach) == (Fraction(1, 4), Fraction(1, 2))
    # With a line win of 2x half the time: E[(L + S - 100)+] = 1/2 (1/2 * 0.5) + 1/2 (1/2 * 2.5).
    t = cap_terms(game, 1, final, {Fraction(0): Fraction(1, 2), Fraction(2): Fraction(1, 2)})
    assert (t.excess, t.reach) == (Fraction(3, 4), Fraction(1, 2))
    # Only 100x base Moons: S = 100.5 always.
    game = _variant(
        max_win_x=100,
        moon__weights={"base": [0] * (n_prizes - 1) + [1], "respin": [1] + [0] * (n_prizes - 1)},
    )
    t = cap_terms(game, 1, final, {Fraction(0): Fraction(1, 2), Fraction(2): Fraction(1, 2)})
    assert (t.excess, t.reach) == (Fraction(3, 2), Fraction(1))


def test_cap_excess_against_enumeration() -> None:
    """Cap 30x, ladder 10x at 4 Moons: every prize combination of 2 base + 2 respin Moons."""
    game = _variant(max_win_x=30, hold_and_respin__ladder={"4": 10, "15": 5000})
    moon = game.moon
    final = [Fraction(0)] * 16
    final[4] = Fraction(1)
    wins = {Fraction(0): Fraction(2, 3), Fraction(3, 2): Fraction(1, 3)}
    t = cap_terms(game, 2, final, wins)
    tb, tr = sum(moon.base_weights), sum(moon.respin_weights)
    excess = Fraction(0)
    reach = Fraction(0)
    idx = range(len(moon.prizes_x))
    for a, b, c, d in itertools.product(idx, idx, idx, idx):
        w = moon.base_weights[a] * moon.base_weights[b] * moon.respin_weights[c] * moon.respin_weights[d]
        if not w:
            continue
        q = Fraction(w, tb * tb * tr * tr)
        s = moon.prizes_x[a] + moon.prizes_x[b] + moon.prizes_x[c] + moon.prizes_x[d]
        for win, pl in wins.items():
            total = win + 10 + s
            excess += q * pl * max(total - 30, Fraction(0))
            reach += q * pl * (total >= 30)
    assert (t.excess, t.reach) == (excess, reach)
    assert t.excess > 0


def test_prize_sums_tail() -> None:
    moon = GAME.moon
    sums = PrizeSums(moon.prizes_x, moon.base_weights, moon.respin_weights, 1, 1, 40)
    mean_b, _ = prize_moments(moon.prizes_x, moon.base_weights)
    mean_r, _ = prize_moments(moon.prizes_x, moon.respin_weights)
    # Below 20 stakes: every pair of prizes under 20x (the sum is under 20).
    tb, tr = sum(moon.base_weights), sum(moon.respin_weights)
    below = sum(
        Fraction(wb * wr, tb * tr)
        for (xb, wb), (xr, wr) in itertools.product(
            zip(moon.prizes_x, moon.base_weights, strict=True), zip(moon.prizes_x, moon.respin_weights, strict=True)
        )
        if xb + xr < 20
    )
    assert sums.below(Fraction(20)) == below
    assert sums.shortfall(Fraction(0)) == 0
    assert mean_b + mean_r > 0
    with pytest.raises(ValueError, match="beyond"):
        sums.below(Fraction(21))


# -- the base spin against brute force, on short strips ---------------------------------------------------
SHORT = [
    ["MOON", "MOON", "WOLF", "A", "K", "Q", "J"],
    ["WILD", "MOON", "MOON", "WOLF", "A", "K", "Q"],
    ["MOON", "MOON", "MOON", "WOLF", "WILD", "A", "K"],
    ["WILD", "MOON", "A", "WOLF", "K", "J", "MOON"],
    ["MOON", "Q", "WOLF", "A", "MOON", "K", "J"],
]


def test_base_spin_against_brute_force() -> None:
    game = _variant(reels={"base": SHORT})
    stats = trigger_spins(game)
    reels = game.base_reels
    lines = len(game.data.paylines)
    moons: Counter[int] = Counter()
    joint: Counter[tuple[int, int]] = Counter()
    line_hits = hits = line_total = cash_total = 0
    mean_b, _ = prize_moments(game.moon.prizes_x, game.moon.base_weights)
    for index in range(reels.radix):
        _, window = reels.draw(index)
        win = sum(r.multiplier for r in game.lines.evaluate(window, lines))
        k = sum(col.count("MOON") for col in window)
        moons[k] += 1
        line_total += win
        line_hits += win > 0
        hits += win > 0 or k >= 3
        if k in (3, 4):
            cash_total += k
        if k >= 5:
            joint[(k, win)] += 1
    assert stats.radix == reels.radix
    assert list(stats.moons) == [Fraction(moons[k], reels.radix) for k in range(len(stats.moons))]
    assert {(k, w): c for k, by in stats.trigger_counts.items() for w, c in by.items()} == dict(joint)
    assert stats.line_hit == Fraction(line_hits, reels.radix)
    assert stats.hit == Fraction(hits, reels.radix)
    mm = moon_math(game)
    assert mm.base.components["base_lines"] == Fraction(line_total, reels.radix * lines)
    assert mm.base.components["moon_cash"] == Fraction(cash_total, reels.radix) * mean_b
    # The bonus part: every trigger window's bonus, its line win apart (the cap only bites at 15 Moons).
    finals = game_finals(game)
    bonus = Fraction(0)
    for (k, _), c in joint.items():
        bonus += Fraction(c, reels.radix) * sum(
            (p * game.respin.ladder.get(n, 0) for n, p in enumerate(finals[k])), Fraction(0)
        )
    assert mm.base.components["ladder"] == bonus
    assert mm.base.feature == Fraction(sum(joint.values()), reels.radix)


# -- seeded simulations through the real play path ---------------------------------------------------------
def test_buy_simulation_agrees(m: MoonMath) -> None:
    rounds = 3000
    result = simulate("moon_spell", rounds, seed=2024, mode="buy")
    price = GAME.price(GAME.bets.default, "buy")
    assert result.total_stake == rounds * price
    assert result.features == {"hold_and_respin": rounds}
    rtp = result.total_win / (rounds * price)
    assert m.buy.variance is not None
    sigma = math.sqrt(float(m.buy.variance) / rounds)
    assert abs(rtp - float(m.buy.rtp)) < 4.5 * sigma


def test_base_simulation_trigger_frequency(m: MoonMath) -> None:
    rounds = 12_000
    result = simulate("moon_spell", rounds, seed=99)
    p = float(m.base.feature)
    seen = result.features.get("hold_and_respin", 0)
    assert abs(seen - rounds * p) < 5 * math.sqrt(rounds * p * (1 - p))
    # Every round that pays: lines, Moon cash or the bonus (the jackpot may add a few).
    hit = float(m.spin.hit)
    assert abs(result.hits / rounds - hit) < 5 * math.sqrt(hit * (1 - hit) / rounds) + 0.002


def test_cli_prints_the_buy_report(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rtp", "moon_spell", "--mode", "buy"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("moon_spell (buy): RTP 95.74")
    assert "feature buy price 60x" in out
    assert "max win reached: 1 in " in out
    assert "final Moons  6:" in out
