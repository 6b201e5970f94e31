"""The typed events of a round (documented in ``docs/events.md``).

A round is a list of these events. Each event is an immutable value that converts to a
JSON object (``{"type": ..., fields...}``) and back; `dumps` gives the canonical JSON
form used for golden replays and for byte-for-byte comparison between CPython and Pyodide.
"""

from __future__ import annotations

import json
from dataclasses import fields
from typing import Any, ClassVar, TypeVar

from .errors import SnapshotError
from .values import record

__all__ = [
    "Cascade",
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
    "PickEnd",
    "PickReveal",
    "PickStart",
    "Respin",
    "RoundEnd",
    "RoundStart",
    "ScatterWin",
    "Spin",
    "WinCapReached",
    "WinMultiplier",
    "dumps",
    "event_from_json",
    "events_from_json",
    "register_event",
]

Position = tuple[int, int]
"""(reel, row), both 0-based."""

E = TypeVar("E", bound="Event")


@record
class Event:
    """Base class: every event has a ``type`` name."""

    type: ClassVar[str] = "event"
    category: ClassVar[str] = ""
    """How a client presents it: ``win`` for a win shown with the spin's other wins (it has
    ``win`` and usually ``positions``), ``info`` for what only annotates the next wins,
    empty for everything else."""

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
    """A round began: the stake was taken from the balance. ``coins`` per line (1 in a game
    without coins) at ``bet_per_line`` each (the coin size)."""

    type: ClassVar[str] = "round_start"
    game: str
    seed: int
    lines: int
    bet_per_line: int
    coins: int
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
    category: ClassVar[str] = "win"
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
    category: ClassVar[str] = "win"
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
    """The expanding symbol for the whole free-spins feature was drawn."""

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
    category: ClassVar[str] = "win"
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
class FeatureBought(Event):
    """The player bought the feature for ``price`` (``multiplier`` x the total stake)."""

    type: ClassVar[str] = "feature_bought"
    feature: str
    multiplier: int
    price: int


@record
class HoldAndRespinStart(Event):
    """Hold and Respin began with the prize symbols at ``positions`` held, and ``respins`` respins."""

    type: ClassVar[str] = "hold_and_respin_start"
    positions: tuple[Position, ...]
    prizes: tuple[int, ...]
    respins: int


@record
class Respin(Event):
    """Respin ``number``: new prize symbols landed at ``positions`` (maybe none);
    ``respins_left`` after it (back to the full count when one landed); ``count`` now held."""

    type: ClassVar[str] = "respin"
    number: int
    positions: tuple[Position, ...]
    prizes: tuple[int, ...]
    respins_left: int
    count: int


@record
class LadderPrize(Event):
    """The prize ladder paid ``multiplier`` x the total stake for ending with ``count`` prize symbols held."""

    type: ClassVar[str] = "ladder_prize"
    count: int
    multiplier: int
    win: int


@record
class HoldAndRespinEnd(Event):
    """Hold and Respin ended with ``count`` prize symbols held: their ``cash`` plus the ``ladder`` prize."""

    type: ClassVar[str] = "hold_and_respin_end"
    count: int
    respins: int
    cash: int
    ladder: int
    win: int


@record
class PickStart(Event):
    """A pick began: ``name`` names it in the game (its screen's words), the board has
    ``cells`` cells shown in ``columns`` columns, and ``faces`` says what each cell shows
    before it is picked ("" for a hidden prize). The prizes behind the cells were placed
    before any choice."""

    type: ClassVar[str] = "pick_start"
    name: str
    cells: int
    columns: int
    faces: tuple[str, ...]


@record
class PickReveal(Event):
    """The player picked ``cell`` (0-based, row by row) and it revealed ``prize``."""

    type: ClassVar[str] = "pick_reveal"
    name: str
    cell: int
    prize: str


@record
class PickEnd(Event):
    """The pick ended: the prizes of the cells nobody picked, revealed (``cells`` with
    their ``prizes``, in cell order)."""

    type: ClassVar[str] = "pick_end"
    name: str
    cells: tuple[int, ...]
    prizes: tuple[str, ...]


@record
class Cascade(Event):
    """The winning symbols at ``removed`` vanished; on each reel the symbols above fell
    down and new ones came in from the strip above the window: the reels now rest at
    ``stops`` and show ``window``. ``number`` counts the cascades of this spin."""

    type: ClassVar[str] = "cascade"
    number: int
    removed: tuple[Position, ...]
    stops: tuple[int, ...]
    window: tuple[tuple[str, ...], ...]


@record
class WinMultiplier(Event):
    """Wins from here on (until the next spin) are multiplied by ``multiplier``; the
    ``win`` of each later win event already includes it."""

    type: ClassVar[str] = "win_multiplier"
    multiplier: int


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
        FeatureBought,
        HoldAndRespinStart,
        Respin,
        LadderPrize,
        HoldAndRespinEnd,
        JackpotWin,
        RoundEnd,
        PickStart,
        PickReveal,
        PickEnd,
        Cascade,
        WinMultiplier,
    )
}


def register_event(cls: type[E]) -> type[E]:
    """Register a game's own event type for the JSON round trip (use as a decorator in
    the game's module, on a `record` subclass of `Event` with a unique ``type``)."""
    known = EVENT_TYPES.get(cls.type)
    if known is not None and known is not cls:
        raise ValueError(f"event type {cls.type!r} is registered twice ({known.__name__} and {cls.__name__})")
    EVENT_TYPES[cls.type] = cls
    return cls


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
