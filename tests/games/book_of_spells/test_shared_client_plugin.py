"""Book of Spells' own pages and pictures (from the shared ``tests/test_client_plugin.py``,
which checks every game's pages name only that game and share the same paragraphs)."""

from __future__ import annotations

from typing import Any

from pyengine.games import get_game
from slotui.gamble import CARD_BACK
from slotui.games.book_of_spells import SCREEN
from slotui.layout import BACKGROUND, FRAME, LOGO
from slotui.pages import PageContext, page_html
from tests.client_support import page_context

GAME_ID = "book_of_spells"
DESC: dict[str, Any] = get_game(GAME_ID).describe()




def ctx(**kw: Any) -> PageContext:
    return page_context(GAME_ID, 10, 9, **kw)


def test_its_rules_tell_of_the_book_and_what_start_starts() -> None:
    rules = page_html("help", SCREEN, ctx())
    assert rules is not None
    assert "<h4>The Book</h4>" in rules
    assert "(starts free spins)." in rules


def test_it_sells_no_feature_and_its_pictures_include_the_gamble_card() -> None:
    assert SCREEN.buy is None
    assert SCREEN.pictures == (BACKGROUND, FRAME, LOGO, CARD_BACK)
