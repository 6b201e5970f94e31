"""Hold and Respin on screen: cash values on prize symbols, the board of held and spinning
cells, the prize ladder above the reels and the respin counter with the running total.

Plain values that the game's beats update, each an overlay that draws itself through the
`Canvas` interface: the board in place of the reels (``View.board``), the ladder in the band
above them (``View.band``) and the counter beside them (``View.on_frame``). Nothing here
knows a particular game: the prize symbol, its empty cell, the ladder's rungs and the noun
for the prizes held come from the game.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from .canvas import Canvas
from .layout import Layout, fit_size, text_width
from .reels import ReelBank
from .timing import clamp01, ease_out_cubic
from .words import number, tr

__all__ = [
    "Cell",
    "HoldGrid",
    "LadderView",
    "RespinCounter",
    "draw_counter",
    "draw_grid",
    "draw_ladder",
    "draw_value",
    "draw_values",
    "panels",
]

Position = tuple[int, int]
Rect = tuple[float, float, float, float]

GOLD = "#ffd24a"
GOLD_HI = "#ffe9a3"
INK = "#f5ecff"
MUTED = "#b7a6de"
DARK = "#2a1606"
POP_MS = 260.0
SPIN_SPEED = 0.018  # symbols per ms in a spinning cell


@dataclass(slots=True)
class Cell:
    """One position of the board. A held cell shows the prize symbol and its value from
    ``spin_until`` on (it pops in then); before that it spins like an empty one."""

    prize: int = 0
    value: str = ""
    held: bool = False
    spin_from: float = 0.0
    spin_until: float = 0.0

    def spinning(self, now: float) -> bool:
        return self.spin_from <= now < self.spin_until

    def shows_prize(self, now: float) -> bool:
        return self.held and now >= self.spin_until


@dataclass(slots=True)
class HoldGrid:
    """The board: every position's cell, the prize symbol and the empty cell's picture."""

    columns: int
    rows: int
    symbol: str
    empty: str
    started: float
    fade_ms: float
    cells: dict[Position, Cell] = field(default_factory=dict)
    glow: Position | None = None  # the cell being collected at the end

    def held(self, now: float) -> list[Position]:
        """The positions that show a prize at ``now``, reel by reel."""
        return sorted(p for p, c in self.cells.items() if c.shows_prize(now))

    def total(self, now: float) -> int:
        return sum(c.prize for c in self.cells.values() if c.shows_prize(now))

    def hides_reels(self, now: float) -> bool:
        return not (self.fade_ms > 0 and now - self.started < self.fade_ms)

    def draw(self, canvas: Canvas, layout: Layout, now: float) -> None:
        draw_grid(canvas, layout, self, now)


@dataclass(slots=True)
class LadderView:
    """The prize ladder: rungs (count, multiplier text, money text), the count reached;
    ``noun`` names what is counted ("PRIZES")."""

    rungs: tuple[tuple[int, str, str], ...]
    noun: str
    count: int = 0
    changed_at: float = -1e9
    paid: int | None = None
    active: bool = True
    """While the bonus runs the next rung to reach pulses."""

    @property
    def lit(self) -> int:
        """How many rungs the count has reached."""
        return sum(1 for n, _, _ in self.rungs if self.count >= n)

    def draw(self, canvas: Canvas, layout: Layout, now: float) -> None:
        draw_ladder(canvas, layout, self, now)


@dataclass(slots=True)
class RespinCounter:
    """Respins left (of ``total``), when they were last reset, the prizes held (``count``
    ``noun``) and their total."""

    left: int
    total: int
    noun: str
    count: int = 0
    collected: str = ""
    label: str = ""
    """The total's label ("": the catalogue's ``respins.total``)."""
    reset_at: float = -1e9

    def draw(self, canvas: Canvas, layout: Layout, now: float) -> None:
        draw_counter(canvas, layout, self, now)


# -- drawing --------------------------------------------------------------------------------
def draw_value(canvas: Canvas, x: float, y: float, cell: float, text: str, *, glow: bool = False) -> None:
    """A cash value on a symbol: gold figures on a dark pill across the symbol's lower part."""
    n = max(len(text), 1)
    size = min(cell * 0.21, cell * 0.84 / (n * 0.56))
    w = min(n * size * 0.58 + size * 0.7, cell * 0.94)
    h = size * 1.38
    cx = x + cell / 2
    cy = y + cell * 0.74
    canvas.fill_rect(cx - w / 2, cy - h / 2, w, h, "rgba(60,30,6,0.88)" if glow else "rgba(12,5,34,0.82)")
    canvas.text(text, cx, cy + size * 0.36, size, GOLD_HI if glow else GOLD)


def draw_values(canvas: Canvas, L: Layout, values: dict[Position, str], reels: ReelBank) -> None:
    """Values on the symbols of reels that have settled (they appear as each reel lands)."""
    for (col, row), text in sorted(values.items()):
        if 0 <= col < len(reels.reels) and not reels.reels[col].moving:
            draw_value(canvas, L.reels_x + col * L.cell, L.reels_y + row * L.cell, L.cell, text)


