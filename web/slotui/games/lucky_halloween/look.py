"""Lucky Halloween's look: its feature names, colours and pictures, and the small helpers every
part of its screen uses."""

from __future__ import annotations


from collections.abc import Iterator, Mapping

from ...layout import Picture
from ...stage import Stage
from ...words import of

WORDS = of(__package__)
"""The game's own words (lang/<lang>.json beside this package)."""



Position = tuple[int, int]

FEATURES = (
    "special_reels",
    "pumpkin_tree",
    "random_wilds",
    "mega_wild",
    "free_spins",
    "full_moon_bonus",
    "bonus_spins",
)
"""The Rider's features (their names: ``rider.<id>`` in the game's catalogue)."""


class _FeatureNames(Mapping[str, str]):
    """The Rider's features as the player reads them, looked up in the language spoken when asked."""

    def __getitem__(self, key: str) -> str:
        if key not in FEATURES:
            raise KeyError(key)
        return WORDS(f"rider.{key}")

    def __iter__(self) -> Iterator[str]:
        return iter(FEATURES)

    def __len__(self) -> int:
        return len(FEATURES)


FEATURE_NAMES: Mapping[str, str] = _FeatureNames()
"""The Rider's features as the player reads them (words looked up when read)."""
LADDER = "full_moon_bonus"
"""The ladder's feature id (the round history's and the messages posted to the page)."""
PUMPKINS = "pumpkins"
"""The ladder's pick."""
COLLECT = "COLLECT"
"""The engine's mark of a pumpkin that collects (in its prize, "3 COLLECT"; not shown as it is)."""
GREEN = "#58e07a"
WOOD = "#8a5a2b"
WOOD_DARK = "#3b220e"
ORANGE = "#ff9a1f"

RIDER = Picture("rider", lambda L: (L.cell * 2.0, L.cell * 2.0))
TREE = Picture("tree", lambda L: (L.reels_h * 0.9, L.reels_h))
MEGA = Picture("mega_wild", lambda L: (L.cell * 3.0, L.cell * 3.0))
CAULDRON = Picture("cauldron", lambda L: (L.cell * 1.1, L.cell * 1.1))
CAULDRON_OPEN = Picture("cauldron_open", lambda L: (L.cell * 0.9, L.cell * 0.9))
PUMPKIN = Picture("pumpkin", lambda L: (L.cell * 0.8, L.cell * 0.8))
PUMPKIN_OPEN = Picture("pumpkin_open", lambda L: (L.cell * 0.8, L.cell * 0.8))
PUMPKIN_COLLECT = Picture("pumpkin_collect", lambda L: (L.cell * 0.8, L.cell * 0.8))


def _ms(c: Stage, normal: float) -> float:
    """A duration at normal pace, shortened in turbo and (more) with reduced motion."""
    if c.reduced_motion:
        return normal * 0.25
    return normal * (0.5 if c.turbo else 1.0)


def _wild(c: Stage) -> str:
    return str(next(s["id"] for s in c.desc["symbols"] if s["kind"] == "wild"))


def _trigger_counts(c: Stage, window: tuple[tuple[str, ...], ...]) -> list[str]:
    """The features a spin's window starts, in the order the game plays them."""
    sc = c.desc["scatters"]
    out = []
    bonus = sum(col.count(sc["bonus"]["symbol"]) for col in window)
    free = sum(col.count(sc["free_spins"]["symbol"]) for col in window)
    if bonus >= int(c.desc["full_moon_bonus"]["trigger"]):
        out.append(LADDER)
    if free >= int(c.desc["free_spins"]["trigger"]):
        out.append("free_spins")
    return out


