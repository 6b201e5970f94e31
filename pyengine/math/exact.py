"""Exact building blocks: per-reel distributions, convolution, line-win expectation.

Every line sees, on each reel, the symbol at one row; over a uniform stop that symbol is
distributed as the strip's symbol counts, independently across reels. So the expected
line win is one enumeration over per-reel symbol counts, the same for every payline.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Hashable, Iterable, Sequence
from fractions import Fraction
from typing import TypeVar

from ..evaluators import LineEvaluator
from ..evaluators.lines import Wilds, wild_set
from ..model import Payline, Paytable, ReelSet

Flag = TypeVar("Flag", bound=Hashable)
"""What `spin_distribution` reports beside a spin's win."""

__all__ = [
    "LineStats",
    "convolve",
    "count_distribution",
    "line_stats",
    "spin_distribution",
    "visible_probability",
]


def convolve(dists: Iterable[Sequence[Fraction]]) -> list[Fraction]:
    """Distribution of a sum of independent counts, each given as P(k) for k = 0, 1, ..."""
    out = [Fraction(1)]
    for d in dists:
        nxt = [Fraction(0)] * (len(out) + len(d) - 1)
        for i, p in enumerate(out):
            if p:
                for j, q in enumerate(d):
                    if q:
                        nxt[i + j] += p * q
        out = nxt
    return out


def count_distribution(reels: ReelSet, reel: int, counts: Callable[[tuple[str, ...]], int]) -> list[Fraction]:
    """P(k) over a uniform stop of ``reel`` for the window statistic ``counts``."""
    columns = reels.columns[reel]
    tally = Counter(counts(col) for col in columns)
    n = len(columns)
    return [Fraction(tally.get(k, 0), n) for k in range(max(tally) + 1)]


def visible_probability(reels: ReelSet, reel: int, symbol: str) -> Fraction:
    """P(``symbol`` shows anywhere in the window of ``reel``)."""
    columns = reels.columns[reel]
    return Fraction(sum(1 for col in columns if symbol in col), len(columns))


_Key = tuple[int, str | None, int]
"""An open line run: (leading wilds, its symbol or None while only wilds, length)."""
_State = tuple[tuple[tuple[int, _Key], ...], tuple[int, ...]]
"""The open runs (line index, run) and the summed column counts."""
_Moved = tuple[tuple[tuple[int, _Key], ...], int]
"""Open runs after one more reel, and the pay fixed by the runs that ended there."""


def _open_run(prefix: Sequence[str], wilds: frozenset[str], nosub: frozenset[str]) -> bool:
    """Can a further symbol still change the result of a line that starts with ``prefix``?"""
    if all(x in wilds for x in prefix):
        return True
    target = next(x for x in prefix if x not in wilds)
    if target in nosub:
        return prefix[0] == target and all(x == target for x in prefix)
    return all(x == target or x in wilds for x in prefix)


def _one_line(
    reels: ReelSet, paytable: Paytable, wild: Wilds, wild_pays_as: str | None, not_substituted: Iterable[str]
) -> LineEvaluator:
    """The game's line evaluator on a single line, to judge one line's symbols."""
    return LineEvaluator(
        [Payline(1, (0,) * len(reels.strips))],
        paytable,
        wild=wild,
        wild_pays_as=wild_pays_as,
        not_substituted=not_substituted,
    )


class LineStats:
    """Exact statistics of one payline over uniform stops.

    ``ev`` is the expected pay in multiples of the bet per line; ``by_combo`` maps
    (symbol, count) to its probability; ``hit`` is P(the line pays).
    """

    __slots__ = ("by_combo", "ev", "hit")

    def __init__(self, ev: Fraction, hit: Fraction, by_combo: dict[tuple[str, int], Fraction]) -> None:
        self.ev = ev
        self.hit = hit
        self.by_combo = by_combo


def line_stats(
    reels: ReelSet,
    paytable: Paytable,
    *,
    wild: Wilds,
    wild_pays_as: str | None = None,
    not_substituted: Iterable[str] = (),
) -> LineStats:
    """Enumerate per-reel symbol counts through the game's own line evaluator."""
    evaluator = _one_line(reels, paytable, wild, wild_pays_as, not_substituted)
    per_reel = [sorted(Counter(strip).items()) for strip in reels.strips]
    n_reels = len(per_reel)
    totals = [len(strip) for strip in reels.strips]
    total = 1
    for t in totals:
        total *= t
    # Weight of every completion of reels k.. (the symbols after a broken run do not matter).
    tail = [1] * (n_reels + 1)
    for k in range(n_reels - 1, -1, -1):
        tail[k] = tail[k + 1] * totals[k]
    nosub = frozenset(not_substituted)
    wilds = wild_set(wild)
    combos: Counter[tuple[str, int]] = Counter()

    def walk(prefix: list[str], weight: int) -> None:
        k = len(prefix)
        if k == n_reels or (k >= 2 and not _open_run(prefix, wilds, nosub)):
            padded = (*prefix, *(["\0"] * (n_reels - k)))
            hit = evaluator.evaluate_symbols(padded)
            if hit is not None:
                combos[(hit[0], hit[1])] += weight * tail[k]
                pays[0] += weight * tail[k] * hit[2]
            return
        for sym, count in per_reel[k]:
            prefix.append(sym)
            walk(prefix, weight * count)
            prefix.pop()

    pays = [0]
    walk([], 1)
    hits = sum(combos.values())
    return LineStats(
        Fraction(pays[0], total),
        Fraction(hits, total),
        {k: Fraction(v, total) for k, v in sorted(combos.items())},
    )


