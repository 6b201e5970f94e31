"""Exact RTP of Book of Spells.

Base game: line wins from per-reel symbol counts, the Book scatter by convolution.
Free spins: once per expanding symbol, the expected win of one free spin (lines + scatter
+ expansion, the expansion's reel count by convolution) times the expected number of
spins with the retrigger series: N = award / (1 - award * p), p = P(retrigger per spin).
The free-spin cap: per expanding symbol, the exact distribution of one free spin's whole
win over every stop combination, compounded over the feature by `compound.capped_feature`.
The gamble is fair (tested separately) and does not move the RTP.
The showcase's features (`features`): the trigger, its count of Books and each expanding
symbol exact in fractions; a retrigger (before the limit ends the feature) from the same
free-spin distributions (float64).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from . import BookOfSpells
from ...model import Bet, ReelSet
from ...rng import ScriptedRng
from ...round import RoundContext
from ...math.compound import capped_feature, capped_total
from ...math.memo import LastFor
from ...math.parsheet import WinDistribution, length_table, retrigger_lengths
from ...math.poly import product
from ...math.exact import convolve, count_distribution, line_stats, max_spin_win, spin_distribution, visible_probability

__all__ = [
    "BookMath",
    "CapEstimate",
    "CapTerm",
    "book_math",
    "cap_excess",
    "cap_term",
    "distribution",
    "features",
    "free_spin_distribution",
    "report",
    "retrigger_shown",
]


@dataclass(frozen=True, slots=True)
class BookMath:
    """Exact expectations, all in multiples of the total bet."""

    base_lines: Fraction
    base_scatter: Fraction
    p_trigger: Fraction
    p_retrigger: Fraction
    expected_spins: Fraction
    free_spin_lines: Fraction  # averaged over the expanding symbol's draw
    free_spin_scatter: Fraction
    expanding: dict[str, Fraction]
    feature_by_symbol: dict[str, Fraction]
    feature: Fraction
    line_hit: Fraction

    @property
    def free_spins(self) -> Fraction:
        return self.p_trigger * self.feature

    @property
    def rtp_uncapped(self) -> Fraction:
        return self.base_lines + self.base_scatter + self.free_spins


def _book_counts(game: BookOfSpells, reels: ReelSet) -> list[Fraction]:
    """P(a spin of ``reels`` shows n Books), by n, by convolution of the per-reel counts."""
    book = game.book
    return convolve(count_distribution(reels, i, lambda col: col.count(book)) for i in range(len(reels.strips)))


def _scatter(game: BookOfSpells, reels: ReelSet) -> tuple[Fraction, Fraction]:
    dist = _book_counts(game, reels)
    ev = sum((p * game.data.scatter_pays.get(n, 0) for n, p in enumerate(dist)), Fraction(0))
    trigger = sum(dist[game.free_spins.trigger :], Fraction(0))
    return ev, trigger


def _expanding_ev(game: BookOfSpells, reels: ReelSet, symbol: str) -> Fraction:
    dists = []
    for i in range(len(reels.strips)):
        q = visible_probability(reels, i, symbol)
        dists.append([1 - q, q])
    reel_count = convolve(dists)
    return sum((p * game.data.paytable.pay(symbol, n) for n, p in enumerate(reel_count)), Fraction(0))


def book_math(game: BookOfSpells) -> BookMath:
    """Compute every exact expectation of the game (independent of lines and bet)."""
    data = game.data
    base = line_stats(game.base_reels, data.paytable, wild=game.book, wild_pays_as=game.wild_pays_as)
    # In free spins the Book does not substitute for the expanding symbol.
    free_lines = {
        s: line_stats(
            game.free_reels, data.paytable, wild=game.book, wild_pays_as=game.wild_pays_as, not_substituted=(s,)
        ).ev
        for s, _ in game.free_spins.expanding
    }
    base_scatter, p_trigger = _scatter(game, game.base_reels)
    free_scatter, p_retrigger = _scatter(game, game.free_reels)
    award = game.free_spins.award
    if award * p_retrigger >= 1:
        raise ValueError("free spins retrigger too often: the expected number of spins is infinite")
    spins = Fraction(award) / (1 - award * p_retrigger)
    expanding = {s: _expanding_ev(game, game.free_reels, s) for s, _ in game.free_spins.expanding}
    per_symbol = {s: spins * (free_lines[s] + free_scatter + ev) for s, ev in expanding.items()}
    total_w = sum(w for _, w in game.free_spins.expanding)
    feature = sum((per_symbol[s] * w for s, w in game.free_spins.expanding), Fraction(0)) / total_w
    free_line_ev = sum((free_lines[s] * w for s, w in game.free_spins.expanding), Fraction(0)) / total_w
    return BookMath(
        base_lines=base.ev,
        base_scatter=base_scatter,
        p_trigger=p_trigger,
        p_retrigger=p_retrigger,
        expected_spins=spins,
        free_spin_lines=free_line_ev,
        free_spin_scatter=free_scatter,
        expanding=expanding,
        feature_by_symbol=per_symbol,
        feature=feature,
        line_hit=base.hit,
    )


def free_spin_distribution(game: BookOfSpells, symbol: str, lines: int) -> dict[tuple[int, bool], int]:
    """One free spin with ``symbol`` expanding, on ``lines`` lines: {(win, retriggers): stop combinations}.

    The win is in multiples of the bet per line: line wins (the Book not substituting for
    ``symbol``), the Book scatter (x lines: it pays on the total bet) and the expansion.
    """
    data = game.data
    book = game.book
    return spin_distribution(
        game.free_reels,
        data.paylines[:lines],
        data.paytable,
        wild=book,
        wild_pays_as=game.wild_pays_as,
        not_substituted=(symbol,),
        counts=lambda col: (col.count(book), int(symbol in col)),
        settle=lambda c: (
            lines * (data.scatter_pays.get(c[0], 0) + data.paytable.pay(symbol, c[1])),
            c[0] >= game.free_spins.trigger,
        ),
    )


@dataclass(frozen=True, slots=True)
class CapTerm:
    """What the free-spin cap takes, in multiples of the total bet."""

    cap_x: int
    lines: int
    excess_by_symbol: dict[str, float]
    """E[(S - cap)+] of one feature, per expanding symbol."""
    over_by_symbol: dict[str, float]
    """P(the cap ends the feature), per expanding symbol."""
    excess: float
    """E[(S - cap)+] of one feature, over the expanding symbol's draw."""
    over: float
    """P(the cap ends a feature)."""
    reduction: float
    """What the cap takes from the RTP: P(feature) x ``excess``."""


