"""Lucky Halloween heard: a haunted pumpkin patch. A theremin's whole-tone glides, low
ghostly wind, the Rider's arrival, the ladder's rungs climbing the scale."""

from __future__ import annotations

from pyengine.games.lucky_halloween import LadderClimb, LadderStart, LadderWin, RiderAppears, RiderSymbols

from ...cues import Character, Note, voice

__all__ = ["VOICE"]

PUMPKIN_PATCH = Character(root=164.81, scale=(0, 2, 4, 6, 8, 10), lead="sine", bass="triangle", noise=800.0,
                          ring=1.3, glide=1.0)
"""E whole tone; every note slides a semitone, theremin-like."""

VOICE = voice(
    PUMPKIN_PATCH,
    events={
        RiderAppears.type: "feature_trigger",
        RiderSymbols.type: "land",
        LadderStart.type: "feature_start",
        LadderClimb.type: "ladder",
        LadderWin.type: "summary",
    },
    steps={LadderClimb.type: "landed"},
    feature_trigger=(Note(330.0, 1.1, 0.0, "sine", 0.16, 660.0, 0.2), Note(466.2, 0.9, 0.3, "sine", 0.12, 233.1, 0.1),
                     Note(700.0, 1.2, 0.0, "noise", 0.06, 300.0, 0.4)),
)
