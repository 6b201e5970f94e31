"""Full Moon Fever's test kit (`tests.games`): the event types its rounds bring and its golden rounds."""

from __future__ import annotations

from pyengine.events import Event

from tests.games import SHARED_EVENT_TYPES
from tests.golden_cases import Case, Check, loss, types

GAME = "full_moon_fever"

EVENT_TYPES = frozenset(
    (
        *SHARED_EVENT_TYPES[:-2],
        "round_end",
        "scatter_win",
        "free_spins_awarded",
        "pick_start",
        "pick_reveal",
        "pick_end",
        "free_spin_start",
        "win_multiplier",
        "cascade",
        "free_spins_end",
    )
)


def _fmf(name: str, stream: int, check: Check) -> Case:
    return Case(GAME, name, check, stream, 25, 2)


def _deep_winfalls(evs: list[Event]) -> bool:
    return any(e.type == "cascade" and getattr(e, "number", 0) >= 3 for e in evs)


GOLDEN = [
    _fmf("loss", 300, loss),
    _fmf("line_win", 301, lambda evs: "line_win" in types(evs) and "scatter_win" not in types(evs)),
    _fmf("winfalls", 303, _deep_winfalls),
]
