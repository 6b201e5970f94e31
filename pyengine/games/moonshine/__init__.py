"""Moonshine: a coin game on 5x3 reels with 1-25 lines, Grandma wild with pays of her own, the
Sheriff scatter and the Moonshine Bonus: a board of 3 x 6 blocks picked until a "Start Free
Spins" block, then free spins at the spins and multiplier the blocks gave.

The rules are in ``docs/games/moonshine.md``; the numbers (symbols, pays in coins, strips,
lines, coins, the bonus board) in ``moonshine.json`` beside it.
"""

from __future__ import annotations

from collections.abc import Generator, Mapping
from dataclasses import dataclass
from typing import Any

from ...data import Field, LinesGameData, load_lines_game, read_data_file
from ...evaluators import LineEvaluator
from ...events import Position, Spin, WinMultiplier
from ...features.free_spins import FreeSpins
from ...features.pick import PickRules, play_pick
from ...model import ReelSet
from ...round import Decision, RoundContext, RoundProcess
from ..base import LinesGame, Plugin, pay_lines, pay_scatter

__all__ = ["FEATURE", "PLUGIN", "BonusRules", "Moonshine", "load"]

FEATURE = "moonshine_bonus"
"""The feature's name in a round's ``features``."""
FEATURE_START = Decision("feature_start", ("start",), feature=True)
FREE_SPIN = Decision("free_spin", ("spin",))


@dataclass(frozen=True, slots=True)
class BonusRules:
    """The Moonshine Bonus: its ``symbol``; per count of it shown, the free spins and the
    multiplier to start with (``start``); the ``pick`` board; and what each block that is
    not a stopper adds (``blocks``: label -> (spins, multiplier)). A stopper adds nothing."""

    symbol: str
    start: Mapping[int, tuple[int, int]]
    pick: PickRules
    blocks: Mapping[str, tuple[int, int]]

    @property
    def trigger(self) -> int:
        """The fewest bonus symbols that start the bonus."""
        return min(self.start)

    @property
    def added(self) -> tuple[int, int]:
        """(A, B): the spins and the multiplier all the blocks of the board add together."""
        prizes = [self.blocks[p] for p in self.pick.prizes if p in self.blocks]
        return sum(a for a, _ in prizes), sum(b for _, b in prizes)

    def most(self, count: int) -> tuple[int, int]:
        """The most spins and multiplier a bonus started by ``count`` symbols can reach
        (every block revealed before a stopper)."""
        s0, m0 = self.start[count]
        a, b = self.added
        return s0 + a, m0 + b

    def award(self, count: int, picked: tuple[str, ...]) -> tuple[int, int]:
        """(spins, multiplier) after the blocks ``picked`` (the stopper adds nothing)."""
        spins, multiplier = self.start[count]
        blocks = self.blocks
        for label in picked:
            value = blocks.get(label)
            if value is not None:
                spins += value[0]
                multiplier += value[1]
        return spins, multiplier


