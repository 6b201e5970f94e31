"""The games, by id. Each is data plus a little composition of features."""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

from ..errors import UnknownGameError
from .base import Game

__all__ = ["GAME_IDS", "Game", "get_game"]


def _book_of_spells() -> Game:
    from .book_of_spells import load

    return load()


def _moon_spell() -> Game:
    from .moon_spell import load

    return load()


_LOADERS: dict[str, Callable[[], Game]] = {
    "book_of_spells": _book_of_spells,
    "moon_spell": _moon_spell,
}

GAME_IDS: tuple[str, ...] = tuple(_LOADERS)


@cache
def get_game(game_id: str) -> Game:
    """The game with id ``game_id`` (loaded and checked once)."""
    loader = _LOADERS.get(game_id)
    if loader is None:
        raise UnknownGameError(f"unknown game {game_id!r}; the games are {', '.join(GAME_IDS)}")
    return loader()
