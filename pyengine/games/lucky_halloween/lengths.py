"""Lucky Halloween's feature lengths for the par sheet (`pyengine.math.parsheet`): the free
spins a feature starts with and the rung the Full Moon Bonus's climb ends on, exact. ``m``
is the game's `report.HalloweenMath` (typed loosely here: the report imports this module)."""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, Any

from ...math.parsheet import length_table

if TYPE_CHECKING:
    from . import LuckyHalloween

__all__ = ["feature_lengths", "trigger_odds"]


def trigger_odds(game: LuckyHalloween, m: Any, which: str) -> dict[int, Fraction]:
    """P(a paid round shows n Free Spins symbols (``which`` "free") or n Bonus symbols
    ("bonus")), for each n that starts the feature, over the Rider's kinds."""
    weight = {"plain": 1 - sum(m.rider.values(), Fraction(0)), **m.rider}
    least = game.free.trigger if which == "free" else game.ladder.trigger
    out: dict[int, Fraction] = {}
    for k, w in weight.items():
        st = m.spins[k]
        for n, p in enumerate(st.free if which == "free" else st.bonus):
            if n >= least:
                out[n] = out.get(n, Fraction(0)) + w * p
    return out


def feature_lengths(game: LuckyHalloween, m: Any) -> list[dict[str, Any]]:
    """How long each feature runs once started (`pyengine.math.parsheet.length_table`): the
    free spins the cauldron and the triggering symbols award, and the rung the Full Moon
    Bonus's climb ends on."""
    free_n = trigger_odds(game, m, "free")
    free_total = sum(free_n.values(), Fraction(0))
    spins: dict[int, Fraction] = {}
    for n, pn in free_n.items():
        for c, pc in m.cauldron_odds.items():
            k = game.free.spins(c, n)
            spins[k] = spins.get(k, Fraction(0)) + pn / free_total * pc
    bonus_n = trigger_odds(game, m, "bonus")
    bonus_total = sum(bonus_n.values(), Fraction(0))
    rungs: dict[int, Fraction] = {}
    for n, pn in bonus_n.items():
        for i, p in m.ladder_finals[game.ladder.count(n)].items():
            rungs[i] = rungs.get(i, Fraction(0)) + pn / bonus_total * p
    return [
        length_table(
            "Cauldron free spins",
            "free spins awarded when the feature starts (the cauldron's count and the extra symbols; "
            "bonus spins won during the feature come on top)",
            spins,
            "exact: the trigger count's distribution per Rider kind x the cauldron's weights (fractions)",
        ),
        length_table(
            "The Full Moon Bonus ladder",
            f"the rung the climb ends on (1 is the lowest, {len(game.ladder.rungs_x)} the top)",
            rungs,
            "exact: the ladder's absorbing chain per trigger count x the count's chance (fractions)",
        ),
    ]
