"""Free spins on screen, for any game that has them: the counter and the feature's win on
the status line, the retrigger banner, the win-limit banner and the end summary, and the
counter brought back after a reload.

A game makes one `FreeSpins` with its words and its own intro and ending, and puts its
`handlers` and `status` in its `stage.GameScreen`.
"""

from __future__ import annotations

from collections.abc import Callable

from pyengine import events as ev

from .beats import Wait, is_win
from .stage import Beat, EventHandler, Stage
from .view import Banner
from .words import number

__all__ = ["WORDS", "FreeSpins", "begin"]

WORDS = ("counter", "retrigger", "retrigger_said", "limit", "limit_said", "end", "end_detail", "end_said")
"""What the free spins say: the catalogue keys ``freespins.<word>``, the shared client's unless the
game's catalogue has its own (`stage.GameScreen.word`); fields ``{n}``, ``{total}``, ``{win}``,
``{count}``, ``{spins}``."""


FEATURE = "free_spins"
"""The feature's id in the messages posted to the page (``featureStart``, ``featureEnd``)."""


def begin(c: Stage, e: ev.FreeSpinsAwarded) -> None:
    """The feature starts (a game's intro beat calls this): counter, totals, the message."""
    c.meters.start_feature(free_spins=e.total)
    c.host.post("featureStart", {"feature": FEATURE, "spins": e.count})


class _ClearBanner(Wait):
    """Show the banner for ``ms``, take it down, then call ``after``."""

    def __init__(self, ms: float, after: Callable[[Stage], None] | None = None) -> None:
        super().__init__(ms)
        self.after = after

    def update(self, c: Stage, now: float) -> bool:
        if not super().update(c, now):
            return False
        c.view.banner = None
        if self.after is not None:
            self.after(c)
        return True


class FreeSpins:
    """The shared free-spins presentation in a game's words.

    ``intro`` plays the first award (the game's own intro, e.g. choosing a symbol); ``ended``
    takes the game's own feature display down once the end summary has been shown.
    """

    def __init__(
        self,
        *,
        intro: Callable[[ev.FreeSpinsAwarded, Stage], Beat | None] | None = None,
        ended: Callable[[Stage], None] | None = None,
    ) -> None:
        self.intro = intro
        self.ended = ended

    @property
    def handlers(self) -> dict[str, EventHandler]:
        """The beats of the free-spin events, for `stage.GameScreen.handlers`."""
        return {
            ev.FreeSpinsAwarded.type: self._awarded,
            ev.FreeSpinStart.type: self._spin_start,
            ev.WinCapReached.type: self._cap,
            ev.FreeSpinsEnd.type: self._end,
        }

    def status(self, c: Stage) -> str:
        """The counter and the feature's win so far, during free spins (`stage.GameScreen.status`)."""
        m = c.meters
        if not m.in_feature:
            return ""
        n, total = m.free_spin
        return c.screen.word("freespins.counter", n=number(n), total=number(total), win=c.amount(m.feature_win))

    def _awarded(self, e: ev.FreeSpinsAwarded, c: Stage) -> Beat | None:
        if not e.retrigger:
            if self.intro is not None:
                return self.intro(e, c)
            begin(c, e)
            return None
        c.meters.more_free_spins(e.total)
        c.refresh_status()
        c.view.banner = Banner(c.screen.word("freespins.retrigger", count=number(e.count)), "", c.now)
        c.host.announce(c.screen.word("freespins.retrigger_said", count=number(e.count)))
        return _ClearBanner(c.timing.line_show)

    def _spin_start(self, e: ev.FreeSpinStart, c: Stage) -> Beat | None:
        c.meters.free_spin_of(e.number, e.total)
        c.view.phase = "free"
        c.refresh_status()
        return None

    def _cap(self, e: ev.WinCapReached, c: Stage) -> Beat | None:
        c.meters.credit_feature(e.win)
        c.view.banner = Banner(c.screen.word("freespins.limit"), c.amount(e.win), c.now)
        c.host.announce(c.screen.word("freespins.limit_said", win=c.fmt(e.win)))
        return _ClearBanner(c.timing.line_show * 1.5)

    def _end(self, e: ev.FreeSpinsEnd, c: Stage) -> Beat | None:
        c.meters.credit_feature(e.win)
        w = c.screen.word
        detail = w("freespins.end_detail", win=c.amount(e.win), spins=number(e.spins))
        c.view.banner = Banner(w("freespins.end"), detail, c.now)
        c.host.post("featureEnd", {"feature": FEATURE, "win": e.win, "spins": e.spins})
        c.host.announce(w("freespins.end_said", win=c.fmt(e.win), spins=number(e.spins)))
        return _ClearBanner(c.timing.line_show * 1.8, self._over)

    def _over(self, c: Stage) -> None:
        c.meters.end_feature()
        if self.ended is not None:
            self.ended(c)
        c.view.phase = "base"
        c.refresh_status()

    def rebuild(self, c: Stage, events: list[ev.Event]) -> None:
        """Recovery (`stage.GameScreen.rebuild`): the counter and the totals of free spins in
        play in ``events``, on the status line."""
        if self.restore(c, events):
            c.refresh_status()

    def restore(self, c: Stage, events: list[ev.Event]) -> bool:
        """The counter and the totals of free spins in play in ``events`` (a game's own
        recovery calls this first); False when none are in play (none awarded, or over)."""
        awarded = [e for e in events if isinstance(e, ev.FreeSpinsAwarded)]
        if not awarded or any(isinstance(e, ev.FreeSpinsEnd) for e in events):
            return False
        starts = [e for e in events if isinstance(e, ev.FreeSpinStart)]
        first_spin = next((i for i, e in enumerate(events) if isinstance(e, ev.FreeSpinStart)), len(events))
        c.meters.resume_feature(
            starts[-1].number if starts else 0,
            awarded[-1].total,
            base_win=sum(int(getattr(e, "win", 0)) for e in events[:first_spin] if is_win(e)),
            feature_win=sum(int(getattr(e, "win", 0)) for e in events[first_spin:] if is_win(e)),
        )
        return True