def spin_distribution(
    reels: ReelSet,
    paylines: Sequence[Payline],
    paytable: Paytable,
    *,
    wild: Wilds,
    wild_pays_as: str | None = None,
    not_substituted: Iterable[str] = (),
    counts: Callable[[tuple[str, ...]], tuple[int, ...]],
    settle: Callable[[tuple[int, ...]], tuple[int, Flag]],
) -> dict[tuple[int, Flag], int]:
    """The exact distribution of one spin's whole win, with a flag, over every stop combination.

    The win is the line wins on all ``paylines`` (in multiples of the bet per line) plus
    ``settle(c)[0]``, where ``c`` adds up ``counts(column)`` over the five windows' columns
    (for example scatters shown, reels showing a symbol); ``settle(c)[1]`` is the flag, any
    hashable value (for example: whether the spin retriggers, or how many scatters it shows).
    Returns {(win, flag): number of stop combinations}; the numbers add up to ``reels.radix``.

    Dynamic programming over the reels. A state is every line whose run is still open
    (reduced to its leading wilds, its symbol and its length, which decide the rest), with
    the summed counts; it carries the distribution of the pay already fixed by the lines
    whose run has ended. Lines are judged by the game's own evaluator.
    """
    evaluator = _one_line(reels, paytable, wild, wild_pays_as, not_substituted)
    n_reels = len(reels.strips)
    nosub = frozenset(not_substituted)
    wilds = wild_set(wild)
    pad = ("\0",) * n_reels
    prefixes: dict[_Key, tuple[str, ...]] = {}
    steps: dict[tuple[_Key, str], tuple[_Key | None, int]] = {}

    def canonical(prefix: tuple[str, ...]) -> _Key:
        w = 0
        while w < len(prefix) and prefix[w] in wilds:
            w += 1
        key = (w, prefix[w] if w < len(prefix) else None, len(prefix))
        prefixes.setdefault(key, prefix)
        return key

    def step(key: _Key, symbol: str) -> tuple[_Key | None, int]:
        """The open run ``key`` meets ``symbol``: (its new key or None when it ends, the pay fixed)."""
        prefix = (*prefixes[key], symbol)
        k = len(prefix)
        if k == n_reels or (k >= 2 and not _open_run(prefix, wilds, nosub)):
            hit = evaluator.evaluate_symbols(prefix + pad[k:])
            return None, hit[2] if hit else 0
        return canonical(prefix), 0

    def advance(open_lines: tuple[tuple[int, _Key], ...], seen: tuple[str, ...]) -> _Moved:
        """The open runs meet one column (``seen``: each line's symbol): (runs still open, pay fixed)."""
        pay = 0
        still = []
        for i, key in open_lines:
            move = steps.get((key, seen[i]))
            if move is None:
                move = steps[(key, seen[i])] = step(key, seen[i])
            if move[0] is None:
                pay += move[1]
            else:
                still.append((i, move[0]))
        return tuple(still), pay

    # A set of open runs is named by a small number (its index in ``runs``): states and the
    # moves are keyed by it, not by the tuple of runs, which is long to hash.
    runs: list[tuple[tuple[int, _Key], ...]] = []
    run_ids: dict[tuple[tuple[int, _Key], ...], int] = {}

    def named(open_lines: tuple[tuple[int, _Key], ...]) -> int:
        i = run_ids.get(open_lines)
        if i is None:
            i = run_ids[open_lines] = len(runs)
            runs.append(open_lines)
        return i

    start = canonical(())
    states: dict[tuple[int, tuple[int, ...]], dict[int, int]] = {
        (named(tuple((i, start) for i in range(len(paylines)))), counts(())): {0: 1},
    }
    rows = [p.rows for p in paylines]
    for reel in range(n_reels):
        nxt: dict[tuple[int, tuple[int, ...]], dict[int, int]] = {}
        # Per distinct column: its number of stops, the symbol each line sees, its counts.
        columns = [
            (n, tuple(col[r[reel]] for r in rows), counts(col)) for col, n in Counter(reels.columns[reel]).items()
        ]
        stops = [n for n, _, _ in columns]
        # Many states share their open runs (they differ in their counts): move the runs once
        # per column, and add the counts once per column.
        moved: dict[int, list[tuple[int, int]]] = {}
        added: dict[tuple[int, ...], list[tuple[int, ...]]] = {}
        for (runs_id, summed), fixed in states.items():
            moves = moved.get(runs_id)
            if moves is None:
                moves = moved[runs_id] = [
                    (named(still), pay) for still, pay in (advance(runs[runs_id], seen) for _, seen, _ in columns)
                ]
            totals = added.get(summed)
            if totals is None:
                totals = added[summed] = [
                    tuple(a + b for a, b in zip(summed, cc, strict=True)) for _, _, cc in columns
                ]
            # Columns that lead to the same state with the same pay are merged first.
            merged: dict[tuple[int, tuple[int, ...], int], int] = {}
            for (to, pay), total, n in zip(moves, totals, stops, strict=True):
                key = (to, total, pay)
                merged[key] = merged.get(key, 0) + n
            for (to, total, pay), n in merged.items():
                target = nxt.get((to, total))
                if target is None:
                    nxt[(to, total)] = {win + pay: ways * n for win, ways in fixed.items()}
                    continue
                for win, ways in fixed.items():
                    target[win + pay] = target.get(win + pay, 0) + ways * n
        states = nxt
    out: dict[tuple[int, Flag], int] = {}
    for (runs_id, summed), fixed in states.items():
        assert not runs[runs_id], "every run ends on the last reel"
        extra, flag = settle(summed)
        for win, ways in fixed.items():
            k = (win + extra, flag)
            out[k] = out.get(k, 0) + ways
    return out


