"""The exact distribution of a Moon Spell round's win (`pyengine.math.parsheet`), base game.

On a grid of 1/U of the total stake, U the least common multiple of the lines (a line win is
in bets per line) and of the Moon prizes' denominators:

* One base spin over every stop combination (`exact.spin_distribution`, integers): its line
  win L jointly with the Moons it shows, k.
* k Moons of a cash count pay L plus k base prizes: the prize distribution's k-th power.
* k >= the trigger starts Hold and Respin. It ends with n Moons with the absorbing chain's
  probability (`report.final_distributions`); then it pays the ladder's rung for n, the k
  base prizes and n - k respin prizes, all independent of the landings. So for a start of k
  the bonus pays B^k x sum over n of P(n | k) z^ladder(n) R^(n - k) (B, R the base and
  respin prize distributions), and the round that much more than L; the whole is capped at
  the max win (the mass above it is paid the max win).
* The time jackpot drops by the clock, not by the round (its pot depends on how long and how
  much is played): its contribution is kept apart (``apart``), the buckets hold the game's win.

The products are float64 (`pyengine.math.poly`). The Feature Buy gives no exact
distribution here: its par sheet simulates.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from fractions import Fraction

from . import POSITIONS, MoonSpell
from ...math.exact import spin_distribution
from ...math.parsheet import WinDistribution
from ...math.poly import product
from .report import _check_uncapped_spins, game_finals

__all__ = ["bonus_wins", "distribution", "grid_units", "line_and_moons"]


def line_and_moons(game: MoonSpell) -> dict[tuple[int, int], int]:
    """One base spin over every stop combination: {(line win in bets per line, Moons shown):
    stop combinations}, adding up to the base reels' radix."""
    d = game.data
    moon = game.moon.symbol
    return spin_distribution(
        game.base_reels,
        d.paylines,
        d.paytable,
        wild=game.wild,
        wild_pays_as=game.wild_pays_as,
        not_substituted=(moon,),
        counts=lambda col: (col.count(moon),),
        settle=lambda c: (0, c[0]),
    )


def _prizes(values: Sequence[int], weights: Sequence[int]) -> list[float]:
    """One Moon's prize on the grid: P(prize = i units)."""
    out = [0.0] * (max(values) + 1)
    total = sum(weights)
    for v, w in zip(values, weights, strict=True):
        out[v] += w / total
    return out


def _powers(one: list[float], most: int, size: int) -> list[list[float]]:
    """``one`` to the powers 0 .. ``most``, each cut at ``size`` coefficients."""
    out = [[1.0]]
    for _ in range(most):
        prev = out[-1]
        out.append(product(prev, one, min(len(prev) + len(one) - 1, size)))
    return out


def _capped(x: list[float], y: list[float], cap: int, mass: float) -> list[float]:
    """x * y up to ``cap`` - 1, and at ``cap`` the rest of ``mass`` (what x * y holds in all)."""
    got = [max(p, 0.0) for p in product(x, y, min(len(x) + len(y) - 1, cap))]
    return [*got, *[0.0] * (cap - len(got)), max(mass - math.fsum(got), 0.0)]


def grid_units(game: MoonSpell, lines: int) -> int:
    """U: the grid's steps per total stake (a line win and every Moon prize land on it)."""
    return math.lcm(lines, *(x.denominator for x in game.moon.prizes_x))


def bonus_wins(game: MoonSpell, units: int) -> dict[int, list[float]]:
    """For each start of k >= the trigger Moons, the distribution of what Hold and Respin pays
    (its prizes and its rung, capped at the max win) on the grid of 1/``units`` total stakes;
    the last entry is the max win, with the mass that reaches it."""
    moon = game.moon
    rules = game.respin
    prize_units = [int(x * units) for x in moon.prizes_x]
    cap = game.max_win_x * units
    positions = len(POSITIONS)
    base_powers = _powers(_prizes(prize_units, moon.base_weights), positions, cap)
    respin_powers = _powers(_prizes(prize_units, moon.respin_weights), positions - rules.trigger, cap)
    finals = game_finals(game)
    out: dict[int, list[float]] = {}
    for k in range(rules.trigger, positions + 1):
        # What the bonus adds to the prizes of the k Moons that start it.
        after: list[float] = []
        for n, pn in enumerate(finals[k]):
            if not pn:
                continue
            shift = rules.ladder.get(n, 0) * units
            add = respin_powers[n - k]
            if len(after) < shift + len(add):
                after.extend([0.0] * (shift + len(add) - len(after)))
            q = float(pn)
            for i, p in enumerate(add, shift):
                after[i] += q * p
        out[k] = _capped(base_powers[k], after, cap, 1.0)
    return out


def distribution(game: MoonSpell, mode: str, settings: Mapping[str, int], lines: int) -> WinDistribution | None:
    """The base game's round win, exactly (see the module); None for the Feature Buy."""
    if mode != "base":
        return None
    _check_uncapped_spins(game)
    moon = game.moon
    rules = game.respin
    cash_counts = set(moon.cash_counts)
    if max(cash_counts, default=0) >= rules.trigger:
        raise NotImplementedError("a cash count that also starts Hold and Respin is not modelled")
    units = grid_units(game, lines)
    per_line = units // lines
    cash_prize = _prizes([int(x * units) for x in moon.prizes_x], moon.base_weights)
    cap = game.max_win_x * units
    radix = game.base_reels.radix
    # P(L, k) by k: the line wins of the windows showing k Moons, on the grid.
    by_moons: dict[int, list[float]] = {}
    for (win, k), ways in line_and_moons(game).items():
        row = by_moons.setdefault(k, [])
        at = win * per_line
        if len(row) <= at:
            row.extend([0.0] * (at + 1 - len(row)))
        row[at] += ways / radix
    bonus = bonus_wins(game, units)
    cash_powers = _powers(cash_prize, max(cash_counts, default=0), cap)
    probs = [0.0] * (cap + 1)
    for k, row in sorted(by_moons.items()):
        if k >= rules.trigger:
            paid = _capped(row, bonus[k], cap, math.fsum(row))
        elif k in cash_counts:
            paid = product(row, cash_powers[k], len(row) + len(cash_powers[k]) - 1)
        else:
            paid = row
        if len(paid) > cap + 1 or (k < rules.trigger and len(paid) > cap):
            raise AssertionError("a spin without the bonus reached the max win")
        for i, p in enumerate(paid):
            probs[i] += max(p, 0.0)
    return WinDistribution(
        Fraction(1, units),
        probs,
        "exact: one base spin's line win and its Moons over every stop combination (integers); the cash "
        "prizes as powers of the prize distribution, Hold and Respin's final count from its absorbing chain, "
        "its prizes and ladder by float64 FFT, the max-win cap applied to the whole; the time jackpot apart",
        apart={"jackpot_contribution": float(game.jackpot.contribution)},
    )
