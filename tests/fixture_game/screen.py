"""The fixture game's client screen: only the words of its two picks (the shared pick
overlay does the rest), from its catalogue (``lang/<lang>.json`` beside this module)."""

from __future__ import annotations

from slotui.beats import GameScreen, register_screen
from slotui.pick import PickLook
from slotui.words import of

WORDS = of(__package__ or "tests.fixture_game")

SCREEN = GameScreen(
    words=WORDS,
    pick_look=PickLook(
        titles={"charm": "pick.charm", "board": "pick.board"},
        label=lambda name, prize: WORDS(f"prize.{prize}"),
        sprite=lambda name, value: None,
        words=WORDS,
    ),
)
register_screen("pick_fixture", SCREEN)
