"""Full Moon Fever heard: a night with wolves. Low wind under the reels, a minor scale on a
rough saw that slides like a howl, and wolves howling when Winfalls begins."""

from __future__ import annotations

from ...cues import Character, Note, voice

__all__ = ["VOICE"]

WOLF_NIGHT = Character(root=110.0, scale=(0, 3, 5, 7, 10), lead="sawtooth", bass="sine", noise=520.0, ring=1.3,
                       glide=2.0, loud=0.8)
"""A minor pentatonic; wind in the noise; each note slides up two semitones."""


def _howl(at: float, base: float) -> tuple[Note, ...]:
    """One wolf: up, held, and falling away."""
    return (Note(base, 0.5, at, "sine", 0.16, base * 1.5, 0.12),
            Note(base * 1.5, 0.9, at + 0.45, "sine", 0.14, base * 1.2, 0.05))


VOICE = voice(
    WOLF_NIGHT,
    feature_trigger=(*_howl(0.0, 330.0), *_howl(0.35, 392.0), Note(400.0, 1.4, 0.0, "noise", 0.06, 900.0, 0.4)),
    cascade=(Note(180.0, 0.2, 0.0, "noise", 0.12, 90.0, 0.01), Note(220.0, 0.18, 0.05, "sawtooth", 0.08, 165.0)),
)
