"""The small drawing interface the client draws through, and a recording fake.

Colours are CSS strings. Images are sprite keys (a symbol id, "background", ...) that
the browser adapter has rendered once into offscreen canvases; drawing a sprite is one
call, because each Python-to-JavaScript call costs tens of microseconds.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

__all__ = ["Canvas", "RecordingCanvas"]

Point = tuple[float, float]


class Canvas(Protocol):
    """What the renderer needs from a 2D canvas (sizes in device pixels)."""

    width: int
    height: int

    def has_sprite(self, key: str) -> bool: ...

    def clear(self, color: str) -> None: ...

    def fill_rect(self, x: float, y: float, w: float, h: float, color: str) -> None: ...

    def stroke_rect(self, x: float, y: float, w: float, h: float, color: str, width: float) -> None: ...

    def sprite(self, key: str, x: float, y: float, w: float, h: float) -> None: ...

    def polyline(self, points: Sequence[Point], color: str, width: float) -> None: ...

    def text(
        self, s: str, x: float, y: float, size: float, color: str, align: str = "center", max_width: float | None = None
    ) -> None:
        """``s`` with its baseline at ``y``, squeezed to ``max_width`` if it would be wider."""
        ...

    def push(self, alpha: float = 1.0, clip: tuple[float, float, float, float] | None = None) -> None: ...

    def pop(self) -> None: ...


class RecordingCanvas:
    """A canvas that records every call, for tests and for counting calls per frame."""

    def __init__(self, width: int = 1000, height: int = 700, sprites: Sequence[str] = ()) -> None:
        self.width = width
        self.height = height
        self.sprites = set(sprites)
        self.calls: list[tuple[object, ...]] = []
        self._depth = 0

    def has_sprite(self, key: str) -> bool:
        return key in self.sprites

    def clear(self, color: str) -> None:
        self.calls.append(("clear", color))

    def fill_rect(self, x: float, y: float, w: float, h: float, color: str) -> None:
        self.calls.append(("fill_rect", x, y, w, h, color))

    def stroke_rect(self, x: float, y: float, w: float, h: float, color: str, width: float) -> None:
        self.calls.append(("stroke_rect", x, y, w, h, color, width))

    def sprite(self, key: str, x: float, y: float, w: float, h: float) -> None:
        self.calls.append(("sprite", key, x, y, w, h))

    def polyline(self, points: Sequence[Point], color: str, width: float) -> None:
        self.calls.append(("polyline", tuple(points), color, width))

    def text(
        self, s: str, x: float, y: float, size: float, color: str, align: str = "center", max_width: float | None = None
    ) -> None:
        self.calls.append(("text", s, x, y, size, color, align, max_width))

    def push(self, alpha: float = 1.0, clip: tuple[float, float, float, float] | None = None) -> None:
        self._depth += 1
        self.calls.append(("push", alpha, clip))

    def pop(self) -> None:
        if self._depth == 0:
            raise AssertionError("pop() without push()")
        self._depth -= 1
        self.calls.append(("pop",))

    # -- test helpers ---------------------------------------------------------------
    def take(self) -> list[tuple[object, ...]]:
        """The calls since the last `take`, and forget them."""
        calls, self.calls = self.calls, []
        return calls

    def texts(self) -> list[str]:
        return [str(c[1]) for c in self.calls if c[0] == "text"]

    def sprites_drawn(self) -> list[str]:
        return [str(c[1]) for c in self.calls if c[0] == "sprite"]
