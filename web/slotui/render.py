"""Drawing the game screen through the `Canvas` interface.

Few calls per frame: one sprite per visible symbol (rendered once into offscreen
canvases by the browser adapter), one for the background and one for the frame. What a
feature shows is drawn by its overlays, at the place `view.View` gives them.
"""

from __future__ import annotations

import math

from .canvas import Canvas
from .holdrespin import draw_value, draw_values
from .layout import LOGO, Layout, fit_size
from .view import View

__all__ = ["draw", "draw_symbol"]

GOLD = "#ffd24a"
INK = "#f5ecff"
PANEL = "#160d2e"
BLUR_SPEED = 0.012  # symbols per ms above which the blurred sprite is used


def draw_symbol(canvas: Canvas, sym: str, x: float, y: float, size: float, *, blur: bool = False) -> None:
    """A symbol's sprite (its motion-blurred one with ``blur``), or its id as text without one."""
    key = f"{sym}:blur" if blur and canvas.has_sprite(f"{sym}:blur") else sym
    if canvas.has_sprite(key):
        canvas.sprite(key, x, y, size, size)
    else:
        canvas.text(sym, x + size / 2, y + size * 0.6, size * 0.32, INK)


def draw(canvas: Canvas, layout: Layout, view: View, now: float, logo: str = LOGO.name) -> None:
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
    for panel in view.on_frame:
        panel.draw(canvas, L, now)
    if view.line_label:
        canvas.text(view.line_label, L.width / 2, L.ticker_y, L.ticker_size, GOLD)
    if view.banner is not None:
        _banner(canvas, L, view, now)
    for overlay in view.overlays:
        overlay.draw(canvas, L, now)


def _top(canvas: Canvas, L: Layout, view: View, logo: str, now: float) -> None:
    """The band above the reels holds one thing: a card's or a board's own title (it writes
    it itself), else the feature's band, else the status line (clear of what sits at the
    band's sides), else the logo."""
    if view.writes_band():
        return
    if view.band is not None:
        view.band.draw(canvas, L, now)
    elif view.status:
        margin = L.width * 0.02
        right = L.width - max(view.band_side(L), margin)
        size = min(L.top_h * 0.3, L.width * 0.035)
        canvas.text(view.status, (margin + right) / 2, L.top_h * 0.67, size, INK, max_width=right - margin)
    elif canvas.has_sprite(logo):
        w, h = LOGO.size(L)
        canvas.sprite(logo, L.width / 2 - h * 1.67, L.top_h * 0.05, w, h)


def _reels(canvas: Canvas, L: Layout, view: View, now: float) -> None:
    canvas.fill_rect(L.reels_x, L.reels_y, L.reels_w, L.reels_h, PANEL)
    c = L.cell
    # One clip for the whole window: columns never overlap, rows spill above and below.
    canvas.push(clip=(L.reels_x, L.reels_y, L.reels_w, L.reels_h))
    board = view.board
    if board is not None:
        if not board.hides_reels(now):
            _window(canvas, L, view, now)  # the reels fade into the board
        board.draw(canvas, L, now)
        canvas.pop()
        return
    _window(canvas, L, view, now)
    if view.cell_values:
        draw_values(canvas, L, view.cell_values, view.reels)
    if view.highlights:
        # Dim the whole window once, then draw the winning symbols again on top.
        canvas.fill_rect(L.reels_x, L.reels_y, L.reels_w, L.reels_h, "rgba(6,2,16,0.55)")
        covering = view.on_reels
        for col, row in view.highlights:
            if 0 <= col < len(view.reels.reels) and not (covering and any(o.covers(col) for o in covering)):
                r = view.reels.reels[col]
                sym = view.form(r.symbol_at(r.stop + row))
                draw_symbol(canvas, sym, L.reels_x + col * c + c * 0.04, L.reels_y + row * c + c * 0.04, c * 0.92)
                text = view.cell_values.get((col, row))
                if text:
                    draw_value(canvas, L.reels_x + col * c, L.reels_y + row * c, c, text, glow=True)
    for o in view.on_reels:
        o.draw(canvas, L, now)
    canvas.pop()


def _window(canvas: Canvas, L: Layout, view: View, now: float) -> None:
    c = L.cell
    forms = view.forms
    for i, reel in enumerate(view.reels.reels):
        x = L.reels_x + i * c
        blur = reel.speed_at(now) > BLUR_SPEED
        for sym, row in reel.visible(view.reels.rows):
            draw_symbol(canvas, forms.get(sym, sym), x + c * 0.04, L.reels_y + row * c + c * 0.04, c * 0.92, blur=blur)


def _highlights(canvas: Canvas, L: Layout, view: View) -> None:
    c = L.cell
    if view.line_rows is not None:
        pts = [L.cell_center(reel, row) for reel, row in enumerate(view.line_rows)]
        pts = [(L.reels_x - c * 0.12, pts[0][1]), *pts, (L.reels_x + L.reels_w + c * 0.12, pts[-1][1])]
        canvas.polyline(pts, view.line_color, max(3.0, c * 0.035))
    for reel, row in view.highlights:
        x, y, w, h = L.cell_rect(reel, row)
        canvas.stroke_rect(x + 3, y + 3, w - 6, h - 6, GOLD, max(3.0, c * 0.03))
    if view.line_rows is not None and view.line_amount and 0 < view.line_count <= len(view.line_rows):
        _line_amount(canvas, L, view.line_count - 1, view.line_rows[view.line_count - 1], view.line_amount)


def _line_amount(canvas: Canvas, L: Layout, reel: int, row: int, text: str) -> None:
    """A line's win on a plate over the lower part of the line's last winning symbol."""
    x, y, w, h = L.cell_rect(reel, row)
    ph = h * 0.26
    py = y + h - ph - h * 0.06
    canvas.fill_rect(x + w * 0.04, py, w * 0.92, ph, "rgba(10,4,26,0.86)")
    canvas.stroke_rect(x + w * 0.04, py, w * 0.92, ph, GOLD, max(1.5, L.cell * 0.012))
    # The amount fits the plate: smaller type for longer amounts ("1,234 COINS").
    size = min(ph * 0.62, w * 0.92 * 1.5 / max(len(text), 1))
    canvas.text(text, x + w / 2, py + ph * 0.5 + size * 0.36, size, GOLD)


def _banner(canvas: Canvas, L: Layout, view: View, now: float) -> None:
    b = view.banner
    assert b is not None
    pulse = 1.0 + 0.04 * math.sin((now - b.started) / 120.0)
    h = L.cell * 1.1
    y = L.reels_y + L.reels_h / 2 - h / 2
    canvas.fill_rect(0, y, L.width, h, "rgba(10,4,26,0.78)")
    room = L.width * 0.94
    size = fit_size(b.title, L.cell * (0.34 + 0.04 * b.tier), room) * pulse
    canvas.text(b.title, L.width / 2, y + h * 0.48, size, GOLD, max_width=room)
    if b.subtitle:
        sub = fit_size(b.subtitle, L.cell * 0.2, room)
        canvas.text(b.subtitle, L.width / 2, y + h * 0.82, sub, INK, max_width=room)
