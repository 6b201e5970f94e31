"""Exact RTP of Moonshine.

Everything is in multiples of the total bet (lines x coins x coin size) and exact
(`fractions.Fraction`). Every pay is a whole number of coins times the coin size, so the
RTP is the same at every coin size and coin count; every line sees the same per-reel symbol
distribution and the Sheriff and the bonus pay on the total bet, so it is the same at every
line count too (there is no win limit).

* Lines, Grandma's own pays included: per-reel symbol counts through the game's own line
  evaluator (`line_stats`); one line's expected pay in line bets is the lines' share of the
  total bet.
* The Sheriff: his count over the window by convolving each reel's column counts.
* The bonus: the count k of bonus symbols by convolution. The board is shuffled when the
  bonus starts, so a pick is a uniformly random order of the blocks cut at the first stopper
  (`pyengine.features.pick`): with s stoppers, each block is revealed before the first with
  probability 1/(s+1) and each pair with 2/((s+1)(s+2)), which gives E[spins x multiplier]
  in closed form (`pick_moments`); the whole distribution of (spins, multiplier) follows
  from the number of blocks revealed (a negative hypergeometric law) and which they are
  (multivariate hypergeometric), `pick_distribution`. The free spins are drawn
  independently of the pick, so E[bonus | k] = E[S M | k] x E[one free spin] (Wald), the
  free spin's value from the free strips' counts as above.
* Hit rate, volatility and the max win depend on the active lines: they come from the exact
  distribution of one spin's whole win over every stop combination (`spin_distribution`),
  the base spin jointly with its bonus count.
* The showcase's features (`features`): the bonus and its count of symbols, the multiplier
  and the top of the board from the pick's distribution weighted by the counts, the
  Sheriff's counts in the base spin, and five Grandmas on an enabled line of the base spin
  from the windows that show her on all five reels (`five_wilds_probability`).
* The exact distribution of a round's win (`distribution`, for the par sheet): the spin
  tables compounded with the pick's distribution, M (F_1 + ... + F_S), in float64 products;
  no win limit, so the grid of 1/lines total bets holds every win the game can pay.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from fractions import Fraction
from itertools import product
from operator import add, truediv
from typing import Any

from . import BonusRules, Moonshine
from .showcase import BONUS, FIVE_WILDS, FULL_BOARD, MOST_SPINS, bonus_id, multiplier_id, sheriff_id
from ...model import ReelSet
from ...math.compound import tilt_rate
from ...math.memo import LastFor
from ...math.parsheet import WinDistribution, length_table
from ...math.poly import product as poly_product
from ...math.rtp import report_header
from ...math.exact import convolve, count_distribution, line_stats, spin_distribution

__all__ = [
    "MoonshineMath",
    "RoundFigures",
    "SpinTables",
    "distribution",
    "features",
    "five_wilds_probability",
    "moonshine_math",
    "pick_distribution",
    "pick_moments",
    "report",
    "round_figures",
    "spin_tables",
]


# -- the pick -----------------------------------------------------------------------------------
def pick_moments(rules: BonusRules, count: int) -> tuple[Fraction, Fraction, Fraction]:
    """E[S], E[M] and E[S M] of a bonus started by ``count`` symbols, in closed form.

    S = S0 + sum a_i X_i and M = M0 + sum b_i X_i over the non-stopper blocks i, X_i = 1 when
    block i is revealed before the first of the s stoppers: E[X_i] = 1/(s+1) and, for i != j,
    E[X_i X_j] = 2/((s+1)(s+2)). A block may add both (then E[X_i^2] = E[X_i] counts it once).
    """
    s0, m0 = rules.start[count]
    values = [rules.blocks[p] for p in rules.pick.prizes if p in rules.blocks]
    s = rules.pick.cells - len(values)
    a = sum(x for x, _ in values)
    b = sum(y for _, y in values)
    both = sum(x * y for x, y in values)
    one = Fraction(1, s + 1)
    two = Fraction(2, (s + 1) * (s + 2))
    mean_s = s0 + a * one
    mean_m = m0 + b * one
    mean_sm = s0 * m0 + (s0 * b + m0 * a) * one + both * one + (a * b - both) * two
    return mean_s, mean_m, mean_sm


def pick_distribution(rules: BonusRules, count: int) -> dict[tuple[int, int], Fraction]:
    """The exact distribution of (spins, multiplier) of a bonus started by ``count`` symbols.

    With N blocks that add something and s stoppers in a uniform order, the number T revealed
    before the first stopper has P(T >= t) = C(N, t) / C(N + s, t); given T = t, the revealed
    blocks are a uniform t-subset of the N (multivariate hypergeometric over the labels)."""
    s0, m0 = rules.start[count]
    labels = Counter(p for p in rules.pick.prizes if p in rules.blocks)
    n = sum(labels.values())
    s = rules.pick.cells - n
    if not s:
        raise ValueError("the board needs a stopper")
    at_least = [Fraction(math.comb(n, t), math.comb(n + s, t)) for t in range(n + 2)]
    names = sorted(labels)
    out: dict[tuple[int, int], Fraction] = {}
    for taken in product(*(range(labels[x] + 1) for x in names)):
        t = sum(taken)
        p_t = at_least[t] - at_least[t + 1]
        ways = math.prod(math.comb(labels[x], k) for x, k in zip(names, taken, strict=True))
        p = p_t * Fraction(ways, math.comb(n, t))
        spins = s0 + sum(rules.blocks[x][0] * k for x, k in zip(names, taken, strict=True))
        mult = m0 + sum(rules.blocks[x][1] * k for x, k in zip(names, taken, strict=True))
        out[(spins, mult)] = out.get((spins, mult), Fraction(0)) + p
    return dict(sorted(out.items()))


# -- the RTP ------------------------------------------------------------------------------------
def _symbol_counts(reels: ReelSet, symbol: str) -> list[Fraction]:
    return convolve(count_distribution(reels, r, lambda col: col.count(symbol)) for r in range(len(reels.strips)))


@dataclass(frozen=True, slots=True)
class MoonshineMath:
    """Every exact expectation of the game, in total bets (independent of the bet).

    ``base_lines`` and ``base_sheriff`` are a base spin's line (Grandma included) and scatter
    wins; ``free_lines`` and ``free_sheriff`` one free spin's, at 1x; ``bonus_counts[k]`` =
    P(k bonus symbols) for the counts that start the bonus; ``pick[k]`` = (E[S], E[M], E[SM])."""

    base_lines: Fraction
    base_sheriff: Fraction
    free_lines: Fraction
    free_sheriff: Fraction
    sheriff_counts: tuple[Fraction, ...]
    bonus_counts: dict[int, Fraction]
    pick: dict[int, tuple[Fraction, Fraction, Fraction]]
    line_hit: Fraction

    @property
    def free_spin(self) -> Fraction:
        """One free spin at 1x."""
        return self.free_lines + self.free_sheriff

    @property
    def bonus_frequency(self) -> Fraction:
        return sum(self.bonus_counts.values(), Fraction(0))

    @property
    def spins_times_multiplier(self) -> Fraction:
        """E[S M] over the bonuses: P(k) E[S M | k] summed over k (per base spin)."""
        return sum((p * self.pick[k][2] for k, p in self.bonus_counts.items()), Fraction(0))

    @property
    def bonus_lines(self) -> Fraction:
        return self.spins_times_multiplier * self.free_lines

    @property
    def bonus_sheriff(self) -> Fraction:
        return self.spins_times_multiplier * self.free_sheriff

    @property
    def rtp(self) -> Fraction:
        return self.base_lines + self.base_sheriff + self.bonus_lines + self.bonus_sheriff

    def bonus_average(self, count: int | None = None) -> Fraction:
        """E[bonus win] in total bets, of a bonus started by ``count`` symbols (None: any)."""
        if count is not None:
            return self.pick[count][2] * self.free_spin
        return self.spins_times_multiplier * self.free_spin / self.bonus_frequency


def moonshine_math(game: Moonshine) -> MoonshineMath:
    """Compute every exact expectation of the game."""
    data = game.data
    nosub = (game.sheriff, game.bonus.symbol)

    def lines_of(reels: ReelSet) -> tuple[Fraction, Fraction]:
        st = line_stats(reels, data.paytable, wild=game.wild, wild_pays_as=game.wild, not_substituted=nosub)
        return st.ev, st.hit

    def sheriff_of(reels: ReelSet) -> tuple[Fraction, list[Fraction]]:
        dist = _symbol_counts(reels, game.sheriff)
        return sum((p * data.scatter_pays.get(n, 0) for n, p in enumerate(dist)), Fraction(0)), dist

    base_lines, line_hit = lines_of(game.base_reels)
    free_lines = lines_of(game.free_reels)[0] if game.free_reels is not game.base_reels else base_lines
    base_sheriff, sheriff_counts = sheriff_of(game.base_reels)
    free_sheriff = sheriff_of(game.free_reels)[0]
    bonus = _symbol_counts(game.base_reels, game.bonus.symbol)
    rules = game.bonus
    counts = {k: bonus[k] if k < len(bonus) else Fraction(0) for k in sorted(rules.start)}
    return MoonshineMath(
        base_lines=base_lines,
        base_sheriff=base_sheriff,
        free_lines=free_lines,
        free_sheriff=free_sheriff,
        sheriff_counts=tuple(sheriff_counts),
        bonus_counts=counts,
        pick={k: pick_moments(rules, k) for k in counts},
        line_hit=line_hit,
    )


# -- one spin's whole win, at a number of lines -------------------------------------------------
@dataclass(frozen=True, slots=True)
class SpinTables:
    """Exact distributions of one spin's whole win on ``lines`` lines, in line bets (the
    Sheriff counted ``lines`` times: he pays on the total bet).

    ``base[(win, k)]`` = stop combinations of the base reels (of ``base_radix``) with that win
    and k bonus symbols (0 for fewer than start the bonus); ``free[win]`` = stop
    combinations of the free reels (of ``free_radix``), at 1x."""

    lines: int
    base: dict[tuple[int, int], int]
    base_radix: int
    free: dict[int, int]
    free_radix: int


def spin_tables(game: Moonshine, lines: int) -> SpinTables:
    """Enumerate one base spin and one free spin on ``lines`` lines (`spin_distribution`)."""
    data = game.data
    paylines = data.paylines[:lines]
    pays = data.scatter_pays
    trigger = game.bonus.trigger
    nosub = (game.sheriff, game.bonus.symbol)
    sheriff, bonus = game.sheriff, game.bonus.symbol
    top = max(max(p.values(), default=0) for p in data.paytable.pays.values())
    # The bonus count rides on the win: spin_distribution's flag is a yes or no, and the
    # count is one of several (win < unit always).
    unit = lines * (top + max(pays.values(), default=0)) + 1
    raw = spin_distribution(
        game.base_reels,
        paylines,
        data.paytable,
        wild=game.wild,
        wild_pays_as=game.wild,
        not_substituted=nosub,
        counts=lambda col: (col.count(sheriff), col.count(bonus)),
        settle=lambda c: (lines * pays.get(c[0], 0) + unit * (c[1] if c[1] >= trigger else 0), False),
    )
    base: dict[tuple[int, int], int] = {}
    for (coded, _), n in raw.items():
        k, win = divmod(coded, unit)
        base[(win, k)] = base.get((win, k), 0) + n
    free_raw = spin_distribution(
        game.free_reels,
        paylines,
        data.paytable,
        wild=game.wild,
        wild_pays_as=game.wild,
        not_substituted=nosub,
        counts=lambda col: (col.count(sheriff),),
        settle=lambda c: (lines * pays.get(c[0], 0), False),
    )
    free: dict[int, int] = {}
    for (win, _), n in free_raw.items():
        free[win] = free.get(win, 0) + n
    return SpinTables(
        lines, dict(sorted(base.items())), game.base_reels.radix, dict(sorted(free.items())), game.free_reels.radix
    )


@dataclass(frozen=True, slots=True)
class RoundFigures:
    """What depends on the lines, in total bets: the RTP again (from the whole
    distributions, a check of `MoonshineMath.rtp`), P(a round wins), the variance of a
    round's return, the max win with its probability, and the largest win of one base spin
    and of one free spin (at 1x)."""

    rtp: Fraction
    hit: Fraction
    variance: Fraction
    max_win: Fraction
    max_win_probability: Fraction
    max_base: Fraction
    max_free: Fraction


def round_figures(game: Moonshine, tables: SpinTables) -> RoundFigures:
    """Compound the spin tables with the pick: per bonus count k, the bonus is M (F_1 + ... +
    F_S) with (S, M) from the pick and the F_i independent free spins."""
    rules = game.bonus
    lines = tables.lines
    fr = tables.free_radix
    mu = Fraction(sum(w * n for w, n in tables.free.items()), fr)
    m2 = Fraction(sum(w * w * n for w, n in tables.free.items()), fr)
    var_f = m2 - mu * mu
    q0 = Fraction(tables.free.get(0, 0), fr)
    f_max = max(tables.free)
    p_f_max = Fraction(tables.free[f_max], fr)
    picks = {k: pick_distribution(rules, k) for k in rules.start}
    # Per k: E[B], E[B^2], P(B = 0) and the largest B with its probability.
    bonus: dict[int, tuple[Fraction, Fraction, Fraction, int, Fraction]] = {}
    for k, dist in picks.items():
        e1 = sum((p * m * s for (s, m), p in dist.items()), Fraction(0)) * mu
        e2 = sum((p * m * m * (s * var_f + s * s * mu * mu) for (s, m), p in dist.items()), Fraction(0))
        zero = sum((p * q0**s for (s, _), p in dist.items()), Fraction(0))
        s_top = max(s for s, _ in dist)
        m_top = max(m for _, m in dist)
        p_top = dist.get((s_top, m_top), Fraction(0))
        bonus[k] = (e1, e2, zero, s_top * m_top * f_max, p_top * p_f_max**s_top)
    br = tables.base_radix
    mean = Fraction(0)
    second = Fraction(0)
    hit = Fraction(0)
    best = -1
    best_p = Fraction(0)
    max_base = max(w for w, _ in tables.base)
    for (win, k), n in tables.base.items():
        p = Fraction(n, br)
        if k:
            e1, e2, zero, top, p_top = bonus[k]
            mean += p * (win + e1)
            second += p * (win * win + 2 * win * e1 + e2)
            hit += p if win else p * (1 - zero)
            if win + top > best:
                best, best_p = win + top, Fraction(0)
            if win + top == best:
                best_p += p * p_top
        else:
            mean += p * win
            second += p * win * win
            hit += p if win else 0
            if win > best:
                best, best_p = win, Fraction(0)
            if win == best:
                best_p += p
    rtp = mean / lines
    variance = second / (lines * lines) - rtp * rtp
    return RoundFigures(
        rtp, hit, variance, Fraction(best, lines), best_p, Fraction(max_base, lines), Fraction(f_max, lines)
    )


# -- the exact distribution of a round's win ----------------------------------------------------
_tables = LastFor(spin_tables)
"""`spin_tables`, kept for the game object last asked about (the report and the
distribution both need them)."""


def _stretched(out: list[float], x: list[float], m: int) -> None:
    """Add to ``out`` the distribution of m X, X distributed as ``x``."""
    end = m * (len(x) - 1) + 1
    out[0:end:m] = map(add, out[0:end:m], x)


def distribution(game: Moonshine, mode: str, settings: Mapping[str, int], lines: int) -> WinDistribution:
    """The exact distribution of a round's win (`pyengine.math.parsheet`), in 1/``lines`` of
    the total bet: a base spin without the bonus pays its own win; one that starts it with k
    symbols adds M (F_1 + ... + F_S), the free spins F_i independent of each other, of the
    pick and of the base spin.

    The board adds the same (spins, multiplier), (J, L), whatever k (`BonusRules.award`: the
    start of k plus the blocks revealed), so with (s_k, m_k) the start of k and F(z) one free
    spin's distribution, the bonus is sum over x of Q_x(z) F(z)^s_k stretched by m_k + x,
    Q_x = sum over j of P(J = j, L = x) F^j: a few float64 products (`pyengine.math.poly`).

    The products run on the distributions tilted by e^(r w), w the win in units: the product
    of tilted polynomials is the tilted product, and the FFT's error (about 1e-16 of the
    largest coefficient) lands on the far tail e^(r w) times smaller once the tilt is undone.
    The rate r is `compound.tilt_rate`'s for the largest E[e^(r (base win + bonus)) | k] over
    the counts k, so the error near the head grows by less than `compound.TILT_MASS`.
    """
    rules = game.bonus
    tables = _tables(game, lines)
    f_max = max(tables.free)
    f_items = [(w, n / tables.free_radix) for w, n in tables.free.items()]
    # The board's (J, L), read off the pick's distribution of the fewest symbols.
    s0, m0 = rules.start[rules.trigger]
    board = {(s - s0, m - m0): float(p) for (s, m), p in pick_distribution(rules, rules.trigger).items()}
    j_top = max(j for j, _ in board)
    extras = sorted({x for _, x in board})
    starts = {k: rules.start[k][0] for k in rules.start}
    top_base = max(w for w, _ in tables.base)
    most = {k: rules.most(k) for k in rules.start}
    size = top_base + max(s * m for s, m in most.values()) * f_max + 1
    quiet = [0.0] * (top_base + 1)  # the base spins without the bonus, by their win
    by_count: dict[int, dict[int, float]] = {}  # the base spins that start it, by count and win
    for (win, k), n in tables.base.items():
        if k:
            spins_k = by_count.setdefault(k, {})
            spins_k[win] = spins_k.get(win, 0.0) + n / tables.base_radix
        else:
            quiet[win] += n / tables.base_radix

    def mass(rate: float) -> float:
        """The largest E[e^(rate x (base win + bonus)) | k] over the counts k."""
        per_m: dict[int, float] = {}
        worst = 0.0
        for k, base in by_count.items():
            s_k, m_k = rules.start[k]
            e_base = math.fsum(p * math.exp(rate * w) for w, p in base.items()) / math.fsum(base.values())
            e_bonus = 0.0
            for (j, x), p in board.items():
                m = m_k + x
                if m not in per_m:
                    per_m[m] = math.fsum(q * math.exp(rate * m * w) for w, q in f_items)
                e_bonus += p * per_m[m] ** (s_k + j)
            worst = max(worst, e_base * e_bonus)
        return worst

    rate = tilt_rate(mass, size)
    tilt = list(map(math.exp, map(rate.__mul__, range(size))))

    # Q_x and the powers F^s_k that make the bonuses at multiplier m, tilted by e^(r m w): once
    # stretched to m w they are tilted by e^(r w), as the products after them need.
    j_end = max(j_top, *starts.values())
    q: dict[tuple[int, int], list[float]] = {}
    powers: dict[tuple[int, int], list[float]] = {}
    for m in sorted({rules.start[k][1] + x for k in by_count for x in extras}):
        f = [0.0] * (f_max + 1)
        for w, p in f_items:
            f[w] += p * math.exp(rate * m * w)
        xs = [x for x in extras if any(rules.start[k][1] + x == m for k in by_count)]
        sums = {x: [0.0] * (j_top * f_max + 1) for x in xs}
        power = [1.0]  # F^0
        for j in range(j_end + 1):
            if j:
                power = poly_product(power, f, j * f_max + 1)
            if j in starts.values():
                powers[(j, m)] = power
            for x in xs:
                p = board.get((j, x), 0.0)
                if p:
                    acc = sums[x]
                    acc[: len(power)] = map(add, acc, map(p.__mul__, power))
        q.update({(x, m): sums[x] for x in xs})
    tilted = [0.0] * size
    for k, base in sorted(by_count.items()):
        s_k, m_k = rules.start[k]
        spins, mult = most[k]
        b = [0.0] * (top_base + 1)
        for w, p in base.items():
            b[w] = p * tilt[w]
        bonus = [0.0] * (spins * mult * f_max + 1)
        for extra in extras:
            m = m_k + extra
            _stretched(bonus, poly_product(powers[(s_k, m)], q[(extra, m)], (s_k + j_top) * f_max + 1), m)
        tilted = list(map(add, tilted, poly_product(b, bonus, size)))
    probs = list(map(truediv, tilted, tilt))
    probs[: len(quiet)] = map(add, probs, quiet)
    return WinDistribution(
        Fraction(1, lines),
        [p if p > 0.0 else 0.0 for p in probs],  # the products' rounding noise around zero set to 0
        "exact: one base spin's whole win and its count of bonus symbols, and one free spin's win, over "
        "every stop combination (integers); the pick's exact distribution of spins and multiplier; the "
        "free spins summed and multiplied in float64 FFT products on tilted distributions; no win limit, "
        "every win on the grid",
    )


# -- the showcase's features -------------------------------------------------------------------
def five_wilds_probability(game: Moonshine, lines: int) -> Fraction:
    """P(a base spin shows Grandma on every reel of one of the first ``lines`` paylines),
    exactly: per reel, the rows at which its window shows her, with the number of stops that
    give them; the reels are independent, so the few combinations in which every reel shows
    her (about two thousand) are each checked against every enabled line."""
    wild = game.wild
    per_reel = [
        tuple(Counter(frozenset(r for r, sym in enumerate(col) if sym == wild) for col in cols if wild in col).items())
        for cols in game.base_reels.columns
    ]
    paylines = [p.rows for p in game.data.paylines[:lines]]
    ways = 0
    for combo in product(*per_reel):
        if any(all(row in shown for row, (shown, _) in zip(rows, combo, strict=True)) for rows in paylines):
            ways += math.prod(n for _, n in combo)
    return Fraction(ways, game.base_reels.radix)


def _feature(ident: str, title: str, p: Fraction, method: str) -> dict[str, Any]:
    return {"id": ident, "title": title, "probability": float(p), "exact": str(p), "method": method}


def features(game: Moonshine, m: MoonshineMath, lines: int) -> list[dict[str, Any]]:
    """The showcase's features of one paid round at ``lines`` lines (the ids are
    `pyengine.games.moonshine.showcase`'s), each with its exact probability: the bonus; the
    bonus by its count of bonus symbols; by the multiplier the board gives (each above the
    start's); every spin block, and every block, opened before a Start block; 3, 4 and 5
    Sheriffs paying in the base spin; five Grandmas on an enabled line of the base spin.

    The pick's figures are P(k symbols) x P(the board gives it | k) summed over the counts k
    (`pick_distribution`: the board is drawn independently of the spin)."""
    rules = game.bonus
    picks = {k: pick_distribution(rules, k) for k in rules.start}
    counts = m.bonus_counts
    top = {k: rules.most(k) for k in rules.start}

    def over_counts(given: Callable[[int, tuple[int, int]], bool]) -> Fraction:
        """P(a bonus whose (spins, multiplier) satisfy ``given(k, ...)``), over the counts k."""
        return sum(
            (counts[k] * q for k, dist in picks.items() for sm, q in dist.items() if given(k, sm)), Fraction(0)
        )

    by_pick = "exact: P(k bonus symbols) x P({} | k) from the pick's distribution, over k"
    convolved = "exact: P({}) from the reels' column counts convolved"
    out = [_feature(BONUS, "The Moonshine Bonus", m.bonus_frequency, convolved.format("3 or more bonus symbols"))]
    for k, p in counts.items():
        out.append(_feature(bonus_id(k), f"The Moonshine Bonus from {k} bonus symbols", p,
                            convolved.format(f"{k} bonus symbols")))
    low = min(x for _, x in rules.start.values())
    for x in sorted({x for dist in picks.values() for _, x in dist if x > low}):
        p = sum((counts[k] * q for k, dist in picks.items() for (_, y), q in dist.items() if y == x), Fraction(0))
        out.append(_feature(multiplier_id(x), f"Moonshine free spins at {x}×", p,
                            by_pick.format(f"the board gives {x}x")))
    out.append(_feature(MOST_SPINS, "The Moonshine Bonus with every free spin on the board",
                        over_counts(lambda k, sm: sm[0] == top[k][0]),
                        by_pick.format("every spin block before a Start block")))
    out.append(_feature(FULL_BOARD, "The Moonshine Bonus at its most: every block before Start",
                        over_counts(lambda k, sm: sm == top[k]), by_pick.format("every block before a Start block")))
    sheriff = game.data.symbol(game.sheriff).name
    for n, p in enumerate(m.sheriff_counts):
        if game.data.scatter_pays.get(n, 0) and p:
            out.append(_feature(sheriff_id(n), f"{n} {sheriff}s pay in the base game", p,
                                convolved.format(f"{n} Sheriffs in the base window")))
    wild = game.data.symbol(game.wild).name
    out.append(_feature(FIVE_WILDS, f"Five {wild}s on a line, her top pay", five_wilds_probability(game, lines),
                        "exact: every base window with Grandma on all five reels, checked on each enabled line"))
    return out


# -- the report ---------------------------------------------------------------------------------
def _one_in(p: Fraction) -> str:
    """``p`` as "1 in N", with N as a power of ten when it is astronomically large."""
    if not p:
        return "never"
    n = 1 / p
    if n < 10**12:
        return f"1 in {float(n):,.0f}"
    digits = len(str(n.numerator // n.denominator)) - 1
    return f"1 in {float(n / 10**digits):.2f}e{digits}"


def _spins_played(
    counts: Mapping[int, Fraction], picks: Mapping[int, Mapping[tuple[int, int], Fraction]]
) -> dict[int, Fraction]:
    """P(the bonus plays n free spins | the bonus started), over the bonus symbols' count."""
    total = sum(counts.values(), Fraction(0))
    out: dict[int, Fraction] = {}
    for k, pk in counts.items():
        for (spins, _), p in picks[k].items():
            out[spins] = out.get(spins, Fraction(0)) + pk / total * p
    return out


def report(game: Moonshine, mode: str, settings: Mapping[str, int], lines: int) -> dict[str, Any]:
    """The exact RTP report (see `pyengine.math.rtp.rtp_report`), every figure exact; the hit
    rate, the volatility and the max win at ``lines`` lines."""
    m = moonshine_math(game)
    tables = _tables(game, lines)
    fig = round_figures(game, tables)
    if fig.rtp != m.rtp:
        raise AssertionError(f"the two exact computations differ: {fig.rtp} and {m.rtp}")
    rules = game.bonus
    picks = {k: pick_distribution(rules, k) for k in rules.start}
    freq = m.bonus_frequency
    spins_mult: dict[str, dict[str, float]] = {
        str(k): {f"{s}x{mult}": float(p) for (s, mult), p in dist.items()} for k, dist in picks.items()
    }
    most = {}
    for k, dist in picks.items():
        s_top, m_top = rules.most(k)
        most[str(k)] = {
            "spins": s_top,
            "multiplier": m_top,
            "probability": float(dist.get((s_top, m_top), Fraction(0))),
            "spins_probability": float(sum((p for (s, _), p in dist.items() if s == s_top), Fraction(0))),
            "multiplier_probability": float(sum((p for (_, x), p in dist.items() if x == m_top), Fraction(0))),
        }
    out: dict[str, Any] = {
        **report_header(
            game, mode, m.rtp,
            method=(
                "exact (fractions): line and Grandma wins from per-reel symbol counts; the Sheriff and the bonus "
                "symbol by convolving the reels' column counts; the pick in closed form over the board's blocks "
                "(E[spins x multiplier]) times the exact value of one free spin; checked against the exact "
                "distribution of one base spin (with its bonus count) and one free spin over every stop combination"
            ),
            components={
                "base_lines": m.base_lines,
                "base_sheriff": m.base_sheriff,
                "bonus_lines": m.bonus_lines,
                "bonus_sheriff": m.bonus_sheriff,
            },
        ),
        "max_win_x": float(fig.max_win),
        "max_win_bound": False,
        "max_win_probability": float(fig.max_win_probability),
        "max_base_spin_x": float(fig.max_base),
        "max_free_spin_x": float(fig.max_free),
        "hit_rate": float(fig.hit),
        "line_hit_probability": float(m.line_hit),
        "stdev": math.sqrt(fig.variance),
        "feature_frequency": float(freq),
        "feature_every": float(1 / freq),
        "feature_average_x": float(m.bonus_average()),
        "bonus_count_distribution": {str(k): float(p) for k, p in m.bonus_counts.items()},
        "bonus_average_by_count_x": {str(k): float(m.bonus_average(k)) for k in m.bonus_counts},
        "free_spin_x": float(m.free_spin),
        "expected_spins": {str(k): float(v[0]) for k, v in m.pick.items()},
        "expected_multiplier": {str(k): float(v[1]) for k, v in m.pick.items()},
        "expected_spins_times_multiplier": {str(k): float(v[2]) for k, v in m.pick.items()},
        "spins_multiplier_distribution": spins_mult,
        "feature_lengths": [
            length_table(
                "The Moonshine Bonus",
                "free spins played (the blocks picked before Start)",
                _spins_played(m.bonus_counts, picks),
                "exact: P(k bonus symbols) x the pick's distribution of (spins, multiplier) given k (fractions)",
            )
        ],
        "most": most,
        "sheriff_count_distribution": {str(n): float(p) for n, p in enumerate(m.sheriff_counts)},
    }
    out["features"] = features(game, m, lines)
    top = most[str(max(rules.start))]
    out["summary"] = [
        f"bonus every {out['feature_every']:.1f} spins, average bonus {out['feature_average_x']:.2f}x the total bet; "
        f"one free spin {out['free_spin_x']:.4f}x at 1x",
        "E[spins x multiplier]  "
        + "  ".join(f"{k} symbols: {v:.4f}" for k, v in out["expected_spins_times_multiplier"].items()),
        f"most {top['spins']} spins at {top['multiplier']}x: 1 bonus in {1 / top['probability']:,.0f}; "
        f"hit rate {float(fig.hit) * 100:.2f}%, stdev {out['stdev']:.2f}",
        f"max win {out['max_win_x']:,.0f}x at {lines} lines ({_one_in(fig.max_win_probability)})",
    ]
    return out
