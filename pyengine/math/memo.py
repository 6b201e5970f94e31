"""One computed value kept for the game object last asked about: a game's exact report and
its exact distribution both need the same expensive tables, and a what-if (an edited copy,
`pyengine.math.whatif`) is another object, so it never sees the published game's."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Generic, TypeVar

__all__ = ["LastFor"]

T = TypeVar("T")


class LastFor(Generic[T]):
    """``compute(game, lines)``, computed once for the game object (by identity) and lines
    last asked about."""

    def __init__(self, compute: Callable[[Any, int], T]) -> None:
        self.compute = compute
        self._kept: tuple[Any, int, T] | None = None

    def __call__(self, game: Any, lines: int) -> T:
        kept = self._kept
        if kept is not None and kept[0] is game and kept[1] == lines:
            return kept[2]
        value = self.compute(game, lines)
        self._kept = (game, lines, value)
        return value
