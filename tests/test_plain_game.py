"""The ready-made plain line game (`pyengine.games.plain`) and its exact report
(`pyengine.math.lines`): a game of data alone plays, and its report equals the sum over
every stop combination played through the game itself."""

from __future__ import annotations

import json
from fractions import Fraction
from typing import Any

import pytest

from pyengine.data import load_lines_game, parse_data
from pyengine.events import LineWin, ScatterWin
from pyengine.games.base import Plugin
from pyengine.games.plain import PLAIN_REPORT, PlainLinesGame
from pyengine.math import lines as plain_math
from pyengine.model import Bet
from pyengine.rng import ScriptedRng
from pyengine.round import RoundContext

FRUIT: dict[str, Any] = {
    "id": "fruit_three",
    "name": "Fruit Three",
    "version": "1.0.0",
    "target_rtp": "0.95",
    "rows": 3,
    "reel_count": 3,
    "symbols": [
        {"id": "W", "name": "Wild", "kind": "wild"},
        {"id": "STAR", "name": "Star", "kind": "scatter"},
        {"id": "SEVEN", "name": "Seven", "kind": "regular"},
        {"id": "BELL", "name": "Bell", "kind": "regular"},
        {"id": "CHERRY", "name": "Cherry", "kind": "regular"},
    ],
    "paytable": {"SEVEN": {"3": 50}, "BELL": {"3": 15}, "CHERRY": {"2": 1, "3": 5}},
    "wild_pays_as": "SEVEN",
    "scatter_pays": {"2": 1, "3": 10},
    "paylines": [[1, 1, 1], [0, 0, 0], [2, 2, 2], [0, 1, 2], [2, 1, 0]],
    "reels": {
        "base": [
            ["SEVEN", "CHERRY", "BELL", "STAR", "CHERRY", "W", "BELL", "CHERRY"],
            ["BELL", "CHERRY", "SEVEN", "CHERRY", "STAR", "BELL", "W", "CHERRY", "BELL"],
            ["CHERRY", "BELL", "STAR", "SEVEN", "CHERRY", "BELL", "CHERRY", "W", "BELL", "CHERRY"],
        ]
    },
    "bets": {"lines": [1, 3, 5], "bet_per_line": [1, 2], "default_lines": 5, "default_bet_per_line": 1},
}


def fruit(**changes: Any) -> PlainLinesGame:
    return PlainLinesGame(load_lines_game(parse_data("fruit_three.json", json.dumps(FRUIT | changes))))


def played_total(game: PlainLinesGame, lines: int) -> tuple[Fraction, int, int]:
    """(RTP, winning spins, the largest win) by playing every stop combination once through
    the game's own `play`, at ``lines`` lines and a bet of 1 per line."""
    bet = Bet(lines=lines, bet_per_line=1)
    total = hits = top = 0
    for index in range(game.base_reels.radix):
        ctx = RoundContext(ScriptedRng([index]), bet, {})
        for _ in game.play(ctx):
            raise AssertionError("a plain game never waits on the player")
        paid = sum(e.win for e in ctx.events if isinstance(e, LineWin | ScatterWin))
        assert paid == ctx.win
        total += ctx.win
        hits += ctx.win > 0
        top = max(top, ctx.win)
    return Fraction(total, game.base_reels.radix * bet.total), hits, top


@pytest.mark.parametrize("lines", [1, 3, 5])
def test_the_ready_made_report_equals_every_spin_played(lines: int) -> None:
    game = fruit()
    rtp, hits, top = played_total(game, lines)
    report = plain_math.report(game, "base", {}, lines)
    assert report["rtp_exact"] == str(rtp)
    assert Fraction(report["hit_rate_exact"]) == Fraction(hits, game.base_reels.radix)
    assert report["max_win_x"] == float(Fraction(top, lines))
    assert report["max_win_bound"] is False
    parts = report["breakdown"]
    assert parts["lines"] + parts["scatter"] == pytest.approx(float(rtp), abs=1e-15)
    assert parts["scatter"] > 0


def test_a_game_without_a_scatter_pays_lines_only() -> None:
    game = fruit(scatter_pays={})
    assert game.scatter is None
    rtp, _, _ = played_total(game, 5)
    report = plain_math.report(game, "base", {}, 5)
    assert report["rtp_exact"] == str(rtp)
    assert report["breakdown"]["scatter"] == 0


def test_the_scatter_pays_anywhere_on_the_total_bet() -> None:
    game = fruit()
    # Stops that show a Star on each reel: reel 1 stop 3 (top row), reel 2 stop 4, reel 3 stop 2.
    radix_index = 0
    for reel in range(3):  # mixed radix, the last reel the last digit
        radix_index = radix_index * len(FRUIT["reels"]["base"][reel]) + (3, 4, 2)[reel]
    stops, _ = game.base_reels.draw(radix_index)
    assert stops == (3, 4, 2)
    ctx = RoundContext(ScriptedRng([radix_index]), Bet(lines=5, bet_per_line=2), {})
    list(game.play(ctx))
    scatter = [e for e in ctx.events if isinstance(e, ScatterWin)]
    assert len(scatter) == 1
    assert (scatter[0].count, scatter[0].win) == (3, 10 * 10)


def test_a_plain_game_needs_only_its_registration() -> None:
    plug = Plugin(load=fruit, report=PLAIN_REPORT, screen="slotui.games.fruit_three")
    assert plug.report_function() is plain_math.report
    assert plug.load().describe()["decisions"] == []
