"""Lucky Halloween's rules as data: the Pumpkin Rider's fixed chances and tables, the free
spins with their bonus-spin bound, the Full Moon ladder, and their loaders from the
game's data file (every error names the file and the field).

The game module (`pyengine.games.lucky_halloween`) plays them; the math module
(`pyengine.games.lucky_halloween.report`) reads them.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from ...data import Field, LinesGameData
from ...features.jackpot import JackpotRules

__all__ = [
    "BONUS_SPINS",
    "CELLS",
    "FEATURES",
    "FreeSpinRules",
    "LadderRules",
    "RiderRules",
    "free_spin_rules",
    "jackpot_rules",
    "ladder_rules",
    "rider_rules",
    "scatter_rules",
]

FEATURES = ("special_reels", "pumpkin_tree", "random_wilds", "mega_wild", "free_spins", "full_moon_bonus")
"""The Pumpkin Rider's features on a paid spin, in the order of the data's weights."""
BONUS_SPINS = "bonus_spins"
"""The Rider's one feature during free spins."""
CELLS = 15
"""The window's positions (5 reels of 3 rows)."""


@dataclass(frozen=True, slots=True)
class RiderRules:
    """The Rider's fixed chances: on a paid spin feature ``i`` of `FEATURES` comes with
    probability ``weights[i] / denominator`` (never adapted to play); then the tables of
    what it brings, as (value, weight): tree multipliers, the number of random wilds, the
    Mega Wild's leftmost reel (0-based), the number of scatters dropped for each feature."""

    denominator: int
    weights: tuple[int, ...]
    tree: tuple[tuple[int, int], ...]
    wilds: tuple[tuple[int, int], ...]
    mega: tuple[tuple[int, int], ...]
    free_spins: tuple[tuple[int, int], ...]
    full_moon: tuple[tuple[int, int], ...]

    @property
    def total(self) -> int:
        return sum(self.weights)

    def chance(self, feature: str) -> Fraction:
        return Fraction(self.weights[FEATURES.index(feature)], self.denominator)


@dataclass(frozen=True, slots=True)
class FreeSpinRules:
    """Free spins: ``trigger`` scatters start them; a cauldron holds one of ``cauldron``'s
    counts; each scatter beyond the trigger adds ``per_extra``. On each free spin the Rider
    awards bonus spins (a count from ``bonus_cauldron``) with probability
    ``bonus_numerator / bonus_denominator``, at most ``max_awards`` times a feature."""

    trigger: int
    cauldron: tuple[tuple[int, int], ...]
    per_extra: int
    bonus_numerator: int
    bonus_denominator: int
    bonus_cauldron: tuple[tuple[int, int], ...]
    max_awards: int

    def spins(self, cauldron: int, scatters: int) -> int:
        """The free spins awarded for a cauldron's count and the scatters that triggered."""
        return cauldron + self.per_extra * (scatters - self.trigger)


@dataclass(frozen=True, slots=True)
class LadderRules:
    """The Full Moon ladder: rung ``i`` (1-based) pays ``rungs_x[i - 1]`` x the total bet;
    ``shortcuts`` maps a rung to the rung it jumps to; ``minimum[n]`` is the lowest rung
    where COLLECT may appear for ``n`` Bonus symbols (more than the largest count count as
    it); a pumpkin there shows COLLECT with probability ``collect[n]`` (numerator,
    denominator). A pumpkin gives 1 to ``steps`` rungs; the top rung ends the bonus."""

    trigger: int
    rungs_x: tuple[int, ...]
    shortcuts: dict[int, int]
    minimum: dict[int, int]
    collect: dict[int, tuple[int, int]]
    steps: int = 6

    @property
    def top(self) -> int:
        return len(self.rungs_x)

    def count(self, scatters: int) -> int:
        """The trigger count the ladder's rules use (5 or more count as the largest)."""
        return min(scatters, max(self.minimum))

    def move(self, position: int, rungs: int) -> tuple[int, int]:
        """(the rung reached, the rung after its shortcut) climbing ``rungs`` from ``position``."""
        landed = min(position + rungs, self.top)
        return landed, self.shortcuts.get(landed, landed)

    def collect_allowed(self, count: int, position: int) -> bool:
        """May a pumpkin leading to ``position`` show COLLECT (for ``count`` Bonus symbols)?"""
        return position >= self.minimum[self.count(count)]


def _table(f: Field, *, minimum: int = 1, maximum: int | None = None, offset: int = 0) -> tuple[tuple[int, int], ...]:
    """A weight table ``{"value": weight}`` as (value - offset, weight) pairs, values increasing."""
    out = []
    for k, v in f.items():
        if not k.isdigit() or int(k) < minimum or (maximum is not None and int(k) > maximum):
            bound = f"{minimum} to {maximum}" if maximum is not None else f"at least {minimum}"
            raise v.error(f"values must be whole numbers {bound}")
        out.append((int(k) - offset, v.as_int(minimum=1)))
    if not out:
        raise f.error("needs at least one value")
    if [k for k, _ in out] != sorted({k for k, _ in out}):
        raise f.error("values must be listed in increasing order")
    return tuple(out)


