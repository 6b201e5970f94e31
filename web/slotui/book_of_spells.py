"""Book of Spells on screen: the free-spins intro where the Book picks the expanding
symbol, the symbol shown above the reels for the whole feature, the expansion, the
free-spin counter and total, retriggers and the win-limit ending."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pyengine import events as ev

from .beats import Beat, GameScreen, Wait, WinsBeat, register_screen, show_line
from .view import Banner, IntroView

if TYPE_CHECKING:
    from .controller import Controller

__all__ = ["SCREEN", "ExpansionBeat", "IntroBeat", "rebuild_feature"]


def _status(c: Controller) -> None:
    c.refresh_status()


def status_text(c: Controller) -> str:
    """The free-spin counter and the feature's win so far, during free spins."""
    if not c.in_feature:
        return ""
    n, total = c.free_spin
    return f"FREE SPIN {n} OF {total}  ·  FEATURE WIN {c.fmt(c.feature_win)}"


class IntroBeat(Beat):
    """'10 FREE SPINS' then the Book turning pages until it settles on the symbol."""

    def __init__(self, e: ev.FreeSpinsAwarded, c: Controller) -> None:
        self.e = e
        symbols = [s["id"] for s in c.desc["symbols"] if s["id"] in c.desc["free_spins"]["expanding"]]
        self.candidates = tuple(symbols)

    def start(self, c: Controller, now: float) -> None:
        super().start(c, now)
        c.in_feature = True
        c.base_win = c.win_shown
        c.free_spin = (0, self.e.total)
        c.feature_win = 0
        settle = 600.0 if c.reduced_motion else 2400.0 if not c.turbo else 1400.0
        c.view.intro = IntroView(self.e.count, None, self.candidates, now, settle)
        c.host.post("featureStart", {"feature": "free_spins", "spins": self.e.count})
        c.host.announce(f"{self.e.count} free spins won! The Book chooses the expanding symbol.")
        self.ms = c.timing.line_show

    def update(self, c: Controller, now: float) -> bool:
        return c.start_requested or now - self.t0 >= self.ms

    def hurry(self, c: Controller) -> None:
        self.ms = 0


class ChooseBeat(Beat):
    """The Book settles on the chosen symbol; then the player starts the feature."""

    def __init__(self, e: ev.ExpandingSymbolChosen) -> None:
        self.e = e

    def start(self, c: Controller, now: float) -> None:
        super().start(c, now)
        intro = c.view.intro
        if not isinstance(intro, IntroView):
            intro = c.view.intro = IntroView(10, None, (self.e.symbol,), now, 0.0)
        intro.symbol = self.e.symbol
        intro.started = now
        self.ms = intro.settle_ms

    def update(self, c: Controller, now: float) -> bool:
        if now - self.t0 < self.ms and not c.start_requested:
            return False
        intro = c.view.intro if isinstance(c.view.intro, IntroView) else None
        name = next(s["name"] for s in c.desc["symbols"] if s["id"] == self.e.symbol)
        if intro is not None:
            intro.started = min(intro.started, now - intro.settle_ms)  # show the symbol settled
        if c.autoplay is not None:
            c.host.announce(f"The expanding symbol is the {name}.")
        elif intro is not None:
            intro.waiting = True
            c.host.announce(f"The expanding symbol is the {name}. Press Start to play the free spins.")
        return True

    def hurry(self, c: Controller) -> None:
        self.ms = 0


class ExpansionBeat(Beat):
    """Regular wins first; then the expanding symbol fills its reels and pays every line."""

    def __init__(self, regular: list[ev.Event], expanded: list[ev.Event], c: Controller) -> None:
        self.regular = WinsBeat(regular, c) if regular else None
        self.expanded = [e for e in expanded if isinstance(e, ev.ExpandedWin)]
        self.stage = 0
        self.hurried = False
        self.grow_ms = 0.0

    def start(self, c: Controller, now: float) -> None:
        super().start(c, now)
        if self.regular is not None:
            self.regular.start(c, now)
        else:
            self.stage = 1

    def update(self, c: Controller, now: float) -> bool:
        if self.stage == 0:
            assert self.regular is not None
            if not self.regular.update(c, now):
                return False
            self.stage = 1
        if self.stage == 1:
            self.stage = 2
            self.t_expand = now
            self.grow_ms = 0.0 if self.hurried else 150.0 if c.reduced_motion else 700.0 if not c.turbo else 350.0
            e = self.expanded[0]
            name = next(s["name"] for s in c.desc["symbols"] if s["id"] == e.symbol)
            c.host.announce(f"The {name} expands on {e.count} reels and pays on {e.lines} lines.")
        if self.stage == 2:
            e = self.expanded[0]
            u = min((now - self.t_expand) / self.grow_ms, 1.0) if self.grow_ms > 0 else 1.0
            c.view.expanded = {r: u for r in e.reels}
            if u < 1.0:
                return False
            self.stage = 3
            self.wins = WinsBeat(list(self.expanded), c)
            self.wins.start(c, now)
            if self.hurried:
                self.wins.hurry(c)
        if self.stage == 3:
            if not self.wins.update(c, now):
                show_line(c, self.expanded[0])
                return False
            return True
        return True

    def hurry(self, c: Controller) -> None:
        self.hurried = True
        if self.regular is not None:
            self.regular.hurry(c)
        if self.stage == 2:
            self.grow_ms = 0.0
        if self.stage == 3:
            self.wins.hurry(c)