def max_spin_win(
    reels: ReelSet,
    paylines: Sequence[Payline],
    paytable: Paytable,
    *,
    wild: str | None,
    wild_pays_as: str | None,
    scatter: str | None,
    scatter_pays: dict[int, int],
    min_scatter: int = 0,
) -> int:
    """The largest win of one spin on all paylines, in multiples of the bet per line
    (scatter pays count ``len(paylines)`` times: they pay on the total bet), among the
    windows with at least ``min_scatter`` scatters.

    Branch and bound over reel stops: a partial window's bound is the best every line
    could still reach plus the most the scatter could still pay.
    """
    evaluator = LineEvaluator(paylines, paytable, wild=wild, wild_pays_as=wild_pays_as)
    n_lines = len(paylines)
    n_reels = len(reels.strips)
    top5 = max(max(p.values(), default=0) for p in paytable.pays.values())
    value = {s: max(p.values(), default=0) for s, p in paytable.pays.items()}
    if wild is not None:
        value[wild] = top5 + 1
    if scatter is not None:
        value[scatter] = max(value.get(scatter, 0), top5 + 1)
    # Most valuable columns first, so that a high win is found early and prunes the rest.
    columns = [sorted(set(c), key=lambda col: -sum(value.get(x, 0) for x in col)) for c in reels.columns]
    scatter_max = [max(c.count(scatter) for c in cols) if scatter else 0 for cols in reels.columns]
    best = 0

    def line_bound(prefix: list[tuple[str, ...]]) -> int:
        total = 0
        k = len(prefix)
        for p in paylines:
            syms = [prefix[r][p.rows[r]] for r in range(k)]
            real = [s for s in syms if s != wild]
            if len(set(real)) > 1:
                # The run is broken inside the prefix: its pay is already fixed.
                hit = evaluator.evaluate_symbols(tuple(syms) + ("\0",) * (n_reels - k))
                total += hit[2] if hit else 0
            elif real:
                best_real = max(paytable.pay(real[0], c) for c in range(1, n_reels + 1))
                # Leading wilds may pay more on their own (as the wild-only combination).
                total += max(best_real, top5) if syms[0] == wild else best_real
            else:
                total += top5
        return total

    def dfs(prefix: list[tuple[str, ...]]) -> None:
        nonlocal best
        k = len(prefix)
        if k == n_reels:
            window = tuple(prefix)
            win = sum(r.multiplier for r in evaluator.evaluate(window, n_lines))
            if scatter is not None:
                count = sum(col.count(scatter) for col in window)
                if count < min_scatter:
                    return
                win += scatter_pays.get(count, 0) * n_lines
            best = max(best, win)
            return
        sc_bound = 0
        if scatter is not None:
            have = sum(col.count(scatter) for col in prefix)
            more = sum(scatter_max[k:])
            if have + more < min_scatter:
                return
            sc_bound = max((scatter_pays.get(n, 0) for n in range(have, have + more + 1)), default=0) * n_lines
        if line_bound(prefix) + sc_bound <= best:
            return
        for col in columns[k]:
            prefix.append(col)
            dfs(prefix)
            prefix.pop()

    dfs([])
    return best
