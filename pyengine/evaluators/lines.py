"""Line wins: left to right, wild substitution choosing the highest win, wild-only lines.

`LineEvaluator` is built once per game (it precomputes the paylines and the paytable as
tuples, because it runs on every spin) and then is a pure function of the window.
"""

from __future__ import annotations

from collections.abc import Iterable
from ..values import record

from ..model import Payline, Paytable, Window

__all__ = ["LineEvaluator", "LineResult"]


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

    ``wild`` substitutes for every symbol except those in ``not_substituted``; a line made
    only of wilds pays as ``wild_pays_as`` (the highest-paying symbol), unless a better
    real-symbol win exists on that line; only the highest win per line is paid.

    The result of a line depends only on its symbols, so results are memoised per symbol
    sequence: a spin costs one tuple and one dictionary lookup per line.
    """

    __slots__ = (
        "_cache",
        "_deep",
        "_lines",
        "_pays",
        "_positions",
        "_quick",
        "_subst",
        "_survivors",
        "_wild",
        "_wild_pays",
    )

    def __init__(
        self,
        paylines: Iterable[Payline],
        paytable: Paytable,
        *,
        wild: str | None,
        wild_pays_as: str | None = None,
        not_substituted: Iterable[str] = (),
    ) -> None:
        self._lines = tuple((p.number, p.rows) for p in paylines)
        self._positions = tuple(
            tuple(tuple((reel, rows[reel]) for reel in range(count)) for count in range(len(rows) + 1))
            for _, rows in self._lines
        )
        self._pays: dict[str, tuple[int, ...]] = {
            s: tuple(counts.get(n, 0) for n in range(6)) for s, counts in paytable.pays.items()
        }
        self._wild = wild
        self._subst = frozenset(not_substituted)
        source = wild_pays_as if wild_pays_as is not None else wild
        self._wild_pays = self._pays.get(source, (0,) * 6) if source is not None else (0,) * 6
        self._cache: dict[tuple[str, ...], tuple[str, int, int] | None] = {}
        # Without one-symbol pays, a line whose first two symbols differ (no wild) cannot pay.
        self._quick = all(p[1] == 0 for p in self._pays.values()) and self._wild_pays[1] == 0
        self._survivors: dict[tuple[tuple[str, ...], ...], tuple[int, ...]] = {}
        # Without two-symbol pays either, the first three symbols must match: survivors are
        # then memoised per three columns, which leaves far fewer lines to look at.
        self._deep = self._quick and all(p[2] == 0 for p in self._pays.values()) and self._wild_pays[2] == 0

    def evaluate(self, window: Window, lines: int) -> list[LineResult]:
        """Wins on the first ``lines`` paylines of ``window``."""
        out: list[LineResult] = []
        if len(window) == 5 and self._quick:
            # The common shape, spelled out (a tuple display is ~5x faster than
            # tuple(map())). Without one-symbol pays a line can only pay if its first two
            # symbols match or one is wild: those lines are memoised per pair of columns.
            c0, c1, c2, c3, c4 = window
            key = (c0, c1, c2) if self._deep else (c0, c1)
            try:
                candidates = self._survivors[key]
            except KeyError:
                candidates = self._survivors[key] = self._candidates(key)
            for i in candidates:
                if i >= lines:
                    break
                r0, r1, r2, r3, r4 = self._lines[i][1]
                self._add(out, i, (c0[r0], c1[r1], c2[r2], c3[r3], c4[r4]))
            return out
        getitem = tuple.__getitem__
        for i, (_, rows) in enumerate(self._lines[:lines]):
            self._add(out, i, tuple(map(getitem, window, rows)))
        return out

    def _add(self, out: list[LineResult], i: int, key: tuple[str, ...]) -> None:
        """Append line ``i``'s win (if any) for its symbols ``key``, memoised."""
        try:
            hit = self._cache[key]
        except KeyError:
            hit = self._cache[key] = self.evaluate_symbols(key)
        if hit is not None:
            out.append(LineResult(self._lines[i][0], hit[0], hit[1], self._positions[i][hit[1]], hit[2]))

    def _candidates(self, cols: tuple[tuple[str, ...], ...]) -> tuple[int, ...]:
        """The lines whose first ``len(cols)`` symbols are one symbol, allowing wilds."""
        wild = self._wild
        out = []
        c0, c1 = cols[0], cols[1]
        c2 = cols[2] if len(cols) > 2 else None
        for i, (_, rows) in enumerate(self._lines):
            a, b = c0[rows[0]], c1[rows[1]]
            if a == wild:
                a = b
            elif b != wild and b != a:
                continue
            if c2 is not None:
                c = c2[rows[2]]
                if c != wild and a != wild and c != a:
                    continue
            out.append(i)
        return tuple(out)

    def evaluate_symbols(self, syms: tuple[str, ...]) -> tuple[str, int, int] | None:
        """(symbol, count, multiplier) of the best win of one line's symbols, or None."""
        wild = self._wild
        nosub = self._subst
        n = len(syms)
        w = 0
        while w < n and syms[w] == wild:
            w += 1
        best_pay = self._wild_pays[w] if w else 0
        best_sym = wild
        best_count = w
        if w < n:
            target = syms[w]
            if w == 0 or target not in nosub:
                k = w + 1
                if target in nosub:
                    while k < n and syms[k] == target:
                        k += 1
                else:
                    while k < n and (syms[k] == target or syms[k] == wild):
                        k += 1
                p = self._pays.get(target, (0,) * 6)[k]
                if p > best_pay:
                    best_pay, best_sym, best_count = p, target, k
        if best_pay > 0 and best_sym is not None:
            return best_sym, best_count, best_pay
        return None
