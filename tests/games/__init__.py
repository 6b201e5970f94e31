"""Each game's test kit: what the shared tests ask of a game, in the game's own file
``tests/games/<id>/__init__.py`` (beside the game's own tests), so that no shared test names a game.

A kit defines ``EVENT_TYPES`` (every event type the game's rounds bring: its client tests
play each one, and together the games play every event type there is) and ``GOLDEN`` (its
golden rounds, `tests.golden_cases.Case`, written by ``tests/make_golden.py``).
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator, Mapping
from types import ModuleType

from pyengine.games import game_ids

__all__ = ["SHARED_EVENT_TYPES", "EventTypes", "kit"]

SHARED_EVENT_TYPES = ("round_start", "spin", "line_win", "decision_pending", "choice_made", "win_cap_reached",
                      "round_end")
"""The event types of the shared round: a kit starts its ``EVENT_TYPES`` from those it brings."""


def kit(game_id: str) -> ModuleType:
    """The test kit of ``game_id``: ``tests/games/<id>/__init__.py``."""
    try:
        return importlib.import_module(f"tests.games.{game_id}")
    except ModuleNotFoundError as exc:
        if exc.name != f"tests.games.{game_id}":
            raise
        raise AssertionError(
            f"game {game_id!r} has no test kit: add tests/games/{game_id}/__init__.py with EVENT_TYPES and GOLDEN"
        ) from None


class EventTypes(Mapping[str, frozenset[str]]):
    """Game id -> the event types its rounds bring, asked of each registered game's kit."""

    def __getitem__(self, game_id: str) -> frozenset[str]:
        types: frozenset[str] = kit(game_id).EVENT_TYPES
        return types

    def __iter__(self) -> Iterator[str]:
        return iter(game_ids())

    def __len__(self) -> int:
        return len(game_ids())