def _symbol(canvas: Canvas, key: str, x: float, y: float, size: float) -> None:
    if canvas.has_sprite(key):
        canvas.sprite(key, x, y, size, size)
    else:
        canvas.text(key.split(":")[0], x + size / 2, y + size * 0.6, size * 0.22, INK)


def draw_grid(canvas: Canvas, L: Layout, grid: HoldGrid, now: float) -> None:
    """The board in place of the reels (the caller clips to the reel window)."""
    c = L.cell
    fade = clamp01((now - grid.started) / grid.fade_ms) if grid.fade_ms > 0 else 1.0
    pad = c * 0.04
    size = c * 0.92
    empty_blur = f"{grid.empty}:blur" if canvas.has_sprite(f"{grid.empty}:blur") else grid.empty
    full_blur = f"{grid.symbol}:blur" if canvas.has_sprite(f"{grid.symbol}:blur") else grid.symbol
    cells = sorted(grid.cells.items())
    # Empty cells first, under one alpha while the board fades in over the reels: a dark
    # tile each (the gaps between tiles draw the board's grid) and the empty symbol.
    if fade < 1.0:
        canvas.push(alpha=fade)
    for (col, row), cell in cells:
        if not cell.spinning(now) and not cell.shows_prize(now):
            x = L.reels_x + col * c
            y = L.reels_y + row * c
            canvas.fill_rect(x + 2, y + 2, c - 4, c - 4, "rgba(14,6,40,0.86)")
            _symbol(canvas, grid.empty, x + pad, y + pad, size)
    if fade < 1.0:
        canvas.pop()
    for (col, row), cell in cells:
        x = L.reels_x + col * c
        y = L.reels_y + row * c
        if cell.spinning(now):
            canvas.push(clip=(x + 1, y + 1, c - 2, c - 2))
            t = (now - cell.spin_from) * SPIN_SPEED + col * 0.37 + row * 0.61
            k = math.floor(t)
            frac = t - k
            for j, dy in ((k, frac), (k + 1, frac - 1.0)):
                key = full_blur if j % 4 == 0 else empty_blur
                _symbol(canvas, key, x + pad, y + dy * c + pad, size)
            canvas.pop()
        elif cell.shows_prize(now):
            age = now - cell.spin_until
            pop = 1.0 + 0.24 * (1.0 - ease_out_cubic(age / POP_MS)) if age < POP_MS else 1.0
            glow = grid.glow == (col, row)
            if glow or pop > 1.0:
                canvas.fill_rect(x + 2, y + 2, c - 4, c - 4, "rgba(255,200,80,0.34)")
            s = size * pop
            _symbol(canvas, grid.symbol, x + (c - s) / 2, y + (c - s) / 2, s)
            draw_value(canvas, x, y, c, cell.value, glow=glow)


MIN_TEXT_PX = 8.0
"""The smallest text the page's canvas draws (`jscanvas`): a smaller size is drawn at it."""


def draw_ladder(canvas: Canvas, L: Layout, ladder: LadderView, now: float) -> None:
    """The rungs in a row above the reels; reached rungs lit gold, the next one pulsing."""
    n = len(ladder.rungs)
    if n == 0:
        return
    width = min(L.width * 0.96, max(L.frame[2] * 1.25, L.reels_w))
    x0 = (L.width - width) / 2
    gap = width * 0.012
    w = (width - gap * (n - 1)) / n
    h = min(L.top_h * 0.84, w * 0.62)
    y = (L.top_h - h) / 2 + L.top_h * 0.03
    lit = ladder.lit
    flash = clamp01(1.0 - (now - ladder.changed_at) / 700.0)
    pulse = 0.5 + 0.5 * math.sin(now / 180.0)
    wide = w >= h * 2.0
    for i, (count, mult, money) in enumerate(ladder.rungs):
        x = x0 + i * (w + gap)
        reached = i < lit
        paid = ladder.paid == count
        if reached:
            color = "#ffe27a" if paid or (i == lit - 1 and flash > 0.5) else "#f4c040"
            canvas.fill_rect(x, y, w, h, color)
            canvas.stroke_rect(x, y, w, h, "#fff6d0", max(2.0, h * (0.08 if paid else 0.04)))
            ink, sub = DARK, "#5a3408"
        else:
            nxt = i == lit and ladder.active
            canvas.fill_rect(x, y, w, h, f"rgba(70,40,30,{0.55 + 0.3 * pulse:.2f})" if nxt else "rgba(16,7,44,0.88)")
            canvas.stroke_rect(x, y, w, h, GOLD if nxt else "rgba(255,210,74,0.38)", max(1.5, h * 0.035))
            ink, sub = (GOLD, INK) if nxt else ("#d9c9a0", MUTED)
        top = tr("respins.rung_wide" if wide else "respins.rung", n=number(count), noun=ladder.noun, x=mult)
        size = fit_size(top, h * 0.2, w * 0.92)
        if size < max(h * 0.13, MIN_TEXT_PX):  # a narrow rung: the count alone (the noun would not fit)
            top = str(count)
            size = fit_size(top, h * 0.2, w * 0.92)
        canvas.text(top, x + w / 2, y + h * 0.36, size, sub, max_width=w * 0.92)
        canvas.text(money, x + w / 2, y + h * 0.8, fit_size(money, h * 0.32, w * 0.92), ink, max_width=w * 0.92)


