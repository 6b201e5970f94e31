"""What every game provides (see `pyengine.round` for how a round is played)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any, Protocol

from ..data import LinesGameData
from ..evaluators import LineEvaluator
from ..events import LineWin, Spin
from ..features.jackpot import JackpotRules
from ..model import Bet, BetConfig, ReelSet, Window
from ..round import RoundContext, RoundProcess

__all__ = ["Game", "LinesGame", "Plugin", "Report"]


class Game(Protocol):
    """The interface the session, the math and the browser use."""

    id: str
    name: str
    version: str
    target_rtp: Fraction
    bets: BetConfig
    @property
    def modes(self) -> tuple[str, ...]:
        """Bet modes: ``base`` always; ``buy`` where the feature can be bought."""
        ...

    @property
    def jackpot(self) -> JackpotRules | None:
        """The time jackpot's rules, or None for a game without one."""
        ...

    def price(self, bet: Bet, mode: str) -> int:
        """What a round in ``mode`` costs at ``bet``; raise `EngineError` for a mode not offered."""
        ...

    def default_settings(self) -> dict[str, int]:
        """Operator settings and their documented defaults."""
        ...

    def validate_settings(self, settings: Mapping[str, Any]) -> dict[str, int]:
        """Complete and check operator settings; raise `EngineError` on a bad one."""
        ...

    def play(self, ctx: RoundContext) -> RoundProcess:
        """Play one round in ``ctx`` (the stake is already taken)."""
        ...

    def describe(self) -> dict[str, Any]:
        """JSON-ready description for paytable and rules screens and the reels' strips."""
        ...


Report = Callable[[Any, str, Mapping[str, int], int], dict[str, Any]]
"""A game's exact RTP report: ``report(game, mode, settings, lines)`` with the settings
already checked, returning the JSON-ready report (see `pyengine.math.rtp.rtp_report`)."""


@dataclass(frozen=True, slots=True)
class Plugin:
    """Everything the shared code needs to know about a game, registered in one place.

    ``load`` builds the game from its data; ``report`` is ``"module:function"`` of its exact
    RTP report (imported only when asked, since the math may need tools the engine does
    not); ``screen`` is the client module that draws it (``slotui.<id>``).
    """

    load: Callable[[], Game]
    report: str
    screen: str

    def report_function(self) -> Report:
        """Import and return the report function."""
        import importlib

        module, _, name = self.report.partition(":")
        fn: Report = getattr(importlib.import_module(module), name)
        return fn


class LinesGame:
    """What the lines games share: identity, bets and description from their data."""

    modes: tuple[str, ...] = ("base",)
    jackpot: JackpotRules | None = None

    def __init__(self, data: LinesGameData) -> None:
        self.data = data
        self.id = data.id
        self.name = data.name
        self.version = data.version
        self.target_rtp = data.target_rtp
        self.bets = data.bets
        self.wild_pays_as = data.wild_pays_as()

    def describe(self) -> dict[str, Any]:
        return self.data.describe() | {"wild_pays_as": self.wild_pays_as}

    @staticmethod
    def spin_lines(
        ctx: RoundContext, reels: ReelSet, lines: LineEvaluator, phase: str
    ) -> tuple[tuple[int, ...], Window, int]:
        """One spin of a lines game, the hot path of every round: draw the stops, emit the
        `Spin` and a `LineWin` per paying active line (pay x coins x coin size); return
        (stops, window, the line win). Scatters and features are the game's own."""
        stops, window = reels.draw(ctx.rng.below(reels.radix))
        events = ctx.events
        events.append(Spin(phase, stops, window))
        bet = ctx.bet
        per_line = bet.bet_per_line * bet.coins
        win = 0
        for line, symbol, count, positions, multiplier in lines.wins(window, bet.lines):
            amount = multiplier * per_line
            win += amount
            events.append(LineWin(line, symbol, count, positions, multiplier, amount))
        return stops, window, win
