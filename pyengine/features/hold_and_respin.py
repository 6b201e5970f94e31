"""Hold and Respin: prize symbols are held while the empty positions respin.

The bonus starts with some positions held (each with its cash prize) and ``respins``
respins. On every respin each empty position independently lands a prize symbol with
probability ``numerator / denominator``; a respin that lands at least one resets the
count to ``respins``. The bonus ends after ``respins`` respins in a row land nothing, or
when every position is held. It pays the held prizes plus the ladder prize for the final
count. Because each empty position lands with the same chance, the count of held
positions and the respins left are a Markov chain (``pyengine.math`` solves it exactly).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass

from ..data import Field
from ..events import HoldAndRespinEnd, HoldAndRespinStart, LadderPrize, Respin
from ..rng import Rng
from ..round import RoundContext

__all__ = ["HoldAndRespinResult", "HoldAndRespinRules", "hold_and_respin"]

Position = tuple[int, int]


@dataclass(frozen=True, slots=True)
class HoldAndRespinRules:
    """Trigger count, respins per reset, the landing chance per empty position and the ladder
    (final count -> multiplier of the total stake)."""

    trigger: int
    respins: int
    numerator: int
    denominator: int
    ladder: Mapping[int, int]

    @classmethod
    def from_field(cls, f: Field, positions: int, *, chance: str = "landing_chance") -> HoldAndRespinRules:
        """The rules from a data section: ``trigger``, ``respins``, the landing chance per
        empty position (the object named ``chance``: ``numerator`` and ``denominator``)
        and the ``ladder`` (final count -> multiplier), checked against ``positions``."""
        land = f.get(chance)
        num = land.get("numerator").as_int(minimum=1)
        den = land.get("denominator").as_int(minimum=1)
        if num >= den:
            raise land.error("the landing chance must be below 1")
        ladder = {}
        for k, v in f.get("ladder").items():
            if not k.isdigit() or not 1 <= int(k) <= positions:
                raise v.error(f"ladder counts must be 1 to {positions}")
            ladder[int(k)] = v.as_int(minimum=1)
        trigger = f.get("trigger").as_int(minimum=1)
        if trigger > positions:
            raise f.get("trigger").error(f"cannot exceed {positions} positions")
        return cls(trigger, f.get("respins").as_int(minimum=1), num, den, ladder)


@dataclass(frozen=True, slots=True)
class HoldAndRespinResult:
    count: int
    respins: int
    cash: int
    ladder: int

    @property
    def win(self) -> int:
        return self.cash + self.ladder


def hold_and_respin(
    ctx: RoundContext,
    rules: HoldAndRespinRules,
    positions: tuple[Position, ...],
    held: dict[Position, int],
    draw_prize: Callable[[Rng], int],
) -> HoldAndRespinResult:
    """Play the bonus from ``held`` (position -> prize, in minor units) over ``positions``."""
    rng = ctx.rng
    start = sorted(held)
    ctx.emit(HoldAndRespinStart(tuple(start), tuple(held[p] for p in start), rules.respins))
    left = rules.respins
    number = 0
    num, den = rules.numerator, rules.denominator
    total = len(positions)
    while left and len(held) < total:
        number += 1
        new_pos: list[Position] = []
        new_prizes: list[int] = []
        for pos in positions:
            if pos not in held and rng.below(den) < num:
                prize = draw_prize(rng)
                held[pos] = prize
                new_pos.append(pos)
                new_prizes.append(prize)
        left = rules.respins if new_pos else left - 1
        ctx.emit(Respin(number, tuple(new_pos), tuple(new_prizes), left, len(held)))
    count = len(held)
    cash = sum(held.values())
    ladder_x = rules.ladder.get(count, 0)
    ladder = ladder_x * ctx.bet.total
    if ladder:
        ctx.emit(LadderPrize(count, ladder_x, ladder))
    ctx.emit(HoldAndRespinEnd(count, number, cash, ladder, cash + ladder))
    return HoldAndRespinResult(count, number, cash, ladder)
