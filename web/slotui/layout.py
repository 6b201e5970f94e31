"""Where things go on the canvas, for any size from phone portrait to desktop."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

__all__ = ["BACKGROUND", "FRAME", "LOGO", "Layout", "Picture", "compute_layout", "fit_size", "text_width", "wrap"]

# The frame artwork is 1000x620 with its window at x 40..960, y 40..580.
FRAME_W, FRAME_H, FRAME_IN_X, FRAME_IN_Y = 1000.0, 620.0, 40.0, 40.0


# Advance widths of the canvas's bold serif (Georgia Bold's, rounded up), in ems: wider than
# what the fallback fonts draw, so that what fits here fits on any screen.
_WIDE = {"M": 1.0, "W": 1.08, "m": 0.92, "w": 0.8, "%": 0.9, "@": 0.95, "●": 0.72, "○": 0.72}
_NARROW = {"I": 0.44, "J": 0.56, "i": 0.33, "l": 0.33, "j": 0.33, "f": 0.4, "t": 0.4, "r": 0.46}
_PUNCT = {" ": 0.27, ".": 0.3, ",": 0.3, ":": 0.33, ";": 0.33, "'": 0.27, "!": 0.36, "·": 0.3, "-": 0.38,
          "−": 0.6, "\u2013": 0.5, "/": 0.45, "(": 0.42, ")": 0.42, "?": 0.58, "×": 0.62, "→": 0.9, "…": 0.9}


def text_width(s: str, size: float) -> float:
    """The width ``s`` takes at ``size`` px in the canvas's bold serif (a little wider than any)."""
    em = 0.0
    for ch in s:
        if ch in _WIDE:
            em += _WIDE[ch]
        elif ch in _NARROW:
            em += _NARROW[ch]
        elif ch in _PUNCT:
            em += _PUNCT[ch]
        elif ch.isdigit():
            em += 0.68
        elif ch.isupper():
            em += 0.78
        elif ch.islower():
            em += 0.58
        else:
            em += 0.8
    return em * size




def fit_size(s: str, size: float, width: float) -> float:
    """``size``, or less so that ``s`` fits in ``width``."""
    w = text_width(s, size)
    return size if w <= width or w <= 0 else size * width / w


def wrap(s: str, size: float, width: float, most: int = 3) -> list[str]:
    """``s`` broken between words into lines that fit ``width`` at ``size`` (at most
    ``most`` lines; the last takes what is left, for the canvas to squeeze)."""
    words = s.split()
    lines: list[str] = []
    line = ""
    for word in words:
        trial = f"{line} {word}" if line else word
        if line and text_width(trial, size) > width and len(lines) < most - 1:
            lines.append(line)
            line = word
        else:
            line = trial
    if line:
        lines.append(line)
    return lines


@dataclass(frozen=True, slots=True)
class Layout:
    """Canvas geometry in device pixels."""

    width: int
    height: int
    cell: float
    reels_x: float
    reels_y: float
    columns: int
    rows: int
    top_y: float
    top_h: float
    frame: tuple[float, float, float, float]

    @property
    def reels_w(self) -> float:
        return self.cell * self.columns

    @property
    def reels_h(self) -> float:
        return self.cell * self.rows

    @property
    def ticker_size(self) -> float:
        """The type size of the message under the reels."""
        return self.cell * 0.17

    @property
    def ticker_y(self) -> float:
        """The baseline of the message under the reels: in the space under the frame where it
        fits there (a phone held upright), else on the frame's lower edge."""
        bottom = self.frame[1] + self.frame[3]
        room = self.height - bottom
        size = self.ticker_size
        if room >= size * 2.2:
            return bottom + min(room / 2, self.cell * 0.5) + size * 0.36
        return self.reels_y + self.reels_h + self.cell * 0.16

    def cell_rect(self, reel: int, row: float) -> tuple[float, float, float, float]:
        return (self.reels_x + reel * self.cell, self.reels_y + row * self.cell, self.cell, self.cell)

    def cell_center(self, reel: int, row: float) -> tuple[float, float]:
        return (self.reels_x + (reel + 0.5) * self.cell, self.reels_y + (row + 0.5) * self.cell)

    def hit(self, x: float, y: float) -> tuple[int, int] | None:
        """The (reel, row) under a point, or None."""
        if not (self.reels_x <= x < self.reels_x + self.reels_w and self.reels_y <= y < self.reels_y + self.reels_h):
            return None
        # A hair of tolerance so that a point exactly on a cell's edge belongs to that cell.
        eps = 1e-9
        return int((x - self.reels_x) / self.cell + eps), int((y - self.reels_y) / self.cell + eps)


def compute_layout(width: int, height: int, columns: int = 5, rows: int = 3) -> Layout:
    """Fit the framed reels and a status band above them into ``width`` x ``height``."""
    if width <= 0 or height <= 0:
        raise ValueError(f"canvas size must be positive, not {width}x{height}")
    top_share = 0.16 if height > width * 0.75 else 0.13
    top_h = height * top_share
    # The frame adds its border around the reels (scale: inner 920x540 of 1000x620).
    border_x = FRAME_IN_X / (FRAME_W - 2 * FRAME_IN_X)
    border_y = FRAME_IN_Y / (FRAME_H - 2 * FRAME_IN_Y)
    avail_w = width * 0.98
    avail_h = (height - top_h) * 0.98
    cell = min(avail_w / (columns * (1 + 2 * border_x)), avail_h / (rows * (1 + 2 * border_y)))
    reels_w, reels_h = cell * columns, cell * rows
    reels_x = (width - reels_w) / 2
    reels_y = top_h + (height - top_h - reels_h) / 2
    fx, fy = reels_w * border_x, reels_h * border_y
    frame = (reels_x - fx, reels_y - fy, reels_w + 2 * fx, reels_h + 2 * fy)
    return Layout(width, height, cell, reels_x, reels_y, columns, rows, 0.0, top_h, frame)


@dataclass(frozen=True, slots=True)
class Picture:
    """A picture a screen draws (``static/games/<id>/<name>.svg``) and the size, in device
    pixels at a layout, that the browser rasterizes it at once (so drawing it is one call)."""

    name: str
    size: Callable[[Layout], tuple[float, float]]
    cover: bool = False
    """Scaled to cover that size keeping its proportions, centred and cropped (a background
    on any screen shape); otherwise stretched to it."""


BACKGROUND = Picture("background", lambda L: (L.width, L.height), cover=True)
FRAME = Picture("frame", lambda L: (L.frame[2], L.frame[3]))
LOGO = Picture("logo", lambda L: (L.top_h * 0.9 * 3.33, L.top_h * 0.9))
