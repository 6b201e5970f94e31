"""Moon Spell's own pages and pictures (from the shared ``tests/test_client_plugin.py``,
which checks every game's pages name only that game and share the same paragraphs)."""

from __future__ import annotations

from typing import Any

from pyengine.games import get_game
from slotui.games.moon_spell import SCREEN
from slotui.layout import BACKGROUND, FRAME, LOGO
from slotui.pages import PageContext, page_html
from tests.client_support import page_context

GAME_ID = "moon_spell"
DESC: dict[str, Any] = get_game(GAME_ID).describe()




def ctx(**kw: Any) -> PageContext:
    return page_context(GAME_ID, 5, 20, **kw)


def test_its_rules_and_buy_page_tell_of_hold_and_respin() -> None:
    rules = page_html("help", SCREEN, ctx())
    assert rules is not None
    assert "Hold and Respin" in rules
    assert "free spins" not in rules
    assert "(starts the bonus)." in rules
    buy = page_html("buy", SCREEN, ctx(price=6000, balance=100_000))
    assert buy is not None
    assert "Hold and Respin" in buy


def test_its_pictures() -> None:
    assert SCREEN.pictures == (BACKGROUND, FRAME, LOGO)
