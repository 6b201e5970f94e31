"""Which of Moonshine's showcase features a finished round shows (`shown`).

The features and their exact odds are the report's ``features``
(`pyengine.games.moonshine.report.features`); this module names their ids and reads a
round's event log for them:

- the Moonshine Bonus (the pick started) and the count of bonus symbols of the base window
  that started it;
- the free spins' multiplier (above the start's), every free spin on the board and the
  whole board opened before a Start block, from the blocks the pick revealed (as the game
  adds them up, `BonusRules.award`);
- 3, 4 or 5 Sheriffs paying in the base spin and five Grandmas on a line of the base spin,
  from its win events.

It reads the log up to the free spins (which show nothing of their own here) and is
pure: the game's rules are read once.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import cast

from ...events import Event, LineWin, PickReveal, ScatterWin, Spin
from . import BonusRules, Moonshine

__all__ = ["BONUS", "FIVE_WILDS", "FULL_BOARD", "MOST_SPINS", "bonus_id", "multiplier_id", "sheriff_id", "shown"]

BONUS = "moonshine_bonus"
"""The Moonshine Bonus, started by any count of bonus symbols."""
MOST_SPINS = "most_spins"
"""Every block that adds a free spin opened before a Start block."""
FULL_BOARD = "full_board"
"""Every block opened before a Start block: the most spins at the most multiplier."""
FIVE_WILDS = "five_grandmas"
"""Five Grandmas on an enabled line of the base spin (her own top pay)."""


def bonus_id(count: int) -> str:
    """The bonus started by ``count`` bonus symbols."""
    return f"bonus_{count}"


def multiplier_id(multiplier: int) -> str:
    """The free spins played at ``multiplier`` (one above the start's)."""
    return f"multiplier_{multiplier}"


def sheriff_id(count: int) -> str:
    """``count`` Sheriffs paying in the base spin."""
    return f"sheriff_{count}"


@dataclass(frozen=True, slots=True)
class _Facts:
    """What the finder needs of the game, read once."""

    rules: BonusRules
    wild: str
    sheriff: str
    reels: int
    low: int
    """The lowest multiplier a bonus starts at (the multiplier ids are for those above)."""


@cache
def _facts() -> _Facts:
    from .. import get_game

    game = cast(Moonshine, get_game("moonshine"))
    rules = game.bonus
    return _Facts(
        rules, game.wild, game.sheriff, len(game.base_reels.strips), min(m for _, m in rules.start.values())
    )


def shown(events: Sequence[Event]) -> set[str]:
    """The ids of the report's ``features`` that one finished round's ``events`` show."""
    facts = _facts()
    out: set[str] = set()
    window: tuple[tuple[str, ...], ...] = ()
    picked: list[str] = []
    started = False
    for e in events:
        kind = e.type
        if kind == "line_win":
            win = cast(LineWin, e)
            if win.symbol == facts.wild and win.count == facts.reels:
                out.add(FIVE_WILDS)
        elif kind == "scatter_win":
            scatter = cast(ScatterWin, e)
            if scatter.symbol == facts.sheriff:
                out.add(sheriff_id(scatter.count))
        elif kind == "spin":
            spin = cast(Spin, e)
            if spin.phase != "base":
                break
            window = spin.window
        elif kind == "pick_start":
            started = True
        elif kind == "pick_reveal":
            picked.append(cast(PickReveal, e).prize)
        elif kind == "free_spins_awarded":
            break
    if started:
        rules = facts.rules
        count = sum(col.count(rules.symbol) for col in window)
        out.add(BONUS)
        out.add(bonus_id(count))
        spins, multiplier = rules.award(count, tuple(picked))
        if multiplier > facts.low:
            out.add(multiplier_id(multiplier))
        most_spins, most_multiplier = rules.most(count)
        if spins == most_spins:
            out.add(MOST_SPINS)
            if multiplier == most_multiplier:
                out.add(FULL_BOARD)
    return out
