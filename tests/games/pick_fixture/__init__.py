"""The pick fixture game's test kit (`tests.games`): the event types its rounds bring and its golden rounds."""

from __future__ import annotations

from tests.games import SHARED_EVENT_TYPES
from tests.golden_cases import Case

GAME = "pick_fixture"

EVENT_TYPES = frozenset((*SHARED_EVENT_TYPES[:-2], "round_end", "pick_start", "pick_reveal", "pick_end"))

GOLDEN: list[Case] = []
"""The fixture game is not shipped: it has no golden rounds."""
