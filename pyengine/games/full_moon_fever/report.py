"""Exact RTP of Full Moon Fever.

Base game: line wins from per-reel symbol counts (`exact.line_stats`), the Haunted House
by convolving per-reel counts; the whole base spin's distribution (for the hit rate and sigma)
by `exact.spin_distribution`.

Winfalls: the refill comes from the strip above the window, so the five stops fix the whole
cascade. One cascading free spin is averaged exactly over every stop combination of the
free strips (15^5 = 759,375), played with the game's own line evaluator and the shared
`refill`; the pet slot is one wild symbol (``PET``), which every pet's strips relabel, so one
enumeration serves every pet. The number of spins is drawn independently of the reels and
nothing retriggers, so E[feature] = E[spins] x E[one cascading spin] (Wald), and its
variance is E[N] Var(X) + Var(N) E[X]^2.

The exact distribution of a round's win (`distribution`, for the par sheet): one base spin's
whole win with whether it triggers, over every stop combination; the feature's total is the
sum of N independent cascading spins (`compound.random_sum`, float64 products), no cap, so
the grid of 1/lines total bets holds every win the game can pay.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from operator import add, truediv
from typing import Any

from ...evaluators import LineEvaluator, refill
from ...evaluators.lines import Wilds, wild_set
from ...features.cascade import CascadeRules
from . import FullMoonFever
from ...model import Payline, ReelSet
from ...math.compound import random_sum, tilt_rate
from ...math.memo import LastFor
from ...math.parsheet import WinDistribution, length_table
from ...math.poly import product
from ...math.rtp import report_header
from ...math.exact import convolve, count_distribution, line_stats, spin_distribution

__all__ = [
    "FeatureSpin",
    "FullMoonMath",
    "cascade_distribution",
    "distribution",
    "free_spin",
    "full_moon_math",
    "report",
    "showcase_features",
]

Outcome = tuple[int, int]
"""One stop combination's (win in multiples of the bet per line, number of cascades)."""


