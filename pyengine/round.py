"""The context a round is played in, and the decisions it waits on.

A game's round is a generator: it draws from ``ctx.rng``, emits events with
``ctx.emit`` and adds to ``ctx.win``; when it needs the player it yields a `Decision` and
receives the chosen string. Because a round is a pure function of (seed, bet, settings,
choices), the session saves a round in play as that record and restores it by replaying.
"""

from __future__ import annotations

from collections.abc import Generator, Mapping
from dataclasses import dataclass, field

from .events import ChoiceMade, DecisionPending, Event
from .model import Bet
from .rng import Rng

__all__ = ["Decision", "RoundContext", "RoundProcess"]


@dataclass(frozen=True, slots=True)
class Decision:
    """A point where the round waits for the player.

    ``choices`` lists what is allowed (the first is what autoplay and ``--choices first``
    take); ``feature`` marks the start of a feature, where autoplay can stop;
    ``on_restore`` is the choice taken at once when a saved session is restored while
    the round waits here (e.g. a win left at Collect is credited), or None to let the
    player carry on.

    ``revealed`` lists what a pick has shown so far, as (cell, prize) pairs in the order
    picked (`pyengine.features.pick`); empty for every other decision.

    ``pending_event`` and ``choice_events`` are the events the session logs when the
    round stops here and when a choice answers it. Events are immutable values, so they
    are built once per decision rather than once per round.
    """

    kind: str
    choices: tuple[str, ...]
    feature: bool = False
    on_restore: str | None = None
    revealed: tuple[tuple[int, str], ...] = ()
    pending_event: DecisionPending = field(init=False, repr=False, compare=False)
    choice_events: Mapping[str, ChoiceMade] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "pending_event", DecisionPending(self.kind, self.choices))
        object.__setattr__(self, "choice_events", {c: ChoiceMade(self.kind, c) for c in self.choices})


class RoundContext:
    """The mutable state of one round in play: its random source, bet, operator
    settings, whether autoplay plays it, its bet mode (``base``, or ``buy`` for a bought
    feature), the events so far, the win so far and the features it entered."""

    __slots__ = ("autoplay", "bet", "events", "features", "gamble_skipped", "mode", "rng", "settings", "win")

    def __init__(
        self,
        rng: Rng,
        bet: Bet,
        settings: Mapping[str, int],
        autoplay: bool = False,  # noqa: FBT001, FBT002
        mode: str = "base",
    ) -> None:
        self.rng = rng
        self.bet = bet
        self.settings = settings
        self.autoplay = autoplay
        self.mode = mode
        self.events: list[Event] = []
        self.win = 0
        self.features: list[str] = []
        self.gamble_skipped = False
        """Whether a gamble was left out because autoplay played the round (`gamble_offered`):
        such a round cannot be handed to the player (`Session.take_over`)."""

    def emit(self, event: Event) -> None:
        self.events.append(event)


RoundProcess = Generator[Decision, str, None]
