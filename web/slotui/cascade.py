"""Cascades on screen, for any game whose spins cascade (`pyengine.features.cascade`): the
winners burst, the symbols above fall into the gaps, new symbols drop in from the top,
each winning window's win is counted up, and a multiplier meter shows the ladder.

Everything plays from the shared events: ``win_multiplier`` lights the meter's rung; the
wins of a window that a ``cascade`` follows are one step (`StepBeat`); ``cascade`` bursts
its ``removed`` positions and lets the reels fall onto the ``window`` it carries
(`CascadeBeat`). A game makes one `Cascades` with its multiplier ladder (from its data)
and the reel phases that cascade, and puts its `handlers`, `wins_beat` and `spin_started`
in its `stage.GameScreen`; its recovery calls `Cascades.rebuild`, which brings back the
last window and the meter after a reload.

The board draws one cached symbol sprite per cell; a fall is planned once, when it starts
(each cell's starting row), so a frame allocates nothing and keeps 60 fps.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from pyengine import events as ev

from .beats import WinsBeat, show_line
from .canvas import Canvas
from .layout import Layout
from .render import GOLD, INK, draw_symbol
from .stage import Beat, EventHandler, Stage
from .timing import clamp01, ease_out_back, ease_out_cubic
from .view import View
from .words import number, tr

__all__ = ["CascadeBeat", "CascadeBoard", "Cascades", "MultiplierMeter", "StepBeat", "fall_plan"]

Position = tuple[int, int]
DIM = "rgba(6,2,16,0.55)"
PILL = "#2b1852"
PILL_EDGE = "#7a5cc0"
PULSE_MS = 420.0
STAGGER = 0.12
"""Each reel starts to fall this share of the fall time after the one to its left."""


def fall_plan(rows: int, removed: Sequence[Position], reels: int) -> list[list[float]]:
    """The row each cell of the new window falls from, per reel top to bottom: a survivor
    from its old row (it falls by the number of gaps below it), a new symbol from above the
    window (row -k for the k-th from the bottom of the ones that drop in); a reel that lost
    nothing stays (its rows are their own)."""
    gone: dict[int, set[int]] = {}
    for reel, row in removed:
        gone.setdefault(int(reel), set()).add(int(row))
    plan: list[list[float]] = []
    for reel in range(reels):
        rows_gone = gone.get(reel, set())
        k = len(rows_gone)
        survivors = [r for r in range(rows) if r not in rows_gone]
        column = [float(j - k) for j in range(k)] + [float(r) for r in survivors]
        plan.append(column)
    return plan


@dataclass(slots=True)
class CascadeBoard:
    """The window of a cascading spin, drawn in place of the reels (a `overlay.Board`):
    still, bursting its winners, or falling onto a new window."""

    view: View
    columns: list[list[str]]
    burst: frozenset[Position] = frozenset()
    burst_t0: float = 0.0
    burst_ms: float = 0.0
    start_rows: list[list[float]] = field(default_factory=list)
    """Where each cell falls from (empty: every cell in place)."""
    fall_t0: float = 0.0
    fall_ms: float = 0.0
    step_text: str = ""
    step_t0: float = 0.0

    def feature_stats(self, c: Stage) -> dict[str, Any]:
        """What the page reports of it (``slotStats.feature``): a cascade is being shown."""
        return {"cascading": c.presenting}

    def hides_reels(self, now: float) -> bool:
        return True

    # -- what the beats do --------------------------------------------------------------
    def start_burst(self, removed: Sequence[Position], now: float, ms: float) -> None:
        self.burst = frozenset((int(r), int(w)) for r, w in removed)
        self.burst_t0 = now
        self.burst_ms = ms
        self.start_rows = []

    def start_fall(self, window: Sequence[Sequence[str]], now: float, ms: float) -> None:
        removed = sorted(self.burst)
        self.columns = [list(col) for col in window]
        self.burst = frozenset()
        self.start_rows = fall_plan(len(self.columns[0]) if self.columns else 0, removed, len(self.columns))
        self.fall_t0 = now
        self.fall_ms = ms

    def settle(self, window: Sequence[Sequence[str]]) -> None:
        """Show ``window`` at rest at once."""
        self.columns = [list(col) for col in window]
        self.burst = frozenset()
        self.start_rows = []
        self.fall_ms = 0.0

    def falling(self, now: float) -> bool:
        return bool(self.start_rows) and now - self.fall_t0 < self.fall_ms * (1 + STAGGER * len(self.columns))

    # -- drawing ---------------------------------------------------------------------------
    def draw(self, canvas: Canvas, layout: Layout, now: float) -> None:
        L = layout
        c = L.cell
        forms = self.view.forms
        pad = c * 0.04
        size = c * 0.92
        bursting = bool(self.burst)
        u = clamp01((now - self.burst_t0) / self.burst_ms) if bursting and self.burst_ms > 0 else 1.0
        plan = self.start_rows
        span = self.fall_ms
        for i, col in enumerate(self.columns):
            x = L.reels_x + i * c
            starts = plan[i] if plan else None
            delay = span * STAGGER * i
            for row, sym in enumerate(col):
                key = forms.get(sym, sym)
                if bursting and (i, row) in self.burst:
                    self._burst_cell(canvas, key, x, L.reels_y + row * c, c, u)
                    continue
                y = float(row)
                if starts is not None and span > 0:
                    f = starts[row]
                    if f != row:
                        t = clamp01((now - self.fall_t0 - delay) / span)
                        y = f + (row - f) * ease_out_back(t, 0.7)
                draw_symbol(canvas, key, x + pad, L.reels_y + y * c + pad, size)
        highlights = self.view.highlights
        if highlights and not bursting and not self.falling(now):
            canvas.fill_rect(L.reels_x, L.reels_y, L.reels_w, L.reels_h, DIM)
            for i, row in highlights:
                if 0 <= i < len(self.columns) and 0 <= row < len(self.columns[i]):
                    sym = self.columns[i][row]
                    draw_symbol(canvas, forms.get(sym, sym), L.reels_x + i * c + pad, L.reels_y + row * c + pad, size)
        if self.step_text:
            self._step(canvas, L, now)

    def _burst_cell(self, canvas: Canvas, key: str, x: float, y: float, c: float, u: float) -> None:
        """A winner bursting: it swells, flashes and fades out."""
        grow = 1.0 + 0.35 * ease_out_cubic(u)
        size = c * 0.92 * grow
        off = (c - size) / 2
        canvas.push(alpha=max(0.0, 1.0 - u))
        canvas.fill_rect(x + c * 0.08, y + c * 0.08, c * 0.84, c * 0.84, "rgba(255,210,74,0.35)")
        draw_symbol(canvas, key, x + off, y + off, size)
        canvas.pop()
        if u < 1.0:
            spark = c * (0.1 + 0.45 * u)
            mid_x, mid_y = x + c / 2, y + c / 2
            dot = max(c * 0.05 * (1 - u), 1.0)
            canvas.fill_rect(mid_x - spark - dot / 2, mid_y - dot / 2, dot, dot, GOLD)
            canvas.fill_rect(mid_x + spark - dot / 2, mid_y - dot / 2, dot, dot, GOLD)
            canvas.fill_rect(mid_x - dot / 2, mid_y - spark - dot / 2, dot, dot, GOLD)
            canvas.fill_rect(mid_x - dot / 2, mid_y + spark - dot / 2, dot, dot, GOLD)

    def _step(self, canvas: Canvas, L: Layout, now: float) -> None:
        """The step's win, counted up, in a plate at the middle of the window."""
        pop = 1.0 + 0.12 * (1.0 - ease_out_cubic((now - self.step_t0) / 300.0))
        h = L.cell * 0.42 * pop
        w = min(L.reels_w * 0.62, L.cell * 3.2) * pop
        x = L.reels_x + (L.reels_w - w) / 2
        y = L.reels_y + (L.reels_h - h) / 2
        canvas.fill_rect(x, y, w, h, "rgba(10,4,26,0.82)")
        canvas.stroke_rect(x, y, w, h, GOLD, max(2.0, h * 0.05))
        canvas.text(self.step_text, L.width / 2, y + h * 0.7, h * 0.52, GOLD)


