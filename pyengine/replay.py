"""Replaying a round from its record: game, bet, seed, settings and player choices.

A round is a pure function of its record, so replaying it gives a byte-identical event
log in CPython and in Pyodide. Golden replay files (``tests/games/<id>/golden/*.jsonl``) hold a
record on their first line and the canonical event log (`events.dumps`) after it.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from .errors import EngineError
from .events import Event, dumps
from .model import Bet
from .session import Session

__all__ = ["check_golden", "golden_text", "replay"]


def replay(
    game: str,
    *,
    seed: int,
    lines: int,
    bet_per_line: int,
    coins: int = 1,
    choices: Sequence[str] = (),
    settings: Mapping[str, Any] | None = None,
    balance: int = 100_000,
    autoplay: bool = False,
    mode: str = "base",
    jackpot: int = 0,
) -> list[Event]:
    """Play one round from its record and return its whole event log.

    ``mode`` is the bet mode (``buy`` for a bought feature); ``jackpot`` is the time
    jackpot the round won (the pot's draw depends on the session's clock and pot, so a
    record keeps its outcome rather than redrawing it): 0 for a game without one and in
    mode ``buy``. Every argument is checked as `Session` checks it; a bad one raises an
    `EngineError`.
    """
    session = Session(game, balance=balance, seed=0, settings=settings, bet=Bet(lines, bet_per_line, coins))
    return session.replay(seed=seed, choices=choices, autoplay=autoplay, mode=mode, jackpot=jackpot)


def golden_text(record: Mapping[str, Any]) -> str:
    """The golden file for ``record``: the record as JSON, then the event log."""
    events = replay(
        record["game"],
        seed=record["seed"],
        lines=record["lines"],
        bet_per_line=record["bet_per_line"],
        coins=record.get("coins", 1),
        choices=record.get("choices", ()),
        settings=record.get("settings"),
        balance=record.get("balance", 100_000),
        mode=record.get("mode", "base"),
        jackpot=record.get("jackpot", 0),
    )
    header = json.dumps(dict(record), sort_keys=True, separators=(",", ":"))
    return header + "\n" + dumps(events) + "\n"


def check_golden(text: str) -> str | None:
    """Replay a golden file; None when identical, else a description of the first difference."""
    header, _, _ = text.partition("\n")
    try:
        fresh = golden_text(json.loads(header))
    except (EngineError, ValueError, KeyError, TypeError, AttributeError) as exc:
        return f"the record does not replay: {exc}"
    if fresh == text:
        return None
    for n, (a, b) in enumerate(zip(text.splitlines(), fresh.splitlines(), strict=False), start=1):
        if a != b:
            return f"line {n} differs:\n  golden: {a[:200]}\n  replay: {b[:200]}"
    return f"the logs differ in length: golden {len(text.splitlines())} lines, replay {len(fresh.splitlines())}"
