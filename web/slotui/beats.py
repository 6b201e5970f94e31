"""Beats: how each engine event is played back on screen.

`beat_for` maps an event to a `Beat` (an animation with a start, an update that says when
it is done, and `hurry` for quick stop) or applies it at once and returns None. A beat
sees the controller only through `stage.Stage`. Each game registers a `GameScreen` with
its own beats, recovery, words and pages (``web/slotui/<game_id>.py``); the events every
game shares are played here.
"""

from __future__ import annotations

from collections.abc import Callable

from pyengine import events as ev

from .gamble import GambleOverlay
from .overlay import IntroCard
from .stage import Beat, EventHandler, GameScreen, Stage, register_screen, screen_for
from .view import Banner
from .words import number, tr

__all__ = [
    "BannerBeat",
    "Beat",
    "GameScreen",
    "Wait",
    "WinsBeat",
    "add_rebuilder",
    "beat_for",
    "choice",
    "is_info",
    "is_win",
    "rebuild",
    "register",
    "register_screen",
    "screen_for",
    "show_gamble",
    "show_line",
    "symbol_name",
]


def is_win(e: ev.Event) -> bool:
    """A win presented together with the spin's other wins (`Event.category` ``win``)."""
    return e.category == "win"


def is_info(e: ev.Event) -> bool:
    """An event that only carries what to show (already shown when the spin started): a
    win that follows one is presented together with the wins before it."""
    return e.category == "info"


TIERS = ((150, "epic"), (50, "mega"), (15, "big"))
"""The win tiers by the stake multiple they start at; the banner says ``tier.<name>``."""


class Timed(Beat):
    """A beat that holds what it shows for ``ms`` (set in `start`) unless it is hurried.

    Its `update` asks `holding` and, once the hold is over, does what follows; `hurry` ends
    the hold at once (a beat that leaves a pause to read, or does more when hurried, says so
    in its own `hurry`).
    """

    ms = 0.0
    hurried = False

    def holding(self, now: float, longer: float = 0.0) -> bool:
        """Still within the hold (``ms``, and ``longer`` after it) and not hurried."""
        return now - self.t0 < self.ms + longer and not self.hurried

    def update(self, c: Stage, now: float) -> bool:
        return not self.holding(now)

    def hurry(self, c: Stage) -> None:
        self.hurried = True


class Wait(Timed):
    """Nothing but a pause of ``ms``."""

    def __init__(self, ms: float) -> None:
        self.ms = ms


class SpinBeat(Beat):
    def __init__(self, e: ev.Spin) -> None:
        self.e = e

    def start(self, c: Stage, now: float) -> None:
        super().start(c, now)
        v = c.view
        v.highlights = []
        v.line_rows = None
        v.cell_values = {}
        v.clear_reels()
        strips = c.strips.get(self.e.phase) or c.strips["base"]
        if [r.strip for r in v.reels.reels] != strips:
            v.reels.set_strips(strips, [r.stop for r in v.reels.reels])
        v.reels.spin(now, self.e.stops, c.timing)
        c.sound.reel_stops(v.reels.landings())
        if c.screen.spin_started is not None:
            c.screen.spin_started(c, self.e)

    def update(self, c: Stage, now: float) -> bool:
        return not c.view.reels.moving

    def hurry(self, c: Stage) -> None:
        c.view.reels.slam(c.now, c.timing)
        c.sound.slam()


def _positions(e: ev.Event) -> list[tuple[int, int]]:
    if isinstance(e, ev.ExpandedWin):
        return []
    return [(int(r), int(w)) for r, w in getattr(e, "positions", ())]


def symbol_name(c: Stage, symbol: str) -> str:
    return c.screen.symbol(symbol, str(next((s["name"] for s in c.desc["symbols"] if s["id"] == symbol), symbol)))