@dataclass(slots=True)
class MultiplierMeter:
    """The band above the reels during a cascading spin (a ``View.band``): the status line
    (e.g. the free-spin counter) over a row of the ladder's rungs, the one in force lit;
    none is lit before the spin's first win (``value`` None)."""

    view: View
    ladder: tuple[int, ...]
    value: int | None = None
    changed_at: float = -1e9
    labels: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        self.labels = tuple(f"×{m}" for m in self.ladder)

    def feature_stats(self, c: Stage) -> dict[str, Any]:
        """What the page reports of it (``slotStats.feature``): the multiplier in force (None before the first win)."""
        return {"multiplier": self.value}

    def draw(self, canvas: Canvas, layout: Layout, now: float) -> None:
        L = layout
        top = L.top_h
        status = self.view.status
        if status:
            canvas.text(status, L.width / 2, top * 0.36, min(top * 0.22, L.width * 0.03), INK)
        n = len(self.ladder)
        if not n:
            return
        h = top * 0.34
        # A band's width less a square at each end (room for a feature's badge there).
        room = max(L.width - 2.0 * top, L.width * 0.5)
        w = min(h * 1.9, room / (n + 0.18 * (n - 1)))
        gap = w * 0.18
        total = n * w + (n - 1) * gap
        x0 = (L.width - total) / 2
        y = top * 0.55
        lit = self.ladder.index(self.value) if self.value in self.ladder else -1
        pulse = 1.0 + 0.22 * (1.0 - clamp01((now - self.changed_at) / PULSE_MS))
        for i, label in enumerate(self.labels):
            x = x0 + i * (w + gap)
            if i == lit:
                grow = (pulse - 1.0) * w * 0.5
                canvas.fill_rect(x - grow / 2, y - grow / 2, w + grow, h + grow, GOLD)
                canvas.text(label, x + w / 2, y + h * 0.72, h * 0.6 * pulse, PILL)
            else:
                canvas.fill_rect(x, y, w, h, PILL if i > lit else "rgba(255,210,74,0.28)")
                canvas.stroke_rect(x, y, w, h, PILL_EDGE, max(1.5, h * 0.05))
                canvas.text(label, x + w / 2, y + h * 0.72, h * 0.55, INK if i > lit else GOLD)


