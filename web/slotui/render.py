"""Drawing the game screen through the `Canvas` interface.

Few calls per frame: one sprite per visible symbol (rendered once into offscreen
canvases by the browser adapter), one for the background and one for the frame.
"""

from __future__ import annotations

import math

from .canvas import Canvas
from .holdrespin import draw_counter, draw_grid, draw_ladder, draw_value, draw_values
from .layout import Layout
from .view import FeatureIntro, IntroView, View

__all__ = ["draw"]

GOLD = "#ffd24a"
INK = "#f5ecff"
SHADE = "rgba(8,4,20,0.62)"
PANEL = "#160d2e"
SUIT = {"H": ("♥", "#e0303c"), "D": ("♦", "#e0303c"), "C": ("♣", "#141018"), "S": ("♠", "#141018")}
BLUR_SPEED = 0.012  # symbols per ms above which the blurred sprite is used


def _symbol(canvas: Canvas, sym: str, x: float, y: float, size: float, *, blur: bool = False) -> None:
    key = f"{sym}:blur" if blur and canvas.has_sprite(f"{sym}:blur") else sym
    if canvas.has_sprite(key):
        canvas.sprite(key, x, y, size, size)
    else:
        canvas.text(sym, x + size / 2, y + size * 0.6, size * 0.32, INK)


def draw(canvas: Canvas, layout: Layout, view: View, now: float, logo: str = "logo") -> None:
    """Draw one frame of ``view`` at time ``now`` (ms)."""
    L = layout
    if canvas.has_sprite("background"):
        canvas.sprite("background", 0, 0, L.width, L.height)
    else:
        canvas.clear("#0b0618")
    _top(canvas, L, view, logo, now)
    _reels(canvas, L, view, now)
    if view.highlights:
        _highlights(canvas, L, view)
    if canvas.has_sprite("frame"):
        fx, fy, fw, fh = L.frame
        canvas.sprite("frame", fx, fy, fw, fh)
    if view.counter is not None:
        draw_counter(canvas, L, view.counter, now)
    if view.line_label:
        canvas.text(view.line_label, L.width / 2, L.reels_y + L.reels_h + L.cell * 0.16, L.cell * 0.17, GOLD)
    if view.banner is not None:
        _banner(canvas, L, view, now)
    if isinstance(view.intro, FeatureIntro):
        _feature_intro(canvas, L, view.intro, now)
    elif view.intro is not None:
        _intro(canvas, L, view.intro, now)
    if view.gamble is not None:
        _gamble(canvas, L, view, now)
    for overlay in view.overlays:
        overlay.draw(canvas, L, now)


def _top(canvas: Canvas, L: Layout, view: View, logo: str, now: float) -> None:
    cy = L.top_h * 0.55
    if view.ladder is not None:
        draw_ladder(canvas, L, view.ladder, now)
    elif view.status:
        canvas.text(view.status, L.width / 2, cy + L.top_h * 0.12, min(L.top_h * 0.3, L.width * 0.035), INK)
    elif canvas.has_sprite(logo):
        h = L.top_h * 0.9
        canvas.sprite(logo, L.width / 2 - h * 1.67, L.top_h * 0.05, h * 3.33, h)
    if view.expanding is not None:
        size = L.top_h * 0.8
        x = max(L.frame[0], 4.0)
        canvas.fill_rect(x, L.top_h * 0.1, size, size, "rgba(255,210,74,0.18)")
        _symbol(canvas, view.expanding, x, L.top_h * 0.1, size)
        canvas.stroke_rect(x, L.top_h * 0.1, size, size, GOLD, max(2.0, size * 0.04))


