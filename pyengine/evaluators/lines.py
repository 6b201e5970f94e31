"""Line wins: left to right, wild substitution choosing the highest win, wild-only lines.

`LineEvaluator` is built once per game (it precomputes the paylines and the paytable as
tuples, because it runs on every spin) and then is a pure function of the window.
"""

from __future__ import annotations

from collections.abc import Iterable

from ..model import Payline, Paytable, Window
from ..values import record

__all__ = ["LineEvaluator", "LineHit", "LineResult", "Wilds", "wild_set"]

Wilds = str | Iterable[str] | None
"""The wild symbols: one id, several, or None."""


def wild_set(wild: Wilds) -> frozenset[str]:
    """``wild`` as a set of symbol ids."""
    if wild is None:
        return frozenset()
    if isinstance(wild, str):
        return frozenset((wild,))
    return frozenset(wild)

LineHit = tuple[int, str, int, tuple[tuple[int, int], ...], int]
"""A paying line as a plain tuple: (line, symbol, count, positions, multiplier)."""

Candidate = tuple[int, int, int, int, int, int]
"""A line that may pay on a 5-reel window: its index and its row on each reel."""


@record
class LineResult:
    """A paying line: ``count`` symbols from reel 1 pay ``multiplier`` x bet per line.

    ``symbol`` is the symbol that pays (the wild itself for a wild-only combination,
    which pays as ``pays_as``).
    """

    line: int
    symbol: str
    count: int
    positions: tuple[tuple[int, int], ...]
    multiplier: int