def cascade_distribution(
    reels: ReelSet,
    lines: LineEvaluator,
    rules: CascadeRules,
    paylines: Sequence[Payline],
    wild: Wilds,
) -> dict[Outcome, int]:
    """Every stop combination of ``reels`` played out as a cascading spin on ``paylines``:
    {(win in bets per line, cascades): combinations}. The same steps as
    `pyengine.features.cascade.play_cascades` (the game's line evaluator judges each line's
    symbols, `pyengine.evaluators.cascade.refill` refills each reel), without events.
    Every wild substitutes for every symbol (as in Winfalls).

    What makes it fast, each worked out once and then looked up:
    - a reel's state (strip position and column) is numbered when first met, and its refill
      once given rows vanish is kept (`_ReelStates`);
    - the lines that can still pay given reels 1-3 (a run still open, or a pay already
      fixed), per the first three states: where there are none, the ``len4 x len5``
      combinations behind them are counted at once;
    - per the first four states, the pay those lines fix whatever reel 5 shows, and the
      lines whose run is still open (only those look at reel 5). Cascades revisit few
      four-reel prefixes (about 53,000 for Full Moon Fever's 1.8 million windows judged);
    - the combinations that share their first four stops (one per stop of reel 5) cascade
      as one group while their windows pay alike (each member keeps its own reel 5), so
      what reel 5 cannot change is worked out once per group, not once per combination.
    """
    strips = reels.strips
    if len(strips) != 5:
        raise ValueError("the Winfalls enumeration is written for 5 reels")
    cols = reels.columns
    wilds = wild_set(wild)
    height = len(cols[0][0])
    judge = lines.evaluate_symbols
    pad = ("\0", "\0")

    def run_open(syms: tuple[str, ...]) -> bool:
        target = next((x for x in syms if x not in wilds), None)
        return target is None or all(x == target or x in wilds for x in syms)

    # The rows a win removes, as one bit per (reel, row): bit reel * height + row.
    removes: dict[tuple[int, int], int] = {}
    for p in paylines:
        for count in range(len(p.rows) + 1):
            removes[(p.number, count)] = sum(1 << (reel * height + p.rows[reel]) for reel in range(count))
    line_rows = [(p.number, p.rows) for p in paylines]
    states = [_ReelStates(strip, columns) for strip, columns in zip(strips, cols, strict=True)]
    r0, r1, r2, r3, r4 = states
    col0, col1, col2, col3, col4 = (r.column for r in states)
    n0, n1, n2, n3, n4 = (r.next for r in states)
    k1, k2, k3, k4 = (reel * height for reel in range(1, 5))
    full = (1 << height) - 1

    three: dict[tuple[str, str, str], bool] = {}
    prefix3: dict[tuple[int, int, int], tuple[tuple[int, tuple[int, ...]], ...]] = {}

    def lines_after_three(t0: int, t1: int, t2: int) -> tuple[tuple[int, tuple[int, ...]], ...]:
        c0, c1, c2 = col0[t0], col1[t1], col2[t2]
        found = []
        for number, rows in line_rows:
            key = (c0[rows[0]], c1[rows[1]], c2[rows[2]])
            ok = three.get(key)
            if ok is None:
                ok = three[key] = run_open(key) or judge(key + pad) is not None
            if ok:
                found.append((number, rows))
        out = prefix3[(t0, t1, t2)] = tuple(found)
        return out

    four: dict[tuple[str, ...], tuple[bool, tuple[str, int, int] | None]] = {}
    # A line whose run is still open after reel 4: what it pays and removes for each symbol
    # reel 5 can show there (reel 5 only ever shows symbols of its strip).
    last = sorted(set(strips[4]))
    Table = dict[str, tuple[int, int]]
    tables: dict[tuple[tuple[str, ...], int], Table] = {}

    def table(head: tuple[str, ...], number: int) -> Table:
        found: Table = {}
        for symbol in last:
            hit = judge((*head, symbol))
            found[symbol] = (hit[2], removes[(number, hit[1])]) if hit is not None else (0, 0)
        tables[(head, number)] = found
        return found

    Open = tuple[int, Table]  # a line still open: its row on reel 5 and its table
    prefix4: dict[tuple[int, int, int, int], tuple[int, int, tuple[Open, ...]]] = {}

    def after_four(t0: int, t1: int, t2: int, t3: int) -> tuple[int, int, tuple[Open, ...]]:
        c0, c1, c2, c3 = col0[t0], col1[t1], col2[t2], col3[t3]
        key3 = (t0, t1, t2)
        candidates = prefix3[key3] if key3 in prefix3 else lines_after_three(t0, t1, t2)
        paid = gone = 0
        still: list[Open] = []
        for number, rows in candidates:
            head = (c0[rows[0]], c1[rows[1]], c2[rows[2]], c3[rows[3]])
            known = four.get(head)
            if known is None:
                is_open = run_open(head)
                known = four[head] = (is_open, None if is_open else judge((*head, "\0")))
            if known[0]:
                found = tables.get((head, number))
                still.append((rows[4], found if found is not None else table(head, number)))
            elif known[1] is not None:
                paid += known[1][2]
                gone |= removes[(number, known[1][1])]
        out = prefix4[(t0, t1, t2, t3)] = (paid, gone, tuple(still))
        return out

    out: Counter[Outcome] = Counter()
    limit = rules.limit
    mults = [rules.multiplier(step) for step in range(limit + 1)]
    n34 = len(strips[3]) * len(strips[4])
    len4 = len(strips[4])
    m3, all4 = range(len(strips[3])), list(range(len4))
    Group = tuple[int, int, int, int, int, int, list[int]]
    for s0 in range(len(strips[0])):
        for s1 in range(len(strips[1])):
            for s2 in range(len(strips[2])):
                if not lines_after_three(s0, s1, s2):
                    out[(0, 0)] += n34
                    continue
                for s3 in m3:
                    key4 = (s0, s1, s2, s3)
                    first = prefix4[key4] if key4 in prefix4 else after_four(s0, s1, s2, s3)
                    if not first[0] and not first[2]:  # no line can pay, whatever reel 5 shows
                        out[(0, 0)] += len4
                        continue
                    # The combinations (s0, s1, s2, s3, s4) for every s4 cascade as one group:
                    # reels 1-4 in one state, each member its own reel 5, the same win and
                    # cascades so far. A group splits where its members' windows pay
                    # differently; a pay that reel 5 cannot change is worked out once.
                    stack: list[Group] = [(s0, s1, s2, s3, 0, 0, all4)]
                    while stack:
                        t0, t1, t2, t3, step, total, group = stack.pop()
                        key4 = (t0, t1, t2, t3)
                        fixed, fixed_gone, still = prefix4[key4] if key4 in prefix4 else after_four(t0, t1, t2, t3)
                        if not still:
                            if not fixed:
                                out[(total, step)] += len(group)
                                continue
                            split = {(fixed, fixed_gone): group}
                        else:
                            split = {}
                            for t4 in group:
                                paid, gone = fixed, fixed_gone
                                c4 = col4[t4]
                                for row, pays in still:
                                    pay, removed = pays[c4[row]]
                                    paid += pay
                                    gone |= removed
                                members = split.get((paid, gone))
                                if members is None:
                                    split[(paid, gone)] = [t4]
                                else:
                                    members.append(t4)
                        for (paid, gone), members in split.items():
                            if not paid:
                                out[(total, step)] += len(members)
                                continue
                            if step == limit:
                                raise ValueError(f"stops {(s0, s1, s2, s3)} and reel 5 cascade more than {limit} times")
                            u0, u1, u2, u3 = t0, t1, t2, t3
                            m = gone & full
                            if m:
                                u0 = r0.after(u0, m) if (k := u0 << height | m) not in n0 else n0[k]
                            m = gone >> k1 & full
                            if m:
                                u1 = r1.after(u1, m) if (k := u1 << height | m) not in n1 else n1[k]
                            m = gone >> k2 & full
                            if m:
                                u2 = r2.after(u2, m) if (k := u2 << height | m) not in n2 else n2[k]
                            m = gone >> k3 & full
                            if m:
                                u3 = r3.after(u3, m) if (k := u3 << height | m) not in n3 else n3[k]
                            m = gone >> k4 & full
                            if m:
                                members = [r4.after(t4, m) if (k := t4 << height | m) not in n4 else n4[k]
                                           for t4 in members]
                            stack.append((u0, u1, u2, u3, step + 1, total + mults[step] * paid, members))
    return dict(out)


