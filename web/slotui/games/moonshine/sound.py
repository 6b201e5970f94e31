"""Moonshine heard: a backwoods cabin. Banjo plucks on a major pentatonic (short square
notes), a jug's boop for every reel that stops, a washboard's scratch as the reels turn."""

from __future__ import annotations

from ...cues import Character, Note, voice

__all__ = ["VOICE"]

CABIN = Character(root=196.0, scale=(0, 2, 4, 7, 9), lead="square", bass="sine", noise=4200.0, ring=0.55,
                  loud=0.75)
"""G major pentatonic, plucked; a washboard high in the noise."""

VOICE = voice(
    CABIN,
    spin=tuple(Note(4200.0, 0.04, i * 0.05, "noise", 0.08, 0.0, 0.003) for i in range(5)),
    reel_stop=(Note(130.0, 0.14, 0.0, "sine", 0.3, 82.0, 0.01),),
    pick=(Note(98.0, 0.2, 0.0, "sine", 0.28, 146.0, 0.01), Note(587.3, 0.12, 0.05, "square", 0.1)),
)
