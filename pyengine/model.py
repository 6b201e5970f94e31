"""Game model: symbols, reel strips, windows, paylines, paytables and bet configuration.

Everything here is an immutable value. Games are data: `pyengine.data` builds these
objects from a game's data file and checks every field.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from .errors import BetError, shown

__all__ = [
    "MAX_AMOUNT",
    "MAX_BALANCE",
    "MAX_BET_PER_LINE",
    "MAX_LINES",
    "MAX_SETTING",
    "MAX_TIME_MS",
    "Bet",
    "BetConfig",
    "Payline",
    "Paytable",
    "ReelSet",
    "Symbol",
    "SymbolKind",
    "Window",
]


# -- bounds -------------------------------------------------------------------------------
# Every amount, count and time the engine accepts is bounded, so that whatever it accepts
# it can also save (Python refuses to write an int of more than 4,300 digits as text) and
# restore (a saved session is checked against these same bounds).
MAX_BALANCE = 10**15
"""The most a balance may be made by `Session(balance=...)` or `Session.add_funds`, in minor
units (10,000,000,000,000.00 FUN at 100 per FUN). It is below 2**53, so the balance is exact
in a JavaScript number too."""
MAX_AMOUNT = 10**18
"""The bound of every amount in a saved session: the balance (wins may carry it past
`MAX_BALANCE`), stakes, wins, the jackpot's pot and payouts. Below 2**63."""
MAX_BET_PER_LINE = 10**9
"""The largest bet per line a game may offer, in minor units."""
MAX_LINES = 1000
"""The most lines a game may offer."""
MAX_SETTING = 10**12
"""The largest value of an operator setting (a multiplier such as a win limit, or a flag)."""
MAX_TIME_MS = 253_402_300_799_999
"""The latest time a session may record, in milliseconds since the epoch:
9999-12-31 23:59:59.999 UTC, the last instant `datetime` can show."""


class SymbolKind(StrEnum):
    """What a symbol does."""

    REGULAR = "regular"
    WILD = "wild"
    SCATTER = "scatter"
    WILD_SCATTER = "wild_scatter"


@dataclass(frozen=True, slots=True)
class Symbol:
    """A reel symbol: its short id (used in strips and events), display name and kind."""

    id: str
    name: str
    kind: SymbolKind

    @property
    def is_wild(self) -> bool:
        return self.kind in (SymbolKind.WILD, SymbolKind.WILD_SCATTER)

    @property
    def is_scatter(self) -> bool:
        return self.kind in (SymbolKind.SCATTER, SymbolKind.WILD_SCATTER)


Window = tuple[tuple[str, ...], ...]
"""The visible symbols, one tuple per reel, top row first."""


