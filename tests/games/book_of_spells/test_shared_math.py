"""Book of Spells' math (from the shared ``tests/test_math.py``): its exact RTP pinned
(`pyengine.games.book_of_spells.report`), the report's figures, each exact piece recomputed
independently from its strips and pays, the cap estimate by playing features, and the Monte
Carlo simulation through the real play path agreeing with the exact RTP."""

from __future__ import annotations

import itertools
import math
from collections import Counter
from fractions import Fraction
from typing import Any

import pytest

from pyengine.games import get_game
from pyengine.games.book_of_spells import BookOfSpells
from pyengine.games.book_of_spells.report import BookMath, book_math, cap_excess
from pyengine.math.exact import line_stats
from pyengine.math.rtp import rtp_report
from pyengine.math.simulate import simulate


def _book() -> BookOfSpells:
    game = get_game("book_of_spells")
    assert isinstance(game, BookOfSpells)
    return game


GAME = _book()
DATA = GAME.data
REELS = GAME.base_reels

# `python3 -m pyengine rtp book_of_spells --json` -> "rtp_uncapped_exact". Pinned: a change of the
# strips or pays must show up here (and in the par sheet of docs/games/book_of_spells.md).
RTP_UNCAPPED = Fraction(287002804869439, 298546063843248)


@pytest.fixture(scope="module")
def m() -> BookMath:
    return book_math(GAME)


@pytest.fixture(scope="module")
def report() -> dict[str, Any]:
    return rtp_report("book_of_spells")


# -- the exact RTP -----------------------------------------------------------------------------------
def test_rtp_uncapped_is_pinned(m: BookMath) -> None:
    assert isinstance(m.rtp_uncapped, Fraction)
    assert m.rtp_uncapped == RTP_UNCAPPED
    assert m.rtp_uncapped == m.base_lines + m.base_scatter + m.p_trigger * m.feature


def test_report_matches_the_exact_figure(report: dict[str, Any], m: BookMath) -> None:
    assert report["rtp_uncapped_exact"] == str(RTP_UNCAPPED)
    assert Fraction(report["rtp_uncapped_exact"]) == m.rtp_uncapped
    assert report["game"] == "book_of_spells"
    assert report["target_rtp"] == 0.9613
    assert abs(report["rtp"] - 0.9613) < 0.0002
    # The cap can only lower the RTP, and only slightly at 5000x (test_cap_math.py beside this file pins it).
    assert 0 < report["free_spin_cap"]["reduction"] < 0.0002
    assert report["rtp"] == pytest.approx(float(RTP_UNCAPPED) - report["free_spin_cap"]["reduction"], abs=1e-15)


def test_breakdown_sums_to_rtp(report: dict[str, Any], m: BookMath) -> None:
    b = report["breakdown"]
    assert set(b) == {
        "base_lines",
        "base_scatter",
        "free_spins_lines",
        "free_spins_scatter",
        "free_spins_expanding",
        "free_spin_cap",
        "gamble",
    }
    assert math.fsum(b.values()) == pytest.approx(report["rtp"], abs=1e-12)
    assert b["gamble"] == 0.0
    assert b["free_spin_cap"] <= 0
    assert b["base_lines"] == float(m.base_lines)
    assert b["base_scatter"] == float(m.base_scatter)
    fs = b["free_spins_lines"] + b["free_spins_scatter"] + b["free_spins_expanding"]
    assert fs == pytest.approx(float(m.free_spins), abs=1e-12)


def test_report_figures(report: dict[str, Any], m: BookMath) -> None:
    assert report["feature_frequency"] == float(m.p_trigger)
    assert report["expected_free_spins"] == float(m.expected_spins)
    # The length of a feature: its mean is the retrigger series' (its tail below 1e-13).
    (spins,) = report["feature_lengths"]
    assert spins["lengths"][0] == {"length": 10, "probability": pytest.approx(float((1 - m.p_retrigger) ** 10))}
    assert spins["mean"] * (1 - spins["tail"]) == pytest.approx(float(m.expected_spins), rel=1e-11)
    # max_spin_win over the real reels (windows with 3+ Books), the rules page's window: five Books on
    # line 1 (5000 x bet per line), K x4 on line 5 (40), J x5 on line 7 (100), 5 Books scattered (200 x 9).
    assert report["max_base_spin_x"] == pytest.approx((5000 + 40 + 100 + 1800) / 9)
    assert report["max_win_x"] == pytest.approx(6940 / 9 + 5000)
    cap = report["free_spin_cap"]
    assert cap["cap_x"] == 5000
    assert cap["lines"] == 9
    assert cap["reduction"] == pytest.approx(float(m.p_trigger) * cap["feature_excess_x"], rel=1e-12)
    assert cap["feature_capped_every"] == pytest.approx(1 / cap["feature_capped_probability"])
    assert set(cap["excess_by_symbol_x"]) == set(m.feature_by_symbol)


# -- the exact pieces, recomputed independently ---------------------------------------------------------
def _best(syms: tuple[str, ...], nosub: frozenset[str]) -> int:
    """Pay of one line (x bet per line), written out from the rules."""
    pays = DATA.paytable.pays
    n = len(syms)
    w = 0
    while w < n and syms[w] == "BOOK":
        w += 1
    best = pays["MAGE"].get(w, 0) if w else 0
    if w < n:
        t = syms[w]
        if t in nosub:
            if w:  # the Book does not stand in for it: no win of t after Books
                return best
            k = 1
            while k < n and syms[k] == t:
                k += 1
        else:
            k = w + 1
            while k < n and syms[k] in (t, "BOOK"):
                k += 1
        best = max(best, pays.get(t, {}).get(k, 0))
    return best


