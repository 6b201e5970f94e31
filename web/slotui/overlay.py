"""Overlays: what a feature draws over the reels, as lists the renderer walks.

An overlay is any object with ``draw(canvas, layout, now)``. `View` holds them by where they
are drawn (see `view.View`): in the band above the reels, in place of the reels (a `Board`),
over the settled symbols (a `ReelOverlay`), beside the reels over the frame, or over
everything (``View.overlays``, drawn last, after the reels, the win lines and the banner).
A feature's beats add and remove their overlays; shared code never needs to know which
kinds exist.

An overlay may also say, by attributes the renderer and `textboxes` look for: that it
writes its own title in the band above the reels (``writes_band``: the logo and status
line step aside), how much of the band's right side it takes (``band_side(layout)``: the
status line keeps left of it), and which pictures words must leave clear
(``clear_pictures()``).
"""

from __future__ import annotations

from typing import Protocol

from .canvas import Canvas
from .layout import Layout

__all__ = ["Board", "IntroCard", "Overlay", "ReelOverlay"]


class Overlay(Protocol):
    """Something drawn over the reels through the `Canvas` interface."""

    def draw(self, canvas: Canvas, layout: Layout, now: float) -> None: ...


class Board(Overlay, Protocol):
    """Drawn in the reel window in place of the reels (clipped to the window)."""

    def hides_reels(self, now: float) -> bool:
        """False while the reels still show under the board (it fades in over them)."""
        ...


class ReelOverlay(Overlay, Protocol):
    """Drawn in the reel window over the settled symbols, under the win lines (clipped)."""

    def covers(self, reel: int) -> bool:
        """True when it hides reel ``reel`` whole (its winning symbols are not drawn again)."""
        ...


class IntroCard:
    """The base of a feature's intro over the reels (in ``View.overlays``): it animates until
    ``waiting``, when the round waits for the player's Start."""

    __slots__ = ()
    waiting: bool

    def draw(self, canvas: Canvas, layout: Layout, now: float) -> None:
        raise NotImplementedError