def cap_term(
    game: BookOfSpells, cap_x: int, lines: int | None = None,
    spins: Mapping[str, Mapping[tuple[int, bool], int]] | None = None,
) -> CapTerm:
    """The free-spin cap's effect on the RTP, at ``lines`` lines (default: all); ``spins``
    the `free_spin_distribution` per expanding symbol at those lines, when already computed."""
    lines = max(game.bets.lines) if lines is None else lines
    rules = game.free_spins
    excess: dict[str, float] = {}
    over: dict[str, float] = {}
    for symbol, _ in rules.expanding:
        spin = spins[symbol] if spins is not None else free_spin_distribution(game, symbol, lines)
        r = capped_feature(spin, start=rules.award, award=rules.award, cap=cap_x * lines)
        excess[symbol] = r.excess / lines
        over[symbol] = r.over
    total_w = sum(w for _, w in rules.expanding)
    mean_excess = sum(excess[s] * w for s, w in rules.expanding) / total_w
    mean_over = sum(over[s] * w for s, w in rules.expanding) / total_w
    p_trigger = _scatter(game, game.base_reels)[1]
    return CapTerm(cap_x, lines, excess, over, mean_excess, mean_over, float(p_trigger) * mean_excess)


def retrigger_shown(spin: Mapping[tuple[int, bool], int], *, start: int, cap: int) -> float:
    """P(a feature whose spins follow ``spin`` shows a retrigger), the limit ``cap`` counted.

    ``spin`` is `free_spin_distribution`'s {(win, retriggers): stop combinations}, ``cap`` in
    its unit. Spin k (k = 1 .. ``start``) is played when the spins before it neither
    retriggered nor took the cumulative win above the cap; it retriggers with probability
    p, whatever came before. So P = p x sum over k < ``start`` of P(k spins without a
    retrigger whose wins add up to at most the cap), the distribution of those sums by
    repeated convolution (`pyengine.math.poly`'s FFT in float64, each cut after the cap). A
    retrigger on the spin that passes the limit is shown (the game awards it before crediting
    the win).
    """
    total = sum(spin.values())
    p_re = sum(n for (_, again), n in spin.items() if again) / total
    size = cap + 1
    quiet = [0.0] * size  # one spin without a retrigger, by its win (wins above the cap left out)
    for (w, again), n in spin.items():
        if not again and w <= cap:
            quiet[w] += n / total
    running = [0.0] * size
    running[0] = 1.0  # no spin played yet
    alive = 0.0
    for _ in range(start):
        alive += math.fsum(running)
        running = product(running, quiet, size)
    return p_re * alive


