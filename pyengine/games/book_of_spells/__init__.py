"""Book of Spells: 5x3, 1-9 lines, Book wild + scatter, expanding-symbol free spins, gamble.

The rules are in ``docs/games/book_of_spells.md``; the numbers (symbols, pays, strips,
lines, bets, operator defaults) in ``book_of_spells.json`` beside it.
"""

from __future__ import annotations

from collections.abc import Generator
from dataclasses import dataclass
from typing import Any

from ...data import Field, LinesGameData, load_lines_game, read_data_file
from ...evaluators import LineEvaluator, evaluate_expanding
from ...events import ExpandedWin, ExpandingSymbolChosen
from ...features.free_spins import FreeSpins
from ...features.gamble import COLLECT_OR_GAMBLE, gamble_offered, play_gamble
from ...model import ReelSet, Window
from ..base import LinesGame, Plugin, pay_scatter, spin_lines, Setting, SettingsSchema
from ...round import Decision, RoundContext, RoundProcess

__all__ = ["PLUGIN", "BookOfSpells", "FreeSpinRules", "load"]

FEATURE_START = Decision("feature_start", ("start",), feature=True)
FREE_SPIN = Decision("free_spin", ("spin",))

BookPositions = tuple[tuple[tuple[tuple[int, int], ...], ...], ...]
"""Per reel and stop, the window positions that show a Book (`ReelSet.positions_of`)."""


@dataclass(frozen=True, slots=True)
class FreeSpinRules:
    """Free-spin numbers: spins per award, the least Books that trigger, expanding weights."""

    award: int
    trigger: int
    expanding: tuple[tuple[str, int], ...]


class BookOfSpells(LinesGame):
    """The game: data plus the composition of its features."""

    decisions = ("feature_start", "free_spin", "collect_or_gamble", "gamble")

    def __init__(self, data: LinesGameData) -> None:
        super().__init__(data)
        root = data.root
        book = data.wild
        if book is None or data.scatter != book or data.wilds != (book,):
            raise root.get("symbols").error("Book of Spells needs one symbol that is wild and scatter")
        self.book: str = book
        self.base_reels: ReelSet = data.reels["base"]
        self.free_reels: ReelSet = data.reels.get("free", self.base_reels)
        if len(self.base_reels.strips) != 5:
            raise root.get("reel_count").error("Book of Spells is played on 5 reels")
        # Per reel and stop: the positions showing a Book (this runs on every spin).
        self._base_books = self.base_reels.positions_of(book)
        self._free_books = self.free_reels.positions_of(book)
        # The scatter pay for every count of Books the window can show.
        self._scatter_pays = tuple(data.scatter_pays.get(n, 0) for n in range(5 * data.rows + 1))
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
        self.settings_schema = SettingsSchema.from_field(self.name, root.get("operator_defaults"), self.SETTINGS)

    # -- settings -------------------------------------------------------------
    SETTINGS = (
        Setting("free_spin_cap_x", 5000, minimum=1),
        Setting("gamble_limit_x", 250, minimum=0),
        Setting("gamble", 1, flag=True),
    )
    """The operator settings (their defaults come from the data's ``operator_defaults``)."""

    # -- play -------------------------------------------------------------------
    def _spin(
        self, ctx: RoundContext, reels: ReelSet, books_at: BookPositions, lines: LineEvaluator, phase: str
    ) -> tuple[Window, int, int]:
        """Spin ``reels``; emit the spin, its line wins and its Book scatter win; return
        (window, win, books)."""
        stops, window, win = spin_lines(ctx, reels, lines, phase)
        # The Books are looked up per reel stop: the positions `evaluate_scatter` would find.
        b0, b1, b2, b3, b4 = books_at
        s0, s1, s2, s3, s4 = stops
        books = b0[s0] + b1[s1] + b2[s2] + b3[s3] + b4[s4]
        n = len(books)
        multiplier = self._scatter_pays[n]
        if multiplier:
            win += pay_scatter(ctx, self.book, books, multiplier)
        return window, win, n

    def play(self, ctx: RoundContext) -> RoundProcess:
        # The base spin is `_spin` spelled out (one call fewer on the hot path of every round).
        stops, _, win = spin_lines(ctx, self.base_reels, self.lines, "base")
        b0, b1, b2, b3, b4 = self._base_books
        s0, s1, s2, s3, s4 = stops
        found = b0[s0] + b1[s1] + b2[s2] + b3[s3] + b4[s4]
        books = len(found)
        multiplier = self._scatter_pays[books]
        if multiplier:
            win += pay_scatter(ctx, self.book, found, multiplier)
        ctx.win = win
        capped = False
        if books >= self.free_spins.trigger:
            ctx.features.append("free_spins")
            feature_win, capped = yield from self.play_feature(ctx)
            win += feature_win
            ctx.win = win
        if win and not capped and ctx.settings["gamble"]:
            bet = ctx.bet
            limit = ctx.settings["gamble_limit_x"] * bet.lines * bet.bet_per_line  # the total bet
            # What `gamble` does, with the offer made here: most wins are collected at once,
            # and they need no generator for the cards.
            if gamble_offered(ctx, win, limit) and (yield COLLECT_OR_GAMBLE) != "collect":
                ctx.win = yield from play_gamble(ctx, win, limit)

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
            window, win, books = self._spin(ctx, self.free_reels, self._free_books, lines, "free")
            if books >= rules.trigger:
                fs.retrigger(rules.award)
            ex = evaluate_expanding(window, symbol, self.data.paytable)
            if ex is not None:
                amount = ex.multiplier * bet.line_bet * bet.lines
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


def build(root: Field) -> BookOfSpells:
    """The game from the root of its data file (as shipped, or edited)."""
    return BookOfSpells(load_lines_game(root))


def load() -> BookOfSpells:
    """Load the game from its data file."""
    return build(read_data_file("book_of_spells.json", __name__))


PLUGIN = Plugin(
    load=load,
    build=build,
    report="pyengine.games.book_of_spells.report:report",
    screen="slotui.games.book_of_spells",
    showcase="pyengine.games.book_of_spells.showcase:shown",
    distribution="pyengine.games.book_of_spells.report:distribution",
)
"""The game's registration: its loader, its exact RTP report and its client screen."""
