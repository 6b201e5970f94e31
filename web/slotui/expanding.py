"""An expanding symbol on screen: the symbol shown above the reels while a feature has one,
its reels filling with it, and the beat that plays a spin's wins with its expansion.

Any game whose feature expands a symbol (`pyengine.events.ExpandedWin`) uses these.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pyengine import events as ev

from .beats import WinsBeat, show_line, symbol_name
from .canvas import Canvas
from .layout import Layout
from .render import GOLD, draw_symbol
from .stage import Beat, Stage
from .words import number, tr

__all__ = ["ExpandedReels", "ExpandingSymbol", "ExpansionBeat", "wins_beat"]


@dataclass(slots=True)
class ExpandingSymbol:
    """The feature's expanding symbol in a box at the left of the band above the reels
    (in ``View.overlays``, for the whole feature)."""

    symbol: str

    def draw(self, canvas: Canvas, layout: Layout, now: float) -> None:
        L = layout
        size = L.top_h * 0.8
        x = max(L.frame[0], 4.0)
        canvas.fill_rect(x, L.top_h * 0.1, size, size, "rgba(255,210,74,0.18)")
        draw_symbol(canvas, self.symbol, x, L.top_h * 0.1, size)
        canvas.stroke_rect(x, L.top_h * 0.1, size, size, GOLD, max(2.0, size * 0.04))


@dataclass(slots=True)
class ExpandedReels:
    """The reels the symbol fills (in ``View.on_reels``): each grows from the middle to the
    whole reel as its value in ``grow`` goes from 0 to 1."""

    symbol: str
    grow: dict[int, float] = field(default_factory=dict)

    def covers(self, reel: int) -> bool:
        return reel in self.grow

    def draw(self, canvas: Canvas, layout: Layout, now: float) -> None:
        L = layout
        c = L.cell
        for i, grow in self.grow.items():
            x = L.reels_x + i * c
            h = L.reels_h * (0.3 + 0.7 * grow)
            canvas.fill_rect(x, L.reels_y + (L.reels_h - h) / 2, c, h, "rgba(40,16,70,0.92)")
            size = min(c, h) * 0.96
            draw_symbol(canvas, self.symbol, x + (c - size) / 2, L.reels_y + (L.reels_h - size) / 2, size)
            canvas.stroke_rect(x + 2, L.reels_y + (L.reels_h - h) / 2 + 2, c - 4, h - 4, GOLD, 3)


class ExpansionBeat(Beat):
    """Regular wins first; then the expanding symbol fills its reels and pays every line."""

    def __init__(self, regular: list[ev.Event], expanded: list[ev.Event], c: Stage) -> None:
        self.regular = WinsBeat(regular, c) if regular else None
        self.expanded = [e for e in expanded if isinstance(e, ev.ExpandedWin)]
        self.stage = 0
        self.hurried = False
        self.grow_ms = 0.0

    def start(self, c: Stage, now: float) -> None:
        super().start(c, now)
        if self.regular is not None:
            self.regular.start(c, now)
        else:
            self.stage = 1

    def update(self, c: Stage, now: float) -> bool:
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
            c.view.remove(ExpandedReels)
            self.reels = ExpandedReels(e.symbol)
            c.view.on_reels.append(self.reels)
            name = symbol_name(c, e.symbol)
            c.host.announce(tr("expanding.say", name=name, count=number(e.count), lines=number(e.lines)))
        if self.stage == 2:
            e = self.expanded[0]
            u = min((now - self.t_expand) / self.grow_ms, 1.0) if self.grow_ms > 0 else 1.0
            self.reels.grow = {r: u for r in e.reels}
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

    def hurry(self, c: Stage) -> None:
        self.hurried = True
        if self.regular is not None:
            self.regular.hurry(c)
        if self.stage == 2:
            self.grow_ms = 0.0
        if self.stage == 3:
            self.wins.hurry(c)


def wins_beat(wins: list[ev.Event], c: Stage) -> Beat:
    """A spin's wins: the regular ones, then the expansion (its own beat) when it has one
    (a `stage.GameScreen.wins_beat`)."""
    expanded: list[ev.Event] = [w for w in wins if isinstance(w, ev.ExpandedWin)]
    if expanded:
        return ExpansionBeat([w for w in wins if not isinstance(w, ev.ExpandedWin)], expanded, c)
    return WinsBeat(wins, c)