def _awarded(e: ev.FreeSpinsAwarded, c: Controller) -> Beat | None:
    if not e.retrigger:
        return IntroBeat(e, c)
    c.free_spin = (c.free_spin[0], e.total)
    _status(c)
    c.view.banner = Banner(f"+{e.count} FREE SPINS", "", c.now)
    c.host.announce(f"{e.count} more free spins!")
    return _ClearBanner(c.timing.line_show)


class _ClearBanner(Wait):
    def update(self, c: Controller, now: float) -> bool:
        if super().update(c, now):
            c.view.banner = None
            return True
        return False


def _spin_start(e: ev.FreeSpinStart, c: Controller) -> Beat | None:
    c.free_spin = (e.number, e.total)
    c.in_feature = True
    c.view.phase = "free"
    _status(c)
    return None


def _cap(e: ev.WinCapReached, c: Controller) -> Beat | None:
    c.feature_win = e.win
    c.win_shown = c.base_win + e.win
    c.view.banner = Banner("WIN LIMIT REACHED", c.fmt(e.win), c.now)
    c.host.announce(f"The free-spin win limit is reached: {c.fmt(e.win)}.")
    return _ClearBanner(c.timing.line_show * 1.5)


def _end(e: ev.FreeSpinsEnd, c: Controller) -> Beat | None:
    c.feature_win = e.win
    c.win_shown = c.base_win + e.win
    c.view.banner = Banner("FREE SPINS WIN", f"{c.fmt(e.win)} in {e.spins} spins", c.now)
    c.host.post("featureEnd", {"feature": "free_spins", "win": e.win, "spins": e.spins})
    c.host.announce(f"Free spins over: {c.fmt(e.win)} won in {e.spins} spins.")

    class _Close(_ClearBanner):
        def update(self, c: Controller, now: float) -> bool:
            if super().update(c, now):
                c.in_feature = False
                c.view.expanding = None
                c.view.expanded = {}
                c.view.phase = "base"
                _status(c)
                return True
            return False

    return _Close(c.timing.line_show * 1.8)


def rebuild_feature(c: Controller, events: list[ev.Event]) -> None:
    """Recovery inside free spins: symbol above the reels, counter, totals, intro."""
    chosen = next((e for e in events if isinstance(e, ev.ExpandingSymbolChosen)), None)
    if chosen is None:
        return
    awarded = [e for e in events if isinstance(e, ev.FreeSpinsAwarded)]
    starts = [e for e in events if isinstance(e, ev.FreeSpinStart)]
    ended = any(isinstance(e, ev.FreeSpinsEnd) for e in events)
    if ended:
        return
    c.in_feature = True
    total = awarded[-1].total if awarded else 0
    c.free_spin = (starts[-1].number if starts else 0, total)
    first_spin = next((i for i, e in enumerate(events) if isinstance(e, ev.FreeSpinStart)), len(events))
    c.feature_win = sum(
        int(getattr(e, "win", 0))
        for e in events[first_spin:]
        if isinstance(e, ev.LineWin | ev.ScatterWin | ev.ExpandedWin)
    )
    c.base_win = sum(
        int(getattr(e, "win", 0)) for e in events[:first_spin] if isinstance(e, ev.LineWin | ev.ScatterWin)
    )
    if c.pending_kind == "feature_start":
        c.view.status = ""
        c.view.intro = IntroView(
            awarded[0].count if awarded else 10, chosen.symbol, (chosen.symbol,), c.now, 0.0, waiting=True
        )
        return
    c.view.expanding = chosen.symbol
    c.view.phase = "free"
    _status(c)


def _wins(wins: list[ev.Event], c: Controller) -> Beat:
    """Regular wins, then the expansion (its own beat) when the spin has one."""
    expanded: list[ev.Event] = [w for w in wins if isinstance(w, ev.ExpandedWin)]
    if expanded:
        return ExpansionBeat([w for w in wins if not isinstance(w, ev.ExpandedWin)], expanded, c)
    return WinsBeat(wins, c)


SCREEN = GameScreen(
    feature="free spins",
    start_label="START FREE SPINS",
    stop_label="Stop when free spins are won",
    handlers={
        ev.FreeSpinsAwarded.type: _awarded,
        ev.ExpandingSymbolChosen.type: lambda e, c: ChooseBeat(e),
        ev.FreeSpinStart.type: _spin_start,
        ev.WinCapReached.type: _cap,
        ev.FreeSpinsEnd.type: _end,
    },
    wins_beat=_wins,
    rebuild=rebuild_feature,
    status=status_text,
    big_symbols=("BOOK",),
    pictures=("background", "frame", "logo", "card_back"),
)
register_screen("book_of_spells", SCREEN)
