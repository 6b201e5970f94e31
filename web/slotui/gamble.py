"""The gamble screen: the card (face down, then turned), the stakes and the last cards.

An overlay (`overlay.Overlay`) that the shared gamble beats put up and take down; any game
with the gamble uses it. Its card back is a picture a screen lists in its
`stage.GameScreen.pictures` (`CARD_BACK`, rasterized at the card's size).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .canvas import Canvas
from .layout import Layout, Picture, fit_size
from .words import tr

__all__ = ["CARD_BACK", "GambleOverlay", "card_size"]

GOLD = "#ffd24a"
INK = "#f5ecff"
SUIT = {"H": ("♥", "#e0303c"), "D": ("♦", "#e0303c"), "C": ("♣", "#141018"), "S": ("♠", "#141018")}


HISTORY_SHOWN = 5
"""How many of the last cards drawn the gamble screen shows."""


def card_size(L: Layout) -> tuple[float, float]:
    """The card's width and height at layout ``L``."""
    ch = L.reels_h * 0.8
    return ch * 0.714, ch


CARD_BACK = Picture("card_back", card_size)


@dataclass(slots=True)
class GambleOverlay:
    """The gamble screen: the card, the stakes and the card history."""

    writes_band = True

    win: str
    potential: str
    card: str | None = None  # e.g. "QH" while shown face up
    flipped_at: float = 0.0
    history: list[str] = field(default_factory=list)
    result: str = ""

    def draw(self, canvas: Canvas, layout: Layout, now: float) -> None:
        L = layout
        canvas.fill_rect(0, 0, L.width, L.height, "rgba(6,2,18,0.86)")
        cw, ch = card_size(L)
        x = (L.width - cw) / 2
        y = L.reels_y + (L.reels_h - ch) / 2
        room = L.width * 0.92
        win, potential = tr("gamble.win", win=self.win), tr("gamble.to_win", win=self.potential)
        canvas.text(win, L.width / 2, L.top_h * 0.55, fit_size(win, L.top_h * 0.3, room), INK, max_width=room)
        canvas.text(potential, L.width / 2, L.top_h * 0.92, fit_size(potential, L.top_h * 0.24, room), GOLD,
                    max_width=room)
        if self.card is None:
            if canvas.has_sprite(CARD_BACK.name):
                canvas.sprite(CARD_BACK.name, x, y, cw, ch)
            else:
                canvas.fill_rect(x, y, cw, ch, "#3a1f6e")
        else:
            rank, suit = self.card[:-1], self.card[-1]
            mark, color = SUIT[suit]
            canvas.fill_rect(x, y, cw, ch, "#fbf6ea")
            canvas.stroke_rect(x, y, cw, ch, GOLD, 4)
            canvas.text(rank, x + cw * 0.2, y + ch * 0.16, ch * 0.12, color)
            canvas.text(mark, x + cw / 2, y + ch * 0.62, ch * 0.42, color)
            canvas.text(self.result, L.width / 2, y + ch + L.cell * 0.3, L.cell * 0.3, GOLD)
        # The last cards drawn, small, in the window's lower right corner (clear of the card
        # and inside the canvas at every size).
        step = L.cell * 0.3
        shown = self.history[:HISTORY_SHOWN]  # the newest first
        hx = L.reels_x + L.reels_w - step * HISTORY_SHOWN - L.cell * 0.05
        hy = L.reels_y + L.reels_h - L.cell * 0.44
        for i, card in enumerate(shown):
            mark, color = SUIT[card[-1]]
            cx = hx + i * step
            canvas.fill_rect(cx, hy, step * 0.88, L.cell * 0.38, "#fbf6ea")
            canvas.text(mark, cx + step * 0.44, hy + L.cell * 0.28, L.cell * 0.22, color)
