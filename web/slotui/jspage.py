"""The page's JavaScript globals and the small helpers around them, for the browser
adapter's modules (`slotui.browser`, `slotui.jscanvas`, `slotui.page`).

The globals are None until `bind` runs on the page (`slotui.browser.main`): these modules
are imported without a page when the build makes the Python snapshot, and importing them
there must not touch the browser. Read them as ``jspage.window`` (at call time), never
import them by name.
"""

from __future__ import annotations

from typing import Any

from pyodide.ffi import jsnull, to_js  # type: ignore[import-not-found]

__all__ = ["MAX_PIXEL_RATIO", "bind", "js_obj", "mark", "nil", "pixel_ratio", "wall_clock"]

js: Any = None
window: Any = None
document: Any = None
STUDIO: Any = None
PERF: Any = None


def bind() -> None:
    """Bind the page's globals (once the page runs Python)."""
    global js, window, document, STUDIO, PERF
    import js as page_js  # type: ignore[import-not-found]

    js = page_js
    window = js.window
    document = js.document
    STUDIO = window.slotStudio
    PERF = window.performance


MAX_PIXEL_RATIO = 2.0
"""The canvas is drawn at most 2 device pixels per CSS pixel: a phone's 3x screen would
have 2.25 times the pixels to fill on every frame and to rasterise the art into at start-up,
for a difference the eye does not see at arm's length (the loading screen does the same)."""


def pixel_ratio() -> float:
    """Device pixels per CSS pixel of the game's canvas (`MAX_PIXEL_RATIO` at most)."""
    return min(float(window.devicePixelRatio or 1), MAX_PIXEL_RATIO)


def mark(name: str) -> None:
    """Record when a start-up step ended (ms since navigation) in the page's marks (``build.py bench``)."""
    marks = getattr(STUDIO, "marks", None)
    if marks is not None and nil(getattr(marks, name, None)):
        setattr(marks, name, PERF.now())


def wall_clock() -> float:
    """The session's clock: the browser's ``Date.now()`` in seconds (Playwright's ``page.clock`` sets it)."""
    return float(js.Date.now()) / 1000.0


def nil(value: Any) -> bool:
    """JavaScript's null and undefined (Pyodide gives null as ``jsnull``, not None)."""
    return value is None or value is jsnull


def js_obj(d: dict[str, Any]) -> Any:
    return to_js(d, dict_converter=window.Object.fromEntries)
