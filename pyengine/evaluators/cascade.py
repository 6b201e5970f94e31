"""Cascades (tumbles): winning symbols vanish, the symbols above fall, new ones drop in.

The refill comes from the reel strip directly above the window: a reel that loses ``k``
symbols moves its strip position up by ``k``, and the ``k`` strip symbols above the old
position drop in on top of the survivors. So the stops the reels landed on fix the whole
cascade, and a cascading spin's value is an exact average over every stop combination.
"""

from __future__ import annotations

from collections.abc import Iterable

from ..model import Window

__all__ = ["positions_of_wins", "refill"]

Position = tuple[int, int]


def refill(
    strips: tuple[tuple[str, ...], ...],
    stops: tuple[int, ...],
    window: Window,
    removed: Iterable[Position],
) -> tuple[tuple[int, ...], Window]:
    """The reels after the symbols at ``removed`` (reel, row) vanished: (new strip
    positions, new window). On each reel the survivors keep their order and fall to the
    bottom; above them come the strip symbols just above the reel's position, in strip
    order. A reel that lost nothing keeps its position and column."""
    gone: dict[int, set[int]] = {}
    for reel, row in removed:
        gone.setdefault(reel, set()).add(row)
    new_stops = list(stops)
    columns = list(window)
    for reel, rows in gone.items():
        strip = strips[reel]
        n = len(strip)
        col = window[reel]
        k = len(rows)
        top = (stops[reel] - k) % n
        survivors = tuple(sym for row, sym in enumerate(col) if row not in rows)
        columns[reel] = tuple(strip[(top + j) % n] for j in range(k)) + survivors
        new_stops[reel] = top
    return tuple(new_stops), tuple(columns)


def positions_of_wins(*groups: Iterable[tuple[Position, ...]]) -> tuple[Position, ...]:
    """Every position of the given wins' position tuples, once each, reel by reel and top
    row first: what a cascade removes."""
    seen: set[Position] = set()
    for group in groups:
        for positions in group:
            seen.update(positions)
    return tuple(sorted(seen))