class Moonshine(LinesGame):
    """The game: data plus the composition of its features."""

    decisions = ("feature_start", "pick", "free_spin")

    def __init__(self, data: LinesGameData) -> None:
        super().__init__(data)
        root = data.root
        if data.wilds != (data.wild,) or data.wild is None:
            raise root.get("symbols").error("Moonshine needs one wild symbol (Grandma)")
        self.wild: str = data.wild
        if self.wild_pays_as != self.wild:
            raise root.get("wild_pays_as").error(f"Grandma pays her own pays: it must be {self.wild!r}")
        self.base_reels: ReelSet = data.reels["base"]
        self.free_reels: ReelSet = data.reels.get("free", self.base_reels)
        if data.rows != 3 or any(len(rs.strips) != 5 for rs in data.reels.values()):
            raise root.get("reels").error("Moonshine is played on 5 reels of 3 rows")
        self.bonus = _bonus_rules(root.get("moonshine_bonus"), data)
        scatters = [s.id for s in data.symbols if s.is_scatter and s.id != self.bonus.symbol]
        if len(scatters) != 1 or data.symbol(scatters[0]).is_wild:
            raise root.get("symbols").error("Moonshine needs one scatter symbol (the Sheriff) besides the bonus symbol")
        self.sheriff: str = scatters[0]
        if self.sheriff in data.paytable.pays or self.bonus.symbol in data.paytable.pays:
            raise root.get("paytable").error("the Sheriff and the bonus symbol have no line pays")
        # Grandma substitutes for every symbol but these two.
        self.lines = LineEvaluator(
            data.paylines,
            data.paytable,
            wild=self.wild,
            wild_pays_as=self.wild,
            not_substituted=(self.sheriff, self.bonus.symbol),
        )
        reels_f = root.get("reels")
        for name, rs in data.reels.items():
            for sym in (self.sheriff, self.bonus.symbol):
                _one_per_window(reels_f.get(name), rs, sym)
        if self.bonus.symbol in {s for strip in self.free_reels.strips for s in strip} and "free" in data.reels:
            raise reels_f.get("free").error("the free spins cannot retrigger: their strips show no bonus symbol")
        # Per reel and stop: where the Sheriff and the bonus symbol show (this runs on every spin).
        self._sheriff_base = self.base_reels.positions_of(self.sheriff)
        self._sheriff_free = self.free_reels.positions_of(self.sheriff)
        # Per reel and stop: the Sheriffs shown plus 8 x the bonus symbols shown (at most 1 each).
        self._specials = tuple(
            tuple(len(h) + 8 * len(b) for h, b in zip(hs, bs, strict=True))
            for hs, bs in zip(self._sheriff_base, self.base_reels.positions_of(self.bonus.symbol), strict=True)
        )
        self._trigger = self.bonus.trigger
        self._scatter_pays = tuple(data.scatter_pays.get(n, 0) for n in range(5 * data.rows + 1))
        if any(n < 3 for n, p in data.scatter_pays.items() if p):
            raise root.get("scatter_pays").error("the Sheriff pays for three or more")
        # No win limit: the free spins get a cap above the most they can pay (every line and
        # the Sheriff at their top pays, on every spin, at the top multiplier), per total bet.
        top_line = max(max(p.values(), default=0) for p in data.paytable.pays.values())
        most = [self.bonus.most(k) for k in self.bonus.start]
        self._unreachable_x = (top_line + max(self._scatter_pays)) * max(s for s, _ in most) * max(m for _, m in most)

    # -- play -------------------------------------------------------------------
    def _sheriff_win(self, ctx: RoundContext, positions: tuple[Position, ...], multiplier: int) -> int:
        """The Sheriff's scatter win (pay x total bet x ``multiplier``), its event emitted."""
        pay = self._scatter_pays[len(positions)]
        return pay_scatter(ctx, self.sheriff, positions, pay, multiplier) if pay else 0

    def play(self, ctx: RoundContext) -> RoundProcess:
        stops, _, win = self.spin_lines(ctx, self.base_reels, self.lines, "base")
        s0, s1, s2, s3, s4 = stops
        # One sum tells whether the Sheriff pays or the bonus starts (most spins: neither).
        c0, c1, c2, c3, c4 = self._specials
        code = c0[s0] + c1[s1] + c2[s2] + c3[s3] + c4[s4]
        if code & 7 >= 3:
            h0, h1, h2, h3, h4 = self._sheriff_base
            win += self._sheriff_win(ctx, h0[s0] + h1[s1] + h2[s2] + h3[s3] + h4[s4], 1)
        ctx.win = win
        count = code >> 3
        if count >= self._trigger:
            ctx.features.append(FEATURE)
            ctx.win = win + (yield from self.play_bonus(ctx, count))

    def play_bonus(self, ctx: RoundContext, count: int) -> Generator[Decision, str, int]:
        """The Moonshine Bonus started by ``count`` bonus symbols (the spin shows where): the
        board, picked until a stopper, then the free spins at the spins and multiplier
        reached; return the bonus win. It starts at ``start[count]`` spins and multiplier,
        which the data describes: the log needs no event of the game's own."""
        rules = self.bonus
        yield FEATURE_START
        result = yield from play_pick(ctx, rules.pick)
        spins, multiplier = rules.award(count, result.picked)
        fs = FreeSpins(ctx, spins, self._unreachable_x * ctx.bet.total)
        base = ctx.win
        while fs.remaining:
            yield FREE_SPIN
            fs.start_spin()
            fs.credit(self._free_spin(ctx, multiplier))
            ctx.win = base + fs.win
        fs.finish()
        return fs.win

    def _free_spin(self, ctx: RoundContext, multiplier: int) -> int:
        """One free spin at the feature's ``multiplier``: the spin, the multiplier, its line
        wins and the Sheriff's, every win already multiplied; return the spin's win."""
        reels = self.free_reels
        stops, window = reels.draw(ctx.rng.below(reels.radix))
        events = ctx.events
        events.append(Spin("free", stops, window))
        events.append(WinMultiplier(multiplier))
        win = pay_lines(ctx, self.lines, window, multiplier)
        s0, s1, s2, s3, s4 = stops
        h0, h1, h2, h3, h4 = self._sheriff_free
        sheriffs = h0[s0] + h1[s1] + h2[s2] + h3[s3] + h4[s4]
        if len(sheriffs) >= 3:
            win += self._sheriff_win(ctx, sheriffs, multiplier)
        return win

    # -- description ----------------------------------------------------------
    def describe(self) -> dict[str, Any]:
        rules = self.bonus
        return super().describe() | {
            "sheriff": self.sheriff,
            "moonshine_bonus": {
                "symbol": rules.symbol,
                "start": {str(k): _spins_json(rules.start[k]) for k in sorted(rules.start)},
                "most": {str(k): _spins_json(rules.most(k)) for k in sorted(rules.start)},
                "rows": rules.pick.cells // rules.pick.columns,
                "columns": rules.pick.columns,
                "board": {label: rules.pick.prizes.count(label) for label in dict.fromkeys(rules.pick.prizes)},
                "stoppers": sorted(rules.pick.stoppers),
                "blocks": {label: _spins_json(value) for label, value in rules.blocks.items()},
            },
            "settings": {},
        }