def _reels(canvas: Canvas, L: Layout, view: View, now: float) -> None:
    canvas.fill_rect(L.reels_x, L.reels_y, L.reels_w, L.reels_h, PANEL)
    c = L.cell
    # One clip for the whole window: columns never overlap, rows spill above and below.
    canvas.push(clip=(L.reels_x, L.reels_y, L.reels_w, L.reels_h))
    grid = view.grid
    if grid is not None and grid.fade_ms > 0 and now - grid.started < grid.fade_ms:
        _window(canvas, L, view, now)  # the reels fade into the board
    if grid is not None:
        draw_grid(canvas, L, grid, view.reels, now)
        canvas.pop()
        return
    _window(canvas, L, view, now)
    if view.cell_values:
        draw_values(canvas, L, view.cell_values, view.reels)
    if view.highlights:
        # Dim the whole window once, then draw the winning symbols again on top.
        canvas.fill_rect(L.reels_x, L.reels_y, L.reels_w, L.reels_h, "rgba(6,2,16,0.55)")
        for col, row in view.highlights:
            if col not in view.expanded and 0 <= col < len(view.reels.reels):
                r = view.reels.reels[col]
                sym = r.symbol_at(r.stop + row)
                _symbol(canvas, sym, L.reels_x + col * c + c * 0.04, L.reels_y + row * c + c * 0.04, c * 0.92)
                text = view.cell_values.get((col, row))
                if text:
                    draw_value(canvas, L.reels_x + col * c, L.reels_y + row * c, c, text, glow=True)
    if view.expanding is not None:
        for i, grow in view.expanded.items():
            x = L.reels_x + i * c
            h = L.reels_h * (0.3 + 0.7 * grow)
            canvas.fill_rect(x, L.reels_y + (L.reels_h - h) / 2, c, h, "rgba(40,16,70,0.92)")
            size = min(c, h) * 0.96
            _symbol(canvas, view.expanding, x + (c - size) / 2, L.reels_y + (L.reels_h - size) / 2, size)
            canvas.stroke_rect(x + 2, L.reels_y + (L.reels_h - h) / 2 + 2, c - 4, h - 4, GOLD, 3)
    canvas.pop()


def _window(canvas: Canvas, L: Layout, view: View, now: float) -> None:
    c = L.cell
    for i, reel in enumerate(view.reels.reels):
        x = L.reels_x + i * c
        blur = reel.speed_at(now) > BLUR_SPEED
        for sym, row in reel.visible(view.reels.rows):
            _symbol(canvas, sym, x + c * 0.04, L.reels_y + row * c + c * 0.04, c * 0.92, blur=blur)


def _highlights(canvas: Canvas, L: Layout, view: View) -> None:
    c = L.cell
    if view.line_rows is not None:
        pts = [L.cell_center(reel, row) for reel, row in enumerate(view.line_rows)]
        pts = [(L.reels_x - c * 0.12, pts[0][1]), *pts, (L.reels_x + L.reels_w + c * 0.12, pts[-1][1])]
        canvas.polyline(pts, view.line_color, max(3.0, c * 0.035))
    for reel, row in view.highlights:
        x, y, w, h = L.cell_rect(reel, row)
        canvas.stroke_rect(x + 3, y + 3, w - 6, h - 6, GOLD, max(3.0, c * 0.03))


def _banner(canvas: Canvas, L: Layout, view: View, now: float) -> None:
    b = view.banner
    assert b is not None
    pulse = 1.0 + 0.04 * math.sin((now - b.started) / 120.0)
    h = L.cell * 1.1
    y = L.reels_y + L.reels_h / 2 - h / 2
    canvas.fill_rect(0, y, L.width, h, "rgba(10,4,26,0.78)")
    size = L.cell * (0.34 + 0.04 * b.tier) * pulse
    canvas.text(b.title, L.width / 2, y + h * 0.48, size, GOLD)
    if b.subtitle:
        canvas.text(b.subtitle, L.width / 2, y + h * 0.82, L.cell * 0.2, INK)


def _intro(canvas: Canvas, L: Layout, intro: IntroView, now: float) -> None:
    canvas.fill_rect(0, 0, L.width, L.height, "rgba(6,2,18,0.82)")
    size = min(L.reels_h * 0.95, L.width * 0.5)
    x = (L.width - size) / 2
    y = L.reels_y + (L.reels_h - size) / 2
    canvas.text(f"{intro.spins} FREE SPINS", L.width / 2, L.top_h * 0.75, L.top_h * 0.42, GOLD)
    if canvas.has_sprite("BOOK"):
        canvas.sprite("BOOK", x, y, size, size)
    # The pages turn fast, then slower, and stop on the chosen symbol.
    elapsed = now - intro.started
    if intro.symbol is None or elapsed < intro.settle_ms:
        u = min(elapsed / max(intro.settle_ms, 1.0), 1.0) if intro.symbol else 0.0
        steps = int(26 * (1 - (1 - u) ** 2)) if intro.symbol else int(elapsed / 90)
        shown = intro.candidates[steps % len(intro.candidates)] if intro.candidates else "?"
        if intro.symbol is not None and u >= 0.999:
            shown = intro.symbol
    else:
        shown = intro.symbol
    s = size * 0.46
    canvas.fill_rect(x + (size - s) / 2 - 6, y + size * 0.26 - 6, s + 12, s + 12, "rgba(255,236,190,0.9)")
    _symbol(canvas, shown, x + (size - s) / 2, y + size * 0.26, s)
    label_y = y + size + L.cell * 0.22
    canvas.text("EXPANDING SYMBOL", L.width / 2, min(label_y, L.height - L.cell * 0.3), L.cell * 0.2, INK)
    if intro.waiting:
        canvas.text("PRESS START", L.width / 2, min(label_y + L.cell * 0.3, L.height - 8), L.cell * 0.2, GOLD)


