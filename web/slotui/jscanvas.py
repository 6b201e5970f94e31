"""The canvas on a real 2D context (`JsCanvas`), its ``debug=1`` form that checks where
the words fall (`CheckedCanvas`), and the art rasterised into offscreen canvases."""

from __future__ import annotations

from typing import Any


from slotui import jspage, words
from slotui.jspage import nil
from slotui.layout import Layout, text_width


# -- canvas -------------------------------------------------------------------------------
class JsCanvas:
    """`slotui.canvas.Canvas` on a real 2D context; sprites are offscreen canvases."""

    def __init__(self, el: Any) -> None:
        self.el = el
        self.ctx = el.getContext("2d")
        self.width = int(el.width)
        self.height = int(el.height)
        self.sprites: dict[str, Any] = {}
        self.reset_state()

    def reset_state(self) -> None:
        """Forget the cached context state (after a resize or a restore())."""
        self._fill = ""
        self._stroke = ""
        self._line = -1.0
        self._font = ""
        self._align = ""
        self._blur = -1.0

    # Each property write is a call into JavaScript: only write what changes.
    def _set_fill(self, color: str) -> None:
        if color != self._fill:
            self.ctx.fillStyle = color
            self._fill = color

    def _set_stroke(self, color: str, width: float) -> None:
        if color != self._stroke:
            self.ctx.strokeStyle = color
            self._stroke = color
        if width != self._line:
            self.ctx.lineWidth = width
            self._line = width

    def _set_blur(self, blur: float) -> None:
        if blur != self._blur:
            self.ctx.shadowBlur = blur
            self._blur = blur

    def has_sprite(self, key: str) -> bool:
        return key in self.sprites

    def clear(self, color: str) -> None:
        self._set_blur(0.0)
        self._set_fill(color)
        self.ctx.fillRect(0, 0, self.width, self.height)

    def fill_rect(self, x: float, y: float, w: float, h: float, color: str) -> None:
        self._set_blur(0.0)
        self._set_fill(color)
        self.ctx.fillRect(x, y, w, h)

    def stroke_rect(self, x: float, y: float, w: float, h: float, color: str, width: float) -> None:
        self._set_blur(0.0)
        self._set_stroke(color, width)
        self.ctx.strokeRect(x, y, w, h)

    def sprite(self, key: str, x: float, y: float, w: float, h: float) -> None:
        self._set_blur(0.0)
        self.ctx.drawImage(self.sprites[key], x, y, w, h)

    def polyline(self, points: Any, color: str, width: float) -> None:
        ctx = self.ctx
        ctx.beginPath()
        x0, y0 = points[0]
        ctx.moveTo(x0, y0)
        for x, y in points[1:]:
            ctx.lineTo(x, y)
        self._set_stroke(color, width)
        ctx.lineJoin = "round"
        ctx.shadowColor = color
        self._set_blur(width * 3)
        ctx.stroke()
        ctx.shadowColor = "rgba(0,0,0,0.8)"

    def text(
        self, s: str, x: float, y: float, size: float, color: str, align: str = "center", max_width: float | None = None
    ) -> None:
        ctx = self.ctx
        font = f"700 {max(size, 8):.0f}px Georgia, 'Times New Roman', serif"
        if font != self._font:
            ctx.font = font
            self._font = font
        if align != self._align:
            ctx.textAlign = align
            self._align = align
        self._set_blur(round(size * 0.2))
        self._set_fill(color)
        if max_width is None:
            ctx.fillText(s, x, y)
        else:
            ctx.fillText(s, x, y, max(max_width, 1.0))

    def push(self, alpha: float = 1.0, clip: tuple[float, float, float, float] | None = None) -> None:
        ctx = self.ctx
        ctx.save()
        if alpha < 1.0:
            ctx.globalAlpha = alpha
        if clip is not None:
            ctx.beginPath()
            ctx.rect(*clip)
            ctx.clip()

    def pop(self) -> None:
        self.ctx.restore()
        self.reset_state()