class _ReelStates:
    """One reel's states in a cascade, numbered as they are met: the first ``len(strip)``
    are the strip's own stops; `after` gives the state once the rows in a bit mask vanish
    (`refill` on this reel), worked out once per state and mask and kept in ``next``
    (key: state << height | mask)."""

    __slots__ = ("_index", "column", "next", "stop", "strip")

    def __init__(self, strip: tuple[str, ...], columns: Sequence[tuple[str, ...]]) -> None:
        self.strip = strip
        self.stop: list[int] = list(range(len(columns)))
        self.column: list[tuple[str, ...]] = list(columns)
        self._index: dict[tuple[int, tuple[str, ...]], int] = {(s, c): s for s, c in enumerate(columns)}
        self.next: dict[int, int] = {}

    def after(self, state: int, mask: int) -> int:
        column = self.column[state]
        height = len(column)
        rows = [row for row in range(height) if mask >> row & 1]
        (stop,), (new,) = refill((self.strip,), (self.stop[state],), (column,), ((0, row) for row in rows))
        found = self._index.get((stop, new))
        if found is None:
            found = self._index[(stop, new)] = len(self.stop)
            self.stop.append(stop)
            self.column.append(new)
        self.next[state << height | mask] = found
        return found


@dataclass(frozen=True, slots=True)
class FeatureSpin:
    """One cascading free spin over every stop combination (wins in bets per line)."""

    outcomes: dict[Outcome, int]
    combinations: int

    @property
    def mean(self) -> Fraction:
        return Fraction(sum(w * c for (w, _), c in self.outcomes.items()), self.combinations)

    @property
    def second_moment(self) -> Fraction:
        return Fraction(sum(w * w * c for (w, _), c in self.outcomes.items()), self.combinations)

    @property
    def no_win(self) -> Fraction:
        return Fraction(sum(c for (w, _), c in self.outcomes.items() if w == 0), self.combinations)

    @property
    def cascades(self) -> dict[int, int]:
        """Winning windows per spin -> stop combinations (0: the spin does not win)."""
        out: Counter[int] = Counter()
        for (_, k), c in self.outcomes.items():
            out[k] += c
        return dict(sorted(out.items()))

    @property
    def longest(self) -> int:
        return max(self.cascades)

    @property
    def max_win(self) -> int:
        return max(w for w, _ in self.outcomes)


