"""Moonshine's test kit (`tests.games`): the event types its rounds bring and its golden rounds."""

from __future__ import annotations

from pyengine.events import Event

from tests.games import SHARED_EVENT_TYPES
from tests.golden_cases import Case, Check, has, loss, shown, types

GAME = "moonshine"

EVENT_TYPES = frozenset(
    (
        *SHARED_EVENT_TYPES[:-2],
        "round_end",
        "scatter_win",
        "pick_start",
        "pick_reveal",
        "pick_end",
        "free_spins_awarded",
        "free_spin_start",
        "win_multiplier",
        "free_spins_end",
    )
)


def _shine(name: str, stream: int, lines: int, bpl: int, coins: int, check: Check) -> Case:
    return Case(GAME, name, check, stream, lines, bpl, coins=coins)


def _multiplied_free_win(evs: list[Event]) -> bool:
    """The bonus reached 2x or more and a free spin paid at it."""
    kinds = types(evs)
    raised = [i for i, e in enumerate(evs) if e.type == "win_multiplier" and getattr(e, "multiplier", 1) >= 2]
    return bool(raised) and "line_win" in kinds[raised[0] :]


GOLDEN = [
    _shine("loss", 300, 25, 2, 1, loss),
    _shine("grandma", 301, 25, 2, 1, has("line_win", symbol="GRANDMA")),
    _shine("sheriff", 302, 25, 5, 2, lambda evs: has("scatter_win")(evs) and "pick_start" not in types(evs)),
    _shine("coins", 303, 9, 20, 5, has("line_win", count=4)),
    _shine("bonus", 304, 25, 1, 3, _multiplied_free_win),
    _shine("bonus_four", 305, 25, 2, 1, lambda evs: "pick_start" in types(evs) and shown(evs, "BONUS") == 4),
]
