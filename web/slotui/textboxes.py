"""Where a frame's words landed, and what is wrong with them: text drawn over text, text
cut off by the canvas or by its clip, text written on the game's logo (or on another
picture words must leave clear, as a pick's portraits).

A frame is the list of calls a `canvas.RecordingCanvas` records (or the browser's canvas
with ``debug=1``, which adds each text's measured box). `frame_boxes` follows the calls as
the canvas would: a clip cuts what is drawn inside it, a push's alpha fades it, and a fill
that is nearly opaque hides the words under it (a card dims the screen, a plate carries a
line's win). `problems` names what a player would see as wrong. The same code checks the
CPython walk through every screen of every game and the page in Chromium.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from .layout import LOGO, Layout, text_width

__all__ = ["HIDES", "LOGO_KEY", "TextBox", "frame_boxes", "kept_clear", "problems", "text_box", "window"]

Rect = tuple[float, float, float, float]
"""x0, y0, x1, y1 in device pixels."""

LOGO_KEY = LOGO.name
"""The sprite key of the game's logo."""
HIDES = 0.72
"""A fill at least this opaque hides the words drawn before it, where it covers them."""
OPAQUE = 0.97
"""A fill this opaque hides a picture under it too (one only dimmed still shows)."""
FAINT = 0.35
"""Words drawn fainter than this (a fade's first frames) are not read."""

_DESCENDERS = frozenset("gjpqy,;()Q")


def _extent(s: str, size: float) -> tuple[float, float]:
    """Above and below the baseline (capitals and digits rise 0.72 em; descenders fall 0.22)."""
    return size * 0.74, size * (0.22 if any(ch in _DESCENDERS for ch in s) else 0.03)


@dataclass(frozen=True, slots=True)
class TextBox:
    """One text as drawn: its words, its box, the clip it was drawn in, its opacity, and
    ``seen``, the part of the box the clip lets through (None: nothing)."""

    text: str
    box: Rect
    clip: Rect
    alpha: float
    seen: Rect | None


def kept_clear(view: object) -> frozenset[str]:
    """The pictures no words may cover on ``view`` (a `view.View`): the logo, and what an
    overlay on screen names with ``clear_pictures()`` (a pick's portraits)."""
    keys = {LOGO_KEY}
    for o in (getattr(view, "band", None), getattr(view, "board", None), *getattr(view, "on_reels", ()),
              *getattr(view, "on_frame", ()), *getattr(view, "overlays", ())):
        pictures = getattr(o, "clear_pictures", None)
        if pictures is not None:
            keys.update(pictures())
    return frozenset(keys)


def _meet(a: Rect, b: Rect) -> Rect | None:
    x0, y0, x1, y1 = max(a[0], b[0]), max(a[1], b[1]), min(a[2], b[2]), min(a[3], b[3])
    return (x0, y0, x1, y1) if x0 < x1 and y0 < y1 else None


def _covers(outer: Rect, inner: Rect) -> bool:
    return outer[0] <= inner[0] and outer[1] <= inner[1] and outer[2] >= inner[2] and outer[3] >= inner[3]


_RGBA = re.compile(r"rgba\([^,]+,[^,]+,[^,]+,\s*([0-9.]+)\s*\)")


def _opacity(color: str) -> float:
    m = _RGBA.match(color.replace(" ", ""))
    if m:
        return float(m.group(1))
    if color.startswith("#") and len(color) == 9:
        return int(color[7:9], 16) / 255
    return 0.0 if color == "transparent" else 1.0


Measure = Callable[[str, float], float]


def text_box(s: str, x: float, y: float, size: float, align: str, max_width: float | None,
             measure: Measure = text_width) -> Rect:
    """The box of ``s`` drawn at (``x``, ``y``) (its baseline) at ``size`` px, ``align``ed,
    squeezed to ``max_width`` when it would be wider (as canvas ``fillText`` does)."""
    w = measure(s, max(size, 8))
    if max_width is not None:
        w = min(w, max_width)
    x0 = x - w / 2 if align == "center" else x - w if align == "right" else x
    up, down = _extent(s, max(size, 8))
    return (x0, y - up, x0 + w, y + down)


