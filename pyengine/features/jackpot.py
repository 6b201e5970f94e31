"""The time jackpot: a pot fed by a share of every stake that must drop by a deadline.

Local to one player's session in this free-play build. The pot starts at 0 and grows by
``contribution`` x each stake (feature buys do not contribute). On every contributing
spin it drops with probability ``stake / (stake + odds_per_second * seconds_left)``:
more likely with a higher stake and as the deadline nears, and surely once the deadline
is reached. Then a new pot starts with a new deadline. The pot is kept as an exact
fraction of a minor unit; a drop pays its whole minor units and the fraction of a unit
left over (less than one) carries into the next pot, so the jackpot pays out exactly
what it collected. The clock is passed in (milliseconds since the epoch), never read.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from ..errors import SnapshotError
from ..rng import Rng

__all__ = ["DAY_MS", "JackpotRules", "TimeJackpot"]

DAY_MS = 86_400_000


@dataclass(frozen=True, slots=True)
class JackpotRules:
    """``contribution``: share of each stake; the daily deadline is ``deadline_minute``
    minutes after 00:00 UTC, and a pot runs at least ``min_minutes``; ``odds_per_second``
    (minor units per second) sets how slowly the drop chance rises."""

    contribution: Fraction
    deadline_minute: int
    min_minutes: int
    odds_per_second: int

    def deadline_after(self, start_ms: int) -> int:
        """The first daily deadline at least ``min_minutes`` after ``start_ms``."""
        earliest = start_ms + self.min_minutes * 60_000
        d = earliest // DAY_MS * DAY_MS + self.deadline_minute * 60_000
        while d < earliest:
            d += DAY_MS
        return d

    def to_json(self) -> dict[str, Any]:
        return {
            "contribution": str(self.contribution),
            "deadline_minute": self.deadline_minute,
            "min_minutes": self.min_minutes,
            "odds_per_second": self.odds_per_second,
        }


class TimeJackpot:
    """The pot's state: it persists with the session (`to_json` / `from_json`)."""

    __slots__ = ("_contributed", "_den", "_num", "_pot", "deadline_ms", "drops", "paid", "rules", "started_ms")

    def __init__(self, rules: JackpotRules, now_ms: int) -> None:
        self.rules = rules
        # The pot is counted in whole units of 1/den minor unit: integer arithmetic per spin.
        self._num = rules.contribution.numerator
        self._den = rules.contribution.denominator
        self._pot = 0
        self._contributed = 0
        self.paid = 0
        self.drops = 0
        self.started_ms = now_ms
        self.deadline_ms = rules.deadline_after(now_ms)

    def seconds_left(self, now_ms: int) -> int:
        """Whole seconds to the deadline (rounded up; 0 once it is reached)."""
        return max(0, -((now_ms - self.deadline_ms) // 1000))

    def drop_chance(self, stake: int, now_ms: int) -> Fraction:
        """The chance that a spin of ``stake`` at ``now_ms`` wins the pot."""
        left = self.seconds_left(now_ms)
        return Fraction(stake, stake + self.rules.odds_per_second * left) if stake else Fraction(int(left == 0))

    @property
    def pot(self) -> Fraction:
        """The pot, exactly (in minor units)."""
        return Fraction(self._pot, self._den)

    @property
    def contributed(self) -> Fraction:
        """Everything the stakes have put in since the session began (minor units)."""
        return Fraction(self._contributed, self._den)

    def play(self, stake: int, now_ms: int, rng: Rng) -> int:
        """A contributing spin: add its share, then maybe drop; return the amount won (0 if none)."""
        share = stake * self._num
        self._pot += share
        self._contributed += share
        left = self.deadline_ms - now_ms
        if left > 0:
            left = (left + 999) // 1000
            if rng.below(stake + self.rules.odds_per_second * left) >= stake:
                return 0
        amount = self._pot // self._den  # whole minor units; the fraction carries over
        self._pot -= amount * self._den
        self.paid += amount
        self.drops += 1
        self.started_ms = now_ms
        self.deadline_ms = self.rules.deadline_after(now_ms)
        return amount

    @property
    def amount(self) -> int:
        """The pot in whole minor units, as shown to the player."""
        return self._pot // self._den

    def to_json(self) -> dict[str, Any]:
        return {
            "pot": str(self.pot),
            "contributed": str(self.contributed),
            "paid": self.paid,
            "drops": self.drops,
            "started_ms": self.started_ms,
            "deadline_ms": self.deadline_ms,
        }

    @classmethod
    def from_json(cls, rules: JackpotRules, obj: Any) -> TimeJackpot:
        """Rebuild the pot; raise `SnapshotError` if the saved state is not consistent."""
        keys = {"pot", "contributed", "paid", "drops", "started_ms", "deadline_ms"}
        if not isinstance(obj, dict) or set(obj) != keys:
            raise SnapshotError("the saved jackpot is not a jackpot state")
        ints = {}
        for k in ("paid", "drops", "started_ms", "deadline_ms"):
            v = obj[k]
            if not isinstance(v, int) or isinstance(v, bool) or v < 0:
                raise SnapshotError(f"the saved jackpot's {k} must be a non-negative integer, not {v!r}")
            ints[k] = v
        try:
            pot = Fraction(str(obj["pot"]))
            contributed = Fraction(str(obj["contributed"]))
        except (ValueError, ZeroDivisionError):
            raise SnapshotError("the saved jackpot's pot is not a number") from None
        if pot < 0 or contributed != pot + ints["paid"] or ints["deadline_ms"] < ints["started_ms"]:
            raise SnapshotError("the saved jackpot does not add up: paid + pot must equal the contributions")
        j = cls(rules, ints["started_ms"])
        if (pot * j._den).denominator != 1 or (contributed * j._den).denominator != 1:
            raise SnapshotError("the saved jackpot's pot is not a multiple of its contribution unit")
        j._pot = int(pot * j._den)
        j._contributed = int(contributed * j._den)
        j.paid = ints["paid"]
        j.drops = ints["drops"]
        j.deadline_ms = ints["deadline_ms"]
        return j
