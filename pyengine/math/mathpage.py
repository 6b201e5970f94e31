"""The browser's math page (``math.html?game=ID``): the par sheet and the what-if, computed
by this engine inside Pyodide, in a Web Worker (``math-worker.js``), answered as JSON.

The page has no numpy: the worker hands in an FFT written in JavaScript (`use_host_product`,
`pyengine.math.poly`). ``progress(stage, done, total)`` reports what is being computed:
``"report"`` and ``"distribution"`` count polynomial products (``total`` 0: not known in
advance), ``"simulation"`` counts rounds out of ``total``.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Sequence
from typing import Any

from ..data import read_data_file
from ..games import get_game, plugin
from . import poly
from .parsheet import par_sheet
from .rtp import rtp_report
from .whatif import edited_game, parse_edit

__all__ = ["PAGE_ROUNDS", "editor", "sheet", "use_host_product", "what_if_sheet"]

PAGE_ROUNDS = 200_000
"""Rounds the page simulates for the figures a game does not give exactly (fewer than the
command line's million: the browser's Python is slower; the page says how many)."""

Progress = Callable[[str, int, int], None]

_STAGE = ["report"]
"""What the polynomial products the host counts belong to."""


def use_host_product(product: Any, progress: Progress | None = None) -> None:
    """Multiply polynomials with the page's JavaScript ``product(x, y, size)`` (Float64Arrays
    in, a Float64Array out), counting the products in ``progress``."""
    from array import array

    from pyodide.ffi import to_js  # type: ignore[import-not-found]  # only inside Pyodide

    count = [0]

    def host(x: Sequence[float], y: Sequence[float], size: int) -> list[float]:
        # A square (the repeated squaring in `pyengine.math.compound`) crosses over once.
        jx = to_js(array("d", x))
        out = product(jx, jx if y is x else to_js(array("d", y)), size)
        count[0] += 1
        if progress is not None:
            progress(_STAGE[0], count[0], 0)
        got: list[float] = out.to_py().tolist()
        return got

    poly.use(host)


def editor(game_id: str) -> str:
    """What the what-if can change, as JSON: each strip set's reels as symbol counts, the
    symbols with their names, the paytable, and whether the game can be edited."""
    data = read_data_file(f"{game_id}.json").value
    game = get_game(game_id)
    names = {s["id"]: s["name"] for s in game.describe()["symbols"]}
    sets = {}
    for name, reels in data.get("reels", {}).items():
        sets[name] = [{sym: reel.count(sym) for sym in sorted(set(reel), key=reel.index)} for reel in reels]
    return json.dumps({
        "game": game_id,
        "name": game.name,
        "editable": plugin(game_id).build is not None,
        "exact_distribution": bool(plugin(game_id).distribution),
        "symbols": names,
        "strips": sets,
        "paytable": {s: {str(k): v for k, v in pays.items()} for s, pays in data.get("paytable", {}).items()},
    })


def _timed(fn: Callable[[], dict[str, Any]]) -> dict[str, Any]:
    start = time.perf_counter()
    out = fn()
    out["page_seconds"] = time.perf_counter() - start
    return out


def sheet(
    game_id: str, rounds: int | None = None, seed: int = 1, progress: Progress | None = None, mode: str = "base"
) -> str:
    """The par sheet (`pyengine.math.parsheet.par_sheet`) of the game's ``mode`` as JSON,
    simulating ``rounds`` rounds (`PAGE_ROUNDS` when None) where the game gives no exact
    distribution."""
    count = PAGE_ROUNDS if rounds is None else rounds

    def run() -> dict[str, Any]:
        _STAGE[0] = "report"
        report = rtp_report(game_id, mode)
        _STAGE[0] = "distribution"
        done = [0]

        def rounds_done(n: int) -> None:
            done[0] += n
            if progress is not None:
                progress("simulation", done[0], count)

        return par_sheet(game_id, mode, rounds=count, seed=seed, report=report, progress=rounds_done)

    return json.dumps(_timed(run))


def what_if_sheet(game_id: str, edits: Sequence[str], progress: Progress | None = None, mode: str = "base") -> str:
    """The exact RTP report of the game's ``mode`` with ``edits`` (`pyengine.math.whatif`, as
    text), with its par sheet where the game gives its exact distribution, as JSON."""
    parsed = [parse_edit(e) for e in edits]

    def run() -> dict[str, Any]:
        game = edited_game(game_id, parsed)
        _STAGE[0] = "report"
        report = rtp_report(game_id, mode, game=game) | {"edits": [e.text() for e in parsed]}
        _STAGE[0] = "distribution"
        return par_sheet(game_id, mode, report=report, game=game)  # without one where not exact

    if progress is not None:
        progress("report", 0, 0)
    return json.dumps(_timed(run))
