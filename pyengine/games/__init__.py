"""The games, by id: the registry.

A game is a plug-in. Its engine module (``pyengine/games/<id>.py``) defines ``PLUGIN``, a
`Plugin` that names its loader, its exact RTP report and its client screen; the one line
a game adds to the shared code is its entry in ``_REGISTRY`` below. Nothing else in the
engine or the client names a game: they ask the plug-in.
"""

from __future__ import annotations

import importlib
from functools import cache

from ..errors import UnknownGameError
from .base import Game, Plugin

__all__ = ["GAME_IDS", "Game", "Plugin", "game_ids", "get_game", "plugin", "register"]

_REGISTRY: dict[str, str] = {
    "book_of_spells": "pyengine.games.book_of_spells",
    "moon_spell": "pyengine.games.moon_spell",
    "moonshine": "pyengine.games.moonshine",
    "full_moon_fever": "pyengine.games.full_moon_fever",
    "lucky_halloween": "pyengine.games.lucky_halloween",
}
"""Game id -> the module that defines its ``PLUGIN``: one line per game."""

GAME_IDS: tuple[str, ...] = tuple(_REGISTRY)
"""The games shipped with the engine (`game_ids` adds any registered later)."""


def register(game_id: str, module: str) -> None:
    """Add a game that is not shipped with the engine (a test fixture, a studio's own
    game): ``module`` must define ``PLUGIN``. Registering a shipped id again is refused."""
    known = _REGISTRY.get(game_id)
    if known is not None and known != module:
        raise UnknownGameError(f"game {game_id!r} is already registered by {known}")
    _REGISTRY[game_id] = module


def game_ids() -> tuple[str, ...]:
    """Every registered game id (the shipped ones and any added by `register`)."""
    return tuple(_REGISTRY)


@cache
def plugin(game_id: str) -> Plugin:
    """The plug-in of ``game_id``; raise `UnknownGameError` for an id that is not registered."""
    module = _REGISTRY.get(game_id) if isinstance(game_id, str) else None
    if module is None:
        raise UnknownGameError(f"unknown game {game_id!r}; the games are {', '.join(_REGISTRY)}")
    found = getattr(importlib.import_module(module), "PLUGIN", None)
    if not isinstance(found, Plugin):
        raise UnknownGameError(f"{module} does not define PLUGIN, the plug-in of game {game_id!r}")
    return found


@cache
def get_game(game_id: str) -> Game:
    """The game with id ``game_id`` (loaded and checked once)."""
    game = plugin(game_id).load()
    if game.id != game_id:
        raise UnknownGameError(f"the plug-in registered as {game_id!r} loads the game {game.id!r}")
    return game
