"""Exact RTP of Moon Spell, both bet modes.

Everything is in multiples of the total stake and exact (`fractions.Fraction`).

* Base lines: per-reel symbol counts through the game's own line evaluator (`line_stats`);
  the Moon is never a line symbol.
* Moons: the count over the 15 positions by convolving each reel's column counts; 3 or 4
  Moons pay P(k) * k * E[base prize].
* Hold and Respin: the number held and the respins left form an absorbing Markov chain
  (each empty position lands with the same chance); solved backwards from 15 held, it gives,
  from every start count k, the distribution of the final count. The prizes are drawn
  independently of the landings, so E[cash | k] = k E[base prize] + E[new Moons] E[respin prize].
* The max-win cap: only a round whose win can exceed ``max_win_x`` loses anything. For such a
  final count n the win is L + ladder(n) + S with S the sum of k base and n - k respin prizes
  (their distribution by convolution in whole prize units, truncated at the cap: only
  E[(t - S)+] below the threshold is needed) and L the trigger spin's line win. In the base
  game L and k come from the same window: their joint distribution over the windows with a
  trigger is enumerated exactly (reels 1-3 by distinct columns, reels 4-5 only where enough
  Moons can still land).
* The time jackpot returns exactly its contribution (every pot drops, carrying fractions).
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from . import POSITIONS, MoonSpell
from .showcase import names
from ...math.parsheet import length_table
from ...math.rtp import report_header
from ...math.exact import convolve, count_distribution, line_stats

__all__ = [
    "BaseSpinStats",
    "CapTerms",
    "ModeMath",
    "MoonMath",
    "PrizeSums",
    "base_math",
    "bonus_value",
    "buy_math",
    "cap_terms",
    "final_distributions",
    "game_finals",
    "moon_math",
    "prize_moments",
    "report",
    "showcase_features",
    "trigger_spins",
]


# -- prizes -------------------------------------------------------------------------------------
def prize_moments(prizes: Sequence[Fraction], weights: Sequence[int]) -> tuple[Fraction, Fraction]:
    """E[prize] and E[prize^2] of one Moon, in total stakes."""
    total = sum(weights)
    mean = sum((x * w for x, w in zip(prizes, weights, strict=True)), Fraction(0)) / total
    square = sum((x * x * w for x, w in zip(prizes, weights, strict=True)), Fraction(0)) / total
    return mean, square


class PrizeSums:
    """The sum S of ``base`` Moons' base-weight prizes and ``respin`` Moons' respin-weight
    prizes, in prize units (1/``unit`` of the total stake), below a ``limit`` of units.

    ``cum0[i]``, ``cum1[i]`` and ``cum2[i]`` are the integer weights of S < i, times 1, S and
    S^2; all weights are over ``total`` (the product of the weight totals).
    """

    __slots__ = ("cum0", "cum1", "cum2", "limit", "total", "unit")

    def __init__(
        self,
        prizes: Sequence[Fraction],
        base_weights: Sequence[int],
        respin_weights: Sequence[int],
        base: int,
        respin: int,
        limit: int,
    ) -> None:
        unit = math.lcm(*(x.denominator for x in prizes))
        values = [int(x * unit) for x in prizes]
        self.unit = unit
        self.limit = limit
        dist = [0] * limit
        if limit:
            dist[0] = 1
        total = 1
        for weights, count in ((base_weights, base), (respin_weights, respin)):
            steps = [(v, w) for v, w in zip(values, weights, strict=True) if w and v < limit]
            for _ in range(count):
                nxt = [0] * limit
                for s, c in enumerate(dist):
                    if c:
                        for v, w in steps:
                            if s + v >= limit:
                                break
                            nxt[s + v] += c * w
                dist = nxt
                total *= sum(weights)
        self.total = total
        c0 = [0] * (limit + 1)
        c1 = [0] * (limit + 1)
        c2 = [0] * (limit + 1)
        for s, c in enumerate(dist):
            c0[s + 1] = c0[s] + c
            c1[s + 1] = c1[s] + c * s
            c2[s + 1] = c2[s] + c * s * s
        self.cum0 = c0
        self.cum1 = c1
        self.cum2 = c2

    def _index(self, t: Fraction) -> int:
        """How many unit values s satisfy s / unit < t (clamped to the tabulated range)."""
        i = math.ceil(t * self.unit)
        if i > self.limit:
            raise ValueError(f"threshold {t} lies beyond the tabulated {self.limit} units")
        return max(i, 0)

    def below(self, t: Fraction) -> Fraction:
        """P(S < t), ``t`` in total stakes."""
        return Fraction(self.cum0[self._index(t)], self.total)

    def shortfall(self, t: Fraction) -> Fraction:
        """E[(t - S)+], ``t`` in total stakes."""
        i = self._index(t)
        return (t * self.cum0[i] - Fraction(self.cum1[i], self.unit)) / self.total

    def square_below(self, t: Fraction) -> Fraction:
        """E[S^2 ; S < t], ``t`` in total stakes."""
        return Fraction(self.cum2[self._index(t)], self.total * self.unit * self.unit)

    def first_below(self, t: Fraction) -> Fraction:
        """E[S ; S < t], ``t`` in total stakes."""
        return Fraction(self.cum1[self._index(t)], self.total * self.unit)


# -- Hold and Respin ----------------------------------------------------------------------------
def final_distributions(positions: int, respins: int, numerator: int, denominator: int) -> list[list[Fraction]]:
    """``out[k][n]`` = P(the bonus ends with n Moons | it starts with k held and ``respins``
    respins), k, n = 0..positions: the absorbing chain over (held, respins left) solved
    backwards. A respin lands j new Moons with the binomial chance over the empty positions;
    j > 0 resets the respins, j = 0 uses one up; 0 respins left or all held absorbs."""
    size = positions + 1
    other = denominator - numerator

    def unit(n: int) -> list[Fraction]:
        v = [Fraction(0)] * size
        v[n] = Fraction(1)
        return v

    full: list[list[Fraction]] = [unit(n) for n in range(size)]  # state (n, respins)
    full[positions] = unit(positions)
    for n in range(positions - 1, -1, -1):
        m = positions - n
        den = denominator**m
        land = [Fraction(math.comb(m, j) * numerator**j * other ** (m - j), den) for j in range(m + 1)]
        # Landing somewhere leads to (n + j, respins), already known (j >= 1).
        reset = [Fraction(0)] * size
        for j in range(1, m + 1):
            pj = land[j]
            for f, q in enumerate(full[n + j]):
                if q:
                    reset[f] += pj * q
        # (n, r) = reset + land[0] * (n, r - 1); (n, 0) ends with n.
        state = unit(n)
        for _ in range(respins):
            state = [a + land[0] * b for a, b in zip(reset, state, strict=True)]
        full[n] = state
    return full


# -- the base spin ------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class BaseSpinStats:
    """Exact figures of one base spin.

    ``moons[k]`` = P(k Moons visible); ``trigger_counts[k][L]`` = the number of stop
    combinations (of ``radix``) showing k >= trigger Moons with line win L (in bets per line);
    ``line_hit`` = P(some line pays); ``hit`` = P(lines or Moons pay).
    """

    moons: tuple[Fraction, ...]
    trigger_counts: dict[int, dict[int, int]]
    radix: int
    line_hit: Fraction
    hit: Fraction


def _open_run(prefix: Sequence[str], wild: str, nosub: frozenset[str], paying: frozenset[str]) -> bool:
    """Can a further symbol still change this line's result? (as in `exact.line_stats`, and
    a run of a symbol that never pays, without a leading wild, is settled too)"""
    if all(x == wild for x in prefix):
        return True
    target = next(x for x in prefix if x != wild)
    if target not in paying and prefix[0] != wild:
        return False
    if target in nosub:
        return prefix[0] == target and all(x == target for x in prefix)
    return all(x in (target, wild) for x in prefix)


def trigger_spins(game: MoonSpell) -> BaseSpinStats:
    """Enumerate the base spin: every stop of reels 1-3 (by distinct column), and reels 4-5
    only where the window can still show a trigger (or a line's result is still open)."""
    reels = game.base_reels
    if len(reels.strips) != 5:
        raise ValueError("Moon Spell is played on 5 reels")
    moon = game.moon.symbol
    wild = game.wild
    nosub = frozenset((moon,))
    trigger = game.respin.trigger
    cash_min = min([*game.moon.cash_counts, trigger])
    evaluator = game.lines
    pays = game.data.paytable.pays
    paying = frozenset(s for s, p in pays.items() if any(v > 0 for v in p.values()))
    for sym, p in pays.items():
        ns = sorted(c for c, v in p.items() if v > 0)
        if any(p[a] > p[b] for a, b in itertools.pairwise(ns)):
            raise ValueError(f"the calculator expects {sym}'s pays to grow with the count")
    rows = [p.rows for p in game.data.paylines]
    cols = [sorted(Counter(reels.columns[r]).items()) for r in range(5)]
    mc = [{c: c.count(moon) for c, _ in cs} for cs in cols]
    max4 = max(mc[3].values())
    max5 = max(mc[4].values())
    # Stop combinations of reels 4 and 5 by Moon count.
    pair_moons: Counter[int] = Counter()
    for c4, w4 in cols[3]:
        for c5, w5 in cols[4]:
            pair_moons[mc[3][c4] + mc[4][c5]] += w4 * w5
    pair_total = sum(pair_moons.values())

    def at_least(need: int) -> int:
        """Stop combinations of reels 4-5 showing ``need`` Moons or more."""
        return sum(w for m, w in pair_moons.items() if m >= need)

    at_least_cash = [at_least(cash_min - m) for m in range(sum(max(d.values()) for d in mc[:3]) + 1)]

    cache: dict[tuple[str, ...], int] = {}

    def pay(syms: tuple[str, ...]) -> int:
        try:
            return cache[syms]
        except KeyError:
            hit = evaluator.evaluate_symbols(syms)
            v = cache[syms] = hit[2] if hit else 0
            return v

    pad2 = ("\0", "\0", "\0")
    pad3 = ("\0", "\0")
    counts: dict[int, Counter[int]] = {}
    line_hits = 0
    hits = 0

    def add(k: int, win: int, weight: int) -> None:
        if k not in counts:
            counts[k] = Counter()
        counts[k][win] += weight

    for c0, w0 in cols[0]:
        m0 = mc[0][c0]
        for c1, w1 in cols[1]:
            m01 = m0 + mc[1][c1]
            w01 = w0 * w1
            fixed2 = 0
            open2: list[tuple[int, tuple[str, str]]] = []
            for i, r in enumerate(rows):
                two = (c0[r[0]], c1[r[1]])
                if _open_run(two, wild, nosub, paying):
                    open2.append((i, two))
                else:
                    fixed2 += pay(two + pad2)
            for c2, w2 in cols[2]:
                m123 = m01 + mc[2][c2]
                w = w01 * w2
                fixed = fixed2
                open3: list[tuple[int, tuple[str, str, str]]] = []
                paying_now = False
                for i, pre2 in open2:
                    pre = (*pre2, c2[rows[i][2]])
                    if _open_run(pre, wild, nosub, paying):
                        open3.append((i, pre))
                        if not paying_now and pay(pre + pad3):
                            paying_now = True
                    else:
                        fixed += pay(pre + pad3)
                # Hit rates.
                line_sure = fixed > 0 or paying_now
                if line_sure:
                    line_hits += w * pair_total
                    hits += w * pair_total
                elif not open3:
                    hits += w * at_least_cash[m123]
                else:  # a line's result still open and not yet paying: look at reels 4-5
                    for c3, w3 in cols[3]:
                        for c4, w4 in cols[4]:
                            win = sum(pay((*pre, c3[rows[i][3]], c4[rows[i][4]])) for i, pre in open3)
                            if win:
                                line_hits += w * w3 * w4
                                hits += w * w3 * w4
                            elif m123 + mc[3][c3] + mc[4][c4] >= cash_min:
                                hits += w * w3 * w4
                # Trigger windows: joint (Moons, line win).
                need = trigger - m123
                if need > max4 + max5:
                    continue
                if not open3:
                    for m45, pw in pair_moons.items():
                        if m45 >= need:
                            add(m123 + m45, fixed, w * pw)
                    continue
                for c3, w3 in cols[3]:
                    m4 = m123 + mc[3][c3]
                    if m4 + max5 < trigger:
                        continue
                    fixed4 = fixed
                    open4: list[tuple[int, tuple[str, str, str, str]]] = []
                    for i, pre3 in open3:
                        pre4 = (*pre3, c3[rows[i][3]])
                        if _open_run(pre4, wild, nosub, paying):
                            open4.append((i, pre4))
                        else:
                            fixed4 += pay((*pre4, "\0"))
                    w3w = w * w3
                    for c4, w4 in cols[4]:
                        k = m4 + mc[4][c4]
                        if k >= trigger:
                            win = fixed4 + sum(pay((*pre4, c4[rows[i][4]])) for i, pre4 in open4)
                            add(k, win, w3w * w4)
    radix = reels.radix
    moons = convolve(count_distribution(reels, r, lambda col: col.count(moon)) for r in range(5))
    return BaseSpinStats(
        moons=tuple(moons),
        trigger_counts={k: dict(sorted(v.items())) for k, v in sorted(counts.items())},
        radix=radix,
        line_hit=Fraction(line_hits, radix),
        hit=Fraction(hits, radix),
    )


# -- the cap --------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class CapTerms:
    """For a start of k Moons: E[game win over the cap] and P(game win >= cap)."""

    excess: Fraction
    reach: Fraction


def cap_terms(game: MoonSpell, start: int, final: Sequence[Fraction], wins: dict[Fraction, Fraction]) -> CapTerms:
    """E[(L + ladder(n) + S - cap)+] and P(L + ladder(n) + S >= cap) for a bonus starting with
    ``start`` Moons (final count distribution ``final``) and line win L distributed as
    ``wins`` (conditional probabilities summing to 1)."""
    moon = game.moon
    ladder = game.respin.ladder
    cap = Fraction(game.max_win_x)
    top_b = max(x for x, w in zip(moon.prizes_x, moon.base_weights, strict=True) if w)
    top_r = max(x for x, w in zip(moon.prizes_x, moon.respin_weights, strict=True) if w)
    mean_b, _ = prize_moments(moon.prizes_x, moon.base_weights)
    mean_r, _ = prize_moments(moon.prizes_x, moon.respin_weights)
    top_l = max(wins, default=Fraction(0))
    excess = Fraction(0)
    reach = Fraction(0)
    for n, pn in enumerate(final):
        if not pn or n < start:
            continue
        lad = ladder.get(n, 0)
        if top_l + lad + start * top_b + (n - start) * top_r < cap:
            continue
        limit = math.ceil(max(cap - lad, Fraction(0)) * math.lcm(*(x.denominator for x in moon.prizes_x)))
        sums = PrizeSums(moon.prizes_x, moon.base_weights, moon.respin_weights, start, n - start, limit)
        mean_s = start * mean_b + (n - start) * mean_r
        for win, pl in wins.items():
            t = cap - lad - win
            # E[(S - t)+] = E[S] - t + E[(t - S)+]
            excess += pn * pl * (mean_s - t + sums.shortfall(t))
            reach += pn * pl * (1 - sums.below(t))
    return CapTerms(excess, reach)


# -- both modes -------------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class ModeMath:
    """One bet mode, per unit of what the round costs (``price_x`` total stakes).

    ``components`` are RTP parts (they sum to ``rtp``); ``starts[k]`` = P(bonus starts with k
    Moons | bonus); ``finals[n]`` = P(bonus ends with n | bonus); ``feature`` = P(bonus per
    round); ``max_win`` = P(the round's game win reaches the cap); ``bonus_average_x`` = the
    average capped bonus win (cash + ladder - cap excess, in total stakes).
    """

    mode: str
    price_x: int
    components: dict[str, Fraction]
    rtp: Fraction
    feature: Fraction
    starts: dict[int, Fraction]
    finals: dict[int, Fraction]
    max_win: Fraction
    bonus_average_x: Fraction
    ladder_probability: Fraction
    variance: Fraction | None


@dataclass(frozen=True, slots=True)
class MoonMath:
    """Both modes, the prize moments, and the base spin's figures."""

    base: ModeMath
    buy: ModeMath
    spin: BaseSpinStats
    base_prize: Fraction
    respin_prize: Fraction
    cash_probability: Fraction
    finals_by_start: dict[int, tuple[Fraction, ...]]

    def mode(self, mode: str) -> ModeMath:
        return self.base if mode == "base" else self.buy


def _bonus_parts(
    game: MoonSpell, starts: dict[int, Fraction], finals: Sequence[Sequence[Fraction]]
) -> tuple[Fraction, Fraction, dict[int, Fraction]]:
    """Cash and ladder expectations summed over ``starts`` (weights), and the weighted
    final-count distribution."""
    moon = game.moon
    mean_b, _ = prize_moments(moon.prizes_x, moon.base_weights)
    mean_r, _ = prize_moments(moon.prizes_x, moon.respin_weights)
    cash = Fraction(0)
    ladder = Fraction(0)
    out: dict[int, Fraction] = {}
    for k, pk in starts.items():
        fk = finals[k]
        new = sum((p * (n - k) for n, p in enumerate(fk)), Fraction(0))
        cash += pk * (k * mean_b + new * mean_r)
        ladder += pk * sum((p * game.respin.ladder.get(n, 0) for n, p in enumerate(fk)), Fraction(0))
        for n, p in enumerate(fk):
            if p:
                out[n] = out.get(n, Fraction(0)) + pk * p
    return cash, ladder, dict(sorted(out.items()))


def bonus_value(game: MoonSpell, start: int) -> Fraction:
    """The expected capped win (total stakes) of a bonus starting with ``start`` Moons and no
    line win: cash + ladder - cap excess."""
    finals = game_finals(game)
    cash, ladder, _ = _bonus_parts(game, {start: Fraction(1)}, finals)
    return cash + ladder - cap_terms(game, start, finals[start], {Fraction(0): Fraction(1)}).excess


def _bonus_second_moment(
    game: MoonSpell, starts: dict[int, Fraction], finals: Sequence[Sequence[Fraction]]
) -> Fraction:
    """E[W^2] of a bonus' capped win W (total stakes) without a line win, exactly: given the
    start and final counts, the cash is a sum of independent prizes."""
    moon = game.moon
    mean_b, sq_b = prize_moments(moon.prizes_x, moon.base_weights)
    mean_r, sq_r = prize_moments(moon.prizes_x, moon.respin_weights)
    var_b = sq_b - mean_b * mean_b
    var_r = sq_r - mean_r * mean_r
    top_b = max(x for x, w in zip(moon.prizes_x, moon.base_weights, strict=True) if w)
    top_r = max(x for x, w in zip(moon.prizes_x, moon.respin_weights, strict=True) if w)
    cap = Fraction(game.max_win_x)
    unit = math.lcm(*(x.denominator for x in moon.prizes_x))
    second = Fraction(0)
    for k, pk in starts.items():
        for n, pn in enumerate(finals[k]):
            if not pn or n < k:
                continue
            lad = game.respin.ladder.get(n, 0)
            mean_s = k * mean_b + (n - k) * mean_r
            if lad + k * top_b + (n - k) * top_r < cap:
                m2 = k * var_b + (n - k) * var_r + (mean_s + lad) ** 2
            else:
                t = cap - lad
                limit = math.ceil(max(t, Fraction(0)) * unit)
                sums = PrizeSums(moon.prizes_x, moon.base_weights, moon.respin_weights, k, n - k, limit)
                below = sums.below(t)
                # E[min(lad + S, cap)^2] = E[(lad + S)^2 ; S < t] + cap^2 P(S >= t)
                m2 = sums.square_below(t) + 2 * lad * sums.first_below(t) + lad * lad * below + cap * cap * (1 - below)
            second += pk * pn * m2
    return second


def game_finals(game: MoonSpell) -> list[list[Fraction]]:
    """`final_distributions` for the game's rules and its 15 positions."""
    r = game.respin
    return final_distributions(len(POSITIONS), r.respins, r.numerator, r.denominator)


def _check_uncapped_spins(game: MoonSpell) -> None:
    """The cap is only applied to rounds with a bonus: check that no other spin can reach it."""
    lines_top = max(max(p.values(), default=0) for p in game.data.paytable.pays.values())
    top_cash = max(game.moon.cash_counts, default=0) * max(game.moon.prizes_x)
    if lines_top + top_cash >= game.max_win_x:  # every line at the top pay: lines_top total stakes
        raise NotImplementedError("a spin without the bonus could reach the max win; the calculator ignores that")


def base_math(game: MoonSpell) -> tuple[ModeMath, BaseSpinStats, Fraction]:
    """The base mode (per total stake), the base spin's figures and P(3-4 Moons pay cash)."""
    data = game.data
    lines = len(data.paylines)
    if tuple(game.bets.lines) != (lines,):
        raise ValueError("the calculator expects every payline to be played")
    _check_uncapped_spins(game)
    moon = game.moon
    rules = game.respin
    finals = game_finals(game)
    mean_b, _ = prize_moments(moon.prizes_x, moon.base_weights)
    stats = line_stats(
        game.base_reels, data.paytable, wild=game.wild, wild_pays_as=game.wild_pays_as, not_substituted=(moon.symbol,)
    )
    base_lines = stats.ev  # per line in bets per line = per total stake over all lines
    spin = trigger_spins(game)
    moons = spin.moons
    cash_counts = set(moon.cash_counts)
    cash_probability = sum((p for k, p in enumerate(moons) if k in cash_counts), Fraction(0))
    moon_cash = sum((p * k * mean_b for k, p in enumerate(moons) if k in cash_counts), Fraction(0))
    starts = {k: p for k, p in enumerate(moons) if k >= rules.trigger and p}
    p_trigger = sum(starts.values(), Fraction(0))
    hr_cash, hr_ladder, hr_finals = _bonus_parts(game, starts, finals)
    excess = Fraction(0)
    reach = Fraction(0)
    for k, by_win in spin.trigger_counts.items():
        weight = sum(by_win.values())
        if Fraction(weight, spin.radix) != moons[k]:
            raise AssertionError(f"the trigger enumeration disagrees with the Moon count at {k}")
        wins = {Fraction(win, lines): Fraction(c, weight) for win, c in by_win.items()}
        terms = cap_terms(game, k, finals[k], wins)
        excess += moons[k] * terms.excess
        reach += moons[k] * terms.reach
    parts = {
        "base_lines": base_lines,
        "moon_cash": moon_cash,
        "hold_and_respin_cash": hr_cash,
        "ladder": hr_ladder,
        "max_win_cap": -excess,
        "jackpot_contribution": game.jackpot.contribution,
    }
    ladder_min = min(rules.ladder)
    base = ModeMath(
        mode="base",
        price_x=1,
        components=parts,
        rtp=sum(parts.values(), Fraction(0)),
        feature=p_trigger,
        starts={k: p / p_trigger for k, p in starts.items()},
        finals={n: p / p_trigger for n, p in hr_finals.items()},
        max_win=reach,
        bonus_average_x=(hr_cash + hr_ladder - excess) / p_trigger,
        ladder_probability=sum((p for n, p in hr_finals.items() if n >= ladder_min), Fraction(0)) / p_trigger,
        variance=None,
    )
    return base, spin, cash_probability


def buy_math(game: MoonSpell) -> ModeMath:
    """The Feature Buy mode, per unit of its price."""
    finals = game_finals(game)
    buy_rules = game.buy
    total_w = sum(w for _, w in buy_rules.moons)
    starts = {k: Fraction(w, total_w) for k, w in buy_rules.moons}
    cash, ladder, dist = _bonus_parts(game, starts, finals)
    excess = Fraction(0)
    reach = Fraction(0)
    for k, pk in starts.items():
        terms = cap_terms(game, k, finals[k], {Fraction(0): Fraction(1)})
        excess += pk * terms.excess
        reach += pk * terms.reach
    price = buy_rules.price_x
    parts = {"cash": cash / price, "ladder": ladder / price, "max_win_cap": -excess / price}
    average = cash + ladder - excess
    second = _bonus_second_moment(game, starts, finals)
    ladder_min = min(game.respin.ladder)
    return ModeMath(
        mode="buy",
        price_x=price,
        components=parts,
        rtp=sum(parts.values(), Fraction(0)),
        feature=Fraction(1),
        starts=starts,
        finals=dist,
        max_win=reach,
        bonus_average_x=average,
        ladder_probability=sum((p for n, p in dist.items() if n >= ladder_min), Fraction(0)),
        variance=(second - average * average) / (price * price),
    )


def moon_math(game: MoonSpell) -> MoonMath:
    """Every exact figure of both modes."""
    base, spin, cash_probability = base_math(game)
    moon = game.moon
    mean_b, _ = prize_moments(moon.prizes_x, moon.base_weights)
    mean_r, _ = prize_moments(moon.prizes_x, moon.respin_weights)
    finals = game_finals(game)
    return MoonMath(
        base=base,
        buy=buy_math(game),
        spin=spin,
        base_prize=mean_b,
        respin_prize=mean_r,
        cash_probability=cash_probability,
        finals_by_start={k: tuple(finals[k]) for k in range(game.respin.trigger, len(POSITIONS) + 1)},
    )


def _every(p: Fraction) -> float | None:
    return float(1 / p) if p else None


def showcase_features(game: MoonSpell, mm: ModeMath, moons: Sequence[Fraction] | None) -> list[dict[str, Any]]:
    """The report's ``features``: each feature a round of ``mm``'s mode can show, with its exact
    probability per round (per paid spin in the base game, whose Moon count distribution is
    ``moons``; per bought feature when ``moons`` is None). The ids are what
    `pyengine.games.moon_spell.showcase.shown` finds in a round's events."""
    ids = names(game)
    full = len(POSITIONS)
    finals = game_finals(game)
    bought = moons is None
    if moons is None:
        starts = dict(mm.starts)
        start_method = "exact: the buy's weight of the count over the weights' total"
        chain = "exact: the buy's start weights x the Hold and Respin Markov chain's final counts"
    else:
        starts = {k: p for k, p in enumerate(moons) if k >= game.respin.trigger and p}
        start_method = "exact: P(k Moons on a spin), the reels' Moon counts convolved"
        chain = "exact: P(k Moons on a spin) x the Hold and Respin Markov chain's final counts"
    out: list[tuple[str, str, Fraction, str]] = []
    if moons is not None:
        for k, name in ids.cash.items():
            out.append((name, f"{k} Moons pay their cash prizes", moons[k], start_method))
    feature = sum(starts.values(), Fraction(0))
    if feature != mm.feature:
        raise AssertionError("the start counts disagree with the feature's probability")
    if bought:
        out.append(("hold_and_respin", "The bought Hold and Respin", feature, "exact: every bought round plays it"))
    else:
        title = f"{game.respin.trigger} or more Moons start Hold and Respin"
        how = f"exact: P({game.respin.trigger} or more Moons on a spin), the reels' Moon counts convolved"
        out.append(("hold_and_respin", title, feature, how))
    for k, p in starts.items():
        title = f"Bought Hold and Respin starting with {k} Moons" if bought else f"Hold and Respin started by {k} Moons"
        out.append((ids.start[k], title, p, start_method))
    reset = sum((p * (1 - finals[k][k]) for k, p in starts.items()), Fraction(0))
    how = chain.replace("final counts", "chance of ending above the start count")
    out.append(("respins_reset", "New Moons land in Hold and Respin and reset the respins", reset, how))
    final = [sum((p * finals[k][n] for k, p in starts.items()), Fraction(0)) for n in range(full + 1)]
    if any(final[n] != mm.finals.get(n, Fraction(0)) * feature for n in range(full + 1)):
        raise AssertionError("the final counts disagree with the mode's")
    ladder = sum(final[ids.ladder_min :], Fraction(0))
    out.append(("ladder", f"Hold and Respin reaching the prize ladder ({ids.ladder_min}+ Moons)", ladder, chain))
    for n, name in ids.rungs.items():
        prize = game.respin.ladder[n]
        if n == full:
            title = f"A full screen: all {full} positions hold Moons, the {prize:,}x rung"
        else:
            title = f"Hold and Respin ending with {n} Moons, the {prize:,}x rung"
        out.append((name, title, final[n], chain))
    if mm.max_win:
        how = "the prize sum's distribution" if bought else "the joint (Moons, line win) and the prize sums"
        title = f"The max win of {game.max_win_x:,}x the stake"
        out.append(("max_win", title, mm.max_win, f"exact: P(win >= cap) from {how}"))
    return [
        {"id": i, "title": title, "probability": float(p), "exact": str(p), "method": method}
        for i, title, p, method in out
        if p
    ]


def report(game: MoonSpell, mode: str, settings: Mapping[str, int], lines: int) -> dict[str, Any]:
    """The exact RTP report of ``mode`` (see `pyengine.math.rtp.rtp_report`); every figure
    exact, the max-win cap included."""
    moon = game.moon
    if mode == "base":
        mm, spin, cash_probability = base_math(game)
        target = game.target_rtp
        method = (
            "exact (fractions): line wins from per-reel symbol counts; the Moon count by convolving the reels' "
            "column counts; Hold and Respin as an absorbing Markov chain over (Moons held, respins left); the "
            "max-win cap from the exact joint distribution of (Moons, line win) over every trigger window and "
            "the exact distribution of the prize sum; the time jackpot returns exactly its "
            f"{game.jackpot.contribution} contribution"
        )
    else:
        mm = buy_math(game)
        target = game.buy.target_rtp
        method = (
            "exact (fractions): the bought bonus starts with k Moons drawn from its weights (no line spin, no "
            "jackpot); Hold and Respin as an absorbing Markov chain over (Moons held, respins left); the "
            "max-win cap from the exact distribution of the prize sum"
        )
    report: dict[str, Any] = {
        **report_header(
            game, mode, mm.rtp, target=target,
            method=method,
            components=mm.components,
        ),
        "max_win_x": game.max_win_x,
        "max_win_bound": False,
        "max_win_probability": float(mm.max_win),
        "max_win_every": _every(mm.max_win),
        "feature_frequency": float(mm.feature),
        "feature_every": float(1 / mm.feature),
        "feature_average_x": float(mm.bonus_average_x),
        "start_count_distribution": {str(k): float(p) for k, p in mm.starts.items()},
        "final_count_distribution": {str(n): float(p) for n, p in mm.finals.items()},
        "feature_lengths": [
            length_table(
                "Hold and Respin",
                "Moons held when Hold and Respin ends",
                mm.finals,
                "exact: P(k Moons on a spin) x the Hold and Respin Markov chain's final counts",
            )
        ],
        "ladder_probability": float(mm.ladder_probability),
        "full_screen_probability": float(mm.finals.get(len(POSITIONS), Fraction(0))),
        "moon_prize_mean_x": {
            "base": float(prize_moments(moon.prizes_x, moon.base_weights)[0]),
            "respin": float(prize_moments(moon.prizes_x, moon.respin_weights)[0]),
        },
    }
    if mode == "base":
        report["line_hit_probability"] = float(spin.line_hit)
        report["hit_rate"] = float(spin.hit)
        report["moon_cash_frequency"] = float(cash_probability)
        report["moon_cash_every"] = _every(cash_probability)
        report["moon_count_distribution"] = {str(k): float(p) for k, p in enumerate(spin.moons)}
        report["features"] = showcase_features(game, mm, spin.moons)
    else:
        report["feature_buy_price_x"] = mm.price_x
        report["feature_buy_moons"] = {str(k): w for k, w in game.buy.moons}
        report["features"] = showcase_features(game, mm, None)
        if mm.variance is not None:
            # of the return (win / price) of one bought round, and of its win in total stakes
            report["stdev"] = math.sqrt(float(mm.variance))
            report["stdev_x"] = math.sqrt(float(mm.variance)) * mm.price_x
    if mode == "buy":
        first = f"feature buy price {mm.price_x}x, average bonus {report['feature_average_x']:.2f}x"
    else:
        first = f"feature every {report['feature_every']:.1f} rounds, average bonus {report['feature_average_x']:.2f}x"
    dist = "  ".join(f"{n}:{p * 100:.3g}%" for n, p in report["final_count_distribution"].items())
    report["summary"] = [first, f"final Moons  {dist}"]
    return report
