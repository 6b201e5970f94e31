"""The typed events of a round (documented in ``docs/events.md``).

A round is a list of these events. Each event is an immutable value that converts to a
JSON object (``{"type": ..., fields...}``) and back; `dumps` gives the canonical JSON
form used for golden replays and for byte-for-byte comparison between CPython and Pyodide.
"""

from __future__ import annotations

import json
from dataclasses import fields
from typing import Any, ClassVar

from .errors import SnapshotError
from .values import record

__all__ = [
    "ChoiceMade",
    "DecisionPending",
    "Event",
    "ExpandedWin",
    "ExpandingSymbolChosen",
    "FeatureBought",
    "FreeSpinStart",
    "FreeSpinsAwarded",
    "FreeSpinsEnd",
    "GambleCard",
    "GambleEnd",
    "HoldAndRespinEnd",
    "HoldAndRespinStart",
    "JackpotWin",
    "LadderPrize",
    "LineWin",
    "MoonCashWin",
    "MoonPrizes",
    "Respin",
    "RoundEnd",
    "RoundStart",
    "ScatterWin",
    "Spin",
    "WinCapReached",
    "dumps",
    "event_from_json",
    "events_from_json",
]

Position = tuple[int, int]
"""(reel, row), both 0-based."""


@record
class Event:
    """Base class: every event has a ``type`` name."""

    type: ClassVar[str] = "event"

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.type}
        for f in fields(self):
            out[f.name] = _plain(getattr(self, f.name))
        return out


def _plain(value: Any) -> Any:
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    return value


def _frozen(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_frozen(v) for v in value)
    return value


@record
class RoundStart(Event):
    """A round began: the stake was taken from the balance."""

    type: ClassVar[str] = "round_start"
    game: str
    seed: int
    lines: int
    bet_per_line: int
    stake: int
    balance: int


@record
class Spin(Event):
    """The reels stopped. ``phase`` is ``base`` or ``free``; ``window`` is per reel, top first."""

    type: ClassVar[str] = "spin"
    phase: str
    stops: tuple[int, ...]
    window: tuple[tuple[str, ...], ...]


@record
class LineWin(Event):
    """A win on a line: ``count`` symbols from the left; pays ``multiplier`` x bet per line."""

    type: ClassVar[str] = "line_win"
    line: int
    symbol: str
    count: int
    positions: tuple[Position, ...]
    multiplier: int
    win: int


@record
class ScatterWin(Event):
    """A scatter win anywhere on the reels; pays ``multiplier`` x total bet."""

    type: ClassVar[str] = "scatter_win"
    symbol: str
    count: int
    positions: tuple[Position, ...]
    multiplier: int
    win: int


@record
class FreeSpinsAwarded(Event):
    """Free spins were won (``retrigger`` when won during free spins); ``total`` now to play."""

    type: ClassVar[str] = "free_spins_awarded"
    count: int
    total: int
    retrigger: bool


@record
class ExpandingSymbolChosen(Event):
    """The Book chose the expanding symbol for the whole feature."""

    type: ClassVar[str] = "expanding_symbol_chosen"
    symbol: str


@record
class DecisionPending(Event):
    """The round waits for the player: one of ``choices`` for a decision of ``kind``."""

    type: ClassVar[str] = "decision_pending"
    kind: str
    choices: tuple[str, ...]


@record
class ChoiceMade(Event):
    """The player (or autoplay) answered the pending decision."""

    type: ClassVar[str] = "choice_made"
    kind: str
    choice: str


@record
class FreeSpinStart(Event):
    """Free spin ``number`` of ``total`` (the total grows on a retrigger)."""

    type: ClassVar[str] = "free_spin_start"
    number: int
    total: int


@record
class ExpandedWin(Event):
    """The expanding symbol filled ``reels`` and paid on every active line."""

    type: ClassVar[str] = "expanded_win"
    symbol: str
    reels: tuple[int, ...]
    count: int
    lines: int
    multiplier: int
    win: int


@record
class WinCapReached(Event):
    """The wins became higher than the limit ``cap``: the limit is paid (``win``) and the feature ends."""

    type: ClassVar[str] = "win_cap_reached"
    cap: int
    win: int


@record
class FreeSpinsEnd(Event):
    """The free spins ended after ``spins`` spins with ``win`` in total."""

    type: ClassVar[str] = "free_spins_end"
    spins: int
    win: int
    capped: bool


@record
class GambleCard(Event):
    """A gamble card was turned, e.g. ``card`` "QH": hearts/diamonds red, clubs/spades black."""

    type: ClassVar[str] = "gamble_card"
    guess: str
    card: str
    color: str
    won: bool
    win: int


@record
class GambleEnd(Event):
    """Gambling ended: ``reason`` is ``collect``, ``lost`` or ``limit``."""

    type: ClassVar[str] = "gamble_end"
    reason: str
    win: int


