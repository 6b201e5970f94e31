"""Lucky Halloween's test kit (`tests.games`): the event types its rounds bring and its golden rounds."""

from __future__ import annotations

from typing import Any

from pyengine.events import Event

from tests.games import SHARED_EVENT_TYPES
from tests.golden_cases import JACKPOT, Case, Check, loss, types

GAME = "lucky_halloween"

EVENT_TYPES = frozenset(
    (
        *SHARED_EVENT_TYPES[:-2],
        "round_end",
        "scatter_win",
        "rider",
        "rider_symbols",
        "win_multiplier",
        "free_spins_awarded",
        "pick_start",
        "pick_reveal",
        "pick_end",
        "free_spin_start",
        "free_spins_end",
        "ladder_start",
        "ladder_climb",
        "ladder_win",
        "jackpot_win",
    )
)


def _lucky(name: str, stream: int, check: Check, **kw: Any) -> Case:
    return Case(GAME, name, check, stream, 20, 5, **kw)


def _rider(feature: str) -> Check:
    return lambda evs: any(e.type == "rider" and getattr(e, "feature", "") == feature for e in evs)


def _shortcut(evs: list[Event]) -> bool:
    return any(e.type == "ladder_climb" and getattr(e, "landed", 0) != getattr(e, "position", 0) for e in evs)


GOLDEN = [
    _lucky("loss", 300, loss),
    _lucky("line_win", 301, lambda evs: "line_win" in types(evs) and "rider" not in types(evs)),
    _lucky("special_reels", 302, _rider("special_reels")),
    _lucky("pumpkin_tree", 303, lambda evs: _rider("pumpkin_tree")(evs) and "line_win" in types(evs)),
    _lucky("random_wilds", 304, _rider("random_wilds")),
    _lucky("mega_wild", 305, _rider("mega_wild")),
    _lucky("rider_free_spins", 306, _rider("free_spins")),
    _lucky("rider_full_moon_bonus", 307, _rider("full_moon_bonus")),
    _lucky("free_spins", 308, lambda evs: "free_spins_end" in types(evs) and "rider" not in types(evs)),
    _lucky("bonus_spins", 309, _rider("bonus_spins")),
    _lucky("ladder_shortcut", 310, _shortcut),
    _lucky("jackpot", 311, lambda evs: "jackpot_win" in types(evs), jackpot=JACKPOT),
]