def features(
    game: BookOfSpells, m: BookMath, cap: CapTerm, spins: Mapping[str, Mapping[tuple[int, bool], int]]
) -> list[dict[str, Any]]:
    """The showcase's features (`pyengine.showcase`) with their odds per paid round, at
    ``cap.lines`` lines, answering every decision with its first choice (the gamble
    declined): the trigger and its count of Books, each expanding symbol and a retrigger;
    ``spins`` is `free_spin_distribution` per expanding symbol at those lines. What
    `pyengine.games.book_of_spells.showcase.shown` finds in a round."""
    rules = game.free_spins
    total_w = sum(w for _, w in rules.expanding)
    names = {s.id: s.name for s in game.data.symbols}
    out: list[dict[str, Any]] = []

    def add(ident: str, title: str, p: Fraction | float, method: str) -> None:
        exact = str(p) if isinstance(p, Fraction) else None
        out.append({"id": ident, "title": title, "probability": float(p), "exact": exact, "method": method})

    add(
        "free_spins", f"Free spins ({rules.trigger} or more Books)", m.p_trigger,
        "exact: P(3+ Books) by convolution of the per-reel Book counts",
    )
    counts = _book_counts(game, game.base_reels)
    words = {3: "three", 4: "four", 5: "five"}
    for n in range(rules.trigger, len(counts)):
        if counts[n]:
            add(
                f"{words.get(n, str(n))}_books", f"Free spins triggered by {n} Books", counts[n],
                f"exact: P({n} Books) by convolution of the per-reel Book counts",
            )
    for symbol, w in rules.expanding:
        add(
            f"expanding_{symbol.lower()}", f"Free spins with the {names[symbol]} expanding",
            m.p_trigger * Fraction(w, total_w),
            f"exact: trigger probability x the symbol's weight ({w}/{total_w})",
        )
    retrigger = 0.0
    for symbol, w in rules.expanding:
        retrigger += w / total_w * retrigger_shown(spins[symbol], start=rules.award, cap=cap.cap_x * cap.lines)
    add(
        "retrigger", "Free spins retriggered", float(m.p_trigger) * retrigger,
        "exact: trigger probability x P(3+ Books in a free spin before the limit ends the feature), "
        "from one free spin's exact distribution per expanding symbol (float64 convolution)",
    )
    # The win limit's end (P(trigger) x cap.over, 1 round in about 1.8 million at the default)
    # is not listed: the showcase searches a million seeds and this game sells no feature.
    return out


@dataclass(frozen=True, slots=True)
class CapEstimate:
    """E[(S - cap)+] per feature in multiples of the total bet, and its 95% half-width."""

    excess: float
    ci95: float
    features: int
    reached: int


