"""Scatter wins: a symbol counted anywhere in the window."""

from __future__ import annotations

from collections.abc import Mapping
from ..values import record

from ..model import Window

__all__ = ["ScatterResult", "evaluate_scatter"]


@record
class ScatterResult:
    """``count`` scatters at ``positions``; they pay ``multiplier`` x total bet (maybe 0)."""

    symbol: str
    count: int
    positions: tuple[tuple[int, int], ...]
    multiplier: int


def evaluate_scatter(window: Window, symbol: str, pays: Mapping[int, int]) -> ScatterResult:
    """Count ``symbol`` anywhere in ``window`` and look up its pay."""
    positions: list[tuple[int, int]] = []
    for reel, col in enumerate(window):
        if symbol in col:
            row = col.index(symbol)
            positions.append((reel, row))
            if symbol in col[row + 1 :]:
                positions.extend((reel, r) for r in range(row + 1, len(col)) if col[r] == symbol)
    n = len(positions)
    return ScatterResult(symbol, n, tuple(positions), pays.get(n, 0))
