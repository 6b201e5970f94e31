"""Full Moon Fever's math: the exact RTP, the fast Winfalls enumeration against the shared
brute force with the game's own judge (on shortened strips, for every pet: every pet the
same), and the simulation agreeing within its 95% interval."""

from __future__ import annotations

import math
import time
from collections import Counter
from fractions import Fraction
from typing import Any

import pytest

from pyengine.evaluators import LineEvaluator
from pyengine.features.cascade import play_cascades
from pyengine.games import get_game
from pyengine.games.full_moon_fever import FullMoonFever
from pyengine.games.full_moon_fever import report as fmf_math
from pyengine.math.cascade import cascade_stats
from pyengine.games.full_moon_fever.report import FullMoonMath, cascade_distribution, full_moon_math
from pyengine.math.rtp import rtp_report
from pyengine.math.simulate import simulate
from pyengine.model import Bet, ReelSet
from pyengine.rng import Rng
from pyengine.round import RoundContext

GAME = get_game("full_moon_fever")
assert isinstance(GAME, FullMoonFever)
G: FullMoonFever = GAME
BET = Bet(25, 1)
RTP = Fraction("0.9533")


SECONDS: list[float] = []


@pytest.fixture(scope="module")
def m() -> FullMoonMath:
    start = time.process_time()
    out = full_moon_math(G)
    SECONDS.append(time.process_time() - start)
    return out


@pytest.fixture
def rep(m: FullMoonMath, monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    """The report through `rtp_report`, built on the module's figures (computed once)."""
    monkeypatch.setattr(fmf_math, "full_moon_math", lambda game, lines=None: m)
    return rtp_report("full_moon_fever")


def test_the_exact_rtp(m: FullMoonMath) -> None:
    assert SECONDS[0] < 60  # processor seconds, about 5 here; `build.py bench` compares it with Book of Spells'
    # The exact figure, every digit: a faster enumeration must not change it.
    assert m.rtp == Fraction(20349320988673, 21346073437500)
    assert abs(m.rtp - RTP) < Fraction(2, 10_000)
    assert m.rtp == m.base_lines + m.base_scatter + m.p_trigger * m.expected_spins * m.spin_mean
    assert float(m.rtp) == pytest.approx(0.953305, abs=1e-6)
    assert m.expected_spins == Fraction(12907, 1000)
    assert sum(m.spins.values()) == 1
    assert max(m.spins) == 50
    assert sum(m.houses) == 1
    assert sum(m.spin.outcomes.values()) == m.spin.combinations == 15**5


def test_the_longest_cascade(m: FullMoonMath) -> None:
    cascades = m.spin.cascades
    assert m.spin.longest == 10
    assert cascades[10] == 675
    assert sum(cascades.values()) == 15**5


def test_the_report(rep: dict[str, Any], m: FullMoonMath) -> None:
    assert rep["rtp"] == pytest.approx(float(RTP), abs=2e-4)
    assert sum(rep["breakdown"].values()) == pytest.approx(rep["rtp"], abs=1e-12)
    assert rep["rtp_exact"] == str(m.rtp)
    assert rep["breakdown"]["winfalls"] == float(m.free_spins)
    assert rep["longest_cascade"] == m.spin.longest
    assert 0 < rep["hit_rate"] < 1
    assert rep["summary"]


def _short(reels: ReelSet, length: int, around: tuple[str, ...]) -> ReelSet:
    """Each strip cut to ``length`` stops centred on its first symbol in ``around`` (if any)."""
    out = []
    for strip in reels.strips:
        at = next((i for i, s in enumerate(strip) if s in around), 0)
        out.append(tuple(strip[(at - length // 2 + j) % len(strip)] for j in range(length)))
    return ReelSet(tuple(out), reels.rows)


def test_the_fast_enumeration_is_the_game_played_out_for_every_pet() -> None:
    """On the free strips cut to 7 stops a reel: the game's own judge through the shared
    `cascade_stats`, for each pet, against `cascade_distribution` on the pet slot."""
    rules = G.winfalls
    egos = (rules.pet_symbol, *rules.alter_egos.values())
    free = _short(G.data.reels["free"], 7, egos)
    assert all("PET" in strip for strip in free.strips[1:])
    wilds = (G.wild, rules.pet_symbol)
    fast = cascade_distribution(
        free, LineEvaluator(G.data.paylines, rules.paytable, wild=wilds), rules.cascade, G.data.paylines, wilds
    )
    n = free.radix
    mean = Fraction(sum(w * c for (w, _), c in fast.items()), n)
    lengths: Counter[int] = Counter()
    for (_, k), c in fast.items():
        lengths[k] += c
    assert mean > 0
    for pet in rules.pets.prizes:
        reels = _short(G.free_reels[pet], 7, egos)
        stats = cascade_stats(reels, rules.cascade, G.judge(G.free_lines[pet], BET), BET)
        assert stats.mean_win == mean  # BET is 1 per line: wins in bets per line
        assert stats.cascades == dict(sorted(lengths.items()))


def test_one_cascading_spin_simulated(m: FullMoonMath) -> None:
    rules = G.winfalls
    reels = G.free_reels["DOG"]
    judge = G.judge(G.free_lines["DOG"], BET)
    rng = Rng(7)
    n = 40_000
    total = 0
    sq = 0
    for _ in range(n):
        ctx = RoundContext(rng, BET, {})
        stops, window = reels.draw(rng.below(reels.radix))
        win = play_cascades(ctx, rules.cascade, reels.strips, stops, window, judge).win
        total += win
        sq += win * win
    mean = total / n
    half = 1.96 * math.sqrt(sq / n - mean * mean) / math.sqrt(n)
    assert abs(mean - float(m.spin.mean)) < half


def test_the_simulation_agrees(m: FullMoonMath) -> None:
    result = simulate("full_moon_fever", 400_000, seed=1)
    assert abs(result.rtp - float(m.rtp)) < result.ci95
    assert result.features["free_spins"] / result.rounds == pytest.approx(float(m.p_trigger), rel=0.2)