def _chance(f: Field) -> tuple[int, int]:
    num = f.get("numerator").as_int(minimum=0)
    den = f.get("denominator").as_int(minimum=1)
    if num > den:
        raise f.error("a chance is at most 1")
    return num, den


def scatter_rules(f: Field, data: LinesGameData) -> tuple[str, tuple[int, ...]]:
    """A scatter section: its symbol and its pays by count (total bets; more pay as the most)."""
    sym = f.get("symbol").as_str()
    if sym not in {s.id for s in data.symbols} or not data.symbol(sym).is_scatter or data.symbol(sym).is_wild:
        raise f.get("symbol").error(f"{sym!r} must be a scatter symbol of the game")
    pays = _table(f.get("pays_x"), minimum=1, maximum=CELLS)
    # By count 0 .. the largest listed; more scatters pay as the largest count.
    by_count = [0] * (pays[-1][0] + 1)
    for k, v in pays:
        by_count[k] = v
    return sym, tuple(by_count)


def rider_rules(f: Field) -> RiderRules:
    """The ``rider`` section."""
    den = f.get("denominator").as_int(minimum=1)
    wf = f.get("weights")
    weights = tuple(wf.get(name).as_int(minimum=0) for name in FEATURES)
    extra = sorted(set(wf.as_dict()) - set(FEATURES))
    if extra:
        raise wf.error(f"unknown features {extra}; the features are {', '.join(FEATURES)}")
    if sum(weights) > den:
        raise wf.error(f"the weights add up to more than the denominator {den}")
    mega = _table(f.get("mega_wild"), minimum=1, maximum=3, offset=1)
    return RiderRules(
        den,
        weights,
        _table(f.get("pumpkin_tree"), minimum=2),
        _table(f.get("random_wilds"), minimum=1, maximum=CELLS),
        mega,
        _table(f.get("free_spins"), minimum=3, maximum=5),
        _table(f.get("full_moon_bonus"), minimum=3, maximum=5),
    )


def free_spin_rules(f: Field) -> FreeSpinRules:
    """The ``free_spins`` section."""
    bf = f.get("bonus_spins")
    num, den = _chance(bf.get("chance"))
    trigger = f.get("trigger").as_int(minimum=1)
    if trigger > 5:
        raise f.get("trigger").error("the Rider drops the trigger count on 5 reels: at most 5")
    return FreeSpinRules(
        trigger,
        _table(f.get("cauldron")),
        f.get("per_extra_scatter").as_int(minimum=0),
        num,
        den,
        _table(bf.get("cauldron")),
        bf.get("max_awards").as_int(minimum=0),
    )


def ladder_rules(f: Field) -> LadderRules:
    """The ``full_moon_bonus`` section: rungs, shortcuts and minimums are given as multipliers."""
    rf = f.get("rungs_x")
    rungs = tuple(x.as_int(minimum=1) for x in rf.as_list(min_len=2))
    if list(rungs) != sorted(set(rungs)):
        raise rf.error("the rungs must increase")
    index = {x: i + 1 for i, x in enumerate(rungs)}

    def rung(v: Field, value: int) -> int:
        if value not in index:
            raise v.error(f"{value}x is not a rung of the ladder")
        return index[value]

    shortcuts: dict[int, int] = {}
    for k, v in f.get("shortcuts_x").items():
        a = rung(v, int(k) if k.isdigit() else -1)
        b = rung(v, v.as_int(minimum=1))
        if b <= a:
            raise v.error("a shortcut leads up the ladder")
        shortcuts[a] = b
    for b in shortcuts.values():
        if b in shortcuts:
            raise f.get("shortcuts_x").error(f"rung {b} ends one shortcut and starts another")
    trigger = f.get("trigger").as_int(minimum=1)
    minimum: dict[int, int] = {}
    collect: dict[int, tuple[int, int]] = {}
    mf = f.get("minimum_x")
    cf = f.get("collect_chance")
    for k, v in mf.items():
        if not k.isdigit() or not trigger <= int(k) <= 5:
            raise v.error(f"counts are {trigger} to 5")
        m = rung(v, v.as_int(minimum=1))
        if m in shortcuts:
            raise v.error("a minimum cannot be the start of a shortcut")
        minimum[int(k)] = m
        collect[int(k)] = _chance(cf.get(k))
    if sorted(minimum) != list(range(trigger, max(minimum) + 1)):
        raise mf.error(f"needs a minimum for every count from {trigger}")
    return LadderRules(trigger, rungs, shortcuts, minimum, collect)


def jackpot_rules(f: Field) -> JackpotRules:
    """The ``jackpot`` section (the shared time jackpot)."""
    return JackpotRules.from_field(f)