def free_spin(game: FullMoonFever, lines: int) -> FeatureSpin:
    """One Winfalls spin with the pet slot as the extra wild, on ``lines`` lines."""
    rules = game.winfalls
    reels = game.data.reels["free"]
    wilds = (game.wild, rules.pet_symbol)
    evaluator = LineEvaluator(game.data.paylines, rules.paytable, wild=wilds)
    outcomes = cascade_distribution(reels, evaluator, rules.cascade, game.data.paylines[:lines], wilds)
    return FeatureSpin(outcomes, reels.radix)


@dataclass(frozen=True, slots=True)
class FullMoonMath:
    """Exact expectations in multiples of the total bet (``lines`` lines)."""

    lines: int
    base_lines: Fraction
    base_scatter: Fraction
    line_hit: Fraction
    houses: list[Fraction]
    p_trigger: Fraction
    spins: dict[int, Fraction]
    spin: FeatureSpin
    base: dict[tuple[int, bool], int]
    base_radix: int

    @property
    def expected_spins(self) -> Fraction:
        return sum((n * p for n, p in self.spins.items()), Fraction(0))

    @property
    def spin_mean(self) -> Fraction:
        """E[one cascading free spin] in total bets."""
        return self.spin.mean / self.lines

    @property
    def feature(self) -> Fraction:
        """E[a Winfalls feature] in total bets (Wald)."""
        return self.expected_spins * self.spin_mean

    @property
    def free_spins(self) -> Fraction:
        return self.p_trigger * self.feature

    @property
    def rtp(self) -> Fraction:
        return self.base_lines + self.base_scatter + self.free_spins

    @property
    def feature_second_moment(self) -> Fraction:
        """E[feature^2] in total bets squared: E[N] Var(X) + E[N^2] E[X]^2."""
        m = self.spin_mean
        var_x = self.spin.second_moment / self.lines**2 - m * m
        en2 = sum((n * n * p for n, p in self.spins.items()), Fraction(0))
        return self.expected_spins * var_x + en2 * m * m

    @property
    def variance(self) -> Fraction:
        """Var(one round's return): R = B + 1[trigger] F, F independent of the base spin."""
        n = self.base_radix
        lines = self.lines
        eb2 = Fraction(sum(w * w * c for (w, _), c in self.base.items()), n * lines * lines)
        eb_t = Fraction(sum(w * c for (w, t), c in self.base.items() if t), n * lines)
        er2 = eb2 + 2 * eb_t * self.feature + self.p_trigger * self.feature_second_moment
        return er2 - self.rtp**2

    @property
    def hit_rate(self) -> Fraction:
        """P(a round wins anything): the base spin wins, or its feature does."""
        n = self.base_radix
        base_hit = Fraction(sum(c for (w, _), c in self.base.items() if w), n)
        dry_trigger = Fraction(sum(c for (w, t), c in self.base.items() if t and not w), n)
        q = self.spin.no_win
        all_dry = sum((p * q**k for k, p in self.spins.items()), Fraction(0))
        return base_hit + dry_trigger * (1 - all_dry)