def _gamble(canvas: Canvas, L: Layout, view: View, now: float) -> None:
    g = view.gamble
    assert g is not None
    canvas.fill_rect(0, 0, L.width, L.height, "rgba(6,2,18,0.86)")
    ch = L.reels_h * 0.8
    cw = ch * 0.714
    x = (L.width - cw) / 2
    y = L.reels_y + (L.reels_h - ch) / 2
    canvas.text(f"GAMBLE WIN {g.win}", L.width / 2, L.top_h * 0.55, L.top_h * 0.3, INK)
    canvas.text(f"GAMBLE TO WIN {g.potential}", L.width / 2, L.top_h * 0.92, L.top_h * 0.24, GOLD)
    if g.card is None:
        if canvas.has_sprite("card_back"):
            canvas.sprite("card_back", x, y, cw, ch)
        else:
            canvas.fill_rect(x, y, cw, ch, "#3a1f6e")
    else:
        rank, suit = g.card[:-1], g.card[-1]
        mark, color = SUIT[suit]
        canvas.fill_rect(x, y, cw, ch, "#fbf6ea")
        canvas.stroke_rect(x, y, cw, ch, GOLD, 4)
        canvas.text(rank, x + cw * 0.2, y + ch * 0.16, ch * 0.12, color)
        canvas.text(mark, x + cw / 2, y + ch * 0.62, ch * 0.42, color)
        canvas.text(g.result, L.width / 2, y + ch + L.cell * 0.3, L.cell * 0.3, GOLD)
    hx = L.reels_x + L.reels_w - L.cell * 0.45 * 6
    for i, card in enumerate(g.history):
        mark, color = SUIT[card[-1]]
        cx = hx + i * L.cell * 0.45
        canvas.fill_rect(cx, L.reels_y + L.reels_h + 4, L.cell * 0.4, L.cell * 0.5, "#fbf6ea")
        canvas.text(mark, cx + L.cell * 0.2, L.reels_y + L.reels_h + L.cell * 0.38, L.cell * 0.28, color)


def _feature_intro(canvas: Canvas, L: Layout, intro: FeatureIntro, now: float) -> None:
    """A feature's title card: title, its symbol, the lines, and the prompt (above the
    page's Start button, which sits over the bottom of the reels)."""
    age = now - intro.started
    u = min(max(age / 350.0, 0.0), 1.0)
    canvas.fill_rect(0, 0, L.width, L.height, f"rgba(6,2,18,{0.5 + 0.34 * u:.2f})")
    title_size = min(L.top_h * 0.5, L.width * 0.07)
    canvas.text(intro.title, L.width / 2, L.top_h * 0.5 + title_size * 0.45, title_size, GOLD)
    line_size = min(L.cell * 0.2, L.width * 0.038)
    lines = len(intro.lines) + (1 if intro.waiting and intro.prompt else 0)
    # The symbol takes what the lines leave of the upper three quarters of the reel window.
    room = L.reels_h * 0.78 - lines * line_size * 1.5
    size = max(min(room, L.width * 0.4), L.cell * 0.6) * (0.85 + 0.15 * u)
    x = (L.width - size) / 2
    y = L.reels_y + (room - size) / 2
    if intro.symbol is not None:
        _symbol(canvas, intro.symbol, x, y, size)
    line_y = L.reels_y + room + line_size * 1.1
    for i, line in enumerate(intro.lines):
        canvas.text(line, L.width / 2, line_y + i * line_size * 1.5, line_size, INK)
    if intro.waiting and intro.prompt:
        pulse = 1.0 + 0.05 * math.sin(now / 200.0)
        canvas.text(intro.prompt, L.width / 2, line_y + len(intro.lines) * line_size * 1.5, line_size * pulse, GOLD)