def _board(c: Stage) -> CascadeBoard:
    """The cascade board on screen; put up from the settled reels when there is none."""
    board = c.view.board
    if isinstance(board, CascadeBoard):
        return board
    window = c.view.reels.window()
    new = CascadeBoard(c.view, [list(col) for col in window])
    c.view.board = new
    return new


def _meter(c: Stage) -> MultiplierMeter | None:
    band = c.view.band
    return band if isinstance(band, MultiplierMeter) else None


class StepBeat(WinsBeat):
    """One winning window of a cascade: the spin's wins as usual (winners framed, the win
    meter counting up, each line in turn, only briefer), the step's win also counted up on
    the board with the multiplier in force, and no win-tier banner."""

    def __init__(self, wins: list[ev.Event], c: Stage) -> None:
        super().__init__(wins, c)
        self.tier = None  # the feature's total gets its banner at the end, not each step
        self.prefix = ""

    def start(self, c: Stage, now: float) -> None:
        super().start(c, now)
        t = c.timing
        self.count_ms = t.count_up * 0.7
        self.each_ms = min(t.line_show * 0.4, t.line_show * 1.6 / max(len(self.wins), 1))
        meter = _meter(c)
        self.prefix = f"×{meter.value}  " if meter is not None and meter.value is not None else ""
        board = _board(c)
        board.step_t0 = now
        board.step_text = self.prefix + c.fmt(0)

    def update(self, c: Stage, now: float) -> bool:
        done = super().update(c, now)
        _board(c).step_text = self.prefix + c.fmt(max(min(c.meters.win - self.from_win, self.total), 0))
        return done


