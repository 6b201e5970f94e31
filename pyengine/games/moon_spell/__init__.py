"""Moon Spell: 5x3, 20 lines, Wild, Moons with cash prizes, Hold and Respin with a prize
ladder, Feature Buy and a time jackpot.

The rules are in ``docs/games/moon_spell.md``; the numbers (symbols, pays, strips, lines,
bets, prize weights, respin chance, ladder, buy price, jackpot) in ``moon_spell.json`` beside it.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any, ClassVar

from ...data import Field, LinesGameData, load_lines_game, read_data_file
from ...errors import EngineError
from ...evaluators import LineEvaluator
from ...events import Event, FeatureBought, Position, WinCapReached, register_event
from ...features.hold_and_respin import HoldAndRespinRules, hold_and_respin
from ...features.jackpot import JackpotRules
from ...model import Bet, ReelSet
from ...rng import Rng
from ...round import Decision, RoundContext, RoundProcess
from ...values import record
from ..base import LinesGame, Plugin, spin_lines

__all__ = ["MODES", "PLUGIN", "BuyRules", "MoonCashWin", "MoonPrizes", "MoonRules", "MoonSpell", "load"]

MODES = ("base", "buy")
FEATURE_START = Decision("feature_start", ("start",), feature=True)
POSITIONS: tuple[tuple[int, int], ...] = tuple((reel, row) for reel in range(5) for row in range(3))


@register_event
@record
class MoonPrizes(Event):
    """Moons are on the reels: each at ``positions`` carries the cash prize in ``prizes``."""

    type: ClassVar[str] = "moon_prizes"
    category: ClassVar[str] = "info"
    positions: tuple[Position, ...]
    prizes: tuple[int, ...]


@register_event
@record
class MoonCashWin(Event):
    """3 or 4 Moons anywhere pay their combined prize ``win``."""

    type: ClassVar[str] = "moon_cash_win"
    category: ClassVar[str] = "win"
    count: int
    positions: tuple[Position, ...]
    win: int


@dataclass(frozen=True, slots=True)
class MoonRules:
    """The Moon symbol, its prizes (multiples of the total stake) and their weights when a Moon
    lands on a spin (``base``) and on a respin (``respin``); counts that pay their cash."""

    symbol: str
    prizes_x: tuple[Fraction, ...]
    base_weights: tuple[int, ...]
    respin_weights: tuple[int, ...]
    cash_counts: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class BuyRules:
    """Feature Buy: the price in total stakes, and the weights of the Moons it starts with."""

    price_x: int
    target_rtp: Fraction
    moons: tuple[tuple[int, int], ...]


class MoonSpell(LinesGame):
    """The game: data plus the composition of its features."""

    decisions = ("feature_start",)

    modes: tuple[str, ...] = MODES
    jackpot: JackpotRules

    def __init__(self, data: LinesGameData) -> None:
        super().__init__(data)
        root = data.root
        wild = data.wild
        if wild is None:
            raise root.get("symbols").error("Moon Spell needs a wild symbol")
        self.wild: str = wild
        self.base_reels: ReelSet = data.reels["base"]
        if len(self.base_reels.strips) != 5 or data.rows != 3:
            raise root.get("reels").error("Moon Spell is played on 5 reels of 3 rows")
        self.moon = _moon_rules(root.get("moon"), data)
        self.lines = LineEvaluator(
            data.paylines, data.paytable, wild=wild, wild_pays_as=self.wild_pays_as, not_substituted=(self.moon.symbol,)
        )
        self.respin = HoldAndRespinRules.from_field(root.get("hold_and_respin"), len(POSITIONS), chance="respin_moon")
        self.buy = _buy_rules(root.get("feature_buy"), self.respin.trigger)
        self.max_win_x = root.get("max_win_x").as_int(minimum=1)
        self.jackpot = JackpotRules.from_field(root.get("jackpot"))
        for lines in data.bets.lines:
            for level in data.bets.levels:
                total = lines * level
                for x in self.moon.prizes_x:
                    if (x * total).denominator != 1:
                        raise root.get("moon").get("prizes_x").error(
                            f"prize {x}x of a total stake of {total} is not a whole number of minor units"
                        )
        self._cash_counts = frozenset(self.moon.cash_counts)
        # Per reel and stop: the positions showing a Moon (this runs on every spin).
        self._moon_at = self.base_reels.positions_of(self.moon.symbol)
        # A weighted draw is below(sum of weights) looked up in a table: the same draw as
        # `Rng.weighted`, without the scan.
        self._base_lookup = _lookup(self.moon.base_weights)
        self._respin_lookup = _lookup(self.moon.respin_weights)
        self._prizes: dict[int, tuple[int, ...]] = {}

    # -- modes ------------------------------------------------------------------
    def price(self, bet: Bet, mode: str) -> int:
        """What a round in ``mode`` costs at ``bet`` (the total stake, or the Feature Buy price)."""
        if mode == "base":
            return bet.total
        if mode == "buy":
            return self.buy.price_x * bet.total
        raise EngineError(f"{self.name} has no mode {mode!r}; its modes are {', '.join(MODES)}")

    # -- play ----------------------------------------------------------------------
    def prizes(self, total: int) -> tuple[int, ...]:
        """The Moon prizes in minor units at a total stake of ``total``."""
        try:
            return self._prizes[total]
        except KeyError:
            p = self._prizes[total] = tuple(x.numerator * total // x.denominator for x in self.moon.prizes_x)
            return p

    def _prize(self, rng: Rng, lookup: tuple[int, ...], prizes: tuple[int, ...]) -> int:
        return prizes[lookup[rng.below(len(lookup))]]

    def play(self, ctx: RoundContext) -> RoundProcess:
        bet = ctx.bet
        if ctx.mode == "buy":
            total = bet.total
            ctx.emit(FeatureBought("hold_and_respin", self.buy.price_x, self.buy.price_x * total))
            rng = ctx.rng
            count = self.buy.moons[rng.weighted([w for _, w in self.buy.moons])][0]
            free = list(POSITIONS)
            held: dict[tuple[int, int], int] = {}
            prizes = self.prizes(total)
            for _ in range(count):
                pos = free.pop(rng.below(len(free)))
                held[pos] = self._prize(rng, self._base_lookup, prizes)
            ctx.features.append("hold_and_respin")
            self._bonus(ctx, held)
            self._cap(ctx)
            return
        rng = ctx.rng
        stops, _, win = spin_lines(ctx, self.base_reels, self.lines, "base")
        append = ctx.events.append
        m0, m1, m2, m3, m4 = self._moon_at
        s0, s1, s2, s3, s4 = stops
        positions = m0[s0] + m1[s1] + m2[s2] + m3[s3] + m4[s4]
        if not positions:
            ctx.win = win
            return
        below = rng.below
        lookup = self._base_lookup
        size = len(lookup)
        total = bet.total
        table = self._prizes.get(total) or self.prizes(total)
        prizes = tuple([table[lookup[below(size)]] for _ in positions])
        append(MoonPrizes(positions, prizes))
        n = len(positions)
        if n in self._cash_counts:
            cash = sum(prizes)
            win += cash
            append(MoonCashWin(n, positions, cash))
        ctx.win = win
        if n >= self.respin.trigger:
            ctx.features.append("hold_and_respin")
            yield FEATURE_START
            self._bonus(ctx, dict(zip(positions, prizes, strict=True)))
            self._cap(ctx)

    def _bonus(self, ctx: RoundContext, held: dict[tuple[int, int], int]) -> None:
        table = self.prizes(ctx.bet.total)
        lookup = self._respin_lookup
        result = hold_and_respin(ctx, self.respin, POSITIONS, held, lambda rng: self._prize(rng, lookup, table))
        ctx.win += result.win

    def _cap(self, ctx: RoundContext) -> None:
        cap = self.max_win_x * ctx.bet.total
        if ctx.win > cap:
            ctx.win = cap
            ctx.emit(WinCapReached(cap, cap))

    # -- description ----------------------------------------------------------
    def describe(self) -> dict[str, Any]:
        return super().describe() | {
            "moon": {
                "symbol": self.moon.symbol,
                "prizes_x": [str(x) for x in self.moon.prizes_x],
                "cash_counts": list(self.moon.cash_counts),
            },
            "hold_and_respin": {
                "trigger": self.respin.trigger,
                "respins": self.respin.respins,
                "positions": len(POSITIONS),
                "ladder": {str(k): v for k, v in sorted(self.respin.ladder.items())},
            },
            "feature_buy": {
                "price_x": self.buy.price_x,
                "target_rtp": str(self.buy.target_rtp),
                "moons": {str(k): w for k, w in self.buy.moons},
            },
            "max_win_x": self.max_win_x,
            "jackpot": self.jackpot.to_json(),
            "modes": list(MODES),
            "settings": {},
        }


def _lookup(weights: tuple[int, ...]) -> tuple[int, ...]:
    """Index ``i`` repeated ``weights[i]`` times: ``lookup[below(sum)]`` draws like `Rng.weighted`."""
    return tuple(i for i, w in enumerate(weights) for _ in range(w))


def _moon_rules(f: Field, data: LinesGameData) -> MoonRules:
    sym = f.get("symbol").as_str()
    ids = {s.id for s in data.symbols}
    if sym not in ids or not data.symbol(sym).is_scatter:
        raise f.get("symbol").error(f"{sym!r} must be a scatter symbol of the game")
    prizes = tuple(pf.as_fraction() for pf in f.get("prizes_x").as_list(min_len=1))
    if any(p <= 0 for p in prizes) or list(prizes) != sorted(set(prizes)):
        raise f.get("prizes_x").error("prizes must be positive and strictly increasing")
    wf = f.get("weights")
    weights = []
    for name in ("base", "respin"):
        ws = tuple(x.as_int(minimum=0) for x in wf.get(name).as_list())
        if len(ws) != len(prizes) or not any(ws) or sum(ws) > 1_000_000:
            raise wf.get(name).error(f"needs one weight per prize ({len(prizes)}), not all zero, at most 10**6 in all")
        weights.append(ws)
    counts = tuple(x.as_int(minimum=1) for x in f.get("cash_counts").as_list())
    return MoonRules(sym, prizes, weights[0], weights[1], counts)


def _buy_rules(f: Field, trigger: int) -> BuyRules:
    moons = []
    for k, v in f.get("moons").items():
        if not k.isdigit() or not trigger <= int(k) <= len(POSITIONS):
            raise v.error(f"a bought feature starts with {trigger} to {len(POSITIONS)} Moons")
        moons.append((int(k), v.as_int(minimum=1)))
    if not moons:
        raise f.get("moons").error("needs at least one count")
    return BuyRules(f.get("price_x").as_int(minimum=1), f.get("target_rtp").as_fraction(), tuple(sorted(moons)))


def build(root: Field) -> MoonSpell:
    """The game from the root of its data file (as shipped, or edited)."""
    return MoonSpell(load_lines_game(root))


def load() -> MoonSpell:
    """Load the game from its data file."""
    return build(read_data_file("moon_spell.json", __name__))


PLUGIN = Plugin(
    load=load,
    build=build,
    report="pyengine.games.moon_spell.report:report",
    screen="slotui.games.moon_spell",
    showcase="pyengine.games.moon_spell.showcase:shown",
    distribution="pyengine.games.moon_spell.distribution:distribution",
)
"""The game's registration: its loader, its exact RTP report and its client screen."""
