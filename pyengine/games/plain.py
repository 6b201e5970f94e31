"""A plain line game, ready-made: line wins and, where the data has a scatter symbol with
scatter pays, a scatter win on the total bet. No feature, no decision.

A game that is nothing more needs no code of its own but its registration: its folder
holds its data file and an ``__init__.py`` that ends with

    PLUGIN = Plugin(load=lambda: PlainLinesGame.from_file("<id>.json", __name__),
                    report=PLAIN_REPORT, screen="slotui.games.<id>")

and its exact RTP report is `pyengine.math.lines.report` (``PLAIN_REPORT``).
"""

from __future__ import annotations

from ..data import LinesGameData, load_lines_game, read_data_file
from ..evaluators import LineEvaluator
from ..round import RoundContext, RoundProcess
from .base import LinesGame, pay_scatter, spin_lines

__all__ = ["PLAIN_REPORT", "PlainLinesGame"]

PLAIN_REPORT = "pyengine.math.lines:report"
"""The ready-made exact report of a `PlainLinesGame` (``Plugin.report``)."""


class PlainLinesGame(LinesGame):
    """Line wins on the active lines of the base reels, plus the scatter pays of the data's
    scatter symbol (anywhere in the window, on the total bet)."""

    def __init__(self, data: LinesGameData) -> None:
        super().__init__(data)
        self.base_reels = data.reels["base"]
        self.lines = LineEvaluator(
            data.paylines, data.paytable, wild=data.wilds or None, wild_pays_as=self.wild_pays_as
        )
        self.scatter = next((s.id for s in data.symbols if s.is_scatter), None) if data.scatter_pays else None
        top = max(data.scatter_pays, default=0)
        self._scatter_pays = tuple(data.scatter_pays.get(n, 0) for n in range(top + 1))
        self._scatters_at = self.base_reels.positions_of(self.scatter) if self.scatter is not None else None

    @classmethod
    def from_file(cls, name: str, package: str) -> PlainLinesGame:
        """The game of the data file ``name`` in the game package ``package``."""
        return cls(load_lines_game(read_data_file(name, package)))

    def play(self, ctx: RoundContext) -> RoundProcess:
        stops, _, win = spin_lines(ctx, self.base_reels, self.lines, "base")
        if self._scatters_at is not None and self.scatter is not None:
            found = tuple(p for reel, stop in enumerate(stops) for p in self._scatters_at[reel][stop])
            n = len(found)
            pay = self._scatter_pays[n] if n < len(self._scatter_pays) else 0
            if pay:
                win += pay_scatter(ctx, self.scatter, found, pay)
        ctx.win = win
        return
        yield  # a generator that never waits on the player
