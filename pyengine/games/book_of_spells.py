"""Book of Spells: 5x3, 1-9 lines, Book wild + scatter, expanding-symbol free spins, gamble.

The rules are in ``docs/games/book_of_spells.md``; the numbers (symbols, pays, strips,
lines, bets, operator defaults) in ``data/book_of_spells.json``.
"""

from __future__ import annotations

from collections.abc import Generator, Mapping
from dataclasses import dataclass
from typing import Any

from ..data import Field, LinesGameData, load_lines_game, read_data_file
from ..errors import EngineError
from ..evaluators import LineEvaluator, evaluate_expanding, evaluate_scatter
from ..events import ExpandedWin, ExpandingSymbolChosen, LineWin, ScatterWin, Spin
from ..features.free_spins import FreeSpins
from ..features.gamble import gamble
from ..model import Bet, ReelSet
from .base import LinesGame
from ..round import Decision, RoundContext, RoundProcess

__all__ = ["BookOfSpells", "FreeSpinRules", "load"]

FEATURE_START = Decision("feature_start", ("start",), feature=True)
FREE_SPIN = Decision("free_spin", ("spin",))


@dataclass(frozen=True, slots=True)
class FreeSpinRules:
    """Free-spin numbers: spins per award, the least Books that trigger, expanding weights."""

    award: int
    trigger: int
    expanding: tuple[tuple[str, int], ...]


