"""Pick Fixture: 5x3, 3 lines; 3 or more Keys start a bonus that is two picks in a row.

First an open choice of a charm (1 of 3 shown faces, all worth the same); then a board of
12 hidden cells is picked until one of its 2 "stop" cells: "+1" and "+2" add that many
total bets, "x+1" raises the bonus multiplier (from 1). The bonus pays its sum times its
multiplier. Nothing here is shipped: the tests register it.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from pathlib import Path
from typing import Any

from pyengine.data import load_lines_game, parse_data
from pyengine.errors import EngineError
from pyengine.evaluators import LineEvaluator
from pyengine.events import LineWin, Spin
from pyengine.features.pick import PickRules, play_pick
from pyengine.games.base import LinesGame, Plugin
from pyengine.model import Bet
from pyengine.round import Decision, RoundContext, RoundProcess

__all__ = ["PLUGIN", "PickFixture", "bonus_value", "load"]

FEATURE_START = Decision("feature_start", ("start",), feature=True)
DATA = Path(__file__).with_name("pick_fixture.json")


class PickFixture(LinesGame):
    """The fixture game: line wins, and the Key bonus made of two picks."""

    decisions = ("feature_start", "pick")

    def __init__(self, text: str) -> None:
        super().__init__(load_lines_game(parse_data(DATA.name, text)))
        root = self.data.root
        self.reels = self.data.reels["base"]
        self.lines = LineEvaluator(
            self.data.paylines, self.data.paytable, wild=self.data.wild, wild_pays_as=self.wild_pays_as
        )
        self._keys = self.reels.positions_of("KEY")
        self.trigger = root.get("trigger").as_int(minimum=1)
        self.board = PickRules.from_field("board", root.get("pick"))
        self.charm = PickRules.from_field("charm", root.get("charm"))

    def price(self, bet: Bet, mode: str) -> int:
        if mode != "base":
            raise EngineError(f"{self.name} has no mode {mode!r}; its only mode is base")
        return bet.total

    def play(self, ctx: RoundContext) -> RoundProcess:
        stops, window = self.reels.draw(ctx.rng.below(self.reels.radix))
        ctx.emit(Spin("base", stops, window))
        bpl = ctx.bet.bet_per_line
        for line, symbol, count, positions, multiplier in self.lines.wins(window, ctx.bet.lines):
            ctx.win += multiplier * bpl
            ctx.emit(LineWin(line, symbol, count, positions, multiplier, multiplier * bpl))
        keys = sum(len(self._keys[reel][stop]) for reel, stop in enumerate(stops))
        if keys < self.trigger:
            return
        ctx.features.append("pick_bonus")
        yield FEATURE_START
        yield from play_pick(ctx, self.charm)
        result = yield from play_pick(ctx, self.board)
        ctx.win += bonus_win(result.picked) * ctx.bet.total

    def describe(self) -> dict[str, Any]:
        return super().describe() | {"settings": {}, "pick": {"board": list(self.board.prizes)}}


def bonus_win(picked: tuple[str, ...]) -> int:
    """The bonus in total bets for the prizes picked: their sum times the multiplier."""
    cash = sum(int(p[1:]) for p in picked if p.startswith("+"))
    return cash * (1 + sum(1 for p in picked if p == "x+1"))


def bonus_value(game: PickFixture) -> Fraction:
    """E[bonus] in total bets, closed form: with s stoppers, each prize is picked before
    the first stopper with probability 1/(s+1) and each pair with 2/((s+1)(s+2))."""
    prizes = game.board.prizes
    s = prizes.count("stop")
    cash = sum(int(p[1:]) for p in prizes if p.startswith("+"))
    mult = prizes.count("x+1")
    return Fraction(cash, s + 1) + Fraction(2 * cash * mult, (s + 1) * (s + 2))


def load() -> PickFixture:
    return PickFixture(DATA.read_text(encoding="utf-8"))


def report(game: PickFixture, mode: str, settings: Mapping[str, int], lines: int) -> dict[str, Any]:
    """Only the bonus is computed exactly here (the fixture does not claim an RTP)."""
    value = bonus_value(game)
    prizes = game.board.prizes
    cash = sum(int(p[1:]) for p in prizes if p.startswith("+"))
    # A bound: every line at the top pay (a line's pay is in bets per line: the top pay is
    # that many total bets over all the lines) and the bonus with every cash cell and every
    # multiplier cell picked.
    top_pay = max(v for pays in game.describe()["paytable"].values() for v in pays.values())
    bound = top_pay + cash * (1 + prizes.count("x+1"))
    return {
        "game": game.id,
        "mode": mode,
        "rtp": 0.0,
        "target_rtp": float(game.target_rtp),
        "method": "the pick bonus in closed form; the fixture's line game is not computed",
        "breakdown": {},
        "max_win_x": float(bound),
        "max_win_bound": True,
        "max_win_probability": None,
        "bonus_value_x": float(value),
        "summary": [f"bonus average {float(value):.4f}x the total bet"],
    }


PLUGIN = Plugin(load=load, report="tests.fixture_game.pick_fixture:report", screen="tests.fixture_game.screen")
