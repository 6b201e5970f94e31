"""The shape of a golden round (`Case`) and the checks a game's cases build from; each game's
cases are in its test kit (``tests/games/<id>/__init__.py``, ``GOLDEN``), written by
``tests/make_golden.py`` into the game's folder (`golden_path`)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pyengine.events import Event

__all__ = ["JACKPOT", "Case", "Check", "gamble_ends", "golden_files", "golden_path", "has", "loss", "shown", "types"]

GAMES = Path(__file__).resolve().parent / "games"


def golden_path(game: str, name: str) -> Path:
    """Where the golden round ``name`` of ``game`` is kept: in the game's test folder,
    ``tests/games/<id>/golden/<id>__<name>.jsonl`` (the game in the file name too, so that
    every golden file has a name of its own)."""
    return GAMES / game / "golden" / f"{game}__{name}.jsonl"


def golden_files() -> list[Path]:
    """Every game's golden files, by name."""
    return sorted(GAMES.glob("*/golden/*.jsonl"), key=lambda p: p.name)

Check = Callable[[list[Event]], bool]

JACKPOT = 1234
"""The jackpot a golden record says its round won (a record keeps the pot's outcome)."""


@dataclass(frozen=True)
class Case:
    """One golden round: its game and name, the bet, the operator settings, the answers
    to give to gamble decisions (any other decision takes its first choice), the bet mode,
    the jackpot the record says it won, the seed stream searched, and what the round
    must show. Every game's cases have this one shape."""

    game: str
    name: str
    check: Check
    stream: int
    lines: int
    bet_per_line: int
    coins: int = 1
    settings: dict[str, int] = field(default_factory=dict)
    answers: tuple[str, ...] = ()
    mode: str = "base"
    jackpot: int = 0


def types(events: list[Event]) -> list[str]:
    return [e.type for e in events]


def loss(events: list[Event]) -> bool:
    """The round won nothing."""
    return events[-1].win == 0  # type: ignore[attr-defined, no-any-return]


def gamble_ends(reason: str) -> Check:
    return lambda evs: any(e.type == "gamble_end" and getattr(e, "reason", "") == reason for e in evs)


def has(kind: str, **fields: Any) -> Check:
    """Some event of type ``kind`` has all of ``fields``."""
    return lambda evs: any(e.type == kind and all(getattr(e, k) == v for k, v in fields.items()) for e in evs)


def shown(evs: list[Event], symbol: str) -> int:
    """How many ``symbol`` the round's first spin shows."""
    spin = next(e for e in evs if e.type == "spin")
    return sum(col.count(symbol) for col in getattr(spin, "window", ()))
