"""Lucky Halloween: 5x3, 20 fixed lines, Wild, the Pumpkin Rider's six random features,
cauldron free spins with bonus spins, the Full Moon Bonus ladder and a time jackpot.

The rules are in ``docs/games/lucky_halloween.md``; the numbers (symbols, pays, strips,
lines, bets, the Rider's fixed chances, cauldrons, ladder, jackpot) in
``lucky_halloween.json`` beside it, read by `pyengine.games.lucky_halloween.rules`. Line pays
are kept in units of the bet per line, which is 1/20 of the total bet: a pay of 50 is
2.5 x the total bet, so every prize is a whole number of minor units at every bet.
"""

from __future__ import annotations

from collections.abc import Generator
from fractions import Fraction
from typing import Any, ClassVar

from ...data import Field, LinesGameData, load_lines_game, read_data_file
from ...evaluators import LineEvaluator
from ...events import Event, Position, Spin, WinMultiplier, register_event
from ...features.free_spins import FreeSpins
from ...features.jackpot import JackpotRules
from ...features.pick import PickRules, play_board, shuffled
from ...model import ReelSet, Window
from ...round import Decision, RoundContext, RoundProcess
from ...values import record
from ..base import LinesGame, Plugin, pay_lines, pay_scatter
from .rules import (
    BONUS_SPINS,
    CELLS,
    FEATURES,
    FreeSpinRules,
    LadderRules,
    RiderRules,
    free_spin_rules,
    jackpot_rules,
    ladder_rules,
    rider_rules,
    scatter_rules,
)

__all__ = [
    "FEATURES",
    "PLUGIN",
    "FreeSpinRules",
    "LadderClimb",
    "LadderRules",
    "LadderStart",
    "LadderWin",
    "LuckyHalloween",
    "RiderAppears",
    "RiderRules",
    "RiderSymbols",
    "load",
]


FEATURE_START = Decision("feature_start", ("start",), feature=True)
FREE_SPIN = Decision("free_spin", ("spin",))
CAULDRON = PickRules("cauldron", ("?",) * 3, columns=3, picks=1)
"""The free-spins cauldrons: pick 1 of 3; each holds a count drawn when the pick starts."""
BONUS_CAULDRON = PickRules("bonus_cauldron", ("?",) * 3, columns=3, picks=1)
PUMPKINS = PickRules("pumpkins", ("?",) * 6, columns=6, picks=1)
"""One step of the ladder: pick 1 of 6 pumpkins (1 to 6 rungs, some with COLLECT)."""
COLLECT = "COLLECT"
UNCAPPED = 1 << 62
"""The free spins have no win limit (`FreeSpins` asks for one): the bound on bonus-spin
awards keeps every feature finite."""


@register_event
@record
class RiderAppears(Event):
    """The Pumpkin Rider appears and triggers ``feature`` on this spin (one of `FEATURES`,
    or ``bonus_spins`` during free spins)."""

    type: ClassVar[str] = "rider"
    feature: str


@register_event
@record
class RiderSymbols(Event):
    """The Rider placed ``symbol`` at ``positions`` over what the reels showed; the spin
    is judged on ``window``."""

    type: ClassVar[str] = "rider_symbols"
    symbol: str
    positions: tuple[Position, ...]
    window: tuple[tuple[str, ...], ...]


@register_event
@record
class LadderStart(Event):
    """The Full Moon Bonus began, triggered by ``count`` Bonus symbols: COLLECT cannot
    appear below ``minimum_x`` x the total bet."""

    type: ClassVar[str] = "ladder_start"
    count: int
    minimum_x: int


@register_event
@record
class LadderClimb(Event):
    """A pumpkin gave ``rungs``: from rung ``start`` (0: the foot of the ladder) the player
    reached ``landed`` and, through a shortcut if ``landed`` starts one, ``position``;
    ``collect`` ends the bonus there."""

    type: ClassVar[str] = "ladder_climb"
    rungs: int
    start: int
    landed: int
    position: int
    collect: bool


