"""Moon Spell heard: a moonlit spell. High sine bells that ring long on a lydian scale,
a silver shimmer of noise, and a bell for every Moon that lands in Hold and Respin."""

from __future__ import annotations

from pyengine.games.moon_spell import MoonPrizes

from ...cues import Character, Note, voice

__all__ = ["VOICE"]

MOONLIGHT = Character(root=261.63, scale=(0, 2, 4, 6, 7, 9, 11), lead="sine", bass="sine", noise=7000.0, ring=2.2)
"""C lydian, bells; the noise a high shimmer."""

VOICE = voice(
    MOONLIGHT,
    events={MoonPrizes.type: "scatter"},
    land=(Note(98.0, 0.15, 0.0, "sine", 0.25, 65.0), Note(1568.0, 0.9, 0.02, "sine", 0.12),
          Note(2093.0, 0.7, 0.06, "sine", 0.06)),
)
