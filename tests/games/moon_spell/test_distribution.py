"""pyengine.games.moon_spell.distribution: the exact distribution of a base round's win,
against the exact figures of the RTP report it must reproduce."""

from __future__ import annotations

import math
from fractions import Fraction
from functools import cache

import pytest

from pyengine.games import get_game
from pyengine.games.moon_spell import MoonSpell
from pyengine.games.moon_spell.distribution import bonus_wins, distribution, grid_units, line_and_moons
from pyengine.games.moon_spell.report import _bonus_second_moment, bonus_value, game_finals, moon_math
from pyengine.math.parsheet import WinDistribution


@cache
def _game() -> MoonSpell:
    game = get_game("moon_spell")
    assert isinstance(game, MoonSpell)
    return game


@cache
def _dist() -> WinDistribution:
    game = _game()
    got = distribution(game, "base", {}, len(game.data.paylines))
    assert got is not None
    return got


def test_the_joint_line_win_and_moons_is_the_reports_enumeration() -> None:
    """The base spin's (line win, Moons) over every stop combination agrees with the report's
    own enumeration of the trigger windows, its Moon counts and its line wins, exactly."""
    game = _game()
    joint = line_and_moons(game)
    radix = game.base_reels.radix
    assert sum(joint.values()) == radix
    m = moon_math(game)
    for k, p in enumerate(m.spin.moons):
        assert Fraction(sum(n for (_, j), n in joint.items() if j == k), radix) == p
    triggers: dict[int, dict[int, int]] = {}
    for (win, k), n in joint.items():
        if k >= game.respin.trigger:
            triggers.setdefault(k, {})[win] = n
    assert {k: dict(sorted(v.items())) for k, v in sorted(triggers.items())} == m.spin.trigger_counts
    lines = len(game.data.paylines)
    assert sum(Fraction(win * n, radix * lines) for (win, _), n in joint.items()) == m.base.components["base_lines"]


@pytest.mark.parametrize("start", range(5, 16))
def test_each_bonus_pays_its_exact_value_and_second_moment(start: int) -> None:
    """What Hold and Respin pays from a start of k Moons: its mean is the report's exact
    capped bonus value, its second moment the exact one, and it reaches the max win with
    the exact chance."""
    game = _game()
    units = grid_units(game, len(game.data.paylines))
    win = bonus_wins(game, units)[start]
    assert len(win) == game.max_win_x * units + 1
    assert math.fsum(win) == pytest.approx(1.0, abs=1e-12)
    mean = math.fsum(i * p for i, p in enumerate(win)) / units
    assert mean == pytest.approx(float(bonus_value(game, start)), rel=1e-11)
    square = math.fsum(i * i * p for i, p in enumerate(win)) / units**2
    want = _bonus_second_moment(game, {start: Fraction(1)}, game_finals(game))
    assert square == pytest.approx(float(want), rel=1e-10)


def test_the_round_returns_the_rtp_less_the_jackpot_with_the_exact_hit_rate_and_top_odds() -> None:
    game = _game()
    d = _dist()
    m = moon_math(game)
    total, mean, _ = d.moments()
    assert total == pytest.approx(1.0, abs=1e-12)
    # The time jackpot is paid apart: the distribution returns the rest of the RTP.
    assert d.apart == {"jackpot_contribution": float(game.jackpot.contribution)}
    assert mean + sum(d.apart.values()) == pytest.approx(float(m.base.rtp), abs=1e-11)
    assert 1 - d.probs[0] == pytest.approx(float(m.spin.hit), abs=1e-12)
    # The last grid point is the max win: reached with the report's exact chance.
    assert len(d.probs) - 1 == game.max_win_x / d.unit
    assert d.probs[-1] == pytest.approx(float(m.base.max_win), rel=1e-7)
    assert min(d.probs) >= 0


def test_the_feature_buy_returns_its_rtp_with_its_exact_variance() -> None:
    """The bought round: buckets in total stakes, its RTP and sigma per unit of the price, both
    the report's exact ones, and the max win with the report's exact chance."""
    game = _game()
    d = distribution(game, "buy", {}, len(game.data.paylines))
    m = moon_math(game).buy
    assert d.price == game.buy.price_x
    assert d.apart == {}
    total, mean, square = d.moments()
    assert total == pytest.approx(1.0, abs=1e-12)
    assert mean == pytest.approx(float(m.rtp), abs=1e-11)
    assert m.variance is not None
    assert square - mean * mean == pytest.approx(float(m.variance), rel=1e-10)
    assert d.probs[-1] == pytest.approx(float(m.max_win), rel=1e-7)
    assert sum(share for _, share in d.buckets()) == pytest.approx(mean, abs=1e-13)
    # Below the least a bought bonus can pay (its fewest Moons at the least prize) every
    # probability is exactly 0, not the products' rounding; that least win has its chance.
    least = min(k for k, _ in game.buy.moons) * min(game.moon.prizes_x) / d.unit
    assert least == int(least) > 0
    assert set(d.probs[: int(least)]) == {0.0}
    assert d.probs[int(least)] > 0
    assert [b for b, (p, _) in enumerate(d.buckets()) if p == 0][:2] == [0, 1]
