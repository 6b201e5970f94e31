"""Which of Moon Spell's showcase features a finished round shows (`shown`).

The ids are those of the ``features`` list in the game's exact report
(`pyengine.games.moon_spell.report.showcase_features`), and each agrees with the definition
of its probability there:

* ``moon_cash_3``, ``moon_cash_4``: that many Moons paid their cash prizes on the spin;
* ``hold_and_respin``: Hold and Respin was played (triggered on a spin or bought);
* ``start_5`` ... ``start_10``: it started with that many Moons held;
* ``respins_reset``: at least one new Moon landed in it (every new Moon resets the respins);
* ``ladder``: it ended with 10 or more Moons and the prize ladder paid;
* ``ladder_14``, ``full_screen``: it ended on the top two rungs (14 Moons, all 15);
* ``max_win``: the round's game win (the jackpot apart) reached the max win, capped or
  exactly equal to it.

The time jackpot's drop and the win-size tiers are the shared code's.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from ...events import (
    Event,
    HoldAndRespinEnd,
    HoldAndRespinStart,
    JackpotWin,
    Respin,
    RoundEnd,
    RoundStart,
    WinCapReached,
)
from . import POSITIONS, MoonCashWin, MoonSpell

__all__ = ["Names", "names", "shown"]


@dataclass(frozen=True, slots=True)
class Names:
    """The feature ids by what a round shows: ``cash[k]`` for k Moons paying cash, ``start[k]``
    for a bonus starting with k Moons, ``rungs[n]`` for the top rungs' final counts;
    ``ladder_min`` the smallest count the ladder pays; ``max_win_x`` the cap in total stakes."""

    cash: dict[int, str]
    start: dict[int, str]
    rungs: dict[int, str]
    ladder_min: int
    max_win_x: int


def names(game: MoonSpell) -> Names:
    """The ids for ``game``'s rules (the report's list and `shown` both use them)."""
    full = len(POSITIONS)
    rungs = sorted(game.respin.ladder)[-2:]
    return Names(
        cash={k: f"moon_cash_{k}" for k in game.moon.cash_counts},
        start={k: f"start_{k}" for k in range(game.respin.trigger, full + 1)},
        rungs={n: "full_screen" if n == full else f"ladder_{n}" for n in rungs},
        ladder_min=min(game.respin.ladder),
        max_win_x=game.max_win_x,
    )


@cache
def _names() -> Names:
    from .. import get_game

    game = get_game("moon_spell")
    assert isinstance(game, MoonSpell)
    return names(game)


def shown(events: Sequence[Event]) -> set[str]:
    """The feature ids that one finished round's whole event log ``events`` shows."""
    n = _names()
    out: set[str] = set()
    bonus = False
    capped = False
    total = 0
    jackpot = 0
    win = 0
    for e in events:
        if isinstance(e, Respin):
            if e.positions:
                out.add("respins_reset")
        elif isinstance(e, RoundStart):
            total = e.lines * e.bet_per_line * e.coins  # the total stake (a buy's price is apart)
        elif isinstance(e, MoonCashWin):
            out.add(n.cash[e.count])
        elif isinstance(e, HoldAndRespinStart):
            bonus = True
            out.add("hold_and_respin")
            out.add(n.start[len(e.positions)])
        elif isinstance(e, HoldAndRespinEnd):
            if e.count >= n.ladder_min:
                out.add("ladder")
            rung = n.rungs.get(e.count)
            if rung is not None:
                out.add(rung)
        elif isinstance(e, WinCapReached):
            capped = True
        elif isinstance(e, JackpotWin):
            jackpot += e.amount
        elif isinstance(e, RoundEnd):
            win = e.win
    # Only a bonus can reach the max win (the report checks it): capped, or exactly equal.
    if capped or (bonus and win - jackpot >= n.max_win_x * total):
        out.add("max_win")
    return out
