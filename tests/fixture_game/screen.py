"""The fixture game's client screen: only the words of its two picks (the shared pick
overlay does the rest)."""

from __future__ import annotations

from slotui.beats import GameScreen, register_screen
from slotui.pick import PickLook

LABELS = {"stop": "STOP", "+1": "+1×", "+2": "+2×", "x+1": "MULT +1"}

SCREEN = GameScreen(
    feature="the pick bonus",
    start_label="START BONUS",
    pick_look=PickLook(
        titles={"charm": "CHOOSE A CHARM", "board": "PICK UNTIL STOP"},
        label=lambda name, prize: LABELS.get(prize, prize),
        sprite=lambda name, value: None,
    ),
)
register_screen("pick_fixture", SCREEN)
