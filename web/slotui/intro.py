"""A feature's title card over the reels: a title, its symbol, a few lines and, once the
round waits on the player, the prompt to start. Any game's beats may put one up."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import TYPE_CHECKING, Protocol

from .canvas import Canvas
from .layout import Layout, fit_size, wrap
from .overlay import IntroCard
from .render import GOLD, INK, draw_symbol
from .words import tr

if TYPE_CHECKING:
    from .stage import Stage

__all__ = ["FeatureCard", "ask_start"]


class Waits(Protocol):
    """A card that can show the prompt to start (an `IntroCard`)."""

    waiting: bool


def ask_start(card: Waits, c: Stage, message: str) -> bool:
    """Once a feature's card has had its moment: if the round waits on the player's Start
    (and Start was not pressed already), the card shows its prompt and the page says
    ``message``. True if it did."""
    if c.pending_kind != "feature_start" or c.start_requested:
        return False
    card.waiting = True
    c.host.announce(message)
    return True


@dataclass(slots=True)
class FeatureCard(IntroCard):
    """The title card (in ``View.overlays``)."""

    writes_band = True

    title: str
    lines: tuple[str, ...]
    symbol: str | None
    started: float
    waiting: bool = False
    prompt: str | None = None
    """The words under the card while it waits for Start (None: the catalogue's; "": none)."""

    def draw(self, canvas: Canvas, layout: Layout, now: float) -> None:
        """Title, symbol, lines, and the prompt (above the page's Start button, which sits
        over the bottom of the reels)."""
        L = layout
        age = now - self.started
        u = min(max(age / 350.0, 0.0), 1.0)
        canvas.fill_rect(0, 0, L.width, L.height, f"rgba(6,2,18,{0.5 + 0.34 * u:.2f})")
        room_w = L.width * 0.92
        title_size = fit_size(self.title, min(L.top_h * 0.5, L.width * 0.07), room_w)
        canvas.text(self.title, L.width / 2, L.top_h * 0.5 + title_size * 0.45, title_size, GOLD, max_width=room_w)
        line_size = min(L.cell * 0.2, L.width * 0.038)
        shown = [part for line in self.lines for part in wrap(line, line_size, room_w)]
        prompt = tr("intro.press_start") if self.prompt is None else self.prompt
        lines = len(shown) + (1 if self.waiting and prompt else 0)
        # The symbol takes what the lines leave of the upper three quarters of the reel window.
        room = L.reels_h * 0.78 - lines * line_size * 1.5
        size = max(min(room, L.width * 0.4), L.cell * 0.6) * (0.85 + 0.15 * u)
        x = (L.width - size) / 2
        y = L.reels_y + (room - size) / 2
        if self.symbol is not None:
            draw_symbol(canvas, self.symbol, x, y, size)
        line_y = L.reels_y + room + line_size * 1.1
        for i, line in enumerate(shown):
            canvas.text(line, L.width / 2, line_y + i * line_size * 1.5, line_size, INK, max_width=room_w)
        if self.waiting and prompt:
            pulse = 1.0 + 0.05 * math.sin(now / 200.0)
            canvas.text(prompt, L.width / 2, line_y + len(shown) * line_size * 1.5, line_size * pulse, GOLD,
                        max_width=room_w)