class CheckedCanvas(JsCanvas):
    """A `JsCanvas` that also keeps each frame's calls, each text with the box the browser
    measured for it (``debug=1``): `check` finds what `slotui.textboxes` calls wrong."""

    def __init__(self, el: Any) -> None:
        super().__init__(el)
        self.calls: list[tuple[object, ...]] = []
        self.widest = 0.0
        """The largest ratio of a text's drawn width to `layout.text_width`'s (at most 1 when
        the layouts' reckoning holds for this browser's font)."""

    def clear(self, color: str) -> None:
        self.calls.append(("clear", color))
        super().clear(color)

    def fill_rect(self, x: float, y: float, w: float, h: float, color: str) -> None:
        self.calls.append(("fill_rect", x, y, w, h, color))
        super().fill_rect(x, y, w, h, color)

    def sprite(self, key: str, x: float, y: float, w: float, h: float) -> None:
        self.calls.append(("sprite", key, x, y, w, h))
        super().sprite(key, x, y, w, h)

    def text(
        self, s: str, x: float, y: float, size: float, color: str, align: str = "center", max_width: float | None = None
    ) -> None:
        super().text(s, x, y, size, color, align, max_width)
        m = self.ctx.measureText(s)
        w = float(m.width)
        if len(s) >= 4:  # how the font drawn compares with the width layouts reckon with
            self.widest = max(self.widest, w / max(text_width(s, float(round(max(size, 8)))), 1e-9))
        squeeze = 1.0 if max_width is None or w <= max_width else max(max_width, 1.0) / w
        left, right = float(m.actualBoundingBoxLeft) * squeeze, float(m.actualBoundingBoxRight) * squeeze
        box = (x - left, y - float(m.actualBoundingBoxAscent), x + right, y + float(m.actualBoundingBoxDescent))
        self.calls.append(("text", s, x, y, size, color, align, max_width, box))
        if words.drawn is not None:
            words.drawn.add(s)

    def push(self, alpha: float = 1.0, clip: tuple[float, float, float, float] | None = None) -> None:
        self.calls.append(("push", alpha, clip))
        super().push(alpha, clip)

    def pop(self) -> None:
        self.calls.append(("pop",))
        super().pop()

    def check(self, view: Any, layout: Layout) -> tuple[list[Any], list[str]]:
        """The last frame's texts (`textboxes.TextBox`) and what is wrong with them (``view``
        names the pictures words must leave clear); forget the frame. (The module is imported
        only on a page with ``debug=1``.)"""
        from slotui import textboxes

        calls, self.calls = self.calls, []
        texts, pictures = textboxes.frame_boxes(calls, self.width, self.height, keep_clear=textboxes.kept_clear(view))
        reel_window = textboxes.window(layout)
        return texts, textboxes.problems(texts, pictures, self.width, self.height, scrolling=reel_window)


def prerastered(img: Any, w: int, h: int, *, cover: bool) -> Any:
    """The canvas boot.js rasterised ``img`` into while the runtime downloaded, if it can
    stand for the picture at ``w`` x ``h`` (as large or larger; for a cover, of the same
    proportions), else None."""
    pre = getattr(img, "slotRaster", None)
    if pre is None or nil(pre):
        return None
    pw, ph = int(pre.width), int(pre.height)
    if pw < w or ph < h:
        return None
    if cover and abs(pw * h - ph * w) > 0.01 * pw * h:
        return None
    return pre


RASTERS = {"prerastered": 0, "svg": 0}
"""How many sprites `raster` drew from boot.js's canvases and how many from the SVG itself
(the page's ``slotStudio.rasters``: a browser test reads it)."""


def raster(img: Any, w: float, h: float, *, blur: bool = False, cover: bool = False) -> Any:
    """Draw an image once into an offscreen canvas of the size it will be blitted at
    (with ``cover``, scaled to cover it in its own proportions, centred and cropped, as the
    loading screen draws the background). The pixels boot.js rasterised while the runtime
    downloaded serve when they are large enough: drawing an SVG the first time costs far more
    than scaling pixels."""
    c = jspage.document.createElement("canvas")
    c.width = max(int(w), 1)
    c.height = max(int(h), 1)
    x = c.getContext("2d")
    pre = prerastered(img, c.width, c.height, cover=cover)
    RASTERS["svg" if pre is None else "prerastered"] += 1
    if pre is not None:
        img, cover = pre, False  # a cover was rasterised covering the same proportions
        x.imageSmoothingQuality = "high"
    iw, ih = float(getattr(img, "naturalWidth", 0) or 0), float(getattr(img, "naturalHeight", 0) or 0)
    if cover and iw > 0 and ih > 0:
        scale = max(c.width / iw, c.height / ih)
        dw, dh = iw * scale, ih * scale
        x.drawImage(img, (c.width - dw) / 2, (c.height - dh) / 2, dw, dh)
    elif blur:
        # A vertical motion blur: the symbol smeared along the direction of the spin.
        steps = 7
        x.globalAlpha = 1.6 / steps
        for k in range(steps):
            x.drawImage(img, 0, (k - steps // 2) * h * 0.035, c.width, c.height)
    else:
        x.drawImage(img, 0, 0, c.width, c.height)
    return c