def full_moon_math(game: FullMoonFever, lines: int | None = None) -> FullMoonMath:
    """Every exact figure of the game at ``lines`` lines (default: all)."""
    lines = max(game.bets.lines) if lines is None else lines
    data = game.data
    reels = game.base_reels
    stats = line_stats(reels, data.paytable, wild=game.wild)
    house = game.scatter
    houses = convolve(count_distribution(reels, i, lambda col: col.count(house)) for i in range(5))
    scatter = sum((p * data.scatter_pays.get(k, 0) for k, p in enumerate(houses)), Fraction(0))
    trigger = game.winfalls.trigger
    p_trigger = sum(houses[trigger:], Fraction(0))
    weights = game.winfalls.spins
    total_w = sum(w for _, w in weights)
    spins = {n: Fraction(w, total_w) for n, w in weights}
    base = spin_distribution(
        reels,
        data.paylines[:lines],
        data.paytable,
        wild=game.wild,
        counts=lambda col: (col.count(house),),
        settle=lambda c: (lines * data.scatter_pays.get(c[0], 0), c[0] >= trigger),
    )
    return FullMoonMath(
        lines=lines,
        base_lines=stats.ev,
        base_scatter=scatter,
        line_hit=stats.hit,
        houses=houses,
        p_trigger=p_trigger,
        spins=spins,
        spin=free_spin(game, lines),
        base=base,
        base_radix=reels.radix,
    )


HOUSE_COUNTS = {3: "three", 4: "four", 5: "five"}
"""The words of the Haunted House counts in the features' ids (``three_houses`` ...)."""


def showcase_features(game: FullMoonFever, m: FullMoonMath) -> list[dict[str, Any]]:
    """The showcase's features of one round (at the report's lines, every decision answered
    with its first choice), each with its exact probability from the figures of ``m``:
    Winfalls; each count of Haunted Houses that starts it; the pet the first choice feeds;
    each number of free spins; a free spin whose cascade climbs to the ladder's top
    multiplier; a free spin with the longest cascade. `pyengine.games.full_moon_fever.showcase`
    finds them in a round's events.

    The free spins are independent of the base spin, of their number and of each other
    (each draws its stops afresh, nothing retriggers), so P(some spin of the feature has
    ``k`` or more winning windows) = P(trigger) x sum over n of P(n spins) (1 - (1 - q_k)^n),
    q_k the share of the stop combinations that cascade to ``k`` winning windows or more.
    """
    rules = game.winfalls
    spin = m.spin
    cascades = spin.cascades
    radix = spin.combinations

    def some_spin_reaches(k: int) -> Fraction:
        q = Fraction(sum(c for n, c in cascades.items() if n >= k), radix)
        return m.p_trigger * sum((p * (1 - (1 - q) ** n) for n, p in m.spins.items()), Fraction(0))

    def entry(fid: str, title: str, p: Fraction, method: str) -> dict[str, Any]:
        return {"id": fid, "title": title, "probability": float(p), "exact": str(p), "method": method}

    out = [entry("winfalls", "Winfalls: cascading free spins", m.p_trigger,
                 f"exact: P({rules.trigger}+ Haunted Houses), the per-reel counts convolved")]
    for k in range(rules.trigger, len(m.houses)):
        if m.houses[k] and k in HOUSE_COUNTS:
            out.append(entry(f"{HOUSE_COUNTS[k]}_houses", f"{k} Haunted Houses start Winfalls", m.houses[k],
                             f"exact: P({k} Haunted Houses), the per-reel counts convolved"))
    pet = rules.pets.prizes[0]  # the first choice offered: the first cell (faces shown, not shuffled)
    ego = rules.alter_egos[pet]
    out.append(entry(f"pet_{pet.lower()}", f"Winfalls with the {pet.title()} fed: the {ego.title()} as an extra wild",
                     m.p_trigger, "exact: the trigger probability (the first choice feeds this pet)"))
    for n, p in m.spins.items():
        out.append(entry(f"spins_{n}", f"Winfalls with {n} free spins", m.p_trigger * p,
                         "exact: the trigger probability x the weight of the number of spins"))
    multipliers = rules.cascade.multipliers
    top = max(multipliers)
    windows = multipliers.index(top) + 1
    out.append(entry(f"multiplier_x{top}", f"A Winfalls cascade climbing to the x{top} multiplier",
                     some_spin_reaches(windows),
                     f"exact: the enumerated cascades ({windows}+ winning windows) over each number of spins"))
    out.append(entry("longest_cascade", f"The longest cascade: {spin.longest} winning windows in one free spin",
                     some_spin_reaches(spin.longest),
                     "exact: the enumerated cascades (the longest) over each number of spins"))
    return out