def frame_boxes(calls: Iterable[Sequence[Any]], width: float, height: float,
                measure: Measure = text_width, keep_clear: Iterable[str] = (LOGO_KEY,)
                ) -> tuple[list[TextBox], list[tuple[str, Rect]]]:
    """The texts still seen at the end of a frame (those a nearly opaque fill drawn after them
    covers are gone) and the boxes of the pictures no words may cover (``keep_clear``: the
    logo; a pick's pictures), from a frame's calls. A text call may carry its measured box
    as its ninth item (the browser's `CheckedCanvas`)."""
    clear_keys = frozenset(keep_clear)
    screen: Rect = (0.0, 0.0, float(width), float(height))
    clips: list[Rect] = [screen]
    alphas: list[float] = [1.0]
    texts: list[TextBox] = []
    pictures: list[tuple[str, Rect]] = []
    for call in calls:
        kind = call[0]
        if kind == "push":
            alpha, clip = call[1], call[2]
            alphas.append(alphas[-1] * float(alpha))
            if clip is not None:
                x, y, w, h = (float(v) for v in clip)
                clips.append(_meet(clips[-1], (x, y, x + w, y + h)) or (0.0, 0.0, 0.0, 0.0))
            else:
                clips.append(clips[-1])
        elif kind == "pop":
            if len(clips) > 1:
                clips.pop()
                alphas.pop()
        elif kind == "text":
            s, x, y, size, _color, align = call[1:7]
            max_width = call[7] if len(call) > 7 else None
            measured = call[8] if len(call) > 8 else None
            if not str(s).strip() or alphas[-1] < FAINT:
                continue
            box = (tuple(measured) if measured is not None
                   else text_box(str(s), float(x), float(y), float(size), str(align),
                                 None if max_width is None else float(max_width), measure))
            texts.append(TextBox(str(s), box, clips[-1], alphas[-1], _meet(box, clips[-1])))
        elif kind == "fill_rect":
            x, y, w, h, color = call[1:6]
            if _opacity(str(color)) * alphas[-1] >= HIDES:
                area = _meet((float(x), float(y), float(x) + float(w), float(y) + float(h)), clips[-1])
                if area is not None:
                    texts = [t for t in texts if t.seen is None or not _covers(area, t.seen)]
                    if _opacity(str(color)) * alphas[-1] >= OPAQUE:  # a dimmed logo is still seen
                        pictures = [(k, r) for k, r in pictures if not _covers(area, r)]
        elif kind == "clear":
            texts, pictures = [], []
        elif kind == "sprite" and call[1] in clear_keys and alphas[-1] >= FAINT:
            x, y, w, h = (float(v) for v in call[2:6])
            seen = _meet((x, y, x + w, y + h), clips[-1])
            if seen is not None:
                pictures.append((str(call[1]), seen))
    return texts, pictures


def problems(texts: Sequence[TextBox], pictures: Sequence[tuple[str, Rect]], width: float, height: float,
             slack: float = 1.0, scrolling: Rect | None = None) -> list[str]:
    """What is wrong with a frame's words, one line each (none: the frame reads right).
    ``slack`` device pixels of touching are allowed. What the clip ``scrolling`` cuts (the
    reel window, where symbols pass through its edges) is not cut off."""
    found: list[str] = []
    for t in texts:
        if t.seen is None:
            continue  # wholly outside its clip (a row scrolled out of the window): not drawn
        x0, y0, x1, y1 = t.box
        if x0 < -slack or y0 < -slack or x1 > width + slack or y1 > height + slack:
            found.append(f"{t.text!r} leaves the canvas {_show(t.box)} (canvas {width:.0f}x{height:.0f})")
        elif not _covers(_grow(t.clip, slack), t.box) and not (scrolling is not None and _near(t.clip, scrolling)):
            found.append(f"{t.text!r} is cut off by its clip {_show(t.clip)}: {_show(t.box)}")
        seen = t.seen
        for key, rect in pictures:
            if _meet(_grow(seen, -slack), rect) is not None:
                found.append(f"{t.text!r} {_show(seen)} is written on the picture {key!r} {_show(rect)}")
                break
    shrunk = [(t, t.seen, _grow(t.seen, -slack)) for t in texts if t.seen is not None]
    shrunk.sort(key=lambda item: item[2][0])
    for i, (a, sa, ra) in enumerate(shrunk):
        for b, sb, rb in shrunk[i + 1:]:
            if rb[0] >= ra[2]:
                break  # sorted by left edge: nothing further right can meet ``a``
            if rb[1] < ra[3] and ra[1] < rb[3]:
                found.append(f"{a.text!r} {_show(sa)} and {b.text!r} {_show(sb)} overlap")
    return found


def window(layout: Layout) -> Rect:
    """The reel window of ``layout``, as the ``scrolling`` clip of `problems`."""
    return (layout.reels_x, layout.reels_y, layout.reels_x + layout.reels_w, layout.reels_y + layout.reels_h)


def _near(a: Rect, b: Rect) -> bool:
    return all(abs(p - q) < 0.5 for p, q in zip(a, b, strict=True))


def _grow(r: Rect, by: float) -> Rect:
    return (r[0] - by, r[1] - by, r[2] + by, r[3] + by)


def _show(r: Rect) -> str:
    return "(" + ", ".join(f"{v:.0f}" for v in r) + ")"