class WinsBeat(Beat):
    """Show the spin's total, then each win in turn (line drawn, symbols framed, amount)."""

    def __init__(self, wins: list[ev.Event], c: Stage) -> None:
        self.wins = wins
        self.total = sum(int(getattr(w, "win", 0)) for w in wins)
        stake = c.session.bet.total
        self.small = self.total <= stake
        self.tier = next((name for x, name in TIERS if self.total >= x * stake), None)
        self.index = -1
        self.from_win = c.meters.win
        self.hurried = False

    def start(self, c: Stage, now: float) -> None:
        super().start(c, now)
        t = c.timing
        self.count_ms = 0.0 if self.small else t.count_up * (2.5 if self.tier else 1.0)
        self.each_ms = t.line_show * (0.6 if self.small else 1.0)
        v = c.view
        v.highlights = sorted({p for w in self.wins for p in _positions(w)})
        if self.tier:
            v.banner = Banner(
                tr(f"tier.{self.tier}"), c.amount(self.total), now,
                tier=len(TIERS) - [n for _, n in TIERS].index(self.tier),
            )
        c.sound.count_up(self.count_ms)
        c.host.announce(tr(f"say.win.{self.tier or 'plain'}", win=c.fmt(self.total)))

    def update(self, c: Stage, now: float) -> bool:
        elapsed = now - self.t0
        if elapsed < self.count_ms and not self.hurried:
            u = elapsed / self.count_ms
            c.meters.count_to(self.from_win + int(self.total * u))
            return False
        c.meters.count_to(self.from_win + self.total)
        if c.view.banner is not None and self.tier and elapsed > self.count_ms + c.timing.line_show:
            c.view.banner = None
        i = int((elapsed - self.count_ms) // self.each_ms) if self.each_ms > 0 else len(self.wins)
        if self.hurried or i >= len(self.wins):
            show_line(c, None)
            c.view.banner = None
            c.view.highlights = sorted({p for w in self.wins for p in _positions(w)})
            if c.meters.in_feature:
                c.meters.add_feature_win(self.total)
                c.refresh_status()
            return True
        if i != self.index:
            self.index = i
            show_line(c, self.wins[i])
        return False

    def hurry(self, c: Stage) -> None:
        self.hurried = True
        c.sound.hush("tick")


def show_line(c: Stage, w: ev.Event | None) -> None:
    """Draw one win: its line and framed symbols, with its amount."""
    v = c.view
    v.line_rows = None
    v.line_label = ""
    v.line_amount = ""
    if w is None:
        return
    if isinstance(w, ev.LineWin):
        # The line's own win at the end of the line, the total so far under the reels.
        v.line_rows = tuple(c.desc["paylines"][w.line - 1])
        v.line_count = w.count
        v.highlights = _positions(w)
        v.line_amount = c.amount(w.win)
        v.line_label = tr("win.line", line=number(w.line), total=c.amount(c.meters.win))
    elif isinstance(w, ev.ScatterWin):
        v.highlights = _positions(w)
        v.line_label = tr("win.scatters", count=number(w.count), win=c.amount(w.win))
    elif isinstance(w, ev.ExpandedWin):
        v.highlights = [(r, row) for r in w.reels for row in range(c.view.reels.rows)]
        v.line_label = tr("win.expanded", lines=number(w.lines), multiplier=number(w.multiplier), win=c.amount(w.win))
    else:
        v.highlights = _positions(w)
        label = c.screen.win_label
        v.line_label = label(w, c) if label is not None else tr("win.other", win=c.amount(int(getattr(w, "win", 0))))


# -- instant events -------------------------------------------------------------------
def _round_start(e: ev.RoundStart, c: Stage) -> Beat | None:
    c.meters.start_round(e.balance)
    c.scratch.clear()
    jackpot = next((x for x in c.queue if isinstance(x, ev.JackpotWin)), None)
    c.show_jackpot(jackpot.amount if jackpot is not None else None)
    c.view.banner = None
    c.view.highlights = []
    c.view.line_rows = None
    c.host.post("roundStart", {"game": e.game, "stake": e.stake, "balance": e.balance})
    return None


def _round_end(e: ev.RoundEnd, c: Stage) -> Beat | None:
    c.meters.end_round(e.balance, e.win)
    c.view.remove(GambleOverlay)
    c.view.phase = "base"
    c.host.post("roundEnd", {"win": e.win, "balance": e.balance})
    said = tr("say.round_over", win=c.fmt(e.win), balance=c.fmt(e.balance)) if e.win else tr("say.no_win")
    c.host.announce(said)
    c.next_round_in(c.timing.pause * (2 if e.win else 1))
    return None


def _decision(e: ev.DecisionPending, c: Stage) -> Beat | None:
    if c.queue and isinstance(c.queue[0], ev.ChoiceMade):
        return None  # already answered (autoplay): nothing to wait for
    if e.kind == "gamble" and c.view.gamble is None:
        show_gamble(c, c.session.round_win)
    if e.kind == "collect_or_gamble":
        c.host.announce(tr("say.collect_or_gamble", win=c.fmt(c.session.round_win)))
    return None


def show_gamble(c: Stage, win: int) -> GambleOverlay:
    """Put the gamble screen up for ``win`` (the card face down)."""
    c.view.remove(GambleOverlay)
    g = GambleOverlay(c.fmt(win), c.fmt(win * 2))
    c.view.overlays.append(g)
    return g


def choice(e: ev.ChoiceMade, c: Stage) -> Beat | None:
    """The player's choice: Start takes the feature's intro card down; Gamble puts the
    gamble screen up (a game's own handler may do more, then call this)."""
    if e.kind == "feature_start":
        c.view.remove(IntroCard)
    if e.kind == "collect_or_gamble" and e.choice == "gamble":
        win = c.session.round_win if c.session.in_round else c.meters.win
        show_gamble(c, win)
        c.host.announce(tr("say.gamble"))
    return None


class GambleCardBeat(Timed):
    def __init__(self, e: ev.GambleCard) -> None:
        self.e = e

    def start(self, c: Stage, now: float) -> None:
        super().start(c, now)
        g = c.view.gamble
        if g is None:
            g = show_gamble(c, c.meters.win)
        g.card = self.e.card
        g.flipped_at = now
        g.history = [self.e.card, *g.history][:6]
        g.result = tr("gamble.you_win") if self.e.won else tr("gamble.you_lose")
        c.meters.show_win(self.e.win)
        g.win = c.fmt(self.e.win)
        g.potential = c.fmt(self.e.win * 2)
        color = "red" if self.e.color == "red" else "black"
        c.host.announce(tr(f"say.card.{color}.{'won' if self.e.won else 'lost'}", win=c.fmt(self.e.win)))
        self.ms = c.timing.line_show * 0.8

    def update(self, c: Stage, now: float) -> bool:
        if self.holding(now):
            return False
        g = c.view.gamble
        if g is not None and c.queue and not isinstance(c.queue[0], ev.GambleEnd):
            g.card = None
            g.result = ""
        return True


def _gamble_end(e: ev.GambleEnd, c: Stage) -> Beat | None:
    c.meters.show_win(e.win)
    c.view.remove(GambleOverlay)
    if e.reason == "limit":
        c.host.announce(tr("say.gamble_limit"))
    return None


class BannerBeat(Timed):
    """A banner over the reels for ``ms`` (set in `start`), then cleared. ``hurry`` cuts
    it short; ``keep_on_hurry`` leaves a short pause to read it."""

    keep_on_hurry = False

    def update(self, c: Stage, now: float) -> bool:
        if self.holding(now):
            return False
        c.view.banner = None
        self.done(c)
        return True

    def done(self, c: Stage) -> None:
        """What follows once the banner is gone."""

    def hurry(self, c: Stage) -> None:
        if self.keep_on_hurry:
            self.ms = min(self.ms, c.now - self.t0 + c.timing.pause)
        else:
            super().hurry(c)


class JackpotBeat(BannerBeat):
    """The time jackpot dropped: a big banner, the amount added to the win, the pot restarts."""

    keep_on_hurry = True

    def __init__(self, e: ev.JackpotWin) -> None:
        self.e = e

    def start(self, c: Stage, now: float) -> None:
        super().start(c, now)
        amount = self.e.amount
        c.meters.add_jackpot(amount, now)
        c.view.banner = Banner(tr("jackpot.title"), tr("jackpot.you_win", amount=c.fmt(amount)), now, tier=4)
        c.host.post("jackpotWin", {"amount": amount})
        c.host.announce(tr("say.jackpot", amount=c.fmt(amount)))
        self.ms = c.timing.line_show * 2.2

    def done(self, c: Stage) -> None:
        c.show_jackpot(None)


_HANDLERS: dict[str, EventHandler] = {
    ev.RoundStart.type: _round_start,
    ev.RoundEnd.type: _round_end,
    ev.DecisionPending.type: _decision,
    ev.ChoiceMade.type: choice,
    ev.Spin.type: lambda e, c: SpinBeat(e),
    ev.GambleCard.type: lambda e, c: GambleCardBeat(e),
    ev.GambleEnd.type: _gamble_end,
    ev.JackpotWin.type: lambda e, c: JackpotBeat(e),
}


def register(event_type: str, handler: EventHandler) -> None:
    """Play an event type the same way in every game (a game's own beats go in its
    `GameScreen`, which wins over these)."""
    _HANDLERS[event_type] = handler


def beat_for(e: ev.Event, c: Stage) -> Beat | None:
    """The beat that plays ``e`` (None when it applies at once)."""
    screen = c.screen
    if is_win(e):
        wins: list[ev.Event] = [e]
        q = c.queue
        while q:
            if is_win(q[0]):
                wins.append(q.popleft())
            elif is_info(q[0]) and len(q) > 1 and is_win(q[1]):
                info = q.popleft()
                c.sound.event(info)
                handler = screen.handlers.get(info.type) or _HANDLERS.get(info.type)
                if handler is not None:
                    handler(info, c)
            else:
                break
        # A win limit reached by this spin: the meter must not count past what is paid.
        for later in c.queue:
            if isinstance(later, ev.Spin | ev.FreeSpinStart | ev.FreeSpinsEnd | ev.RoundEnd):
                break
            if isinstance(later, ev.WinCapReached):
                c.meters.cap(c.meters.base_win + later.win)
                break
        c.sound.wins(wins, c.session.bet.total)
        if screen.wins_beat is not None:
            return screen.wins_beat(wins, c)
        return WinsBeat(wins, c)
    c.sound.event(e)
    handler = screen.handlers.get(e.type) or _HANDLERS.get(e.type)
    return handler(e, c) if handler is not None else None


_REBUILDERS: list[Callable[[Stage, list[ev.Event]], None]] = []


def add_rebuilder(fn: Callable[[Stage, list[ev.Event]], None]) -> None:
    """A shared feature's recovery (e.g. the pick board), run on the round in play after
    the game's own."""
    _REBUILDERS.append(fn)


def rebuild(c: Stage) -> None:
    """Recovery: show the last settled reels and the state of the round in play."""
    s = c.session
    events = list(s.round_events) if s.in_round else []
    last = s.last_round
    source = events or (list(last.events) if last else [])
    spins = [e for e in source if isinstance(e, ev.Spin)]
    if spins:
        spin = spins[-1]
        strips = c.strips.get(spin.phase) or c.strips["base"]
        c.view.reels.set_strips(strips, list(spin.stops))
    c.show_jackpot(None)
    if not s.in_round:
        c.meters.restore(s.balance, last.win if last else 0)
        if c.screen.rebuild is not None:  # a new session too: the game shows its resting screen
            c.screen.rebuild(c, source)
        return
    c.meters.restore(s.balance, s.round_win)
    if c.screen.rebuild is not None:
        c.screen.rebuild(c, events)
    for fn in _REBUILDERS:
        fn(c, events)
    if c.pending_kind == "gamble":
        cards = [e for e in events if isinstance(e, ev.GambleCard)]
        current = cards[-1].win if cards else s.round_win
        c.meters.show_win(current)
        show_gamble(c, current).history = [e.card for e in reversed(cards)][:6]
