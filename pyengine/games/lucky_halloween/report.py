"""Exact RTP of Lucky Halloween.

Everything is in multiples of the total bet and exact (`fractions.Fraction`).

* A spin is judged by its line wins and its two scatter counts. Every payline sees, on each
  reel, the strip's symbol distribution; a symbol the Rider places (a wild, a scatter)
  fixes the reels where the line crosses it. So one table per placed symbol gives a line's
  expected pay for each of the 32 sets of fixed reels (`line_stats` on strips where those
  reels show only that symbol), and a placement's line value is the sum over the 20 lines.
* Scatter counts: per reel and set of covered rows, the distribution of the scatter among
  the rows left uncovered (plus the covered rows when the placed symbol is that scatter),
  convolved over the reels for each placement.
* The Rider: fixed chances, so the paid spin is a mixture: RTP = sum p_f RTP_f + (1 - sum
  p_f) RTP_plain. Special Reels: other strips; Pumpkin Tree: the mean multiplier on the
  spin's line and scatter prizes (features unmultiplied); Random Wilds: every set of k
  cells; Mega Wild: its three placements; the forced scatters: every choice of reels and
  rows.
* Free spins: the number played depends only on the bonus-spin awards (the Rider, at most
  ``max_awards`` a feature), so by Wald's identity the feature pays E[spins while awards
  remain] E[free spin] + E[spins after the last award] E[free spin without the Rider]; the
  spin counts come from a recursion over (spins left, awards made). Without the bound it
  would be the branching series E[N0] / (1 - p E[extra]).
* The ladder: an acyclic absorbing chain over the rungs per trigger count, solved backwards.
* The time jackpot returns exactly its contribution (every pot drops, carrying fractions).
* The showcase's ``features`` (`showcase_features`): each one's chance per paid round from
  the same figures, with three small exact additions: the joint distribution of the two
  scatter counts (both features in one round), the number of bonus-spin awards by a
  recursion over (spins left, awards made), and a forward pass of the ladder's chain (its
  shortcuts).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import cache
from itertools import combinations, product
from typing import Any

from . import FEATURES, LuckyHalloween
from ...model import ReelSet
from ...math.rtp import report_header
from ...math.exact import line_stats
from .lengths import feature_lengths, trigger_odds
from .showcase import TOP_RUNGS, rider_id, rung_id

__all__ = [
    "HalloweenMath",
    "SpinStats",
    "bonus_award_odds",
    "free_spin_counts",
    "halloween_math",
    "ladder_finals",
    "ladder_shortcut_chance",
    "report",
    "round_win_bound",
    "scatter_joint",
    "showcase_features",
]

Mask = tuple[int, int, int, int, int]
"""Covered rows per reel, as bit masks (bit r: row r)."""


@dataclass(frozen=True, slots=True)
class SpinStats:
    """One kind of spin: E[line pays] and E[scatter pays] (total bets, before any multiplier),
    and the distributions of the Free Spins and Bonus counts."""

    lines: Fraction
    scatters: Fraction
    free: tuple[Fraction, ...]
    bonus: tuple[Fraction, ...]


def _modified(reels: ReelSet, symbol: str, reel_mask: int) -> ReelSet:
    strips = tuple((symbol,) if reel_mask >> r & 1 else strip for r, strip in enumerate(reels.strips))
    return ReelSet(strips, reels.rows)


class _Spins:
    """Spin statistics of one game, with the tables they share."""

    def __init__(self, game: LuckyHalloween) -> None:
        self.game = game
        self.n_lines = len(game.data.paylines)
        self.rows = [p.rows for p in game.data.paylines]
        self._ev: dict[tuple[str, str, int], Fraction] = {}
        self._dist: dict[tuple[str, str, int, int], tuple[int, ...]] = {}

    def line_ev(self, name: str, reels: ReelSet, symbol: str, reel_mask: int) -> Fraction:
        """E[pay of one line] in bets per line with the reels of ``reel_mask`` fixed to ``symbol``."""
        key = (name, symbol, reel_mask)
        if key not in self._ev:
            g = self.game
            self._ev[key] = line_stats(
                _modified(reels, symbol, reel_mask),
                g.data.paytable,
                wild=g.wild,
                wild_pays_as=g.wild_pays_as,
                not_substituted=(g.free_symbol, g.bonus_symbol),
            ).ev
        return self._ev[key]

    def reel_counts(self, name: str, reels: ReelSet, reel: int, scatter: str, covered: int) -> tuple[int, ...]:
        """Stops of ``reel`` by the number of ``scatter`` in its rows outside ``covered``."""
        key = (name, scatter, reel, covered)
        if key not in self._dist:
            tally: dict[int, int] = {}
            for col in reels.columns[reel]:
                n = sum(1 for row, s in enumerate(col) if s == scatter and not covered >> row & 1)
                tally[n] = tally.get(n, 0) + 1
            self._dist[key] = tuple(tally.get(k, 0) for k in range(max(tally) + 1))
        return self._dist[key]

    def stats(self, name: str, reels: ReelSet, masks: Sequence[tuple[int, Mask]], symbol: str) -> SpinStats:
        """The statistics of a spin on ``reels`` where ``symbol`` covers the cells of a mask
        drawn from ``masks`` (weight, mask)."""
        g = self.game
        total_w = sum(w for w, _ in masks)
        lengths = [len(s) for s in reels.strips]
        radix = math.prod(lengths)
        lines = Fraction(0)
        counts: dict[str, list[int]] = {g.free_symbol: [], g.bonus_symbol: []}
        for w, mask in masks:
            ev = Fraction(0)
            for rows in self.rows:
                reel_mask = sum(1 << r for r in range(5) if mask[r] >> rows[r] & 1)
                ev += self.line_ev(name, reels, symbol, reel_mask)
            lines += w * ev
            for scatter, acc in counts.items():
                dist = [1]
                for r in range(5):
                    d = self.reel_counts(name, reels, r, scatter, mask[r])
                    shift = bin(mask[r]).count("1") if scatter == symbol else 0
                    nxt = [0] * (len(dist) + len(d) - 1 + shift)
                    for i, a in enumerate(dist):
                        if a:
                            for j, b in enumerate(d):
                                if b:
                                    nxt[i + j + shift] += a * b
                    dist = nxt
                if len(acc) < len(dist):
                    acc.extend([0] * (len(dist) - len(acc)))
                for i, c in enumerate(dist):
                    acc[i] += w * c
        free = tuple(Fraction(c, radix * total_w) for c in counts[g.free_symbol])
        bonus = tuple(Fraction(c, radix * total_w) for c in counts[g.bonus_symbol])
        scatters = _pays(free, g.free_pays) + _pays(bonus, g.bonus_pays)
        return SpinStats(lines / total_w / self.n_lines, scatters, free, bonus)


def _pays(dist: Sequence[Fraction], pays: Sequence[int]) -> Fraction:
    return sum((p * pays[min(n, len(pays) - 1)] for n, p in enumerate(dist)), Fraction(0))


def _weights(table: Sequence[tuple[int, int]]) -> dict[int, Fraction]:
    total = sum(w for _, w in table)
    return {v: Fraction(w, total) for v, w in table}


def _drop_masks(n: int) -> list[tuple[int, Mask]]:
    """The Rider drops a symbol on ``n`` different reels, each on a uniform row."""
    out: list[tuple[int, Mask]] = []
    for reels in combinations(range(5), n):
        for rows in product(range(3), repeat=n):
            m = [0] * 5
            for r, row in zip(reels, rows, strict=True):
                m[r] = 1 << row
            out.append((1, (m[0], m[1], m[2], m[3], m[4])))
    return out


def _cell_masks(k: int) -> list[tuple[int, Mask]]:
    """Wilds on ``k`` distinct cells of the 15, every set alike."""
    out: list[tuple[int, Mask]] = []
    for cells in combinations(range(15), k):
        m = [0] * 5
        for c in cells:
            m[c // 3] |= 1 << (c % 3)
        out.append((1, (m[0], m[1], m[2], m[3], m[4])))
    return out


# -- the ladder ---------------------------------------------------------------------------------
def ladder_finals(game: LuckyHalloween, count: int) -> dict[int, Fraction]:
    """P(the Full Moon Bonus ends on rung i) for ``count`` Bonus symbols: the chain over
    rungs moves only up, so a backward pass from the top is exact."""
    rules = game.ladder
    c = rules.count(count)
    num, den = rules.collect[c]
    cp = Fraction(num, den)
    top = rules.top
    steps = rules.steps
    # out[p] = final distribution from position p, before the next pick.
    out: dict[int, dict[int, Fraction]] = {}
    for p in range(top - 1, -1, -1):
        dist: dict[int, Fraction] = {}
        for k in range(1, steps + 1):
            _, to = rules.move(p, k)
            share = Fraction(1, steps)
            if to == top:
                parts: list[tuple[Mapping[int, Fraction], Fraction]] = [({top: Fraction(1)}, share)]
            elif rules.collect_allowed(c, to):
                parts = [({to: Fraction(1)}, share * cp), (out[to], share * (1 - cp))]
            else:
                parts = [(out[to], share)]
            for d, weight in parts:
                for i, v in d.items():
                    dist[i] = dist.get(i, Fraction(0)) + weight * v
        out[p] = dist
    return dict(sorted(out[0].items()))


def ladder_value(game: LuckyHalloween, count: int) -> Fraction:
    """E[the ladder's multiplier] for ``count`` Bonus symbols."""
    rungs = game.ladder.rungs_x
    return sum((p * rungs[i - 1] for i, p in ladder_finals(game, count).items()), Fraction(0))


# -- free spins ---------------------------------------------------------------------------------
def free_spin_counts(game: LuckyHalloween, start: int) -> tuple[Fraction, Fraction]:
    """(E[spins played while bonus awards remain], E[spins played after the last award]) for
    a feature of ``start`` spins."""
    rules = game.free
    q = Fraction(rules.bonus_numerator, rules.bonus_denominator)
    extra = _weights(rules.bonus_cauldron)
    cap = rules.max_awards

    @cache
    def h(left: int, awards: int) -> tuple[Fraction, Fraction]:
        if left == 0:
            return Fraction(0), Fraction(0)
        if awards >= cap:
            return Fraction(0), Fraction(left)
        a1, a0 = h(left - 1, awards)
        s1 = 1 + (1 - q) * a1
        s0 = (1 - q) * a0
        for x, px in extra.items():
            b1, b0 = h(left - 1 + x, awards + 1)
            s1 += q * px * b1
            s0 += q * px * b0
        return s1, s0

    # Fill the table bottom-up (no deep recursion).
    for left in range(start + cap * max(extra) + 1):
        for awards in range(cap, -1, -1):
            if left + (cap - awards) * max(extra) <= start + cap * max(extra):
                h(left, awards)
    return h(start, 0)


# -- everything ---------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class HalloweenMath:
    """Every exact figure of the base mode (per total bet)."""

    components: dict[str, Fraction]
    rtp: Fraction
    rider: dict[str, Fraction]
    spins: dict[str, SpinStats]
    free_spins_value: dict[int, Fraction]
    free_spin_win: Fraction
    free_spin_plain_win: Fraction
    expected_spins: dict[int, Fraction]
    ladder_value: dict[int, Fraction]
    ladder_finals: dict[int, dict[int, Fraction]]
    free_spins_frequency: Fraction
    full_moon_frequency: Fraction
    tree_mean: Fraction
    cauldron_odds: dict[int, Fraction]
    bonus_awards: Fraction
    """E[bonus-spin awards] per paid round."""
    series_spins: Fraction
    top_rung_probability: Fraction


def halloween_math(game: LuckyHalloween) -> HalloweenMath:
    """The exact RTP and its parts."""
    s = _Spins(game)
    r = game.rider
    plain: list[tuple[int, Mask]] = [(1, (0, 0, 0, 0, 0))]
    spins: dict[str, SpinStats] = {"plain": s.stats("base", game.base_reels, plain, game.wild)}
    spins["special_reels"] = s.stats("special", game.special_reels, plain, game.wild)
    spins["pumpkin_tree"] = spins["plain"]
    wilds = _weights(r.wilds)
    spins["random_wilds"] = _mixture(
        {k: s.stats("base", game.base_reels, _cell_masks(k), game.wild) for k in wilds}, wilds
    )
    mega = _weights(r.mega)
    spins["mega_wild"] = _mixture(
        {
            left: s.stats(
                "base",
                game.base_reels,
                [(1, tuple(7 if left <= reel < left + 3 else 0 for reel in range(5)))],  # type: ignore[list-item]
                game.wild,
            )
            for left in mega
        },
        mega,
    )
    fs_counts = _weights(r.free_spins)
    spins["free_spins"] = _mixture(
        {n: s.stats("base", game.base_reels, _drop_masks(n), game.free_symbol) for n in fs_counts}, fs_counts
    )
    fm_counts = _weights(r.full_moon)
    spins["full_moon_bonus"] = _mixture(
        {n: s.stats("base", game.base_reels, _drop_masks(n), game.bonus_symbol) for n in fm_counts}, fm_counts
    )

    # Free spins.
    rules = game.free
    free_plain = s.stats("free", game.free_reels, plain, game.wild)
    free_drop = s.stats("free", game.free_reels, _drop_masks(rules.trigger), game.free_symbol)
    q = Fraction(rules.bonus_numerator, rules.bonus_denominator)
    x0 = free_plain.lines + free_plain.scatters
    x1 = (1 - q) * x0 + q * (free_drop.lines + free_drop.scatters)
    cauldron = _weights(rules.cauldron)
    max_free = max(len(st.free) for st in spins.values()) - 1
    fs_value: dict[int, Fraction] = {}
    expected: dict[int, Fraction] = {}
    for n in range(rules.trigger, max_free + 1):
        value = Fraction(0)
        spins_n = Fraction(0)
        for c, pc in cauldron.items():
            a1, a0 = free_spin_counts(game, rules.spins(c, n))
            value += pc * (a1 * x1 + a0 * x0)
            spins_n += pc * (a1 + a0)
        fs_value[n] = value
        expected[n] = spins_n
    mean_extra = sum((v * p for v, p in _weights(rules.bonus_cauldron).items()), Fraction(0))
    mean_start = sum((c * p for c, p in cauldron.items()), Fraction(0))
    series = mean_start / (1 - q * mean_extra)

    # The ladder.
    lad = game.ladder
    max_bonus = max(len(st.bonus) for st in spins.values()) - 1
    finals = {n: ladder_finals(game, n) for n in range(lad.trigger, max(lad.minimum) + 1)}
    lad_value = {
        n: sum((p * lad.rungs_x[i - 1] for i, p in finals[lad.count(n)].items()), Fraction(0))
        for n in range(lad.trigger, max_bonus + 1)
    }

    tree = _weights(r.tree)
    tree_mean = sum((m * p for m, p in tree.items()), Fraction(0))
    chance = {f: r.chance(f) for f in FEATURES}
    p_plain = 1 - sum(chance.values(), Fraction(0))
    weight = {"plain": p_plain, **chance}

    def fs_part(st: SpinStats) -> Fraction:
        return sum((p * fs_value[n] for n, p in enumerate(st.free) if n >= rules.trigger), Fraction(0))

    def lad_part(st: SpinStats) -> Fraction:
        return sum((p * lad_value[n] for n, p in enumerate(st.bonus) if n >= lad.trigger), Fraction(0))

    comp: dict[str, Fraction] = {
        "base_lines": p_plain * spins["plain"].lines,
        "base_scatters": p_plain * spins["plain"].scatters,
    }
    for f in FEATURES:
        st = spins[f]
        mult = tree_mean if f == "pumpkin_tree" else 1
        comp[f"rider_{f}"] = chance[f] * mult * (st.lines + st.scatters)
    comp["free_spins"] = sum((weight[k] * fs_part(spins[k]) for k in weight), Fraction(0))
    comp["full_moon_bonus"] = sum((weight[k] * lad_part(spins[k]) for k in weight), Fraction(0))
    comp["jackpot_contribution"] = game.jackpot.contribution
    fs_freq = sum(
        (weight[k] * sum(spins[k].free[rules.trigger :], Fraction(0)) for k in weight), Fraction(0)
    )
    fm_freq = sum((weight[k] * sum(spins[k].bonus[lad.trigger :], Fraction(0)) for k in weight), Fraction(0))
    # Awards per feature: the spins beyond the start, over the mean award.
    awards = Fraction(0)
    for k, wk in weight.items():
        for n, p in enumerate(spins[k].free):
            if n >= rules.trigger:
                start = sum((pc * rules.spins(c, n) for c, pc in cauldron.items()), Fraction(0))
                awards += wk * p * (expected[n] - start) / mean_extra
    top = Fraction(0)
    for k, wk in weight.items():
        for n, p in enumerate(spins[k].bonus):
            if n >= lad.trigger:
                top += wk * p * finals[lad.count(n)].get(lad.top, Fraction(0))
    return HalloweenMath(
        components=comp,
        rtp=sum(comp.values(), Fraction(0)),
        rider=chance,
        spins=spins,
        free_spins_value=fs_value,
        free_spin_win=x1,
        free_spin_plain_win=x0,
        expected_spins=expected,
        ladder_value=lad_value,
        ladder_finals=finals,
        free_spins_frequency=fs_freq,
        full_moon_frequency=fm_freq,
        tree_mean=tree_mean,
        cauldron_odds=cauldron,
        bonus_awards=awards,
        series_spins=series,
        top_rung_probability=top,
    )


def _mixture(parts: Mapping[int, SpinStats], weights: Mapping[int, Fraction]) -> SpinStats:
    """The spin whose kind ``k`` comes with probability ``weights[k]``."""
    size_f = max(len(p.free) for p in parts.values())
    size_b = max(len(p.bonus) for p in parts.values())
    free = [Fraction(0)] * size_f
    bonus = [Fraction(0)] * size_b
    lines = Fraction(0)
    scatters = Fraction(0)
    for k, p in parts.items():
        w = weights[k]
        lines += w * p.lines
        scatters += w * p.scatters
        for i, v in enumerate(p.free):
            free[i] += w * v
        for i, v in enumerate(p.bonus):
            bonus[i] += w * v
    return SpinStats(lines, scatters, tuple(free), tuple(bonus))


def round_win_bound(game: LuckyHalloween, m: HalloweenMath) -> int:
    """A proven upper bound of a round's game win in total bets (the game has no win cap; the
    bound on bonus-spin awards keeps it finite): every line at the top pay and both scatters
    at their top pay on the paid spin, times the largest tree multiplier; the top rung; and
    the most free spins, each with every line at the top pay plus the dropped scatters."""
    n = len(game.data.paylines)
    top_line = max(max(p.values()) for p in game.data.paytable.pays.values())
    lines_x = Fraction(top_line * n, n)
    spin = lines_x + max(game.free_pays) + max(game.bonus_pays)
    tree = max(v for v, _ in game.rider.tree)
    rules = game.free
    most_free = max(len(st.free) for st in m.spins.values()) - 1
    spins = rules.spins(max(v for v, _ in rules.cauldron), most_free)
    spins += rules.max_awards * max(v for v, _ in rules.bonus_cauldron)
    free = spins * (lines_x + game.free_pays[min(rules.trigger, len(game.free_pays) - 1)])
    return math.ceil(tree * spin + game.ladder.rungs_x[-1] + free)


# -- the showcase's features ------------------------------------------------------------------
Joint = dict[tuple[int, int], Fraction]
"""P(the judged window shows f Free Spins and b Bonus symbols), by (f, b)."""


def scatter_joint(game: LuckyHalloween) -> dict[str, Joint]:
    """Per kind of paid spin (the keys of `HalloweenMath.spins`): the exact joint
    distribution of the judged window's (Free Spins, Bonus) counts, over the same
    placements as the spin statistics (per reel and covered rows, the two scatters among
    the uncovered rows, plus the covered rows for a placed scatter; convolved over the reels).
    Its marginals are `SpinStats.free` and `SpinStats.bonus`."""
    free_s, bonus_s = game.free_symbol, game.bonus_symbol
    tally: dict[tuple[str, int, int, str], dict[tuple[int, int], int]] = {}

    def reel(name: str, reels: ReelSet, r: int, covered: int, symbol: str) -> dict[tuple[int, int], int]:
        key = (name, r, covered, symbol)
        if key not in tally:
            placed = bin(covered).count("1")
            df = placed if symbol == free_s else 0
            db = placed if symbol == bonus_s else 0
            t: dict[tuple[int, int], int] = {}
            for col in reels.columns[r]:
                f = sum(1 for row, x in enumerate(col) if x == free_s and not covered >> row & 1)
                b = sum(1 for row, x in enumerate(col) if x == bonus_s and not covered >> row & 1)
                t[f + df, b + db] = t.get((f + df, b + db), 0) + 1
            tally[key] = t
        return tally[key]

    def spin(name: str, reels: ReelSet, masks: Sequence[tuple[int, Mask]], symbol: str) -> Joint:
        acc: dict[tuple[int, int], int] = {}
        for w, mask in masks:
            dist = {(0, 0): w}
            for r in range(5):
                nxt: dict[tuple[int, int], int] = {}
                for (f, b), a in dist.items():
                    for (g, c), n in reel(name, reels, r, mask[r], symbol).items():
                        nxt[f + g, b + c] = nxt.get((f + g, b + c), 0) + a * n
                dist = nxt
            for k, v in dist.items():
                acc[k] = acc.get(k, 0) + v
        den = math.prod(len(s) for s in reels.strips) * sum(w for w, _ in masks)
        return {k: Fraction(v, den) for k, v in sorted(acc.items())}

    def mixture(parts: Mapping[int, Joint], weights: Mapping[int, Fraction]) -> Joint:
        out: Joint = {}
        for k, part in parts.items():
            for key, p in part.items():
                out[key] = out.get(key, Fraction(0)) + weights[k] * p
        return out

    r = game.rider
    plain: list[tuple[int, Mask]] = [(1, (0, 0, 0, 0, 0))]
    base = game.base_reels
    out = {"plain": spin("base", base, plain, game.wild)}
    out["special_reels"] = spin("special", game.special_reels, plain, game.wild)
    out["pumpkin_tree"] = out["plain"]
    wilds = _weights(r.wilds)
    out["random_wilds"] = mixture({k: spin("base", base, _cell_masks(k), game.wild) for k in wilds}, wilds)
    mega = _weights(r.mega)
    out["mega_wild"] = mixture(
        {
            left: spin("base", base, [(1, tuple(7 if left <= i < left + 3 else 0 for i in range(5)))], game.wild)  # type: ignore[list-item]
            for left in mega
        },
        mega,
    )
    fs = _weights(r.free_spins)
    out["free_spins"] = mixture({n: spin("base", base, _drop_masks(n), free_s) for n in fs}, fs)
    fm = _weights(r.full_moon)
    out["full_moon_bonus"] = mixture({n: spin("base", base, _drop_masks(n), bonus_s) for n in fm}, fm)
    return out


def bonus_award_odds(game: LuckyHalloween, starts: Iterable[int]) -> dict[int, tuple[Fraction, ...]]:
    """For each of ``starts``: P(a free-spins feature of that many spins makes exactly j
    bonus-spin awards), for j = 0 .. ``max_awards``: a recursion over (spins left, awards
    made), each spin bringing the Rider with his fixed chance while awards remain (as
    `free_spin_counts`); one table serves every start."""
    rules = game.free
    q = Fraction(rules.bonus_numerator, rules.bonus_denominator)
    extra = _weights(rules.bonus_cauldron)
    cap = rules.max_awards

    def unit(j: int) -> tuple[Fraction, ...]:
        return tuple(Fraction(int(i == j)) for i in range(cap + 1))

    @cache
    def d(left: int, awards: int) -> tuple[Fraction, ...]:
        if awards >= cap or left == 0:
            return unit(awards)
        out = [(1 - q) * v for v in d(left - 1, awards)]
        for x, px in extra.items():
            for j, v in enumerate(d(left - 1 + x, awards + 1)):
                out[j] += q * px * v
        return tuple(out)

    wanted = sorted(set(starts))
    # Fill the table bottom-up (no deep recursion): the most awards first.
    top = max(wanted, default=0) + cap * max(extra)
    for awards in range(cap, -1, -1):
        for left in range(top + 1):
            d(left, awards)
    return {n: d(n, 0) for n in wanted}


def ladder_shortcut_chance(game: LuckyHalloween, count: int) -> Fraction:
    """P(a Full Moon Bonus of ``count`` Bonus symbols takes a shortcut): a forward pass of
    the ladder's chain (it moves only up) over the ladders that have not taken one yet."""
    rules = game.ladder
    c = rules.count(count)
    num, den = rules.collect[c]
    cp = Fraction(num, den)
    top = rules.top
    reach = [Fraction(0)] * top  # P(on rung p before a pick, no shortcut taken yet), p < top
    reach[0] = Fraction(1)
    hit = Fraction(0)
    for p in range(top):
        share = reach[p] / rules.steps
        if not share:
            continue
        for k in range(1, rules.steps + 1):
            landed, to = rules.move(p, k)
            if landed != to:
                hit += share  # and no longer followed: the chance is of one shortcut or more
            elif to != top:
                reach[to] += share * (1 - cp) if rules.collect_allowed(c, to) else share
    return hit


def _feature(fid: str, title: str, p: Fraction, method: str) -> dict[str, Any]:
    return {"id": fid, "title": title, "probability": float(p), "exact": str(p), "method": method}


def showcase_features(game: LuckyHalloween, m: HalloweenMath) -> list[dict[str, Any]]:
    """The showcase's features of a paid round (see `pyengine.games.lucky_halloween.showcase`),
    each with its exact chance per paid round at the default bet, every pick its first cell
    (the picks are fair: which cell is picked never changes the chances). A feature the
    rules make impossible (chance 0) is left out."""
    rules, lad, rider = game.free, game.ladder, game.rider
    weight = {"plain": 1 - sum(m.rider.values(), Fraction(0)), **m.rider}
    free_n = trigger_odds(game, m, "free")
    bonus_n = trigger_odds(game, m, "bonus")
    joint = scatter_joint(game)
    both = sum(
        (
            w * p
            for k, w in weight.items()
            for (f, b), p in joint[k].items()
            if f >= rules.trigger and b >= lad.trigger
        ),
        Fraction(0),
    )
    # P(free spins with j bonus-spin awards), j = 0 .. max_awards.
    award_odds = bonus_award_odds(game, (rules.spins(c, n) for n in free_n for c in m.cauldron_odds))
    awards = [Fraction(0)] * (rules.max_awards + 1)
    for n, pn in free_n.items():
        for c, pc in m.cauldron_odds.items():
            for j, pj in enumerate(award_odds[rules.spins(c, n)]):
                awards[j] += pn * pc * pj
    finals: dict[int, Fraction] = {}
    shortcut = Fraction(0)
    for n, pn in bonus_n.items():
        for i, p in m.ladder_finals[lad.count(n)].items():
            finals[i] = finals.get(i, Fraction(0)) + pn * p
        shortcut += pn * ladder_shortcut_chance(game, n)
    tree = _weights(rider.tree)
    tree_top = max(tree)

    def minimum_x(count: int) -> int:
        return lad.rungs_x[lad.minimum[lad.count(count)] - 1]

    cauldron_top = max(m.cauldron_odds)
    names = {
        "special_reels": "the Special Reels",
        "pumpkin_tree": "the Pumpkin Tree, multiplying every prize of the spin",
        "random_wilds": "Random Wilds",
        "mega_wild": "the 3x3 Mega Wild",
        "free_spins": "Free Spins symbols",
        "full_moon_bonus": "Bonus symbols",
    }
    feats = [
        _feature(rider_id(f), f"The Pumpkin Rider brings {names.get(f, f)}", p, "exact: the Rider's fixed weight")
        for f, p in m.rider.items()
    ]
    shortcuts = ", ".join(f"{lad.rungs_x[a - 1]}x to {lad.rungs_x[b - 1]}x" for a, b in sorted(lad.shortcuts.items()))
    by_count = "exact: the scatter count's distribution per Rider kind (convolution over the reels)"
    feats += [
        _feature(
            f"tree_{tree_top}x",
            f"The Pumpkin Tree at its top multiplier, {tree_top}x",
            m.rider["pumpkin_tree"] * tree[tree_top],
            "exact: the Rider's Pumpkin Tree weight x the multiplier's weight",
        ),
        _feature("free_spins", "Cauldron free spins", m.free_spins_frequency, by_count),
        _feature(
            "four_free",
            f"Free spins from 4 Free Spins symbols (+{rules.per_extra} spins)",
            free_n.get(4, Fraction(0)),
            by_count,
        ),
        _feature(
            "five_free",
            "Free spins from 5 or more Free Spins symbols",
            sum((p for n, p in free_n.items() if n >= 5), Fraction(0)),
            by_count,
        ),
        _feature(
            f"cauldron_{cauldron_top}",
            f"Free spins with {cauldron_top} spins from the cauldron, its most",
            m.free_spins_frequency * m.cauldron_odds[cauldron_top],
            "exact: the free-spins frequency x the count's cauldron weight",
        ),
        _feature(
            "bonus_spins",
            "The Pumpkin Rider brings bonus spins during free spins",
            sum(awards[1:], Fraction(0)),
            "exact: the awards' count by recursion over (spins left, awards made), per trigger count and cauldron",
        ),
        _feature(
            "bonus_spins_max",
            f"Bonus spins awarded {rules.max_awards} times in one feature, the most",
            awards[-1] if rules.max_awards else Fraction(0),
            "exact: the awards' count by recursion over (spins left, awards made), per trigger count and cauldron",
        ),
        _feature("full_moon_bonus", "The Full Moon Bonus ladder", m.full_moon_frequency, by_count),
        _feature(
            "four_bonus",
            f"The Full Moon Bonus from 4 Bonus symbols (COLLECT from {minimum_x(4)}x)",
            bonus_n.get(4, Fraction(0)),
            by_count,
        ),
        _feature(
            "five_bonus",
            f"The Full Moon Bonus from 5 or more Bonus symbols (COLLECT from {minimum_x(5)}x)",
            sum((p for n, p in bonus_n.items() if n >= 5), Fraction(0)),
            by_count,
        ),
        _feature(
            "ladder_shortcut",
            f"A green shortcut up the ladder ({shortcuts})",
            shortcut,
            "exact: a forward pass of the ladder's chain per trigger count x the count's chance",
        ),
    ]
    for x in lad.rungs_x[-TOP_RUNGS:]:
        i = lad.rungs_x.index(x) + 1
        title = f"The Full Moon Bonus's top rung, {x}x" if i == lad.top else f"The Full Moon Bonus collecting {x}x"
        feats.append(
            _feature(
                rung_id(x),
                title,
                finals.get(i, Fraction(0)),
                "exact: the ladder's absorbing chain per trigger count x the count's chance",
            )
        )
    feats.append(
        _feature(
            "both_features",
            "The Full Moon Bonus and free spins in one round",
            both,
            "exact: the joint distribution of the two scatter counts per placement (convolution over the reels)",
        )
    )
    return [f for f in feats if Fraction(f["exact"]) > 0]


def _every(p: Fraction) -> float | None:
    return float(1 / p) if p else None


def report(game: LuckyHalloween, mode: str, settings: Mapping[str, int], lines: int) -> dict[str, Any]:
    """The exact RTP report (see `pyengine.math.rtp.rtp_report`)."""
    m = halloween_math(game)
    lad = game.ladder
    rider = game.rider
    out: dict[str, Any] = {
        **report_header(
            game, mode, m.rtp,
            method=(
                "exact (fractions): line wins from per-reel symbol counts with the Rider's placed symbols fixing "
                "reels per line; scatter counts by convolution per placement; the Rider as a mixture of modified "
                "spins with fixed chances; free spins by Wald's identity over the bonus-spin awards (bounded); the "
                "ladder as an acyclic absorbing chain; the time jackpot returns exactly its "
                f"{game.jackpot.contribution} contribution"
            ),
            components=m.components,
        ),
        "rider_frequency": {f: float(p) for f, p in m.rider.items()},
        "rider_every": {f: _every(p) for f, p in m.rider.items()},
        "pumpkin_tree_odds": {str(v): float(m.rider["pumpkin_tree"] * p) for v, p in _weights(rider.tree).items()},
        "pumpkin_tree_mean": float(m.tree_mean),
        "free_spins_frequency": float(m.free_spins_frequency),
        "free_spins_every": _every(m.free_spins_frequency),
        "free_spins_value_x": {str(n): float(v) for n, v in m.free_spins_value.items()},
        "free_spins_expected_spins": {str(n): float(v) for n, v in m.expected_spins.items()},
        "free_spin_average_x": float(m.free_spin_win),
        "free_spins_series_spins_unbounded": float(m.series_spins),
        "cauldron_odds": {str(c): float(p * m.free_spins_frequency) for c, p in m.cauldron_odds.items()},
        "bonus_spins_odds": {
            str(v): float(m.bonus_awards * p) for v, p in _weights(game.free.bonus_cauldron).items()
        },
        "full_moon_frequency": float(m.full_moon_frequency),
        "full_moon_every": _every(m.full_moon_frequency),
        "ladder_value_x": {str(n): float(v) for n, v in m.ladder_value.items()},
        "ladder_finals": {
            str(n): {str(lad.rungs_x[i - 1]): float(p) for i, p in d.items()} for n, d in m.ladder_finals.items()
        },
        "feature_lengths": feature_lengths(game, m),
        # No win cap: the largest a round can pay is only bounded (every line at its top
        # prize on every spin the rules allow); the ladder's top rung is its largest award.
        "max_win_x": round_win_bound(game, m),
        "max_win_bound": True,
        "max_win_probability": None,
        "top_rung_x": lad.rungs_x[-1],
        "top_rung_probability": float(m.top_rung_probability),
        "top_rung_every": _every(m.top_rung_probability),
    }
    out["features"] = showcase_features(game, m)
    # The figures the rules page quotes from this proof (build.py carries them to games.json).
    out["page"] = {"ladder_finals": out["ladder_finals"]}
    fin = "  ".join(
        f"{n}:" + ",".join(f"{lad.rungs_x[i - 1]}x {float(p) * 100:.3g}%" for i, p in d.items())
        for n, d in m.ladder_finals.items()
    )
    out["summary"] = [
        f"free spins every {out['free_spins_every']:.1f} rounds, full moon bonus every {out['full_moon_every']:.1f}",
        "rider every " + ", ".join(f"{f} {1 / float(p):.0f}" for f, p in m.rider.items() if p),
        f"ladder finals  {fin}",
        f"top rung {lad.rungs_x[-1]}x every {out['top_rung_every']:.0f} rounds",
        f"no win cap: a round's game win is at most {out['max_win_x']:,}x (a proven bound, not an award)",
    ]
    return out