_figures = LastFor(full_moon_math)
"""`full_moon_math`, kept for the game object last asked about (the report and the
distribution both need it)."""


def distribution(game: FullMoonFever, mode: str, settings: Mapping[str, int], lines: int) -> WinDistribution:
    """The exact distribution of a round's win (`pyengine.math.parsheet`), in 1/``lines`` of
    the total bet: a base spin that does not trigger pays its own win; one that triggers adds
    the feature, the sum of N cascading free spins (N from the spins table, each spin's win
    from the enumeration of every stop combination), independent of the base spin.

    The products run on the distributions tilted by e^(r w), w the win in units (the product
    of tilted polynomials is the tilted product), at `compound.tilt_rate`'s rate for
    E[e^(r (base win + feature)) | trigger]: the FFT's error, about 1e-16 of the largest
    coefficient, falls on the far tail e^(r w) times smaller once the tilt is undone."""
    m = _figures(game, lines)
    spin = m.spin
    x_ways: Counter[int] = Counter()
    for (win, _), ways in spin.outcomes.items():
        x_ways[win] += ways
    x_items = [(win, ways / spin.combinations) for win, ways in x_ways.items()]
    counts = {n: float(p) for n, p in m.spins.items()}
    top = max(w for w, _ in m.base)
    size = top + game.winfalls.max_spins * spin.max_win + 1
    quiet = [0.0] * (top + 1)  # the spins that do not trigger, by their win
    trigger: Counter[int] = Counter()  # the spins that trigger, by their own win
    for (win, triggers), ways in m.base.items():
        if triggers:
            trigger[win] += ways
        else:
            quiet[win] += ways / m.base_radix

    def mass(rate: float) -> float:
        """E[e^(rate x (base win + feature)) | the base spin triggers]."""
        one = math.fsum(p * math.exp(rate * w) for w, p in x_items)
        base = math.fsum(n * math.exp(rate * w) for w, n in trigger.items()) / sum(trigger.values())
        return base * math.fsum(p * one**n for n, p in counts.items())

    rate = tilt_rate(mass, size)
    tilt = list(map(math.exp, map(rate.__mul__, range(size))))
    x = [0.0] * (spin.max_win + 1)
    for win, p in x_items:
        x[win] = p * tilt[win]
    feature = random_sum(x, counts, size)
    triggered = [0.0] * (top + 1)
    for win, ways in trigger.items():
        triggered[win] = ways / m.base_radix * tilt[win]
    probs = list(map(truediv, product(triggered, feature, size), tilt))
    probs[: len(quiet)] = map(add, probs, quiet)
    return WinDistribution(
        Fraction(1, lines),
        [p if p > 0.0 else 0.0 for p in probs],  # the products' rounding noise around zero set to 0
        "exact: one base spin's whole win and its trigger over every stop combination (integers); one "
        f"cascading free spin over all {spin.combinations:,} stop combinations of the free strips, "
        "summed over the drawn number of spins (float64 FFT products on tilted distributions); no cap, "
        "every win on the grid",
    )