def _line_ev(nosub: frozenset[str]) -> Fraction:
    per_reel = [sorted(Counter(strip).items()) for strip in REELS.strips]
    total = 0
    for combo in itertools.product(*per_reel):
        pay = _best(tuple(s for s, _ in combo), nosub)
        if pay:
            weight = 1
            for _, c in combo:
                weight *= c
            total += weight * pay
    return Fraction(total, REELS.radix)


def test_base_lines_by_independent_enumeration(m: BookMath) -> None:
    assert m.base_lines == _line_ev(frozenset())


@pytest.mark.parametrize("symbol", ["MAGE", "J"])
def test_free_spin_lines_without_substitution_for_the_expanding_symbol(symbol: str) -> None:
    stats = line_stats(REELS, DATA.paytable, wild="BOOK", wild_pays_as="MAGE", not_substituted=(symbol,))
    assert stats.ev == _line_ev(frozenset({symbol}))
    assert stats.ev < line_stats(REELS, DATA.paytable, wild="BOOK", wild_pays_as="MAGE").ev


def _p_visible(symbol: str) -> list[Fraction]:
    """P(symbol among the 3 rows of reel i), counting stops on the strip."""
    out = []
    for strip in REELS.strips:
        n = len(strip)
        hits = sum(1 for s in range(n) if symbol in {strip[(s + r) % n] for r in range(3)})
        out.append(Fraction(hits, n))
    return out


def _reels_distribution(ps: list[Fraction]) -> list[Fraction]:
    """P(exactly n reels), by enumerating the 2**5 subsets of reels."""
    dist = [Fraction(0)] * (len(ps) + 1)
    for subset in itertools.product((False, True), repeat=len(ps)):
        p = Fraction(1)
        for hit, q in zip(subset, ps, strict=True):
            p *= q if hit else 1 - q
        dist[sum(subset)] += p
    return dist


def test_scatter_and_trigger_by_independent_enumeration(m: BookMath) -> None:
    assert all(strip.count("BOOK") == 1 for strip in REELS.strips)  # so at most one Book per reel
    dist = _reels_distribution(_p_visible("BOOK"))
    assert sum(dist) == 1
    assert m.p_trigger == sum(dist[3:])
    assert m.p_retrigger == m.p_trigger  # same strips in free spins
    assert m.base_scatter == sum(dist[n] * DATA.scatter_pays.get(n, 0) for n in range(6))
    assert m.free_spin_scatter == m.base_scatter
    assert m.expected_spins == Fraction(10) / (1 - 10 * m.p_trigger)
    assert m.p_trigger == Fraction(12497, 2778256)  # the rules page's figure


@pytest.mark.parametrize("symbol", ["MAGE", "WITCH", "OWL", "POTION", "A", "K", "Q", "J", "TEN"])
def test_expansion_and_feature_by_symbol(m: BookMath, symbol: str) -> None:
    dist = _reels_distribution(_p_visible(symbol))
    assert m.expanding[symbol] == sum(dist[n] * DATA.paytable.pay(symbol, n) for n in range(6))
    free_lines = line_stats(REELS, DATA.paytable, wild="BOOK", wild_pays_as="MAGE", not_substituted=(symbol,)).ev
    assert m.feature_by_symbol[symbol] == m.expected_spins * (free_lines + m.free_spin_scatter + m.expanding[symbol])


def test_feature_is_the_weighted_average(m: BookMath) -> None:
    assert m.feature == sum(m.feature_by_symbol.values(), Fraction(0)) / 9
    assert m.free_spins == m.p_trigger * m.feature


# -- the cap estimate by playing features (the check of test_cap_math.py beside this file) ----------------------
def test_cap_excess_small_run() -> None:
    est = cap_excess(GAME, 5000, features_per_symbol=30, seed=3)
    assert est.features == 270
    assert est.excess >= 0
    assert est.ci95 >= 0
    low = cap_excess(GAME, 1, features_per_symbol=30, seed=3)
    assert low.reached > 100  # a cap of 1x the bet is passed by most features
    assert low.excess > est.excess


# -- simulation through the real play path ------------------------------------------------------------------------
@pytest.mark.parametrize(("seed", "choices", "rounds"), [(1, "first", 15_000), (2, "random", 30_000)])
def test_simulation_agrees_with_the_exact_rtp(seed: int, choices: str, rounds: int, report: dict[str, Any]) -> None:
    # Seeds 1 and 2 were the first ones tried, not searched for. The 95% half-width is ~0.1-0.15 here
    # (sigma ~9-11 per round, driven by the feature and the gamble); the check is the simulator's own ci95.
    result = simulate("book_of_spells", rounds, seed=seed, choices=choices)
    assert result.rounds == rounds
    assert result.total_stake == rounds * 90
    assert abs(result.rtp - report["rtp"]) <= result.ci95
    assert 0.04 < result.ci95 < 0.3
    assert 0.15 < result.hit_rate < 0.45
    assert result.features.get("free_spins", 0) > rounds / 222 / 2  # 1 in 222 expected
    assert result.rtp == result.total_win / result.total_stake
    assert result.max_win_x <= report["max_win_x"]