class CascadeBeat(Beat):
    """The winners burst; the symbols above fall into the gaps and new ones drop in."""

    def __init__(self, e: ev.Cascade) -> None:
        self.e = e
        self.falling = False

    def start(self, c: Stage, now: float) -> None:
        super().start(c, now)
        board = _board(c)
        board.step_text = ""
        c.view.highlights = []
        show_line(c, None)
        t = c.timing
        self.burst_ms = 0.0 if c.reduced_motion else t.line_show * 0.22
        self.fall_ms = 0.0 if c.reduced_motion else t.stop * 0.75
        self.rest_ms = t.pause * (0.6 if c.reduced_motion else 0.3)
        board.start_burst(self.e.removed, now, self.burst_ms)

    def update(self, c: Stage, now: float) -> bool:
        board = _board(c)
        if not self.falling:
            if now - self.t0 < self.burst_ms:
                return False
            self.falling = True
            self.t1 = now
            if self.fall_ms > 0:
                board.start_fall(self.e.window, now, self.fall_ms)
            else:
                board.settle(self.e.window)
        if board.falling(now):
            return False
        if board.start_rows:
            board.settle(self.e.window)
        return now - self.t1 >= self.rest_ms

    def hurry(self, c: Stage) -> None:
        _board(c).settle(self.e.window)
        self.falling = True
        self.burst_ms = 0.0
        self.t1 = c.now - 1e9


class Cascades:
    """The shared cascade presentation in a game's terms: ``ladder`` gives the multiplier
    ladder from the game's description; ``phases`` are the reel phases whose spins cascade
    (the meter shows on their spins)."""

    def __init__(self, ladder: Callable[[Mapping[str, Any]], Sequence[int]], phases: Sequence[str] = ("free",)) -> None:
        self.ladder = ladder
        self.phases = tuple(phases)

    @property
    def handlers(self) -> dict[str, EventHandler]:
        """The beats of ``win_multiplier`` and ``cascade``, for `stage.GameScreen.handlers`."""
        return {ev.WinMultiplier.type: self._multiplier, ev.Cascade.type: lambda e, c: CascadeBeat(e)}

    def meter(self, c: Stage, value: int | None = None) -> MultiplierMeter:
        """Put the meter up in the band above the reels (``value`` lit; None: unset)."""
        m = MultiplierMeter(c.view, tuple(int(x) for x in self.ladder(c.desc)), value, c.now - 1e6)
        c.view.band = m
        return m

    def spin_started(self, c: Stage, e: ev.Spin) -> None:
        """A spin of a cascading phase starts with the meter unset (`stage.GameScreen.spin_started`)."""
        if e.phase in self.phases:
            self.meter(c)

    def wins_beat(self, wins: list[ev.Event], c: Stage) -> Beat:
        """A winning window that a cascade follows is a `StepBeat`; any other spin's wins
        play as usual (`stage.GameScreen.wins_beat`)."""
        if c.queue and isinstance(c.queue[0], ev.Cascade):
            return StepBeat(wins, c)
        return WinsBeat(wins, c)

    def _multiplier(self, e: ev.WinMultiplier, c: Stage) -> Beat | None:
        meter = _meter(c) or self.meter(c)
        meter.value = e.multiplier
        meter.changed_at = c.now
        c.host.announce(tr("cascade.say_multiplier", x=number(e.multiplier)))
        return None

    def clear(self, c: Stage) -> None:
        """The cascading spins are over: the meter leaves the band."""
        if _meter(c) is not None:
            c.view.band = None

    def rebuild(self, c: Stage, events: Sequence[ev.Event], *, meter: bool = True) -> None:
        """Recovery: the last spin of ``events`` as its cascades left it (the final window on
        the board) and, with ``meter``, the multiplier it reached."""
        last = next((i for i in range(len(events) - 1, -1, -1) if isinstance(events[i], ev.Spin)), None)
        if last is None:
            return
        spin = events[last]
        assert isinstance(spin, ev.Spin)
        if spin.phase not in self.phases:
            return
        after = events[last + 1 :]
        cascades = [e for e in after if isinstance(e, ev.Cascade)]
        values = [e.multiplier for e in after if isinstance(e, ev.WinMultiplier)]
        if cascades:
            c.view.board = CascadeBoard(c.view, [list(col) for col in cascades[-1].window])
        if meter:
            self.meter(c, values[-1] if values else None)
