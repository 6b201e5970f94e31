"""`record`: the decorator for the engine's hot immutable values (events, wins).

Statically it is ``@dataclass(frozen=True, slots=True)`` (via `dataclass_transform`, so
``mypy --strict`` rejects any assignment to a field). At run time it builds a slotted
dataclass without the frozen ``__setattr__`` guard, whose construction costs a third as
much: a round creates several of these values and the simulator plays tens of thousands
of rounds a second.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TypeVar, dataclass_transform

__all__ = ["json_depth", "record"]

# A string runs to its closing quote, or to the end of the text when it has none: a pattern
# that had to find the closing quote would scan the rest of the text from every quote of an
# unclosed run of them (quadratic: 48,000 characters of escaped quotes took 15 s).
_STRINGS = re.compile(r'"(?:[^"\\]|\\.)*"?')
_NOT_BRACKETS = re.compile(r"[^\[\]{}]+")


def json_depth(text: str) -> int:
    """How deeply arrays and objects nest in the JSON ``text`` (0 for a scalar), read
    without parsing it: a parser recurses once per level, and in the browser a few
    thousand levels exhaust the stack before Python can raise `RecursionError`. Linear in
    the length of the text, whatever it holds (an unclosed string ends the text)."""
    brackets = _NOT_BRACKETS.sub("", _STRINGS.sub("", text))
    depth = deepest = 0
    for ch in brackets:
        if ch in "[{":
            depth += 1
            if depth > deepest:
                deepest = depth
        else:
            depth -= 1
    return deepest

T = TypeVar("T")


@dataclass_transform(frozen_default=True)
def record(cls: type[T]) -> type[T]:
    """Make ``cls`` an immutable-by-contract slotted dataclass."""
    return dataclass(slots=True)(cls)
