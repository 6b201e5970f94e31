"""Overlays: what a feature draws over the reels, as a list the renderer walks.

An overlay is any object with ``draw(canvas, layout, now)``; `View.overlays` holds the
ones on screen, drawn in order after the reels, the win lines and the banner. A feature's
beats add and remove their overlay; shared code never needs to know which kinds exist.
"""

from __future__ import annotations

from typing import Protocol

from .canvas import Canvas
from .layout import Layout

__all__ = ["Overlay"]


class Overlay(Protocol):
    """Something drawn over the reels through the `Canvas` interface."""

    def draw(self, canvas: Canvas, layout: Layout, now: float) -> None: ...
