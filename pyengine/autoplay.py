"""Autoplay: the session plays rounds on its own until a stop condition holds.

Shared by every game and the browser (which calls `Autoplay.step` once per animated
round). Gamble is never offered in autoplay; other decisions take their first choice
("start", "spin", "collect"). Stop conditions, checked in this order:

- ``rounds``: the number of rounds asked for were played;
- ``loss_limit``: the next round's stake would take the net loss past the limit (it
  stops *before* that round);
- ``balance``: the balance cannot pay the next stake;
- ``single_win``: the last round's win exceeded the single-win limit (the rules: "stop
  if single win exceeds certain amount"; a win of exactly the limit plays on);
- ``feature``: a feature started (with ``stop_on_feature``); the round is left waiting on
  its feature-start decision for the player;
- ``player``: `Autoplay.stop` was called.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from .errors import EngineError, shown
from .events import Event
from .session import Session

__all__ = ["Autoplay", "AutoplayLimits", "StopReason"]


class StopReason(StrEnum):
    ROUNDS = "rounds"
    LOSS_LIMIT = "loss_limit"
    BALANCE = "balance"
    SINGLE_WIN = "single_win"
    FEATURE = "feature"
    PLAYER = "player"


@dataclass(frozen=True, slots=True)
class AutoplayLimits:
    """What the player set: rounds, and optional limits in minor units."""

    rounds: int
    loss_limit: int | None = None
    single_win_limit: int | None = None
    stop_on_feature: bool = True

    def __post_init__(self) -> None:
        if not isinstance(self.rounds, int) or isinstance(self.rounds, bool) or self.rounds < 1:
            raise EngineError(f"autoplay needs at least 1 round, not {shown(self.rounds)}")
        for name in ("loss_limit", "single_win_limit"):
            v = getattr(self, name)
            if v is not None and (not isinstance(v, int) or isinstance(v, bool) or v <= 0):
                raise EngineError(f"autoplay {name} must be a positive amount of minor units, not {shown(v)}")
        if self.stop_on_feature is not True and self.stop_on_feature is not False:
            raise EngineError(f"autoplay stop_on_feature must be True or False, not {shown(self.stop_on_feature)}")


class Autoplay:
    """Runs rounds of ``session`` within ``limits``."""

    def __init__(self, session: Session, limits: AutoplayLimits) -> None:
        if not isinstance(session, Session):
            raise EngineError(f"autoplay needs a Session, not {shown(session)}")
        if not isinstance(limits, AutoplayLimits):
            raise EngineError(f"autoplay needs its AutoplayLimits, not {shown(limits)}")
        if session.in_round:
            raise EngineError("autoplay cannot start while a round waits on the player")
        self.session = session
        self.limits = limits
        self.start_balance = session.balance
        self.played = 0
        self.reason: StopReason | None = None

    @property
    def running(self) -> bool:
        return self.reason is None

    @property
    def net_loss(self) -> int:
        return self.start_balance - self.session.balance

    def stop(self) -> None:
        """The player pressed Stop: no further round starts."""
        if self.reason is None:
            self.reason = StopReason.PLAYER

    def _check_before(self) -> StopReason | None:
        lim = self.limits
        stake = self.session.bet.total
        if self.played >= lim.rounds:
            return StopReason.ROUNDS
        if lim.loss_limit is not None and self.net_loss + stake > lim.loss_limit:
            return StopReason.LOSS_LIMIT
        if stake > self.session.balance:
            return StopReason.BALANCE
        return None

    def step(self) -> list[Event]:
        """Play one round (or stop); return its events (empty once stopped)."""
        if self.reason is not None:
            return []
        reason = self._check_before()
        if reason is not None:
            self.reason = reason
            return []
        s = self.session
        events = s.spin(autoplay=True)
        self.played += 1
        while s.pending is not None:
            if s.pending.feature and self.limits.stop_on_feature:
                self.reason = StopReason.FEATURE
                s.take_over()  # the player plays the feature by hand, and is offered the gamble after it
                return events
            events += s.choose(s.pending.choices[0])
        last = s.last_round
        assert last is not None
        if self.limits.single_win_limit is not None and last.win > self.limits.single_win_limit:
            self.reason = StopReason.SINGLE_WIN
        elif self.played >= self.limits.rounds:
            self.reason = StopReason.ROUNDS
        return events

    def run(self) -> StopReason:
        """Play until a stop condition holds; return why it stopped."""
        while self.reason is None:
            self.step()
        return self.reason
