"""Cascading wins with a multiplier ladder (tumbles).

After a spin, its wins are paid at the current multiplier; the winning symbols vanish and
the reels refill from their strips (`pyengine.evaluators.cascade.refill`); the new window is
judged again, and so on until a window shows no win. The multiplier of the n-th winning
window is ``multipliers[n-1]``, the last one staying for any further window. Everything
after the stops is fixed, so `pyengine.math` can average a cascading spin over every stop
combination exactly, with the same `refill` and the game's own evaluator.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from ..errors import EngineError
from ..events import Cascade, Event, WinMultiplier
from ..model import Window
from ..round import RoundContext
from ..evaluators.cascade import refill

__all__ = ["CascadeResult", "CascadeRules", "Judge", "play_cascades"]

Position = tuple[int, int]

Judge = Callable[[Window, int], tuple[Sequence[Event], int, tuple[Position, ...]]]
"""The game's judgement of one window at a multiplier: (its win events, their total win,
the positions that vanish). No win: ``((), 0, ())``."""


@dataclass(frozen=True, slots=True)
class CascadeRules:
    """The multiplier of the 1st, 2nd, ... winning window (the last stays), and the most
    cascades one spin may have (the game proves its strips stay below it)."""

    multipliers: tuple[int, ...] = (1,)
    limit: int = 1000

    def __post_init__(self) -> None:
        if not self.multipliers or any(m < 1 for m in self.multipliers):
            raise EngineError(f"cascade multipliers must be positive, not {self.multipliers!r}")

    def multiplier(self, step: int) -> int:
        """The multiplier of winning window number ``step`` (0-based)."""
        m = self.multipliers
        return m[step] if step < len(m) else m[-1]


@dataclass(frozen=True, slots=True)
class CascadeResult:
    """The spin's total ``win``, the number of ``cascades``, and where the reels rest."""

    win: int
    cascades: int
    stops: tuple[int, ...]
    window: Window


def play_cascades(
    ctx: RoundContext,
    rules: CascadeRules,
    strips: tuple[tuple[str, ...], ...],
    stops: tuple[int, ...],
    window: Window,
    judge: Judge,
) -> CascadeResult:
    """Pay, remove and refill until a window shows no win; emit each window's multiplier
    (when it changes), its wins and the `Cascade` that follows."""
    total = 0
    step = 0
    shown = 0  # the multiplier last announced (none yet)
    while True:
        multiplier = rules.multiplier(step)
        events, win, removed = judge(window, multiplier)
        if not win or not removed:
            break
        if multiplier != shown:
            ctx.emit(WinMultiplier(multiplier))
            shown = multiplier
        ctx.events.extend(events)
        total += win
        step += 1
        if step > rules.limit:
            raise EngineError(f"more than {rules.limit} cascades in one spin: the strips can cascade without end")
        stops, window = refill(strips, stops, window, removed)
        ctx.emit(Cascade(step, removed, stops, window))
    return CascadeResult(total, step, stops, window)
