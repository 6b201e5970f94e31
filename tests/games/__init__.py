"""Each game's test kit: what the shared tests ask of a game, in the game's own file
``tests/games/<id>/__init__.py`` (beside the game's own tests), so that no shared test names a game.

A kit defines ``EVENT_TYPES`` (every event type the game's rounds bring: its client tests
play each one, and together the games play every event type there is) and ``GOLDEN`` (its
golden rounds, `tests.golden_cases.Case`, written by ``tests/make_golden.py``).
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Iterator, Mapping
from types import ModuleType

from pyengine.games import Game, game_ids, get_game

__all__ = [
    "SHARED_EVENT_TYPES", "EventTypes", "a_game", "all_of", "decides", "games_where", "has_jackpot", "has_mode",
    "has_setting", "has_settings", "kit", "lacks",
]

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


# -- asking the games: a shared test that needs a game with some property asks for one ------


def games_where(test: Callable[[Game], bool]) -> list[str]:
    """The registered games (ids, in registry order) that pass ``test``."""
    return [g for g in game_ids() if test(get_game(g))]


def a_game(test: Callable[[Game], bool] = lambda _g: True, what: str = "any game") -> str:
    """The first registered game that passes ``test`` (``what`` says what it asks for, in
    the failure when no game has it)."""
    found = games_where(test)
    if not found:
        raise AssertionError(f"no registered game has {what}")
    return found[0]


def decides(decision: str) -> Callable[[Game], bool]:
    """Whether a game's rounds may wait on ``decision`` (its ``describe()["decisions"]``)."""
    return lambda g: decision in g.describe().get("decisions", ())


def has_mode(mode: str) -> Callable[[Game], bool]:
    """Whether a game offers the round mode ``mode`` (``"buy"``: a feature buy)."""
    return lambda g: mode in g.modes


def has_jackpot(game: Game) -> bool:
    """Whether a game has a time jackpot."""
    return game.jackpot is not None


def has_setting(name: str) -> Callable[[Game], bool]:
    """Whether a game has the operator setting ``name``."""
    return lambda g: name in g.default_settings()


def has_settings(game: Game) -> bool:
    """Whether a game has any operator settings at all."""
    return bool(game.default_settings())


def all_of(*tests: Callable[[Game], bool]) -> Callable[[Game], bool]:
    """Whether a game passes every one of ``tests`` (``all_of(has_jackpot, has_mode("buy"))``)."""
    return lambda g: all(test(g) for test in tests)


def lacks(test: Callable[[Game], bool]) -> Callable[[Game], bool]:
    """Whether a game fails ``test`` (``lacks(has_jackpot)``: a game without a jackpot)."""
    return lambda g: not test(g)
