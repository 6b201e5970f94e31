"""What the pick-neutrality tests share: every distinct board of a pick, and the simplest
picking strategies (each game's test adds an adaptive one that reads its own prizes)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator

__all__ = ["Strategy", "distinct_boards", "first", "last"]

Strategy = Callable[[tuple[str, ...], tuple[tuple[int, str], ...]], str]
"""Given the closed cells and what was revealed so far, the cell to open."""


def distinct_boards(prizes: tuple[str, ...]) -> Iterator[tuple[str, ...]]:
    """Every distinct arrangement of the multiset ``prizes`` (each equally likely)."""
    counts = Counter(prizes)
    labels = sorted(counts)
    board: list[str] = []

    def place(n: int) -> Iterator[tuple[str, ...]]:
        if n == 0:
            yield tuple(board)
            return
        for label in labels:
            if counts[label]:
                counts[label] -= 1
                board.append(label)
                yield from place(n - 1)
                board.pop()
                counts[label] += 1

    yield from place(len(prizes))


def first(closed: tuple[str, ...], revealed: tuple[tuple[int, str], ...]) -> str:
    """Always the first closed cell."""
    return closed[0]


def last(closed: tuple[str, ...], revealed: tuple[tuple[int, str], ...]) -> str:
    """Always the last closed cell."""
    return closed[-1]
