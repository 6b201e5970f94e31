"""Lucky Halloween's part of the showcase: which of the report's ``features`` (see
`pyengine.games.lucky_halloween.report.showcase_features`) one finished round shows.

`shown` reads a round's whole event log once, by the events' types and fields, and agrees
with the definition of each feature's exact probability:

* ``rider_<feature>``: the Pumpkin Rider brings that feature on the paid spin (`RiderAppears`
  before the first decision; during free spins he brings only bonus spins);
  ``tree_<top>x``: the Pumpkin Tree's `WinMultiplier` is its largest multiplier.
* ``free_spins``: the feature starts (`FreeSpinsAwarded`, not a retrigger); ``four_free`` /
  ``five_free``: the paid spin's judged window (the Rider's `RiderSymbols` window, else the
  `Spin`'s) shows exactly 4 / 5 or more Free Spins symbols; ``cauldron_<top>``: the picked
  cauldron holds the most spins; ``bonus_spins``: the Rider awards bonus spins at least once
  in the feature, ``bonus_spins_max``: as often as the bound allows.
* ``full_moon_bonus``: the ladder starts (`LadderStart`); ``four_bonus`` / ``five_bonus``: it
  was triggered by 4 / 5 or more Bonus symbols; ``ladder_shortcut``: a climb lands on a green
  shortcut (`LadderClimb` with ``landed`` != ``position``); ``rung_<x>x``: the bonus pays one of
  the ladder's `TOP_RUNGS` top rungs (`LadderWin`).
* ``both_features``: the Full Moon Bonus and the free spins in the same round.

The game's numbers (its symbols, the top tree multiplier and cauldron, the bound, the rungs)
are read once from the registered game.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

from ...events import ChoiceMade, DecisionPending, Event, FreeSpinsAwarded, PickReveal, Spin, WinMultiplier
from .. import get_game
from . import CAULDRON, FEATURES, LadderClimb, LadderStart, LadderWin, LuckyHalloween, RiderAppears, RiderSymbols

__all__ = ["TOP_RUNGS", "rider_id", "rung_id", "shown"]

TOP_RUNGS = 4
"""How many of the ladder's rungs, from the top, the showcase names (300x to 800x)."""


def rider_id(feature: str) -> str:
    """The showcase id of the Rider's ``feature`` on a paid spin."""
    return f"rider_{feature}"


def rung_id(multiplier: int) -> str:
    """The showcase id of the ladder's rung paying ``multiplier`` x the total bet."""
    return f"rung_{multiplier}x"


_GAME = cast(LuckyHalloween, get_game("lucky_halloween"))
_FREE = _GAME.free_symbol
_RIDER = {f: rider_id(f) for f in FEATURES}
_TREE_TOP = max(v for v, _ in _GAME.rider.tree)
_TREE_ID = f"tree_{_TREE_TOP}x"
_CAULDRON_TOP = str(max(v for v, _ in _GAME.free.cauldron))
_CAULDRON_ID = f"cauldron_{_CAULDRON_TOP}"
_MAX_AWARDS = _GAME.free.max_awards
_RUNGS = {x: rung_id(x) for x in _GAME.ladder.rungs_x[-TOP_RUNGS:]}


def shown(events: Sequence[Event]) -> set[str]:
    """The ids of the report's ``features`` that the finished round ``events`` shows."""
    out: set[str] = set()
    window: tuple[tuple[str, ...], ...] = ()
    paid = True  # until the first decision: the paid spin
    awards = 0
    for e in events:
        if paid:
            if isinstance(e, (Spin, RiderSymbols)):
                window = e.window
            elif isinstance(e, RiderAppears):
                out.add(_RIDER[e.feature])
            elif isinstance(e, WinMultiplier):
                if e.multiplier == _TREE_TOP:
                    out.add(_TREE_ID)
            elif isinstance(e, DecisionPending):
                paid = False
            continue
        if isinstance(e, (DecisionPending, ChoiceMade, Spin)):
            continue  # the bulk of a feature's events
        if isinstance(e, RiderAppears):
            awards += 1  # during free spins: bonus spins
        elif isinstance(e, LadderClimb):
            if e.landed != e.position:
                out.add("ladder_shortcut")
        elif isinstance(e, FreeSpinsAwarded):
            if not e.retrigger:
                out.add("free_spins")
                n = sum(col.count(_FREE) for col in window)
                if n == 4:
                    out.add("four_free")
                elif n >= 5:
                    out.add("five_free")
        elif isinstance(e, PickReveal):
            if e.name == CAULDRON.name and e.prize == _CAULDRON_TOP:
                out.add(_CAULDRON_ID)
        elif isinstance(e, LadderStart):
            out.add("full_moon_bonus")
            if e.count == 4:
                out.add("four_bonus")
            elif e.count >= 5:
                out.add("five_bonus")
        elif isinstance(e, LadderWin):
            rung = _RUNGS.get(e.multiplier)
            if rung is not None:
                out.add(rung)
    if awards:
        out.add("bonus_spins")
        if awards >= _MAX_AWARDS:
            out.add("bonus_spins_max")
    if "free_spins" in out and "full_moon_bonus" in out:
        out.add("both_features")
    return out
