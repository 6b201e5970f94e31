"""Free spins: a counter with retriggers and a cumulative win limit."""

from __future__ import annotations

from ..events import FreeSpinsAwarded, FreeSpinsEnd, FreeSpinStart, WinCapReached
from ..round import RoundContext

__all__ = ["FreeSpins"]


class FreeSpins:
    """Tracks a free-spins feature inside a round and emits its events.

    ``cap`` is the operator's limit on the cumulative free-spin win (in minor units):
    when the wins become higher than the cap, the cap is paid and the feature ends.
    """

    __slots__ = ("cap", "capped", "ctx", "played", "raw", "total", "win")

    def __init__(self, ctx: RoundContext, count: int, cap: int) -> None:
        self.ctx = ctx
        self.cap = cap
        self.total = count
        self.played = 0
        self.win = 0
        self.raw = 0
        self.capped = False
        ctx.emit(FreeSpinsAwarded(count, count, retrigger=False))

    @property
    def remaining(self) -> int:
        return 0 if self.capped else self.total - self.played

    def retrigger(self, count: int) -> None:
        self.total += count
        self.ctx.emit(FreeSpinsAwarded(count, self.total, retrigger=True))

    def start_spin(self) -> None:
        self.played += 1
        self.ctx.emit(FreeSpinStart(self.played, self.total))

    def credit(self, amount: int) -> int:
        """Add a spin's win, applying the cap; return what is actually paid."""
        self.raw += amount
        if self.raw <= self.cap:
            self.win = self.raw
            return amount
        paid = self.cap - self.win
        self.win = self.cap
        self.capped = True
        self.ctx.emit(WinCapReached(self.cap, self.win))
        return paid

    def finish(self) -> None:
        self.ctx.emit(FreeSpinsEnd(self.played, self.win, self.capped))
