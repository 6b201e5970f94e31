"""Moon Spell's test kit (`tests.games`): the event types its rounds bring and its golden rounds."""

from __future__ import annotations

from typing import Any

from pyengine.events import Event

from tests.games import SHARED_EVENT_TYPES
from tests.golden_cases import JACKPOT, Case, Check, loss, types

GAME = "moon_spell"

EVENT_TYPES = frozenset(
    (
        *SHARED_EVENT_TYPES,
        "moon_prizes",
        "moon_cash_win",
        "feature_bought",
        "hold_and_respin_start",
        "respin",
        "ladder_prize",
        "hold_and_respin_end",
        "jackpot_win",
    )
)


def _moon(name: str, stream: int, bpl: int, mode: str, check: Check, **kw: Any) -> Case:
    return Case(GAME, name, check, stream, 20, bpl, mode=mode, **kw)


def _bonus_without_ladder(evs: list[Event]) -> bool:
    return "hold_and_respin_end" in types(evs) and "ladder_prize" not in types(evs)


GOLDEN = [
    _moon("loss", 100, 5, "base", lambda evs: loss(evs) and "moon_prizes" in types(evs)),
    _moon("line_win", 101, 5, "base", lambda evs: "line_win" in types(evs) and "moon_prizes" not in types(evs)),
    _moon("moon_cash", 102, 5, "base", lambda evs: "moon_cash_win" in types(evs)),
    _moon("hold_and_respin", 103, 5, "base", lambda evs: "hold_and_respin_end" in types(evs)),
    _moon("buy", 104, 10, "buy", _bonus_without_ladder),
    _moon("buy_ladder", 105, 5, "buy", lambda evs: "ladder_prize" in types(evs)),
    _moon("jackpot", 200, 5, "base", lambda evs: "jackpot_win" in types(evs), jackpot=JACKPOT),
]
