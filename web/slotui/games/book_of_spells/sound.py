"""Book of Spells heard: a spellbook's pages rustle as the reels turn, an old phrygian
scale on a reedy triangle, and the Book's turning pages when it picks its symbol."""

from __future__ import annotations

from ...cues import Character, Note, voice

__all__ = ["VOICE"]

SPELLBOOK = Character(root=146.83, scale=(0, 1, 4, 5, 7, 8, 10), lead="triangle", bass="sine", noise=3200.0,
                      ring=1.2)
"""D phrygian dominant; the noise high and thin: paper."""


def _pages(n: int, gap: float) -> tuple[Note, ...]:
    """``n`` pages turning, a soft rustle each."""
    return tuple(Note(2600.0 + 300.0 * (i % 3), 0.09, i * gap, "noise", 0.09, 4200.0, 0.01) for i in range(n))


VOICE = voice(
    SPELLBOOK,
    spin=(*_pages(3, 0.06), Note(73.4, 0.25, 0.0, "sine", 0.08, 146.8)),
    feature_start=(
        *_pages(8, 0.07),
        *(Note(f, 1.2, 0.55, "triangle", 0.12, 0.0, 0.05) for f in (293.7, 370.0, 440.0)),
    ),
)
