"""`record`: the decorator for the engine's hot immutable values (events, wins).

Statically it is ``@dataclass(frozen=True, slots=True)`` (via `dataclass_transform`, so
``mypy --strict`` rejects any assignment to a field). At run time it builds a slotted
dataclass without the frozen ``__setattr__`` guard, whose construction costs a third as
much: a round creates several of these values and the simulator plays tens of thousands
of rounds a second.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TypeVar, dataclass_transform

__all__ = ["record"]

T = TypeVar("T")


@dataclass_transform(frozen_default=True)
def record(cls: type[T]) -> type[T]:
    """Make ``cls`` an immutable-by-contract slotted dataclass."""
    return dataclass(slots=True)(cls)