def report(game: FullMoonFever, mode: str, settings: Mapping[str, int], lines: int) -> dict[str, Any]:
    """The exact RTP report (see `pyengine.math.rtp.rtp_report`)."""
    m = _figures(game, lines)
    spin = m.spin
    cascades = spin.cascades
    longest = spin.longest
    radix = spin.combinations
    base_max = max(w for w, _ in m.base)
    max_spins = game.winfalls.max_spins
    max_win_x = Fraction(base_max, lines) + max_spins * Fraction(spin.max_win, lines)
    best = spin.max_win
    max_combos = sum(c for (w, _), c in spin.outcomes.items() if w == best)
    best_p = Fraction(max_combos, radix)
    sigma = float(m.variance) ** 0.5
    # The bound is reached when a 50-spin feature repeats the best free spin every time
    # (and the triggering spin is the best base spin: a bound, its odds far below this).
    max_p = m.p_trigger * m.spins[max_spins] * best_p**max_spins
    return {
        "summary": [
            f"Winfalls: 1 feature in {float(1 / m.p_trigger):,.1f} rounds, {float(m.expected_spins):.4f} spins "
            f"on average, {float(m.spin_mean):.4f}x the total bet per cascading spin, "
            f"{float(m.feature):.3f}x per feature",
            f"longest cascade: {longest} winning windows in one spin, "
            f"{cascades[longest]:,} of {radix:,} stop combinations (1 spin in {radix / cascades[longest]:,.0f})",
            f"hit rate {float(m.hit_rate) * 100:.2f}%, sigma {sigma:.2f}",
            f"max win {float(max_win_x):,.2f}x: the best base spin and {max_spins} free spins that each win the "
            f"most one spin can, {float(Fraction(spin.max_win, lines)):.2f}x (1 free spin in {1 / float(best_p):,.0f})",
        ],
        **report_header(
            game, mode, m.rtp,
            method=(
                "exact: base line wins from per-reel symbol counts, the Haunted House by convolution; one "
                f"Winfalls spin by enumerating all {radix:,} stop combinations of the free strips, each cascade "
                "played out (refill from the strip above); the feature is E[spins] x E[spin] (Wald); fractions"
            ),
            components={
                "base_lines": m.base_lines,
                "base_scatter": m.base_scatter,
                "winfalls": m.free_spins,
            },
        ),
        "hit_rate": float(m.hit_rate),
        "line_hit_probability": float(m.line_hit),
        "sigma": sigma,
        "feature_frequency": float(m.p_trigger),
        "feature_every": float(1 / m.p_trigger),
        "houses": {str(k): float(p) for k, p in enumerate(m.houses)},
        "spins_distribution": {str(n): float(p) for n, p in m.spins.items()},
        "feature_lengths": [
            length_table(
                "Winfalls",
                "free spins played (nothing retriggers)",
                m.spins,
                "exact: the weights of the number of spins (fractions)",
            )
        ],
        "expected_free_spins": float(m.expected_spins),
        "free_spin_average_x": float(m.spin_mean),
        "free_spin_no_win": float(spin.no_win),
        "feature_average_x": float(m.feature),
        "cascade_distribution": {str(k): v for k, v in cascades.items()},
        "cascade_combinations": radix,
        "longest_cascade": longest,
        "longest_cascade_probability": cascades[longest] / radix,
        "max_free_spin_x": float(Fraction(spin.max_win, lines)),
        "max_free_spin_probability": float(best_p),
        "max_base_spin_x": float(Fraction(base_max, lines)),
        "max_win_x": float(max_win_x),
        "max_win_bound": True,
        "max_win_probability": float(max_p),
        "features": showcase_features(game, m),
    }
