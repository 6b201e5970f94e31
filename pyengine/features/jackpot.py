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

import re
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from ..data import Field
from ..errors import SnapshotError, shown
from ..model import MAX_AMOUNT, MAX_TIME_MS
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

    @classmethod
    def from_field(cls, f: Field) -> JackpotRules:
        """The rules from a game's ``jackpot`` section: ``contribution`` (a share between 0
        and 1), ``deadline_utc_minute``, ``min_minutes`` and ``odds_per_second``."""
        c = f.get("contribution").as_fraction()
        if not 0 < c < 1:
            raise f.get("contribution").error("must be a share between 0 and 1")
        minute = f.get("deadline_utc_minute").as_int(minimum=0)
        if minute >= 1440:
            raise f.get("deadline_utc_minute").error("must be a minute of the day, 0 to 1439")
        return cls(c, minute, f.get("min_minutes").as_int(minimum=1), f.get("odds_per_second").as_int(minimum=1))

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
        """Rebuild the pot; raise `SnapshotError` if the saved state is not one `to_json` writes.

        Every number is bounded (amounts by `MAX_AMOUNT`, times by `MAX_TIME_MS`) and the
        pot is read as the exact fraction `to_json` writes, ``"n"`` or ``"n/d"`` in lowest
        terms, of at most 19 digits each: no exponent, so reading it is cheap.
        """
        keys = {"pot", "contributed", "paid", "drops", "started_ms", "deadline_ms"}
        if not isinstance(obj, dict) or set(obj) != keys:
            raise SnapshotError("the saved jackpot is not a jackpot state")
        ints = {}
        bounds = {"paid": MAX_AMOUNT, "drops": MAX_AMOUNT, "started_ms": MAX_TIME_MS, "deadline_ms": MAX_TIME_MS}
        for k, top in bounds.items():
            v = obj[k]
            if type(v) is not int or not 0 <= v <= top:
                raise SnapshotError(f"the saved jackpot's {k} must be an integer from 0 to {top}, not {shown(v)}")
            ints[k] = v
        pot = _fraction("pot", obj["pot"])
        contributed = _fraction("contributed", obj["contributed"])
        if contributed != pot + ints["paid"]:
            raise SnapshotError("the saved jackpot does not add up: paid + pot must equal the contributions")
        if ints["deadline_ms"] != rules.deadline_after(ints["started_ms"]):
            raise SnapshotError("the saved jackpot's deadline is not the one its start gives")
        j = cls(rules, ints["started_ms"])
        if (pot * j._den).denominator != 1 or (contributed * j._den).denominator != 1:
            raise SnapshotError("the saved jackpot's pot is not a multiple of its contribution unit")
        j._pot = int(pot * j._den)
        j._contributed = int(contributed * j._den)
        j.paid = ints["paid"]
        j.drops = ints["drops"]
        return j


_FRACTION = re.compile(r"(0|[1-9][0-9]{0,18})(?:/([1-9][0-9]{0,18}))?")


def _fraction(name: str, v: Any) -> Fraction:
    """A saved amount: a non-negative fraction as `str(Fraction)` writes it, at most `MAX_AMOUNT`."""
    m = _FRACTION.fullmatch(v) if isinstance(v, str) else None
    if m is None:
        raise SnapshotError(f"the saved jackpot's {name} is not an amount such as '12' or '1237/100', but {shown(v)}")
    x = Fraction(int(m[1]), int(m[2] or 1))
    if str(x) != v or x > MAX_AMOUNT:
        raise SnapshotError(f"the saved jackpot's {name} must be a fraction in lowest terms from 0 to {MAX_AMOUNT}")
    return x