def cap_excess(game: BookOfSpells, cap_x: int, *, features_per_symbol: int, seed: int) -> CapEstimate:
    """Estimate what the free-spin cap takes away, by playing features without the cap.

    The independent check of `cap_term`: it plays the game's own feature code.

    Stratified by expanding symbol (each symbol's features are weighted by its draw
    weight), seeded, through the game's own feature code. Bet: 1 per line on every line.
    """
    lines = max(game.bets.lines)
    bet = Bet(lines, 1)
    settings = dict(game.default_settings(), free_spin_cap_x=10**12, gamble=0)
    cap = cap_x * lines
    total_w = sum(w for _, w in game.free_spins.expanding)
    mean = 0.0
    var = 0.0
    reached = 0
    for index, (_symbol, weight) in enumerate(game.free_spins.expanding):
        xs = []
        for i in range(features_per_symbol):
            rng = ScriptedRng([index], seed=(seed * 1_000_003 + index) * 1_000_003 + i)
            ctx = RoundContext(rng, bet, settings, autoplay=True)
            process = game.play_feature(ctx)
            try:
                while True:
                    next(process)
            except StopIteration as stop:
                total = stop.value[0]
            excess = max(total - cap, 0) / lines
            reached += excess > 0
            xs.append(excess)
        m = sum(xs) / len(xs)
        v = sum((x - m) ** 2 for x in xs) / max(len(xs) - 1, 1) / len(xs)
        share = weight / total_w
        mean += share * m
        var += share * share * v
    return CapEstimate(mean, 1.96 * math.sqrt(var), features_per_symbol * len(game.free_spins.expanding), reached)


def _all_free_spins(game: BookOfSpells, lines: int) -> dict[str, dict[tuple[int, bool], int]]:
    """`free_spin_distribution` of every expanding symbol at ``lines`` lines."""
    return {s: free_spin_distribution(game, s, lines) for s, _ in game.free_spins.expanding}


_free_spins = LastFor(_all_free_spins)
"""`_all_free_spins`, kept for the game object last asked about (the report and the
distribution both need them)."""


def distribution(game: BookOfSpells, mode: str, settings: Mapping[str, int], lines: int) -> WinDistribution:
    """The exact distribution of a round's win (`pyengine.math.parsheet`), the gamble declined:
    one base spin's whole win with whether it triggers, over every stop combination; a
    triggering spin adds what the free spins pay, min(S, cap), per expanding symbol by
    `compound.capped_total` (float64), mixed by the symbols' weights."""
    d = game.data
    rules = game.free_spins
    book = game.book
    base = spin_distribution(
        game.base_reels,
        d.paylines[:lines],
        d.paytable,
        wild=book,
        wild_pays_as=game.wild_pays_as,
        counts=lambda col: (col.count(book),),
        settle=lambda c: (lines * d.scatter_pays.get(c[0], 0), c[0] >= rules.trigger),
    )
    cap = settings["free_spin_cap_x"] * lines
    total_w = sum(w for _, w in rules.expanding)
    feature = [0.0] * (cap + 1)
    for symbol, w in rules.expanding:
        spin = _free_spins(game, lines)[symbol]
        share = w / total_w
        paid = capped_total(spin, start=rules.award, award=rules.award, cap=cap)
        feature = [f + share * p for f, p in zip(feature, paid, strict=True)]
    radix = game.base_reels.radix
    top = max(win for win, _ in base)
    size = top + cap + 1
    quiet = [0.0] * size  # the spins that do not trigger, by their win
    trigger = [0.0] * (top + 1)  # the spins that trigger, by their own win
    for (win, triggers), ways in base.items():
        (trigger if triggers else quiet)[win] += ways / radix
    # A triggering spin's win plus what its feature pays: the product of the two distributions.
    probs = [q + max(t, 0.0) for q, t in zip(quiet, product(trigger, feature, size), strict=True)]
    return WinDistribution(
        Fraction(1, lines),
        probs,
        "exact: one base spin's whole win and its trigger over every stop combination (integers); "
        "the free spins' capped total per expanding symbol from one free spin's exact distribution, "
        "compounded with its retriggers (float64 FFT); the gamble declined",
    )