class LineEvaluator:
    """Evaluates the active paylines of a window.

    Every symbol in ``wild`` (one id or several) substitutes for every symbol except those
    in ``not_substituted``. The game's wild rule is ``wild_pays_as``: a line whose run from
    reel 1 is made only of wilds pays as that symbol (another symbol, e.g. the
    highest-paying one; or a wild itself, for a wild with pays of its own), or, with None,
    as the first wild's own pays, which are nothing for a wild without pays (a wild that
    "works only in conjunction with other symbols"). The line pays the higher of that and
    the real-symbol win the wilds complete; only the highest win per line is paid.

    The result of a line depends only on its symbols, so results are memoised per symbol
    sequence: a spin costs one tuple and one dictionary lookup per line that can pay (those
    lines are memoised too, per first three columns, for 5-reel windows).
    """

    __slots__ = (
        "_cache",
        "_numbers",
        "_pairs",
        "_pays",
        "_pays_two",
        "_positions",
        "_quick",
        "_rows",
        "_subst",
        "_survivors",
        "_wild",
        "_wild_pays",
        "_wilds",
    )

    def __init__(
        self,
        paylines: Iterable[Payline],
        paytable: Paytable,
        *,
        wild: Wilds,
        wild_pays_as: str | None = None,
        not_substituted: Iterable[str] = (),
    ) -> None:
        lines = tuple(paylines)
        self._numbers = tuple(p.number for p in lines)
        self._rows = tuple(p.rows for p in lines)
        self._positions = tuple(
            tuple(tuple((reel, rows[reel]) for reel in range(count)) for count in range(len(rows) + 1))
            for rows in self._rows
        )
        self._pays: dict[str, tuple[int, ...]] = {
            s: tuple(counts.get(n, 0) for n in range(6)) for s, counts in paytable.pays.items()
        }
        wilds = wild_set(wild)
        first = wild if isinstance(wild, str) else min(wilds) if wilds else None
        self._wilds = wilds
        self._wild = first  # the symbol a run of wilds alone is reported as
        self._subst = frozenset(not_substituted)
        source = wild_pays_as if wild_pays_as is not None else first
        self._wild_pays = self._pays.get(source, (0,) * 6) if source is not None else (0,) * 6
        self._cache: dict[tuple[str, ...], tuple[str, int, int] | None] = {}
        # Without one-symbol pays, a line whose first two symbols differ (no wild) cannot pay.
        self._quick = all(p[1] == 0 for p in self._pays.values()) and self._wild_pays[1] == 0
        # The symbols that pay for two: only their lines can pay when the third symbol
        # breaks the run.
        self._pays_two = frozenset(s for s, p in self._pays.items() if p[2] > 0)
        # The lines that can pay, memoised per three columns (found among the lines of the
        # first two columns, memoised in ``_pairs``).
        self._survivors: dict[tuple[tuple[str, ...], ...], tuple[Candidate, ...]] = {}
        self._pairs: dict[tuple[tuple[str, ...], ...], tuple[Candidate, ...]] = {}

    def evaluate(self, window: Window, lines: int) -> list[LineResult]:
        """Wins on the first ``lines`` paylines of ``window``."""
        return [LineResult(*hit) for hit in self.wins(window, lines)]

    def wins(self, window: Window, lines: int) -> list[LineHit]:
        """`evaluate` as plain tuples, the fields of `LineResult` in order: what the games
        use on every spin, where they turn each win straight into its event."""
        if len(window) != 5 or not self._quick:
            return self._wins_any_shape(window, lines)
        # The common shape, spelled out (a tuple display is ~5x faster than tuple(map())).
        # Without one-symbol pays a line can only pay if its first two symbols match or one
        # is wild, and if the third breaks that run, only with a symbol that pays for two:
        # those lines, with their rows, are memoised per three columns.
        out: list[LineHit] = []
        cache = self._cache
        c0, c1, c2, c3, c4 = window
        key = (c0, c1, c2)
        try:
            candidates = self._survivors[key]
        except KeyError:
            candidates = self._survivors[key] = self._candidates(key)
        for i, r0, r1, r2, r3, r4 in candidates:
            if i >= lines:
                break
            syms = (c0[r0], c1[r1], c2[r2], c3[r3], c4[r4])
            try:
                hit = cache[syms]
            except KeyError:
                hit = cache[syms] = self.evaluate_symbols(syms)
            if hit is not None:
                symbol, count, multiplier = hit
                out.append((self._numbers[i], symbol, count, self._positions[i][count], multiplier))
        return out

    def _wins_any_shape(self, window: Window, lines: int) -> list[LineHit]:
        """`wins` for any number of reels and any paytable: every active line is looked up."""
        out: list[LineHit] = []
        cache = self._cache
        getitem = tuple.__getitem__
        for i, rows in enumerate(self._rows[:lines]):
            syms: tuple[str, ...] = tuple(map(getitem, window, rows))
            try:
                hit = cache[syms]
            except KeyError:
                hit = cache[syms] = self.evaluate_symbols(syms)
            if hit is not None:
                symbol, count, multiplier = hit
                out.append((self._numbers[i], symbol, count, self._positions[i][count], multiplier))
        return out

    def _candidates(self, cols: tuple[tuple[str, ...], ...]) -> tuple[Candidate, ...]:
        """The lines (index and five rows) that can pay, by their symbols on the first two
        or three columns ``cols`` (see `wins`)."""
        wilds = self._wilds
        if len(cols) == 3:
            # The lines of the first two columns (memoised as well: there are far fewer
            # pairs than triples), checked on the third.
            c0, c1, c2 = cols
            try:
                pair_lines = self._pairs[(c0, c1)]
            except KeyError:
                pair_lines = self._pairs[(c0, c1)] = self._candidates((c0, c1))
            pays_two = self._pays_two
            out = []
            for line in pair_lines:
                _, r0, r1, r2, _, _ = line
                a = c0[r0]
                if a in wilds:
                    a = c1[r1]  # the symbol of the run so far (a wild if both are wild)
                c = c2[r2]
                if c == a or c in wilds or a in wilds or a in pays_two:
                    out.append(line)
            return tuple(out)
        c0, c1 = cols
        out = []
        for i, rows in enumerate(self._rows):
            a, b = c0[rows[0]], c1[rows[1]]
            if a == b or a in wilds or b in wilds:
                r0, r1, r2, r3, r4 = rows
                out.append((i, r0, r1, r2, r3, r4))
        return tuple(out)

    def evaluate_symbols(self, syms: tuple[str, ...]) -> tuple[str, int, int] | None:
        """(symbol, count, multiplier) of the best win of one line's symbols, or None."""
        wilds = self._wilds
        nosub = self._subst
        n = len(syms)
        w = 0
        while w < n and syms[w] in wilds:
            w += 1
        best_pay = self._wild_pays[w] if w else 0
        best_sym = syms[0] if w else None
        best_count = w
        if w < n:
            target = syms[w]
            if w == 0 or target not in nosub:
                k = w + 1
                if target in nosub:
                    while k < n and syms[k] == target:
                        k += 1
                else:
                    while k < n and (syms[k] == target or syms[k] in wilds):
                        k += 1
                p = self._pays.get(target, (0,) * 6)[k]
                if p > best_pay:
                    best_pay, best_sym, best_count = p, target, k
        if best_pay > 0 and best_sym is not None:
            return best_sym, best_count, best_pay
        return None
