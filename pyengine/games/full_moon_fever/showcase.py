"""The showcase's finder for Full Moon Fever: which of the report's ``features``
(`pyengine.games.full_moon_fever.report.showcase_features`) one finished round shows.

It reads the round's events only: the Haunted House's `ScatterWin` (3, 4 or 5 Houses,
which always start Winfalls), `FreeSpinsAwarded` (Winfalls and its number of spins),
the pet's `PickReveal`, a `WinMultiplier` at the ladder's top (x5) and a `Cascade` of the
longest cascade (its 10th winning window, the most any stop combination reaches). The
constants below are the game's data and report figures; a test checks them against both.
"""

from __future__ import annotations

from collections.abc import Sequence

from ...events import Cascade, Event, FreeSpinsAwarded, PickReveal, ScatterWin, WinMultiplier

__all__ = ["HOUSES", "LONGEST_CASCADE", "PETS", "SPINS", "TOP_MULTIPLIER", "shown"]

HOUSES: dict[int, str] = {3: "three_houses", 4: "four_houses", 5: "five_houses"}
"""Haunted Houses in view -> the feature's id (3 or more start Winfalls)."""

PETS: dict[str, str] = {"DOG": "pet_dog"}
"""The pet fed -> its id: only the Dog, the first choice (the others a showcase never plays)."""

SPINS: dict[int, str] = {n: f"spins_{n}" for n in (5, 8, 10, 12, 15, 20, 25, 50)}
"""The number of free spins drawn -> its id (the data's ``winfalls.spins``)."""

TOP_MULTIPLIER = 5
"""The top of the cascade ladder (x1 ... x5)."""

LONGEST_CASCADE = 10
"""The most winning windows one free spin can have (the report's ``longest_cascade``): its
`Cascade` event is number 10, after the 10th winning window."""

_TOP = f"multiplier_x{TOP_MULTIPLIER}"


def shown(events: Sequence[Event]) -> set[str]:
    """The ids of the features the whole event log of one finished round shows."""
    out: set[str] = set()
    for e in events:
        if isinstance(e, Cascade):
            if e.number >= LONGEST_CASCADE:
                out.add("longest_cascade")
        elif isinstance(e, WinMultiplier):
            if e.multiplier >= TOP_MULTIPLIER:
                out.add(_TOP)
        elif isinstance(e, ScatterWin):
            houses = HOUSES.get(e.count)
            if houses is not None:
                out.add(houses)
        elif isinstance(e, FreeSpinsAwarded):
            out.add("winfalls")
            spins = SPINS.get(e.count)
            if spins is not None:
                out.add(spins)
        elif isinstance(e, PickReveal):
            pet = PETS.get(e.prize)
            if pet is not None:
                out.add(pet)
    return out