def panels(L: Layout) -> tuple[Rect, Rect, bool]:
    """Where the respin counter and the total go: beside the reels when there is room, else
    below them, else (compact, one line each) on the bottom edge of the frame."""
    fx, fy, fw, fh = L.frame
    side = fx
    if side >= L.cell * 1.05:
        w = min(side * 0.82, L.cell * 1.7)
        h = min(L.cell * 1.3, L.reels_h * 0.6)
        y = L.reels_y + L.reels_h / 2 - h / 2
        return (fx / 2 - w / 2, y, w, h), (fx + fw + side / 2 - w / 2, y, w, h), False
    below = L.height - (fy + fh)
    if below >= L.cell * 0.42:
        h = min(below * 0.82, L.cell * 0.85)
        w = L.reels_w * 0.47
        y = fy + fh + (below - h) / 2
        return (L.reels_x, y, w, h), (L.reels_x + L.reels_w - w, y, w, h), False
    h = min(L.cell * 0.3, max(fy + fh - L.reels_y - L.reels_h, 0.0) + L.cell * 0.16)
    w = L.reels_w * 0.36
    y = min(fy + fh - h, L.height - h)
    return (L.reels_x, y, w, h), (L.reels_x + L.reels_w - w, y, w, h), True


def draw_counter(canvas: Canvas, L: Layout, counter: RespinCounter, now: float) -> None:
    """Respins left as dots with the number, and the running total with the prizes held."""
    left_box, right_box, compact = panels(L)
    flash = clamp01(1.0 - (now - counter.reset_at) / 900.0)
    x, y, w, h = left_box
    canvas.fill_rect(x, y, w, h, "rgba(14,6,40,0.9)")
    if flash > 0:
        canvas.fill_rect(x, y, w, h, f"rgba(255,210,74,{0.35 * flash:.2f})")
    canvas.stroke_rect(x, y, w, h, GOLD, max(2.0, h * 0.03))
    if compact:
        # The word on the left, the dots on the right, each in its own part of the panel.
        size = min(h * 0.6, w * 0.1)
        dots_y, dot, label_y = y + h * 0.7, size * 1.1, None
        dots_w = dot * 1.35 * counter.total
        dots_x = x + w * 0.96 - dots_w / 2
        room = dots_x - dots_w / 2 - (x + w * 0.05) - w * 0.03
        said = tr("respins.respins")
        canvas.text(said, x + w * 0.05, y + h * 0.68, fit_size(said, size, room), MUTED, "left", max_width=room)
    else:
        canvas.text(tr("respins.respins"), x + w / 2, y + h * 0.24, min(h * 0.16, w * 0.14), MUTED)
        dots_y, dot, label_y = y + h * 0.62, min(h * 0.3, w / (counter.total * 1.6 + 1)), y + h * 0.9
        dots_x = x + w / 2
    step = dot * 1.35
    start = dots_x - step * (counter.total - 1) / 2
    for i in range(counter.total):
        on = i < counter.left
        canvas.text("●" if on else "○", start + i * step, dots_y, dot, GOLD if on else "rgba(183,166,222,0.55)")
    if label_y is not None:
        canvas.text(tr("respins.left", n=number(counter.left)), x + w / 2, label_y, min(h * 0.15, w * 0.13), INK)

    x, y, w, h = right_box
    canvas.fill_rect(x, y, w, h, "rgba(14,6,40,0.9)")
    canvas.stroke_rect(x, y, w, h, GOLD, max(2.0, h * 0.03))
    text = counter.collected or "0"
    label = counter.label or tr("respins.total")
    if compact:
        size = min(h * 0.6, w * 0.1)
        value_size = fit_size(text, min(h * 0.66, w * 0.8 / max(len(text), 1)), w * 0.45)
        room = w * 0.9 - min(text_width(text, value_size), w * 0.45) - w * 0.04
        canvas.text(label, x + w * 0.05, y + h * 0.68, fit_size(label, size, room), MUTED, "left", max_width=room)
        canvas.text(text, x + w * 0.95, y + h * 0.7, value_size, GOLD, "right", max_width=w * 0.45)
        return
    canvas.text(label, x + w / 2, y + h * 0.24, min(h * 0.16, w * 0.13), MUTED)
    canvas.text(text, x + w / 2, y + h * 0.6, min(h * 0.3, w * 1.55 / max(len(text), 1)), GOLD)
    held = tr("respins.count", n=number(counter.count), noun=counter.noun)
    canvas.text(held, x + w / 2, y + h * 0.9, min(h * 0.15, w * 0.13), INK)