@register_event
@record
class LadderWin(Event):
    """The Full Moon Bonus paid rung ``rung``'s ``multiplier`` x the total bet: ``win``."""

    type: ClassVar[str] = "ladder_win"
    rung: int
    multiplier: int
    win: int


class LuckyHalloween(LinesGame):
    """The game: data plus the composition of its features."""

    decisions = ("feature_start", "pick", "free_spin")

    jackpot: JackpotRules

    def __init__(self, data: LinesGameData) -> None:
        super().__init__(data)
        root = data.root
        if data.rows != 3 or len(data.reels["base"].strips) != 5:
            raise root.get("rows").error("Lucky Halloween is played on 5 reels of 3 rows")
        n_lines = len(data.paylines)
        if data.bets.lines != (n_lines,):
            raise root.get("bets").get("lines").error(f"all {n_lines} lines are always played")
        unit = root.get("paytable_unit").as_fraction()
        if unit != Fraction(1, n_lines):
            raise root.get("paytable_unit").error(
                f"line pays are in units of the bet per line, 1/{n_lines} of the total bet, not {unit}"
            )
        wilds = data.wilds
        if len(wilds) != 1:
            raise root.get("symbols").error("Lucky Halloween has one Wild")
        self.wild: str = wilds[0]
        sf = root.get("scatters")
        self.free_symbol, self.free_pays = scatter_rules(sf.get("free_spins"), data)
        self.bonus_symbol, self.bonus_pays = scatter_rules(sf.get("bonus"), data)
        if self.free_symbol == self.bonus_symbol:
            raise sf.error("the Free Spins and the Bonus scatters must differ")
        royals_f = root.get("royals")
        self.royals = tuple(x.as_str() for x in royals_f.as_list(min_len=1))
        if not set(self.royals) <= set(data.paytable.pays):
            raise royals_f.error("every royal must be a paying symbol")
        self.highs = tuple(s for s in data.paytable.pays if s not in self.royals)
        reels_f = root.get("reels")
        for name in ("special", "free"):
            if name not in data.reels:
                raise reels_f.error(f"needs a {name!r} reel set")
        self.base_reels: ReelSet = data.reels["base"]
        self.special_reels: ReelSet = data.reels["special"]
        self.free_reels: ReelSet = data.reels["free"]
        for name, banned, why in (
            ("special", self.royals, "the Special Reels show no royals"),
            ("free", (self.free_symbol, self.bonus_symbol), "the free-spin reels carry no scatters"),
        ):
            for i, strip in enumerate(data.reels[name].strips):
                bad = sorted(set(strip) & set(banned))
                if bad:
                    raise reels_f.get(name).as_list()[i].error(f"{why}, but this strip has {', '.join(bad)}")
        self.lines = LineEvaluator(
            data.paylines,
            data.paytable,
            wild=self.wild,
            wild_pays_as=self.wild_pays_as,
            not_substituted=(self.free_symbol, self.bonus_symbol),
        )
        self.rider = rider_rules(root.get("rider"))
        self.free = free_spin_rules(root.get("free_spins"))
        self.ladder = ladder_rules(root.get("full_moon_bonus"))
        self.jackpot = jackpot_rules(root.get("jackpot"))
        # Per reel set, reel and stop: where each scatter shows (this runs on every spin).
        self._at = (self.base_reels.positions_of(self.free_symbol), self.base_reels.positions_of(self.bonus_symbol))
        self._scatter_counts = tuple(
            tuple(len(f) + 16 * len(b) for f, b in zip(fr, br, strict=True)) for fr, br in zip(*self._at, strict=True)
        )
        # By packed count: too few of each scatter to pay or trigger (no look at the positions).
        free_least = min([self.free.trigger, *(n for n, x in enumerate(self.free_pays) if x)])
        bonus_least = min([self.ladder.trigger, *(n for n, x in enumerate(self.bonus_pays) if x)])
        self._quiet = tuple(p & 15 < free_least and p >> 4 < bonus_least for p in range(16 * 16))
        self._radix = self.base_reels.radix
        self._draws = self.rider.denominator * self._radix
        self._rider_total = self.rider.total
        cum = []
        acc = 0
        for w in self.rider.weights:
            acc += w
            cum.append(acc)
        self._rider_cum = tuple(cum)

    # -- modes ------------------------------------------------------------------
    # -- play -------------------------------------------------------------------
    def play(self, ctx: RoundContext) -> RoundProcess:
        # One draw gives the Rider's (the high digit) and the stops (the low digits).
        reels = self.base_reels
        x, index = divmod(ctx.rng.below(self._draws), self._radix)
        if x >= self._rider_total:
            # The plain spin, the hot path: `LinesGame.spin_lines` with the draw above.
            stops, window = reels.draw(index)
            events = ctx.events
            events.append(Spin("base", stops, window))
            win = pay_lines(ctx, self.lines, window)
            # Scatters per reel and stop, packed as free + 16 x bonus: most spins stop here.
            a0, a1, a2, a3, a4 = self._scatter_counts
            s0, s1, s2, s3, s4 = stops
            if self._quiet[a0[s0] + a1[s1] + a2[s2] + a3[s3] + a4[s4]]:
                ctx.win = win
                return
            free, bonus = self._at
            fp = tuple(p for reel, s in enumerate(stops) for p in free[reel][s])
            bp = tuple(p for reel, s in enumerate(stops) for p in bonus[reel][s])
            win += self._scatter_wins(ctx, fp, bp, 1)
        else:
            feature = next(i for i, c in enumerate(self._rider_cum) if x < c)
            win, fp, bp = self._rider_spin(ctx, FEATURES[feature], index)
        ctx.win = win
        if len(bp) >= self.ladder.trigger:
            ctx.features.append("full_moon_bonus")
            yield FEATURE_START
            ctx.win += yield from self._full_moon(ctx, len(bp))
        if len(fp) >= self.free.trigger:
            ctx.features.append("free_spins")
            yield FEATURE_START
            yield from self._free_spins(ctx, len(fp))

    def _scatter_wins(
        self, ctx: RoundContext, free: tuple[Position, ...], bonus: tuple[Position, ...], multiplier: int
    ) -> int:
        """Emit the scatter wins of ``free`` and ``bonus`` (positions) and return their sum."""
        win = 0
        for symbol, positions, pays in (
            (self.free_symbol, free, self.free_pays),
            (self.bonus_symbol, bonus, self.bonus_pays),
        ):
            x = pays[min(len(positions), len(pays) - 1)]
            if x:
                win += pay_scatter(ctx, symbol, positions, x, multiplier)
        return win

    def _line_wins(self, ctx: RoundContext, window: Window, multiplier: int) -> int:
        return pay_lines(ctx, self.lines, window, multiplier)

    def _draw(self, ctx: RoundContext, reels: ReelSet, phase: str) -> Window:
        stops, window = reels.draw(ctx.rng.below(reels.radix))
        ctx.events.append(Spin(phase, stops, window))
        return window

    def _rider_spin(
        self, ctx: RoundContext, feature: str, index: int
    ) -> tuple[int, tuple[Position, ...], tuple[Position, ...]]:
        """A paid spin with the Rider's ``feature`` (``index`` the stops' draw on the base
        reels): (its win, the Free Spins and the Bonus positions)."""
        rng = ctx.rng
        rider = self.rider
        ctx.emit(RiderAppears(feature))
        multiplier = 1
        if feature == "special_reels":
            # The Special Reels are other strips: their stops are a draw of their own.
            window = self._draw(ctx, self.special_reels, "special")
        else:
            stops, window = self.base_reels.draw(index)
            ctx.events.append(Spin("base", stops, window))
            placed: tuple[Position, ...] = ()
            symbol = self.wild
            if feature == "pumpkin_tree":
                multiplier = _pick(rng.weighted([w for _, w in rider.tree]), rider.tree)
                ctx.emit(WinMultiplier(multiplier))
            elif feature == "random_wilds":
                k = _pick(rng.weighted([w for _, w in rider.wilds]), rider.wilds)
                cells_ = sorted(_sample(ctx, CELLS, k))
                placed = tuple((c // 3, c % 3) for c in cells_)
            elif feature == "mega_wild":
                left = _pick(rng.weighted([w for _, w in rider.mega]), rider.mega)
                placed = tuple((reel, row) for reel in range(left, left + 3) for row in range(3))
            else:
                table = rider.free_spins if feature == "free_spins" else rider.full_moon
                symbol = self.free_symbol if feature == "free_spins" else self.bonus_symbol
                n = _pick(rng.weighted([w for _, w in table]), table)
                placed = tuple((reel, rng.below(3)) for reel in sorted(_sample(ctx, 5, n)))
            if placed:
                window = _overlay(window, symbol, placed)
                ctx.emit(RiderSymbols(symbol, placed, window))
        win = self._line_wins(ctx, window, multiplier)
        free = _positions(window, self.free_symbol)
        bonus = _positions(window, self.bonus_symbol)
        win += self._scatter_wins(ctx, free, bonus, multiplier)
        return win, free, bonus

    def _full_moon(self, ctx: RoundContext, scatters: int) -> Generator[Decision, str, int]:
        """The ladder: a new board of six pumpkins per step until COLLECT; return its win."""
        rules = self.ladder
        rng = ctx.rng
        count = rules.count(scatters)
        num, den = rules.collect[count]
        ctx.emit(LadderStart(scatters, rules.rungs_x[rules.minimum[count] - 1]))
        position = 0
        while True:
            labels = []
            for k in range(1, rules.steps + 1):
                _, to = rules.move(position, k)
                # Drawn for every pumpkin before any pick: COLLECT only where it is allowed.
                collect = to == rules.top or (rules.collect_allowed(count, to) and rng.below(den) < num)
                labels.append(f"{k} {COLLECT}" if collect else str(k))
            board = shuffled(tuple(labels), ctx)
            result = yield from play_board(ctx, PUMPKINS, board)
            prize = result.picked[0]
            rungs = int(prize.split()[0])
            collect = prize.endswith(COLLECT)
            landed, to = rules.move(position, rungs)
            ctx.emit(LadderClimb(rungs, position, landed, to, collect))
            position = to
            if collect:
                break
        x = rules.rungs_x[position - 1]
        win = x * ctx.bet.total
        ctx.emit(LadderWin(position, x, win))
        return win

    def _cauldron(
        self, ctx: RoundContext, rules: PickRules, table: tuple[tuple[int, int], ...]
    ) -> Generator[Decision, str, int]:
        """Pick 1 of 3 cauldrons, each filled from ``table`` when the pick starts."""
        weights = [w for _, w in table]
        board = tuple(str(_pick(ctx.rng.weighted(weights), table)) for _ in range(rules.cells))
        result = yield from play_board(ctx, rules, board)
        return int(result.picked[0])

    def _free_spins(self, ctx: RoundContext, scatters: int) -> Generator[Decision, str, None]:
        rules = self.free
        rng = ctx.rng
        picked = yield from self._cauldron(ctx, CAULDRON, rules.cauldron)
        fs = FreeSpins(ctx, rules.spins(picked, scatters), UNCAPPED)
        base_win = ctx.win
        awards = 0
        num, den = rules.bonus_numerator, rules.bonus_denominator
        reels = self.free_reels
        while fs.remaining:
            yield FREE_SPIN
            fs.start_spin()
            if awards < rules.max_awards:
                # One draw for the Rider's chance (high digit) and the stops (low digits).
                x, index = divmod(rng.below(den * reels.radix), reels.radix)
                rider = x < num
            else:
                index = rng.below(reels.radix)
                rider = False
            if rider:
                ctx.emit(RiderAppears(BONUS_SPINS))
            stops, window = reels.draw(index)
            ctx.events.append(Spin("free", stops, window))
            if not rider:
                win = self._line_wins(ctx, window, 1)
            else:
                placed = tuple((reel, rng.below(3)) for reel in sorted(_sample(ctx, 5, rules.trigger)))
                window = _overlay(window, self.free_symbol, placed)
                ctx.emit(RiderSymbols(self.free_symbol, placed, window))
                win = self._line_wins(ctx, window, 1)
                win += self._scatter_wins(ctx, _positions(window, self.free_symbol), (), 1)
            fs.credit(win)
            ctx.win = base_win + fs.win
            if rider:
                awards += 1
                extra = yield from self._cauldron(ctx, BONUS_CAULDRON, rules.bonus_cauldron)
                fs.retrigger(extra)
        fs.finish()

    # -- description ----------------------------------------------------------
    def describe(self) -> dict[str, Any]:
        n = len(self.data.paylines)
        r = self.rider
        f = self.free
        lad = self.ladder
        return super().describe() | {
            "paytable_unit": f"1/{n}",
            "paytable_x": {
                s: {str(k): str(Fraction(v, n)) for k, v in p.items()} for s, p in self.data.paytable.pays.items()
            },
            "royals": list(self.royals),
            "scatters": {
                "free_spins": {"symbol": self.free_symbol, "pays_x": _pays_json(self.free_pays)},
                "bonus": {"symbol": self.bonus_symbol, "pays_x": _pays_json(self.bonus_pays)},
            },
            "rider": {
                "denominator": r.denominator,
                "weights": dict(zip(FEATURES, r.weights, strict=True)),
                "pumpkin_tree": {str(v): w for v, w in r.tree},
                "random_wilds": {str(v): w for v, w in r.wilds},
                "mega_wild": {str(v + 1): w for v, w in r.mega},
                "free_spins": {str(v): w for v, w in r.free_spins},
                "full_moon_bonus": {str(v): w for v, w in r.full_moon},
            },
            "free_spins": {
                "trigger": f.trigger,
                "cauldron": {str(v): w for v, w in f.cauldron},
                "per_extra_scatter": f.per_extra,
                "bonus_spins": {
                    "chance": {"numerator": f.bonus_numerator, "denominator": f.bonus_denominator},
                    "cauldron": {str(v): w for v, w in f.bonus_cauldron},
                    "max_awards": f.max_awards,
                },
            },
            "full_moon_bonus": {
                "trigger": lad.trigger,
                "rungs_x": list(lad.rungs_x),
                "shortcuts": {str(a): b for a, b in sorted(lad.shortcuts.items())},
                "minimum": {str(k): v for k, v in sorted(lad.minimum.items())},
                "collect_chance": {str(k): f"{a}/{b}" for k, (a, b) in sorted(lad.collect.items())},
                "steps": lad.steps,
            },
            "jackpot": self.jackpot.to_json(),
            "settings": {},
        }


def _pick(index: int, table: tuple[tuple[int, int], ...]) -> int:
    return table[index][0]


def _sample(ctx: RoundContext, n: int, k: int) -> list[int]:
    """``k`` distinct numbers of ``range(n)``, uniformly (a partial Fisher-Yates shuffle)."""
    cells = list(range(n))
    below = ctx.rng.below
    for i in range(k):
        j = i + below(n - i)
        cells[i], cells[j] = cells[j], cells[i]
    return cells[:k]


def _overlay(window: Window, symbol: str, positions: tuple[Position, ...]) -> Window:
    cols = [list(col) for col in window]
    for reel, row in positions:
        cols[reel][row] = symbol
    return tuple(tuple(col) for col in cols)


def _positions(window: Window, symbol: str) -> tuple[Position, ...]:
    return tuple((reel, row) for reel, col in enumerate(window) for row, s in enumerate(col) if s == symbol)


def _pays_json(pays: tuple[int, ...]) -> dict[str, int]:
    return {str(k): v for k, v in enumerate(pays) if v}


def build(root: Field) -> LuckyHalloween:
    """The game from the root of its data file (as shipped, or edited)."""
    return LuckyHalloween(load_lines_game(root))


def load() -> LuckyHalloween:
    """Load the game from its data file."""
    return build(read_data_file("lucky_halloween.json", __name__))


PLUGIN = Plugin(
    load=load,
    build=build,
    report="pyengine.games.lucky_halloween.report:report",
    screen="slotui.games.lucky_halloween",
    showcase="pyengine.games.lucky_halloween.showcase:shown",
)
"""The game's registration: its loader, its exact RTP report and its client screen."""
