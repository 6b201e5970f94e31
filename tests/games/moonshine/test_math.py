"""Moonshine's math: the exact RTP (95.96% +- 0.02 pp) pinned as a fraction, two independent
exact computations agreeing, the pick in closed form against its whole distribution and
against every distinct board played by four strategies, the same RTP at every line count,
coin size and coin count, and seeded simulations through the real play path."""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable
from fractions import Fraction
from typing import Any

import pytest

from pyengine.cli import main
from pyengine.features.pick import PICK, play_board
from pyengine.games import get_game
from pyengine.games.moonshine import FEATURE, Moonshine
from pyengine.math.exact import max_spin_win
from pyengine.games.moonshine.report import (
    MoonshineMath,
    moonshine_math,
    pick_distribution,
    pick_moments,
    round_figures,
    spin_tables,
)
from pyengine.math.rtp import rtp_report
from pyengine.math.simulate import simulate
from pyengine.model import Bet
from pyengine.rng import Rng
from pyengine.round import RoundContext
from tests.pick_support import Strategy, distinct_boards, first, last


def _game() -> Moonshine:
    g = get_game("moonshine")
    assert isinstance(g, Moonshine)
    return g


GAME = _game()
RTP = Fraction(921821148212805, 960634900447232)


@pytest.fixture(scope="module")
def m() -> MoonshineMath:
    return moonshine_math(GAME)


@pytest.fixture(scope="module")
def report() -> dict[str, Any]:
    return rtp_report("moonshine")


# -- the RTP ------------------------------------------------------------------------------------
def test_the_rtp_is_pinned_and_within_the_documented_tolerance(m: MoonshineMath) -> None:
    assert m.rtp == RTP
    assert abs(m.rtp - Fraction(9596, 10000)) <= Fraction(2, 10000)
    assert GAME.target_rtp == Fraction(9596, 10000)
    parts = m.base_lines + m.base_sheriff + m.bonus_lines + m.bonus_sheriff
    assert parts == m.rtp
    # The bonus is P(k) E[S M | k] x one free spin.
    bonus = sum((p * m.pick[k][2] for k, p in m.bonus_counts.items()), Fraction(0)) * m.free_spin
    assert m.bonus_lines + m.bonus_sheriff == bonus


def test_the_report(report: dict[str, Any], m: MoonshineMath) -> None:
    assert report["rtp_exact"] == str(RTP)
    assert report["rtp"] == pytest.approx(0.9595957, abs=1e-7)
    assert report["seconds"] < 120  # speed is the bench's to measure; this catches a report gone pathological
    assert set(report["breakdown"]) == {"base_lines", "base_sheriff", "bonus_lines", "bonus_sheriff"}
    assert sum(report["breakdown"].values()) == pytest.approx(report["rtp"], abs=1e-12)
    assert report["lines"] == 25
    assert report["settings"] == {}
    assert report["feature_every"] == pytest.approx(float(1 / m.bonus_frequency))
    assert 100 < report["feature_every"] < 200
    assert 0.4 < report["hit_rate"] < 0.7
    dist = report["spins_multiplier_distribution"]
    assert set(dist) == {"3", "4", "5"}
    for k, d in dist.items():
        assert sum(d.values()) == pytest.approx(1.0, abs=1e-12)
        assert f"{13 + int(k)}x4" in d
        assert f"{k}x1" in d
    for k in ("3", "4", "5"):
        most = report["most"][k]
        assert (most["spins"], most["multiplier"]) == (13 + int(k), 4)
        assert most["probability"] == pytest.approx(1 / 153)  # all 16 blocks before a stopper
        assert most["spins_probability"] == pytest.approx(1 / 105)  # the 13 spin blocks first
        assert most["multiplier_probability"] == pytest.approx(1 / 10)  # the 3 multiplier blocks first
    assert report["max_win_x"] > 10_000
    assert 0 < report["max_win_probability"] < 1e-100
    assert report["max_win_bound"] is False
    assert report["max_win_odds"].startswith("1 in ")
    assert len(report["summary"]) == 4