def report(game: BookOfSpells, mode: str, settings: Mapping[str, int], lines: int) -> dict[str, Any]:
    """The exact RTP report (see `pyengine.math.rtp.rtp_report`): every component exact
    except the free-spin cap's small term, compounded in float64."""
    m = book_math(game)
    cap_x = settings["free_spin_cap_x"]
    spins = _free_spins(game, lines)
    cap = cap_term(game, cap_x, lines, spins)
    d = game.data
    base_max = max_spin_win(
        game.base_reels,
        d.paylines[:lines],
        d.paytable,
        wild=game.book,
        wild_pays_as=game.wild_pays_as,
        scatter=game.book,
        scatter_pays=d.scatter_pays,
        min_scatter=game.free_spins.trigger,
    )
    max_win_x = Fraction(base_max, lines) + cap_x
    fs_lines = m.p_trigger * m.expected_spins * m.free_spin_lines
    fs_scatter = m.p_trigger * m.expected_spins * m.free_spin_scatter
    fs_expanding = m.free_spins - fs_lines - fs_scatter
    rtp = float(m.rtp_uncapped) - cap.reduction
    every = 1 / cap.over if cap.over else None
    odds = f"1 feature in {every:,.0f}" if every else "no feature"
    return {
        "summary": [f"free-spin cap {cap_x}x: ends {odds}, takes {cap.reduction * 100:.4f}% of the RTP"],
        "game": game.id,
        "mode": "base",
        "feature_lengths": [
            length_table(
                "Free spins",
                f"free spins played (each retrigger adds {game.free_spins.award}; "
                "the win limit may end a feature sooner)",
                retrigger_lengths(game.free_spins.award, m.p_retrigger),
                "exact: the hitting-time theorem over the retriggers, P(retrigger) from the free reels (fractions)",
            )
        ],
        "rtp": rtp,
        "target_rtp": float(game.target_rtp),
        "rtp_uncapped_exact": str(m.rtp_uncapped),
        "method": (
            "exact: line wins from per-reel symbol counts, Book scatter by convolution, free spins "
            "per expanding symbol with the retrigger series N = 10/(1-10p) (fractions); the free-spin cap "
            "from the exact distribution of one free spin's win over all stop combinations, per expanding "
            "symbol, compounded over the feature with its retriggers (float64, to about 1e-11 of the total bet)"
        ),
        "breakdown": {
            "base_lines": float(m.base_lines),
            "base_scatter": float(m.base_scatter),
            "free_spins_lines": float(fs_lines),
            "free_spins_scatter": float(fs_scatter),
            "free_spins_expanding": float(fs_expanding),
            "free_spin_cap": -cap.reduction,
            "gamble": 0.0,
        },
        "free_spin_cap": {
            "cap_x": cap_x,
            "lines": cap.lines,
            "reduction": cap.reduction,
            "feature_excess_x": cap.excess,
            "feature_capped_probability": cap.over,
            "feature_capped_every": every,
            "excess_by_symbol_x": cap.excess_by_symbol,
            "capped_probability_by_symbol": cap.over_by_symbol,
        },
        "feature_frequency": float(m.p_trigger),
        "feature_every": float(1 / m.p_trigger),
        "retrigger_probability": float(m.p_retrigger),
        "expected_free_spins": float(m.expected_spins),
        "feature_average_x": float(m.feature),
        "feature_by_symbol_x": {s: float(v) for s, v in m.feature_by_symbol.items()},
        "line_hit_probability": float(m.line_hit),
        # The best base spin and the free spins' limit: a bound (the best base window need
        # not be one that starts the free spins).
        "max_win_x": float(max_win_x),
        "max_win_bound": True,
        "max_win_probability": None,
        "max_base_spin_x": float(Fraction(base_max, lines)),
        "features": features(game, m, cap, spins),
    }
