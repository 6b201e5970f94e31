"""Exact value of a cascading spin: every stop combination, each cascade played out.

Because a cascade refills from the strip above the window, the stops fix everything that
follows; the value of one cascading spin is the average of `play_cascades` over every stop
combination, with the game's own judge. The longest cascade found is returned as well
(a game states it, and its odds, in its par sheet).
"""

from __future__ import annotations

import itertools
from collections import Counter
from dataclasses import dataclass
from fractions import Fraction

from ..features.cascade import CascadeRules, Judge, play_cascades
from ..model import Bet, ReelSet
from ..rng import Rng
from ..round import RoundContext

__all__ = ["CascadeStats", "cascade_stats"]


@dataclass(frozen=True, slots=True)
class CascadeStats:
    """Over every stop combination: the mean win (minor units), the distribution of the
    number of cascades, and the combinations counted."""

    mean_win: Fraction
    cascades: dict[int, int]
    combinations: int

    @property
    def longest(self) -> int:
        return max(self.cascades)


def cascade_stats(reels: ReelSet, rules: CascadeRules, judge: Judge, bet: Bet) -> CascadeStats:
    """Play the cascade from every stop combination of ``reels`` (exhaustive: keep the
    strips short, or split the work) and average it."""
    total = 0
    counts: Counter[int] = Counter()
    n = 0
    ctx = RoundContext(Rng(0), bet, {})
    for stops in itertools.product(*(range(len(s)) for s in reels.strips)):
        ctx.events.clear()
        result = play_cascades(ctx, rules, reels.strips, stops, reels.window(stops), judge)
        total += result.win
        counts[result.cascades] += 1
        n += 1
    return CascadeStats(Fraction(total, n), dict(sorted(counts.items())), n)