def test_the_cli_prints_the_report(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rtp", "moonshine", "--lines", "3"]) == 0
    out = capsys.readouterr().out
    assert "moonshine (base): RTP 95.9596%  target 95.96%" in out
    assert "bonus every 140.4 spins" in out
    assert "18 spins at 4x: 1 bonus in 153" in out


def test_two_exact_computations_agree_at_every_line_count_checked(m: MoonshineMath) -> None:
    """The whole win distribution of a base spin (with its bonus count) and of a free spin,
    over every stop combination, compounded with the pick, gives the RTP of the per-line
    counts: the RTP does not depend on the line count (no win limit), as the table shows."""
    for lines in (1, 2, 9, 25):
        fig = round_figures(GAME, spin_tables(GAME, lines))
        assert fig.rtp == m.rtp, lines
        assert 0 < fig.hit < 1


def test_the_max_win_is_the_bonus_at_its_most(m: MoonshineMath) -> None:
    """The largest round: 5 bonus symbols, all 16 blocks before a stopper (18 spins at 4x) and
    every free spin at its largest; checked against a branch and bound over the free strips."""
    for lines in (1, 3):
        tables = spin_tables(GAME, lines)
        fig = round_figures(GAME, tables)
        d = GAME.data
        top_free = max_spin_win(
            GAME.free_reels,
            d.paylines[:lines],
            d.paytable,
            wild=GAME.wild,
            wild_pays_as=GAME.wild,
            scatter=GAME.sheriff,
            scatter_pays=d.scatter_pays,
        )
        assert fig.max_free == Fraction(top_free, lines)
        best5 = max(w for w, k in tables.base if k == 5)
        assert fig.max_win == Fraction(best5 + 18 * 4 * top_free, lines)


# -- the pick -----------------------------------------------------------------------------------
@pytest.mark.parametrize("count", [3, 4, 5])
def test_the_closed_form_is_the_distribution_mean(count: int) -> None:
    rules = GAME.bonus
    dist = pick_distribution(rules, count)
    assert sum(dist.values()) == 1
    mean_s, mean_m, mean_sm = pick_moments(rules, count)
    assert mean_s == sum(p * s for (s, _), p in dist.items()) == count + Fraction(13, 3)
    assert mean_m == sum(p * x for (_, x), p in dist.items()) == 2
    assert mean_sm == sum(p * s * x for (s, x), p in dist.items())
    # NOTES' closed form with s = 2 stoppers, A = 13, B = 3: S0 + (S0 B + A)/3 + 2 A B / 12.
    assert mean_sm == count + Fraction(3 * count + 13, 3) + Fraction(2 * 13 * 3, 12)
    assert max(dist) == (count + 13, 4)
    assert min(dist) == (count, 1)


def _adaptive(closed: tuple[str, ...], revealed: tuple[tuple[int, str], ...]) -> str:
    """Reads the board: after a multiplier it goes to the far end, after a spin to the next
    row's middle, at first to the centre."""
    if not revealed:
        return closed[len(closed) // 2]
    cell, prize = revealed[-1]
    if prize == "multiplier+1":
        return closed[-1]
    target = (cell + 6 + 3) % 18
    return min(closed, key=lambda c: abs(int(c) - target))


def _random() -> Strategy:
    """A random picker, the same on every board (a fresh source per board: a strategy that
    drew on across boards would tie its choices to the enumeration's order)."""
    rng = Rng(2026)

    def pick(closed: tuple[str, ...], revealed: tuple[tuple[int, str], ...]) -> str:
        if not revealed:
            rng.state = 2026
        return closed[rng.below(len(closed))]

    return pick


def _picked(board: tuple[str, ...], stoppers: frozenset[str], strategy: Strategy) -> tuple[str, ...]:
    """What `play_board` does, without building its decisions: offer the closed cells in cell
    order with what was revealed, reveal the cell picked, stop at a stopper."""
    closed = [str(i) for i in range(len(board))]
    revealed: list[tuple[int, str]] = []
    while True:
        choice = strategy(tuple(closed), tuple(revealed))
        closed.remove(choice)
        cell = int(choice)
        revealed.append((cell, board[cell]))
        if board[cell] in stoppers:
            return tuple(p for _, p in revealed)


def _played(board: tuple[str, ...], strategy: Strategy) -> tuple[str, ...]:
    """The board played through the shared `play_board`."""
    ctx = RoundContext(Rng(0), Bet(25, 1, 1), {})
    gen = play_board(ctx, GAME.bonus.pick, board)
    d = next(gen)
    try:
        while True:
            assert d.kind == PICK
            d = gen.send(strategy(d.choices, d.revealed))
    except StopIteration as stop:
        return tuple(stop.value.picked)


STRATEGIES: dict[str, Callable[[], Strategy]] = {
    "left": lambda: first,
    "right": lambda: last,
    "adaptive": lambda: _adaptive,
    "random": _random,
}


def test_every_strategy_sees_the_same_spins_and_multiplier_over_every_board() -> None:
    """85,680 distinct boards (13 "spin+1", 3 "multiplier+1", 2 "start"), each as likely as
    the others: four strategies, one random and one adaptive, end with the same distribution
    of (spins, multiplier), which is the closed form's. (Every 97th board is also played
    through `play_board` itself, which must pick the same.)"""
    rules = GAME.bonus
    stoppers = rules.pick.stoppers
    strategies = {name: make() for name, make in STRATEGIES.items()}
    outcomes: dict[str, Counter[tuple[int, int]]] = {name: Counter() for name in strategies}
    boards = 0
    for board in distinct_boards(rules.pick.prizes):
        for name, strategy in strategies.items():
            picked = _picked(board, stoppers, strategy)
            if boards % 97 == 0:
                assert _played(board, strategy) == picked
            outcomes[name][rules.award(3, picked)] += 1
        boards += 1
    assert boards == math.factorial(18) // (math.factorial(13) * math.factorial(3) * math.factorial(2)) == 85_680
    assert outcomes["left"] == outcomes["right"] == outcomes["adaptive"] == outcomes["random"]
    exact = pick_distribution(rules, 3)
    assert {k: Fraction(n, boards) for k, n in outcomes["left"].items()} == exact


# -- simulations through the real play path -----------------------------------------------------
def test_the_simulation_agrees_within_its_interval(m: MoonshineMath, report: dict[str, Any]) -> None:
    """One million rounds at the default bet (about 6 s): the RTP within the run's 95%
    interval; the bonus frequency and the hit rate within 3 sigma."""
    rounds = 1_000_000
    result = simulate("moonshine", rounds, seed=7)
    assert abs(result.rtp - float(m.rtp)) < result.ci95
    p = float(m.bonus_frequency)
    seen = result.features.get(FEATURE, 0)
    assert abs(seen - rounds * p) < 3 * math.sqrt(rounds * p * (1 - p))
    hit = report["hit_rate"]
    assert abs(result.hit_rate - hit) < 3 * math.sqrt(hit * (1 - hit) / rounds)
    assert result.stdev == pytest.approx(report["stdev"], rel=0.25)


@pytest.mark.parametrize("count", [3, 5])
def test_the_bonus_played_agrees_with_its_exact_value(m: MoonshineMath, count: int) -> None:
    """Bonuses played through the game's own code (board, picks by a random strategy, free
    spins) average E[S M | k] x one free spin, within 1.96 sigma."""
    bet = Bet(25, 1, 1)
    wins = []
    picker = Rng(99)
    for i in range(6000):
        ctx = RoundContext(Rng(1000 * count + i), bet, {})
        gen = GAME.play_bonus(ctx, count)
        d = next(gen)
        try:
            while True:
                d = gen.send(d.choices[picker.below(len(d.choices))])
        except StopIteration as stop:
            wins.append(stop.value / bet.total)
    mean = sum(wins) / len(wins)
    sd = math.sqrt(sum((w - mean) ** 2 for w in wins) / (len(wins) - 1))
    assert abs(mean - float(m.bonus_average(count))) < 1.96 * sd / math.sqrt(len(wins))


@pytest.mark.parametrize("lines", [1, 13, 25])
def test_every_line_count_plays_to_the_one_exact_rtp(lines: int) -> None:
    """A seed's wins scale with coins x coin size (test_moonshine); simulations at several
    line counts agree with the one exact figure within their interval."""
    result = simulate("moonshine", 40_000, seed=100 + lines, lines=lines)
    assert result.lines == lines
    assert abs(result.rtp - float(RTP)) < 1.96 * rtp_report("moonshine", lines=lines)["stdev"] / math.sqrt(40_000)
