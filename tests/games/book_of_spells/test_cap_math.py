"""Book of Spells' free-spin cap term (from the shared ``tests/test_cap_math.py``): the exact
distribution of one free spin's win against the exact expectations of `book_math`, the cap
term at the default pinned, and the term against the game's own feature code played many
times and against a simulation through the real session at a low cap.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from pyengine.games import get_game
from pyengine.games.book_of_spells import BookOfSpells
from pyengine.games.book_of_spells.report import book_math, cap_excess, cap_term, free_spin_distribution
from pyengine.math.exact import visible_probability
from pyengine.math.rtp import rtp_report
from pyengine.math.simulate import simulate


def _book() -> BookOfSpells:
    game = get_game("book_of_spells")
    assert isinstance(game, BookOfSpells)
    return game


GAME = _book()
M = book_math(GAME)


# -- one free spin's win distribution ----------------------------------------------------------------------------
@pytest.mark.parametrize("symbol", ["MAGE", "Q"])
def test_free_spin_distribution_matches_the_exact_expectations(symbol: str) -> None:
    spin = free_spin_distribution(GAME, symbol, 9)
    total = sum(spin.values())
    assert total == GAME.free_reels.radix
    mean = Fraction(sum(w * n for (w, _), n in spin.items()), total)
    # book_math's expected win of one free spin (lines + scatter + expansion), in total bets, x 9 lines.
    assert mean == 9 * M.feature_by_symbol[symbol] / M.expected_spins
    assert Fraction(sum(n for (_, again), n in spin.items() if again), total) == M.p_retrigger
    if symbol == "MAGE":
        # Five Archmage reels expand to 9 x 5000 = 45000, the cap itself; without them no spin comes
        # near (at most 6940 from lines and scatter, plus 9000 for four expanded reels).
        every_reel = Fraction(1)
        for reel in range(5):
            every_reel *= visible_probability(GAME.free_reels, reel, symbol)
        assert Fraction(sum(n for (w, _), n in spin.items() if w >= 45_000), total) == every_reel
        assert max(w for w, _ in spin) < 45_000 + 6940 + 1


def test_free_spin_distribution_on_fewer_lines() -> None:
    one = free_spin_distribution(GAME, "K", 1)
    total = sum(one.values())
    mean = Fraction(sum(w * n for (w, _), n in one.items()), total)
    # One line: its line wins are 1/9 of nine lines' (every line has the same expectation); the
    # scatter and the expansion pay x1 instead of x9.
    nine = 9 * M.feature_by_symbol["K"] / M.expected_spins
    assert mean == nine / 9


# -- the game's cap term ---------------------------------------------------------------------------------------
def test_cap_term_at_the_default_is_pinned() -> None:
    # `python3 -m pyengine rtp book_of_spells --json` -> free_spin_cap; the par sheet quotes these.
    cap = cap_term(GAME, 5000)
    assert cap.reduction == pytest.approx(6.011264734e-05, rel=1e-8)
    assert cap.excess_by_symbol["MAGE"] == pytest.approx(0.1202746550, rel=1e-8)
    assert cap.over_by_symbol["MAGE"] == pytest.approx(0.00108388023, rel=1e-8)
    # Only the Archmage and the Witch can pass 5000x in practice; the rest is float noise.
    for symbol in ("OWL", "POTION", "A", "K", "Q", "J", "TEN"):
        assert cap.excess_by_symbol[symbol] < 1e-10
    assert cap.reduction == pytest.approx(float(M.p_trigger) * cap.excess, rel=1e-12)


def test_cap_term_agrees_with_playing_the_feature() -> None:
    # At a cap of 20x the total bet most features pass it, so the engine's own feature code,
    # played 400 times per expanding symbol without the cap, measures the same excess.
    cap = cap_term(GAME, 20)
    est = cap_excess(GAME, 20, features_per_symbol=400, seed=5)
    assert est.reached > 1000
    assert abs(est.excess - cap.excess) <= est.ci95
    assert 0 < cap.excess < M.feature


def test_simulation_at_a_low_cap_agrees() -> None:
    # With the limit at 20x the total bet it takes 21 points of the RTP (75.10% instead of 96.13%),
    # so a short simulation through the real session tells a wrong cap term from the right one.
    # Seed 1 was the first one tried.
    report = rtp_report("book_of_spells", settings={"free_spin_cap_x": 20})
    assert report["free_spin_cap"]["reduction"] == pytest.approx(0.2103823996, rel=1e-8)
    result = simulate("book_of_spells", 40_000, seed=1, settings={"free_spin_cap_x": 20})
    assert result.settings["free_spin_cap_x"] == 20
    assert abs(result.rtp - report["rtp"]) <= result.ci95
    assert result.ci95 < 0.05
