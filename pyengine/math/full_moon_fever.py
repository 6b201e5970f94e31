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
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from ..evaluators import LineEvaluator, refill
from ..evaluators.lines import Wilds, wild_set
from ..features.cascade import CascadeRules
from ..games.full_moon_fever import FullMoonFever
from ..model import Payline, ReelSet, Window
from .exact import convolve, count_distribution, line_stats, spin_distribution

__all__ = ["FeatureSpin", "FullMoonMath", "cascade_distribution", "free_spin", "full_moon_math", "report"]

Outcome = tuple[int, int]
"""One stop combination's (win in multiples of the bet per line, number of cascades)."""


def cascade_distribution(
    reels: ReelSet,
    lines: LineEvaluator,
    rules: CascadeRules,
    paylines: Sequence[Payline],
    wild: Wilds,
) -> dict[Outcome, int]:
    """Every stop combination of ``reels`` played out as a cascading spin on ``active``
    lines: {(win in bets per line, cascades): combinations}. The same steps as
    `pyengine.features.cascade.play_cascades` (the shared `refill`, the game's evaluator),
    without events.

    Prefix pruning: when no line can pay on the first three reels whatever reels 4 and 5
    show (no open run, no fixed pay), those ``len4 x len5`` combinations are counted at once.
    """
    strips = reels.strips
    if len(strips) != 5:
        raise ValueError("the Winfalls enumeration is written for 5 reels")
    cols = reels.columns
    rows = [p.rows for p in paylines]
    active = len(rows)
    wilds = wild_set(wild)
    n34 = len(strips[3]) * len(strips[4])
    pad = ("\0", "\0")
    memo: dict[tuple[str, str, str], bool] = {}

    def may_pay(key: tuple[str, str, str]) -> bool:
        found = memo.get(key)
        if found is None:
            target = next((x for x in key if x not in wilds), None)
            run_open = target is None or all(x == target or x in wilds for x in key)
            found = memo[key] = run_open or lines.evaluate_symbols(key + pad) is not None
        return found

    out: Counter[Outcome] = Counter()
    multiplier = rules.multiplier
    limit = rules.limit
    wins = lines.wins
    for s0, c0 in enumerate(cols[0]):
        for s1, c1 in enumerate(cols[1]):
            for s2, c2 in enumerate(cols[2]):
                if not any(may_pay((c0[r[0]], c1[r[1]], c2[r[2]])) for r in rows):
                    out[(0, 0)] += n34
                    continue
                for s3, c3 in enumerate(cols[3]):
                    for s4, c4 in enumerate(cols[4]):
                        window: Window = (c0, c1, c2, c3, c4)
                        hits = wins(window, active)
                        if not hits:
                            out[(0, 0)] += 1
                            continue
                        stops: tuple[int, ...] = (s0, s1, s2, s3, s4)
                        total = 0
                        step = 0
                        while hits:
                            total += multiplier(step) * sum(h[4] for h in hits)
                            step += 1
                            if step > limit:
                                raise ValueError(f"stops {stops} cascade more than {limit} times")
                            removed: set[tuple[int, int]] = set()
                            for h in hits:
                                removed.update(h[3])
                            stops, window = refill(strips, stops, window, removed)
                            hits = wins(window, active)
                        out[(total, step)] += 1
    return dict(out)


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


def report(game: FullMoonFever, mode: str, settings: Mapping[str, int], lines: int) -> dict[str, Any]:
    """The exact RTP report (see `pyengine.math.rtp.rtp_report`)."""
    m = full_moon_math(game, lines)
    spin = m.spin
    cascades = spin.cascades
    longest = spin.longest
    radix = spin.combinations
    base_max = max(w for w, _ in m.base)
    max_spins = game.winfalls.max_spins
    max_win_x = Fraction(base_max, lines) + max_spins * Fraction(spin.max_win, lines)
    max_combos = sum(c for (w, _), c in spin.outcomes.items() if w == spin.max_win)
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
        "game": game.id,
        "mode": "base",
        "rtp": float(m.rtp),
        "rtp_exact": str(m.rtp),
        "target_rtp": float(game.target_rtp),
        "method": (
            "exact: base line wins from per-reel symbol counts, the Haunted House by convolution; one "
            f"Winfalls spin by enumerating all {radix:,} stop combinations of the free strips, each cascade "
            "played out (refill from the strip above); the feature is E[spins] x E[spin] (Wald); fractions"
        ),
        "breakdown": {
            "base_lines": float(m.base_lines),
            "base_scatter": float(m.base_scatter),
            "winfalls": float(m.free_spins),
        },
        "hit_rate": float(m.hit_rate),
        "line_hit_probability": float(m.line_hit),
        "sigma": sigma,
        "feature_frequency": float(m.p_trigger),
        "feature_every": float(1 / m.p_trigger),
        "houses": {str(k): float(p) for k, p in enumerate(m.houses)},
        "spins_distribution": {str(n): float(p) for n, p in m.spins.items()},
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
    }