class BookOfSpells(LinesGame):
    """The game: data plus the composition of its features."""

    def __init__(self, data: LinesGameData) -> None:
        super().__init__(data)
        root = data.root
        book = data.wild
        if book is None or data.scatter != book:
            raise root.get("symbols").error("Book of Spells needs one symbol that is wild and scatter")
        self.book: str = book
        self.base_reels: ReelSet = data.reels["base"]
        self.free_reels: ReelSet = data.reels.get("free", self.base_reels)
        self.lines = LineEvaluator(
            data.paylines, data.paytable, wild=book, wild_pays_as=self.wild_pays_as
        )
        self.free_spins = _free_spin_rules(root.get("free_spins"), data)
        # During free spins the Book does not substitute for the expanding symbol.
        self.free_lines = {
            s: LineEvaluator(
                data.paylines, data.paytable, wild=book, wild_pays_as=self.wild_pays_as, not_substituted=(s,)
            )
            for s, _ in self.free_spins.expanding
        }
        self._expanding_symbols = tuple(s for s, _ in self.free_spins.expanding)
        self._expanding_weights = tuple(w for _, w in self.free_spins.expanding)
        self._defaults = self._read_settings(root.get("operator_defaults"))

    # -- settings -------------------------------------------------------------
    SETTINGS = ("free_spin_cap_x", "gamble_limit_x", "gamble")

    def _read_settings(self, f: Field) -> dict[str, int]:
        return {
            "free_spin_cap_x": f.get("free_spin_cap_x").as_int(minimum=1),
            "gamble_limit_x": f.get("gamble_limit_x").as_int(minimum=0),
            "gamble": int(f.get("gamble").as_bool()),
        }

    def default_settings(self) -> dict[str, int]:
        return dict(self._defaults)

    def validate_settings(self, settings: Mapping[str, Any]) -> dict[str, int]:
        out = self.default_settings()
        for key, value in settings.items():
            if key not in out:
                raise EngineError(f"unknown setting {key!r}; the settings are {', '.join(out)}")
            if key == "gamble":
                if value not in (0, 1) or not isinstance(value, int):
                    raise EngineError(f"setting 'gamble' must be 0, 1, true or false, not {value!r}")
                out[key] = int(value)
                continue
            low = int(key == "free_spin_cap_x")
            if not isinstance(value, int) or isinstance(value, bool) or value < low:
                raise EngineError(f"setting {key!r} must be an integer of at least {low}, not {value!r}")
            out[key] = int(value)
        return out

    def price(self, bet: Bet, mode: str) -> int:
        """What a round costs: the total bet (Book of Spells has no other mode)."""
        if mode != "base":
            raise EngineError(f"{self.name} has no mode {mode!r}; its only mode is base")
        return bet.total

    # -- play -------------------------------------------------------------------
    def _spin(self, ctx: RoundContext, reels: ReelSet, phase: str) -> tuple[tuple[str, ...], ...]:
        stops, window = reels.draw(ctx.rng.below(reels.radix))
        ctx.events.append(Spin(phase, stops, window))
        return window

    def _pay_regular(
        self, ctx: RoundContext, window: tuple[tuple[str, ...], ...], lines: LineEvaluator
    ) -> tuple[int, int]:
        """Emit line and scatter wins; return (win, books)."""
        bet = ctx.bet
        win = 0
        for r in lines.evaluate(window, bet.lines):
            amount = r.multiplier * bet.bet_per_line
            win += amount
            ctx.emit(LineWin(r.line, r.symbol, r.count, r.positions, r.multiplier, amount))
        sc = evaluate_scatter(window, self.book, self.data.scatter_pays)
        if sc.multiplier:
            amount = sc.multiplier * bet.total
            win += amount
            ctx.emit(ScatterWin(sc.symbol, sc.count, sc.positions, sc.multiplier, amount))
        return win, sc.count

    def play(self, ctx: RoundContext) -> RoundProcess:
        window = self._spin(ctx, self.base_reels, "base")
        win, books = self._pay_regular(ctx, window, self.lines)
        ctx.win = win
        capped = False
        if books >= self.free_spins.trigger:
            ctx.features.append("free_spins")
            feature_win, capped = yield from self.play_feature(ctx)
            win += feature_win
            ctx.win = win
        if win and not capped and not ctx.autoplay and ctx.settings["gamble"]:
            limit = ctx.settings["gamble_limit_x"] * ctx.bet.total
            ctx.win = yield from gamble(ctx, win, limit)

    def play_feature(self, ctx: RoundContext) -> Generator[Decision, str, tuple[int, bool]]:
        """Free spins with the expanding symbol; return (capped feature win, capped)."""
        rules = self.free_spins
        fs = FreeSpins(ctx, rules.award, ctx.settings["free_spin_cap_x"] * ctx.bet.total)
        symbol = self._expanding_symbols[ctx.rng.weighted(self._expanding_weights)]
        ctx.emit(ExpandingSymbolChosen(symbol))
        yield FEATURE_START
        bet = ctx.bet
        lines = self.free_lines[symbol]
        base_win = ctx.win
        while fs.remaining:
            yield FREE_SPIN
            fs.start_spin()
            window = self._spin(ctx, self.free_reels, "free")
            win, books = self._pay_regular(ctx, window, lines)
            if books >= rules.trigger:
                fs.retrigger(rules.award)
            ex = evaluate_expanding(window, symbol, self.data.paytable)
            if ex is not None:
                amount = ex.multiplier * bet.bet_per_line * bet.lines
                win += amount
                ctx.emit(ExpandedWin(symbol, ex.reels, len(ex.reels), bet.lines, ex.multiplier, amount))
            fs.credit(win)
            ctx.win = base_win + fs.win
        fs.finish()
        return fs.win, fs.capped

    # -- description ----------------------------------------------------------
    def describe(self) -> dict[str, Any]:
        return super().describe() | {
            "free_spins": {
                "award": self.free_spins.award,
                "trigger": self.free_spins.trigger,
                "expanding": dict(self.free_spins.expanding),
            },
            "settings": self.default_settings(),
        }


def _free_spin_rules(f: Field, data: LinesGameData) -> FreeSpinRules:
    award = f.get("award").as_int(minimum=1)
    trigger = f.get("trigger").as_int(minimum=1)
    weights = []
    for sid, wf in f.get("expanding_weights").items():
        if sid not in data.paytable.pays or sid == data.wild:
            raise wf.error(f"{sid!r} is not a paying symbol that can expand")
        weights.append((sid, wf.as_int(minimum=1)))
    if not weights:
        raise f.get("expanding_weights").error("needs at least one symbol")
    return FreeSpinRules(award, trigger, tuple(weights))


def load() -> BookOfSpells:
    """Load the game from its data file."""
    return BookOfSpells(load_lines_game(read_data_file("book_of_spells.json")))