@dataclass(frozen=True, slots=True)
class ReelSet:
    """Reel strips (cyclic) and the number of visible rows.

    A stop ``s`` on reel ``i`` shows ``strip[i][s], strip[i][s+1], ...`` (wrapping),
    top row first.
    """

    strips: tuple[tuple[str, ...], ...]
    rows: int
    columns: tuple[tuple[tuple[str, ...], ...], ...] = field(init=False, repr=False, compare=False)
    radix: int = field(init=False, repr=False, compare=False)
    _lengths: tuple[int, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        cols = tuple(
            tuple(tuple(strip[(s + r) % len(strip)] for r in range(self.rows)) for s in range(len(strip)))
            for strip in self.strips
        )
        object.__setattr__(self, "columns", cols)
        n = 1
        for strip in self.strips:
            n *= len(strip)
        object.__setattr__(self, "radix", n)
        object.__setattr__(self, "_lengths", tuple(len(s) for s in self.strips))

    @property
    def lengths(self) -> tuple[int, ...]:
        return self._lengths

    def window(self, stops: tuple[int, ...]) -> Window:
        """The visible symbols for the given stops."""
        return tuple(col[s] for col, s in zip(self.columns, stops, strict=True))

    def decode(self, index: int) -> tuple[int, ...]:
        """Stops for one uniform draw in ``range(radix)`` (mixed radix, reel 1 last digit)."""
        stops = []
        for strip in reversed(self.strips):
            index, s = divmod(index, len(strip))
            stops.append(s)
        stops.reverse()
        return tuple(stops)

    def draw(self, index: int) -> tuple[tuple[int, ...], Window]:
        """(stops, window) for one uniform draw in ``range(radix)``; same as `decode` + `window`."""
        lengths = self._lengths
        if len(lengths) != 5:
            stops = self.decode(index)
            return stops, self.window(stops)
        # Five reels spelled out: this runs on every spin.
        _, n1, n2, n3, n4 = lengths
        s4 = index % n4
        index //= n4
        s3 = index % n3
        index //= n3
        s2 = index % n2
        index //= n2
        s0 = index // n1
        s1 = index - s0 * n1
        c0, c1, c2, c3, c4 = self.columns
        return (s0, s1, s2, s3, s4), (c0[s0], c1[s1], c2[s2], c3[s3], c4[s4])

    def positions_of(self, symbol: str) -> tuple[tuple[tuple[tuple[int, int], ...], ...], ...]:
        """For each reel and stop, the window positions ``(reel, row)`` that show ``symbol``.

        Joining the tuples of the drawn stops lists where the symbol lies, reel by reel and
        top row first (as `pyengine.evaluators.evaluate_scatter` lists them), without
        looking at the window.
        """
        return tuple(
            tuple(tuple((reel, row) for row, sym in enumerate(col) if sym == symbol) for col in cols)
            for reel, cols in enumerate(self.columns)
        )


@dataclass(frozen=True, slots=True)
class Payline:
    """A win line: its number (1-based) and the row it takes on each reel."""

    number: int
    rows: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Paytable:
    """Line pays in multiples of the bet per line: ``pays[symbol][count]``."""

    pays: dict[str, dict[int, int]]

    def pay(self, symbol: str, count: int) -> int:
        return self.pays.get(symbol, {}).get(count, 0)

    def min_count(self, symbol: str) -> int:
        """The fewest symbols that pay (0 when the symbol never pays on a line)."""
        counts = [c for c, p in self.pays.get(symbol, {}).items() if p > 0]
        return min(counts) if counts else 0


@dataclass(frozen=True, slots=True)
class Bet:
    """A placed bet: active lines, ``bet_per_line`` in minor units and ``coins`` per line.

    In a coin game ``bet_per_line`` is the coin size (the value of one coin) and ``coins``
    the coins bet on each line; every pay is counted in coins, and coins x coin size is
    money. A game without coins bets 1 coin a line, whose size is the bet per line.
    """

    lines: int
    bet_per_line: int
    coins: int = 1

    @property
    def coin(self) -> int:
        """The value of one coin in minor units (the bet per line of a game without coins)."""
        return self.bet_per_line

    @property
    def line_bet(self) -> int:
        """What one line stakes in minor units: coins x coin size."""
        return self.coins * self.bet_per_line

    @property
    def total_coins(self) -> int:
        """The coins staked in all: lines x coins per line."""
        return self.lines * self.coins

    @property
    def total(self) -> int:
        """The total bet in minor units: lines x coins x coin size."""
        return self.lines * self.coins * self.bet_per_line

    def to_json(self) -> dict[str, int]:
        return {"lines": self.lines, "bet_per_line": self.bet_per_line, "coins": self.coins, "total": self.total}


@dataclass(frozen=True, slots=True)
class BetConfig:
    """The bets a game offers. Money is in minor units (``minor_per_major`` per unit).

    ``levels`` are the bets per line (in a coin game, the coin sizes); ``coins`` the coins
    per line on offer (``(1,)`` for a game without coins). A coin game's meters count
    coins (``coin_meters``); its Bet Max keeps the coin size.

    ``fit_to_balance`` (the data's ``bets.fit_to_balance``, default off): Max Bet is offered
    only while the balance covers `max_bet`, and a bet the balance no longer covers steps
    down to the highest the balance covers (`fit`). Off, Bet Max sets the highest bet the
    balance covers and the bet stays until the player changes it.
    """

    lines: tuple[int, ...]
    levels: tuple[int, ...]
    default: Bet
    currency: str = "FUN"
    minor_per_major: int = 100
    coins: tuple[int, ...] = (1,)
    fit_to_balance: bool = False

    @property
    def coin_game(self) -> bool:
        """Whether the player bets coins per line (pays and meters in coins)."""
        return self.coins != (1,)

    def __post_init__(self) -> None:
        if not self.lines or any(type(n) is not int or not 1 <= n <= MAX_LINES for n in self.lines):
            raise BetError(f"the lines offered must be whole numbers from 1 to {MAX_LINES}, not {self.lines!r}")
        if not self.levels or any(type(v) is not int or not 1 <= v <= MAX_BET_PER_LINE for v in self.levels):
            raise BetError(
                f"the bets per line offered must be whole numbers from 1 to {MAX_BET_PER_LINE}, not {self.levels!r}"
            )

    def validate(self, bet: Bet) -> Bet:
        """Return ``bet`` if offered, else raise `BetError` naming what is offered."""
        if not isinstance(bet, Bet):
            raise BetError(f"a bet must be a Bet(lines, bet_per_line, coins), not {shown(bet)}")
        lines, level, coins = bet.lines, bet.bet_per_line, bet.coins
        if type(lines) is not int or type(level) is not int or type(coins) is not int:
            raise BetError(
                f"lines, bet per line and coins must be whole numbers, not {shown(lines)}, {shown(level)} and "
                f"{shown(coins)}"
            )
        if coins not in self.coins:
            offered = ", ".join(map(str, self.coins))
            raise BetError(f"{shown(coins)} coins per line is not offered; choose one of {offered}")
        if lines not in self.lines:
            raise BetError(f"{shown(lines)} lines is not offered; choose one of {', '.join(map(str, self.lines))}")
        if level not in self.levels:
            offered = ", ".join(self.format(v) for v in self.levels)
            amount = self.format(level) if abs(level) <= MAX_AMOUNT else shown(level)
            raise BetError(f"bet per line {amount} is not offered; choose one of {offered}")
        return bet

    @property
    def max_bet(self) -> Bet:
        """The most lines, the highest bet per line and the most coins."""
        return Bet(max(self.lines), max(self.levels), max(self.coins))

    def bet_max(self, bet: Bet, balance: int | None = None) -> Bet:
        """What Bet Max sets from ``bet``: the most lines and coins, and the highest bet per
        line, except in a coin game, where the player's coin size stays. With ``balance``,
        the highest such bet the balance covers (fewer coins, then a lower bet per line,
        then fewer lines; in a coin game fewer coins, then fewer lines, and a smaller coin
        size only when not one line of one coin at the player's is covered), or the smallest
        bet when none is covered."""
        level = bet.bet_per_line if self.coin_game else max(self.levels)
        top = Bet(max(self.lines), level, max(self.coins))
        if balance is None or top.total <= balance:
            return top
        levels = sorted((v for v in self.levels if v <= level), reverse=True) or [min(self.levels)]
        lines_first = sorted(self.lines, reverse=True)
        coins_first = sorted(self.coins, reverse=True)
        if self.coin_game:
            order = ((n, v, c) for v in levels for n in lines_first for c in coins_first)
        else:
            order = ((n, v, c) for n in lines_first for v in levels for c in coins_first)
        for lines, per_line, coins in order:
            if lines * per_line * coins <= balance:
                return Bet(lines, per_line, coins)
        return self.min_bet

    def fit(self, bet: Bet, balance: int) -> Bet:
        """``bet`` if the balance covers it; else the same lines and coins at the highest bet
        per line the balance covers; else the highest bet of all the balance covers (fewer
        lines or coins), or the smallest bet when it covers none."""
        if bet.total <= balance:
            return bet
        per_line = bet.lines * bet.coins
        lower = [v for v in self.levels if v < bet.bet_per_line and v * per_line <= balance]
        if lower:
            return Bet(bet.lines, lower[-1], bet.coins)
        return self.bet_max(bet, balance)

    @property
    def min_bet(self) -> Bet:
        """The smallest bet on offer."""
        return Bet(min(self.lines), min(self.levels), min(self.coins))

    def next_lines(self, bet: Bet) -> Bet:
        """One more line; past the maximum it wraps to the fewest."""
        i = self.lines.index(bet.lines)
        return Bet(self.lines[(i + 1) % len(self.lines)], bet.bet_per_line, bet.coins)

    def prev_lines(self, bet: Bet) -> Bet:
        """One line fewer; below the fewest it wraps to the maximum."""
        i = self.lines.index(bet.lines)
        return Bet(self.lines[(i - 1) % len(self.lines)], bet.bet_per_line, bet.coins)

    def step_level(self, bet: Bet, step: int) -> Bet:
        """The next (``step`` = 1) or previous (-1) bet per line, held at the ends."""
        i = self.levels.index(bet.bet_per_line)
        j = min(max(i + step, 0), len(self.levels) - 1)
        return Bet(bet.lines, self.levels[j], bet.coins)

    def step_coins(self, bet: Bet, step: int) -> Bet:
        """One coin per line more (``step`` = 1) or fewer (-1), held at the ends."""
        i = self.coins.index(bet.coins)
        j = min(max(i + step, 0), len(self.coins) - 1)
        return Bet(bet.lines, bet.bet_per_line, self.coins[j])

    def format(self, minor: int) -> str:
        """Minor units as a decimal string with thousands separators, e.g. 1250 -> '12.50',
        500000 -> '5,000.00' (as the page's JavaScript writes money)."""
        sign = "-" if minor < 0 else ""
        whole, frac = divmod(abs(minor), self.minor_per_major)
        digits = len(str(self.minor_per_major - 1)) if self.minor_per_major > 1 else 0
        return f"{sign}{whole:,}.{frac:0{digits}d}" if digits else f"{sign}{whole:,}"