def _spins_json(value: tuple[int, int]) -> dict[str, int]:
    return {"spins": value[0], "multiplier": value[1]}


def _one_per_window(f: Field, reels: ReelSet, symbol: str) -> None:
    """A reel window shows ``symbol`` at most once (so 3 to 5 of them cover every count)."""
    for reel, cols in enumerate(reels.columns):
        for stop, col in enumerate(cols):
            if col.count(symbol) > 1:
                raise f.error(f"reel {reel + 1} shows {symbol!r} more than once at stop {stop}: space them 3 apart")


def _bonus_rules(f: Field, data: LinesGameData) -> BonusRules:
    sym_f = f.get("symbol")
    sym = sym_f.as_str()
    if sym not in {s.id for s in data.symbols} or not data.symbol(sym).is_scatter or data.symbol(sym).is_wild:
        raise sym_f.error(f"{sym!r} must be a scatter symbol of the game that is not wild")
    start: dict[int, tuple[int, int]] = {}
    for k, vf in f.get("start").items():
        if not k.isdigit() or not 1 <= int(k) <= 5:
            raise vf.error("counts of bonus symbols are written as \"1\" to \"5\"")
        start[int(k)] = (vf.get("spins").as_int(minimum=1), vf.get("multiplier").as_int(minimum=1))
    if not start or sorted(start) != list(range(min(start), 6)):
        raise f.get("start").error("needs every count from the fewest that starts the bonus up to 5")
    pick = PickRules.from_field("moonshine", f.get("pick"))
    rows = f.get("rows").as_int(minimum=1)
    if pick.cells != rows * pick.columns:
        raise f.get("pick").error(
            f"the board is {rows} rows of {pick.columns} blocks: {rows * pick.columns} blocks, not {pick.cells}"
        )
    blocks: dict[str, tuple[int, int]] = {}
    for label, bf in f.get("blocks").items():
        if label not in pick.prizes or label in pick.stoppers:
            raise bf.error(f"{label!r} is not a block of the board that adds something")
        value = (bf.optional("spins", 0).as_int(minimum=0), bf.optional("multiplier", 0).as_int(minimum=0))
        if value == (0, 0):
            raise bf.error("a block adds spins or multiplier")
        blocks[label] = value
    missing = sorted({p for p in pick.prizes if p not in pick.stoppers} - set(blocks))
    if missing:
        raise f.get("blocks").error(f"says nothing of the blocks {missing}")
    rules = BonusRules(sym, start, pick, blocks)
    most_f = f.get("most")
    for k, vf in most_f.items():
        if not k.isdigit() or int(k) not in start:
            raise vf.error(f"{k!r} is not a count that starts the bonus")
        advertised = (vf.get("spins").as_int(minimum=1), vf.get("multiplier").as_int(minimum=1))
        if advertised != rules.most(int(k)):
            s, m = rules.most(int(k))
            raise vf.error(f"the board reaches at most {s} spins and {m}x from {k} symbols, not {advertised}")
    if {int(k) for k, _ in most_f.items()} != set(start):
        raise most_f.error("states the most for every count that starts the bonus")
    return rules


def build(root: Field) -> Moonshine:
    """The game from the root of its data file (as shipped, or edited)."""
    return Moonshine(load_lines_game(root))


def load() -> Moonshine:
    """Load the game from its data file."""
    return build(read_data_file("moonshine.json", __name__))


PLUGIN = Plugin(
    load=load,
    build=build,
    report="pyengine.games.moonshine.report:report",
    screen="slotui.games.moonshine",
    distribution="pyengine.games.moonshine.report:distribution",
    showcase="pyengine.games.moonshine.showcase:shown",
)
"""The game's registration: its loader, its exact RTP report and its client screen."""
