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

The Feature Buy starts Hold and Respin with k Moons drawn from its weights, without a line
spin or the jackpot: the same bonus distributions, mixed by the weights, its RTP per unit of
its price.

The products are float64 (`pyengine.math.poly`), each coefficient to about 1e-16 of the
whole. Beside each distribution its support (the wins it can pay) is built in integers, as a
bit set; a win outside it gets probability 0, not the products' rounding (an impossible win
would otherwise show as "1 in 1e17").
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


def _prize_powers(game: MoonSpell, units: int, weights: Sequence[int], most: int) -> list[tuple[list[float], int]]:
    """The sum of j prizes drawn by ``weights``, for j = 0 .. ``most``: its distribution on the
    grid and its support, each cut at the max win."""
    one = _prizes([int(x * units) for x in game.moon.prizes_x], weights)
    cap = game.max_win_x * units
    first = _support(one)
    out = [([1.0], 1)]
    for _ in range(most):
        prev, support = out[-1]
        out.append((product(prev, one, min(len(prev) + len(one) - 1, cap)), _sumset(support, first, cap)))
    return out


def _support(probs: Sequence[float]) -> int:
    """The bit set of the grid points ``probs`` gives a chance (bit i: win i)."""
    return int("".join("1" if p > 0 else "0" for p in reversed(probs)) or "0", 2)


def _sumset(a: int, b: int, cap: int) -> int:
    """The bit set of x + y for x in ``a`` and y in ``b``, every sum of ``cap`` or more at ``cap``."""
    out = 0
    while b:
        low = b & -b
        out |= a << (low.bit_length() - 1)
        b ^= low
    return out if out >> cap == 0 else (out & ((1 << cap) - 1)) | (1 << cap)


def _on(probs: list[float], support: int) -> list[float]:
    """``probs`` where ``support`` has the point, 0 elsewhere."""
    bits = bin(support)[:1:-1]
    return [p if i < len(bits) and bits[i] == "1" else 0.0 for i, p in enumerate(probs)]


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
    the last entry is the max win, with the mass that reaches it. Each is 0 outside its
    support (see the module)."""
    return {k: probs for k, (probs, _) in _bonus(game, units).items()}


def _bonus(game: MoonSpell, units: int) -> dict[int, tuple[list[float], int]]:
    """`bonus_wins` with each one's support."""
    rules = game.respin
    cap = game.max_win_x * units
    positions = len(POSITIONS)
    base = _prize_powers(game, units, game.moon.base_weights, positions)
    respin = _prize_powers(game, units, game.moon.respin_weights, positions - rules.trigger)
    finals = game_finals(game)
    out: dict[int, tuple[list[float], int]] = {}
    for k in range(rules.trigger, positions + 1):
        # What the bonus adds to the prizes of the k Moons that start it, and the support of
        # the whole: k base and n - k respin prizes, shifted by the rung.
        after: list[float] = []
        support, prizes = 0, base[k][1]  # prizes: the support of k base and n - k respin prizes
        for n, pn in enumerate(finals[k]):
            if n > k:
                prizes = _sumset(prizes, respin[1][1], cap)  # one more respin prize: a few shifts
            if not pn:
                continue
            shift = rules.ladder.get(n, 0) * units
            add = respin[n - k][0]
            support |= prizes << shift
            if len(after) < shift + len(add):
                after.extend([0.0] * (shift + len(add) - len(after)))
            q = float(pn)
            for i, p in enumerate(add, shift):
                after[i] += q * p
        support = _sumset(support, 1, cap)
        out[k] = _on(_capped(base[k][0], after, cap, 1.0), support), support
    return out


def _bought(game: MoonSpell, lines: int) -> WinDistribution:
    """The Feature Buy's round win (see the module)."""
    units = grid_units(game, lines)
    bonus = bonus_wins(game, units)
    total = sum(w for _, w in game.buy.moons)
    probs = [0.0] * (game.max_win_x * units + 1)
    for k, w in game.buy.moons:
        share = w / total
        for i, p in enumerate(bonus[k]):
            probs[i] += share * p
    return WinDistribution(
        Fraction(1, units),
        probs,
        "exact: the bought bonus's start drawn from its weights; Hold and Respin's final count from its absorbing "
        "chain, its prizes and ladder by float64 FFT, capped at the max win",
        price=Fraction(game.buy.price_x),
    )


def distribution(game: MoonSpell, mode: str, settings: Mapping[str, int], lines: int) -> WinDistribution:
    """A round's win in ``mode`` (``base`` or ``buy``), exactly (see the module)."""
    if mode == "buy":
        return _bought(game, lines)
    _check_uncapped_spins(game)
    moon = game.moon
    rules = game.respin
    cash_counts = set(moon.cash_counts)
    if max(cash_counts, default=0) >= rules.trigger:
        raise NotImplementedError("a cash count that also starts Hold and Respin is not modelled")
    units = grid_units(game, lines)
    per_line = units // lines
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
    bonus = _bonus(game, units)
    cash = _prize_powers(game, units, moon.base_weights, max(cash_counts, default=0))
    probs = [0.0] * (cap + 1)
    for k, row in sorted(by_moons.items()):
        lines_won = _support(row)  # exact: the rows come from integer counts
        if k >= rules.trigger:
            won, support = bonus[k]
            paid = _on(_capped(row, won, cap, math.fsum(row)), _sumset(support, lines_won, cap))
        elif k in cash_counts:
            prizes, prize_support = cash[k]
            paid = _on(product(row, prizes, len(row) + len(prizes) - 1), _sumset(prize_support, lines_won, cap))
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