@record
class MoonPrizes(Event):
    """Moons are on the reels: each at ``positions`` carries the cash prize in ``prizes``."""

    type: ClassVar[str] = "moon_prizes"
    positions: tuple[Position, ...]
    prizes: tuple[int, ...]


@record
class MoonCashWin(Event):
    """3 or 4 Moons anywhere pay their combined prize ``win``."""

    type: ClassVar[str] = "moon_cash_win"
    count: int
    positions: tuple[Position, ...]
    win: int


@record
class FeatureBought(Event):
    """The player bought the feature for ``price`` (``multiplier`` x the total stake)."""

    type: ClassVar[str] = "feature_bought"
    feature: str
    multiplier: int
    price: int


@record
class HoldAndRespinStart(Event):
    """Hold and Respin began with the Moons at ``positions`` held, and ``respins`` respins."""

    type: ClassVar[str] = "hold_and_respin_start"
    positions: tuple[Position, ...]
    prizes: tuple[int, ...]
    respins: int


@record
class Respin(Event):
    """Respin ``number``: new Moons landed at ``positions`` (maybe none); ``respins_left``
    after it (back to the full count when a Moon landed); ``moons`` now held."""

    type: ClassVar[str] = "respin"
    number: int
    positions: tuple[Position, ...]
    prizes: tuple[int, ...]
    respins_left: int
    moons: int


@record
class LadderPrize(Event):
    """The prize ladder paid ``multiplier`` x the total stake for ending with ``moons`` Moons."""

    type: ClassVar[str] = "ladder_prize"
    moons: int
    multiplier: int
    win: int


@record
class HoldAndRespinEnd(Event):
    """Hold and Respin ended with ``moons`` Moons: their ``cash`` plus the ``ladder`` prize."""

    type: ClassVar[str] = "hold_and_respin_end"
    moons: int
    respins: int
    cash: int
    ladder: int
    win: int


@record
class JackpotWin(Event):
    """The time jackpot dropped: ``amount`` is credited (no multiplier applies to it)."""

    type: ClassVar[str] = "jackpot_win"
    amount: int


@record
class RoundEnd(Event):
    """The round finished: ``win`` was credited; ``balance`` is the new balance."""

    type: ClassVar[str] = "round_end"
    win: int
    balance: int


EVENT_TYPES: dict[str, type[Event]] = {
    cls.type: cls
    for cls in (
        RoundStart,
        Spin,
        LineWin,
        ScatterWin,
        FreeSpinsAwarded,
        ExpandingSymbolChosen,
        DecisionPending,
        ChoiceMade,
        FreeSpinStart,
        ExpandedWin,
        WinCapReached,
        FreeSpinsEnd,
        GambleCard,
        GambleEnd,
        MoonPrizes,
        MoonCashWin,
        FeatureBought,
        HoldAndRespinStart,
        Respin,
        LadderPrize,
        HoldAndRespinEnd,
        JackpotWin,
        RoundEnd,
    )
}


def _valid(value: Any, annotation: str) -> bool:
    """Does a JSON value fit a field's annotation (int, bool, str, tuples of those)?"""
    if annotation == "bool":
        return isinstance(value, bool)
    if annotation == "int":
        return isinstance(value, int) and not isinstance(value, bool)
    if annotation == "str":
        return isinstance(value, str)
    if annotation in ("Position", "tuple[int, int]"):
        return isinstance(value, list) and len(value) == 2 and all(_valid(v, "int") for v in value)
    if annotation.startswith("tuple[") and annotation.endswith(", ...]"):
        inner = annotation[len("tuple[") : -len(", ...]")]
        return isinstance(value, list) and all(_valid(v, inner) for v in value)
    return False


def event_from_json(obj: Any) -> Event:
    """Rebuild an event from its JSON object; raise `SnapshotError` if it is not one."""
    if not isinstance(obj, dict) or obj.get("type") not in EVENT_TYPES:
        raise SnapshotError(f"not an event: {str(obj)[:80]}")
    cls = EVENT_TYPES[obj["type"]]
    names = [f.name for f in fields(cls)]
    if set(obj) != {"type", *names}:
        raise SnapshotError(f"event {obj['type']!r} needs the fields {names}")
    for f in fields(cls):
        if not _valid(obj[f.name], str(f.type)):
            raise SnapshotError(f"event {obj['type']!r}: field {f.name!r} should be {f.type}, not {obj[f.name]!r}")
    return cls(**{n: _frozen(obj[n]) for n in names})


def events_from_json(objs: Any) -> list[Event]:
    if not isinstance(objs, list):
        raise SnapshotError("events must be a list")
    return [event_from_json(o) for o in objs]


def dumps(events: list[Event] | tuple[Event, ...]) -> str:
    """Canonical JSON of an event log: one event per line, sorted keys, no spaces."""
    return "\n".join(json.dumps(e.to_json(), sort_keys=True, separators=(",", ":")) for e in events)
