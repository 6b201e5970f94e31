"""Expanding-symbol wins (free spins where one symbol expands to fill its reels).

When enough reels show the expanding symbol for a win, it fills those reels and pays on
every active line, on non-adjacent reels too. No wild substitutes for it here.
"""

from __future__ import annotations

from ..values import record

from ..model import Paytable, Window

__all__ = ["ExpandedResult", "evaluate_expanding"]


@record
class ExpandedResult:
    """The symbol expanded on ``reels`` and pays ``multiplier`` x bet per line on each line."""

    symbol: str
    reels: tuple[int, ...]
    multiplier: int


def evaluate_expanding(window: Window, symbol: str, paytable: Paytable) -> ExpandedResult | None:
    """The expansion win of ``symbol`` in ``window``, or None when it does not pay."""
    reels = tuple(i for i, col in enumerate(window) if symbol in col)
    multiplier = paytable.pay(symbol, len(reels))
    if multiplier <= 0:
        return None
    return ExpandedResult(symbol, reels, multiplier)
