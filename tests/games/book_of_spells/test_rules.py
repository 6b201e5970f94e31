"""Book of Spells rules, played with scripted reel stops through `RoundContext` and the game's
`play` generator (and through `Session` where the session matters)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from pyengine.errors import EngineError
from pyengine.evaluators import evaluate_expanding, evaluate_scatter
from pyengine.events import (
    ChoiceMade,
    DecisionPending,
    Event,
    ExpandedWin,
    ExpandingSymbolChosen,
    FreeSpinsAwarded,
    FreeSpinsEnd,
    FreeSpinStart,
    GambleCard,
    GambleEnd,
    LineWin,
    RoundEnd,
    RoundStart,
    ScatterWin,
    Spin,
    WinCapReached,
)
from pyengine.games import get_game
from pyengine.games.book_of_spells import BookOfSpells
from pyengine.model import Bet
from pyengine.rng import Rng, ScriptedRng
from pyengine.round import Decision, RoundContext
from pyengine.session import Session


def _book() -> BookOfSpells:
    game = get_game("book_of_spells")
    assert isinstance(game, BookOfSpells)
    return game


GAME = _book()
REELS = GAME.base_reels
PAYTABLE = GAME.data.paytable
SYMBOLS = tuple(s for s, _ in GAME.free_spins.expanding)
DEFAULT_BET = Bet(9, 10)
BOOK_AT = tuple(strip.index("BOOK") for strip in REELS.strips)  # a stop showing the Book on top

# Stops found once by a seeded search and pinned; test_pinned_stops checks what they show.
BLANK = (21, 15, 31, 2, 13)  # no line win on 9 lines, no Book, no expansion for any symbol
MAGE_AND_OWL = (23, 4, 34, 2, 22)  # MAGE on reels 1 and 5 only, OWL x2 on line 1, no Book
LINE1_POTION = (34, 23, 20, 35, 24)  # POTION x2 on line 1 (5 x bet per line), no Book
TRIGGER = (BOOK_AT[0], BOOK_AT[1], BOOK_AT[2], BLANK[3], BLANK[4])  # 3 Books
TWO_BOOKS = (BOOK_AT[0], BOOK_AT[1], BLANK[2], BLANK[3], BLANK[4])


def idx(stops: Sequence[int]) -> int:
    """The uniform draw that `ReelSet.draw` decodes to ``stops``."""
    index = 0
    for s, n in zip(stops, REELS.lengths, strict=True):
        index = index * n + s
    return index


def window(stops: Sequence[int]) -> tuple[tuple[str, ...], ...]:
    return REELS.window(tuple(stops))


def books(stops: Sequence[int]) -> int:
    return evaluate_scatter(window(stops), "BOOK", {}).count


class Played:
    def __init__(self, ctx: RoundContext, decisions: list[Decision]) -> None:
        self.ctx = ctx
        self.decisions = decisions

    def of(self, cls: type[Event]) -> list[Any]:
        return [e for e in self.ctx.events if isinstance(e, cls)]

    @property
    def kinds(self) -> list[str]:
        return [d.kind for d in self.decisions]


def play(
    script: Sequence[int],
    choices: Sequence[str] = (),
    *,
    bet: Bet = DEFAULT_BET,
    settings: Mapping[str, Any] | None = None,
    autoplay: bool = False,
) -> Played:
    """Play one round with scripted draws; answer decisions with ``choices``, then the first choice."""
    rng = ScriptedRng(script, seed=12345)
    ctx = RoundContext(rng, bet, GAME.validate_settings(settings or {}), autoplay=autoplay)
    process = GAME.play(ctx)
    answers = list(choices)
    decisions: list[Decision] = []
    try:
        decision = process.send(None)  # type: ignore[arg-type]
        while True:
            decisions.append(decision)
            choice = answers.pop(0) if answers else decision.choices[0]
            assert choice in decision.choices
            decision = process.send(choice)
    except StopIteration:
        pass
    assert rng.script == [], "the round drew less than scripted"
    assert answers == [], "the round asked fewer decisions than scripted"
    return Played(ctx, decisions)


def free_events(p: Played) -> list[Event]:
    """The events of the free spins (from the first free spin on)."""
    ev = p.ctx.events
    return ev[ev.index(FreeSpinStart(1, 10)) :]


def feature_script(symbol: str, spins: Sequence[Sequence[int]], base: Sequence[int] = TRIGGER) -> list[int]:
    return [idx(base), SYMBOLS.index(symbol), *(idx(s) for s in spins)]


def test_pinned_stops() -> None:
    w = window(BLANK)
    assert GAME.lines.evaluate(w, 9) == []
    assert books(BLANK) == 0
    assert all(evaluate_expanding(w, s, PAYTABLE) is None for s in SYMBOLS)
    w = window(MAGE_AND_OWL)
    assert books(MAGE_AND_OWL) == 0
    ex = evaluate_expanding(w, "MAGE", PAYTABLE)
    assert ex is not None
    assert ex.reels == (0, 4)
    assert [(r.line, r.symbol, r.count) for r in GAME.lines.evaluate(w, 9)] == [(1, "OWL", 2)]
    assert [(r.line, r.symbol, r.multiplier) for r in GAME.lines.evaluate(window(LINE1_POTION), 1)] == [
        (1, "POTION", 5)
    ]
    assert books(LINE1_POTION) == 0
    assert books(TRIGGER) == 3
    assert books(TWO_BOOKS) == 2
    for stops in (BLANK, MAGE_AND_OWL, TRIGGER):
        assert REELS.draw(idx(stops)) == (stops, window(stops))


# -- triggering ------------------------------------------------------------------------------------
def test_three_books_trigger_ten_free_spins() -> None:
    p = play(feature_script("J", [BLANK] * 10))
    ev = p.ctx.events
    assert isinstance(ev[0], Spin)
    assert ev[0].phase == "base"
    assert ev[0].stops == TRIGGER
    scatter = p.of(ScatterWin)
    assert [(s.count, s.multiplier, s.win) for s in scatter] == [(3, 2, 2 * 90)]
    assert p.of(FreeSpinsAwarded) == [FreeSpinsAwarded(10, 10, retrigger=False)]
    assert p.of(ExpandingSymbolChosen) == [ExpandingSymbolChosen("J")]
    # The round won (Books scatter and a Book line): the gamble is offered at the very end.
    assert p.kinds == ["feature_start"] + ["free_spin"] * 10 + ["collect_or_gamble"]
    assert p.decisions[0].feature
    assert not any(d.feature for d in p.decisions[1:])
    starts = p.of(FreeSpinStart)
    assert starts == [FreeSpinStart(n, 10) for n in range(1, 11)]
    assert [s.phase for s in p.of(Spin)] == ["base"] + ["free"] * 10
    assert p.of(FreeSpinsEnd) == [FreeSpinsEnd(10, 0, capped=False)]
    assert p.ctx.features == ["free_spins"]
    assert p.ctx.win == base_win(p) > 0


def test_two_books_do_not_trigger() -> None:
    p = play([idx(TWO_BOOKS)])
    assert p.of(ScatterWin) == []  # 2 Books pay nothing
    assert p.of(FreeSpinsAwarded) == []
    assert p.ctx.features == []
    assert "feature_start" not in p.kinds


@pytest.mark.parametrize("symbol", SYMBOLS)
def test_expanding_symbol_chosen_by_the_weights_and_kept(symbol: str) -> None:
    p = play(feature_script(symbol, [MAGE_AND_OWL, BLANK, MAGE_AND_OWL] + [BLANK] * 7))
    assert p.of(ExpandingSymbolChosen) == [ExpandingSymbolChosen(symbol)]
    # MAGE and OWL can expand on these stops: only the chosen symbol ever does, on every such spin.
    expanded = p.of(ExpandedWin)
    assert len(expanded) == (2 if symbol in ("MAGE", "OWL") else 0)
    assert all(e.symbol == symbol for e in expanded)


def test_expanding_symbol_weights_are_equal() -> None:
    counts = dict.fromkeys(SYMBOLS, 0)
    for seed in range(9000):
        ctx = RoundContext(Rng(seed), DEFAULT_BET, GAME.default_settings())
        decision = next(GAME.play_feature(ctx))
        assert decision.kind == "feature_start"
        chosen = ctx.events[-1]
        assert isinstance(chosen, ExpandingSymbolChosen)
        counts[chosen.symbol] += 1
    # Binomial(9000, 1/9): mean 1000, sd ~30; 6 sd cannot fail by chance.
    assert all(abs(c - 1000) < 180 for c in counts.values()), counts


def test_expanding_symbol_comes_before_the_feature_start_decision() -> None:
    rng = ScriptedRng([idx(TRIGGER), SYMBOLS.index("OWL")])
    ctx = RoundContext(rng, Bet(9, 10), GAME.default_settings())
    process = GAME.play(ctx)
    decision = next(process)
    assert decision.kind == "feature_start"
    assert ctx.events[-1] == ExpandingSymbolChosen("OWL")
    assert rng.script == []


# -- free-spin pays ----------------------------------------------------------------------------------
@pytest.mark.parametrize(("lines", "bpl"), [(9, 10), (5, 2), (1, 100)])
def test_regular_pays_then_expansion_on_every_active_line(lines: int, bpl: int) -> None:
    p = play(feature_script("MAGE", [MAGE_AND_OWL] + [BLANK] * 9), bet=Bet(lines, bpl))
    ev = p.ctx.events
    first = ev.index(FreeSpinStart(1, 10))
    spin, line_win, expanded = ev[first + 1 : first + 4]
    assert isinstance(spin, Spin)
    assert spin.phase == "free"
    assert spin.stops == MAGE_AND_OWL
    # Regular pays first: OWL x2 on line 1 (every bet has line 1 active).
    assert line_win == LineWin(1, "OWL", 2, ((0, 1), (1, 1)), 5, 5 * bpl)
    # Then MAGE fills reels 1 and 5 and pays 2-of-a-kind (10) on every active line.
    assert expanded == ExpandedWin("MAGE", (0, 4), 2, lines, 10, lines * 10 * bpl)
    assert ev[first + 4] == FreeSpinStart(2, 10)
    end = p.of(FreeSpinsEnd)[0]
    assert end.win == 5 * bpl + lines * 10 * bpl
    assert p.ctx.win == base_win(p) + end.win


def test_expansion_on_non_adjacent_reels_without_line_win() -> None:
    stops = (28, 28, 28, 5, 14)  # MAGE on reels 2 and 4 only, nothing else pays
    w = window(stops)
    assert GAME.lines.evaluate(w, 9) == []
    assert books(stops) == 0
    p = play(feature_script("MAGE", [stops] + [BLANK] * 9), bet=Bet(3, 5))
    assert p.of(ExpandedWin) == [ExpandedWin("MAGE", (1, 3), 2, 3, 10, 3 * 10 * 5)]
    assert [e for e in free_events(p) if isinstance(e, LineWin)] == []
    assert p.of(FreeSpinsEnd)[0].win == 150


# A free spin with BOOK then MAGE on line 1 (and a single Book): MAGE x2 only with the Book's help.
BOOK_MAGE = (16, 8, 34, 35, 27)


@pytest.mark.parametrize(("symbol", "pays"), [("MAGE", False), ("K", True), ("OWL", True)])
def test_book_does_not_substitute_for_the_expanding_symbol_in_free_spins(symbol: str, pays: bool) -> None:  # noqa: FBT001
    w = window(BOOK_MAGE)
    assert [(r.line, r.symbol, r.count) for r in GAME.lines.evaluate(w, 9)] == [(1, "MAGE", 2)]
    assert books(BOOK_MAGE) == 1
    assert evaluate_expanding(w, symbol, PAYTABLE) is None
    p = play(feature_script(symbol, [BOOK_MAGE] + [BLANK] * 9))
    free_line_wins = [e for e in free_events(p) if isinstance(e, LineWin)]
    expected = [LineWin(1, "MAGE", 2, ((0, 1), (1, 1)), 10, 100)] if pays else []
    assert free_line_wins == expected
    assert p.of(FreeSpinsEnd)[0].win == (100 if pays else 0)


def test_retrigger_adds_ten_spins() -> None:
    spins = [BLANK, TRIGGER] + [BLANK] * 18
    p = play(feature_script("K", spins))
    awarded = p.of(FreeSpinsAwarded)
    assert awarded == [FreeSpinsAwarded(10, 10, retrigger=False), FreeSpinsAwarded(10, 20, retrigger=True)]
    starts = p.of(FreeSpinStart)
    assert [s.number for s in starts] == list(range(1, 21))
    assert [s.total for s in starts] == [10, 10] + [20] * 18
    assert p.kinds == ["feature_start"] + ["free_spin"] * 20 + ["collect_or_gamble"]
    end = p.of(FreeSpinsEnd)[0]
    assert end.spins == 20
    assert not end.capped
    # The retrigger spin pays its Books and lines as usual.
    free_scatter = p.of(ScatterWin)[1]
    assert (free_scatter.count, free_scatter.win) == (3, 180)
    assert p.of(ExpandingSymbolChosen) == [ExpandingSymbolChosen("K")]  # no new symbol on a retrigger


def test_two_retriggers() -> None:
    spins = [TRIGGER] * 3 + [BLANK] * 27
    p = play(feature_script("Q", spins))
    assert [a.total for a in p.of(FreeSpinsAwarded)] == [10, 20, 30, 40]
    assert p.of(FreeSpinsEnd)[0].spins == 40


W = "BOOK"
FREE_LINE_CASES: list[tuple[str, tuple[str, ...], tuple[str, int, int] | None]] = [
    ("MAGE", (W, W, W, W, W), (W, 5, 5000)),  # Books only still pay as the Archmage
    ("MAGE", (W, W, W, "MAGE", "MAGE"), (W, 3, 100)),  # the Books do not extend the MAGE run
    ("MAGE", ("MAGE", W, "MAGE", "J", "Q"), None),
    ("MAGE", ("MAGE", "MAGE", W, "J", "Q"), ("MAGE", 2, 10)),
    ("MAGE", (W, "OWL", "OWL", "J", "Q"), ("OWL", 3, 30)),  # other symbols are substituted
    ("A", ("OWL", W, "OWL", "J", "Q"), ("OWL", 3, 30)),
    ("A", ("A", W, "A", "A", "Q"), None),
    ("A", ("A", "A", "A", W, "Q"), ("A", 3, 5)),
    ("A", (W, W, "A", "A", "A"), (W, 2, 10)),
]


@pytest.mark.parametrize(("symbol", "syms", "expected"), FREE_LINE_CASES)
def test_free_spin_line_evaluator(symbol: str, syms: tuple[str, ...], expected: tuple[str, int, int] | None) -> None:
    assert GAME.free_lines[symbol].evaluate_symbols(syms) == expected


# -- the cap -----------------------------------------------------------------------------------------
def base_win(p: Played) -> int:
    """The line and scatter wins of the base spin (the events before the free spins)."""
    ev = p.ctx.events
    cut = next((i for i, e in enumerate(ev) if isinstance(e, FreeSpinsAwarded)), len(ev))
    return sum(e.win for e in ev[:cut] if isinstance(e, LineWin | ScatterWin))


def test_cap_pays_exactly_the_cap_and_ends_the_feature() -> None:
    # Bet 9 x 10, cap 1 x 90: the second free spin wins OWL 50 + MAGE 900 and is cut to the 90.
    p = play(feature_script("MAGE", [BLANK, MAGE_AND_OWL]), settings={"free_spin_cap_x": 1})
    assert [e.win for e in p.of(ExpandedWin)] == [900]
    assert p.of(WinCapReached) == [WinCapReached(90, 90)]
    assert p.of(FreeSpinsEnd) == [FreeSpinsEnd(2, 90, capped=True)]
    assert p.kinds == ["feature_start", "free_spin", "free_spin"]  # no gamble after the cap
    assert isinstance(p.ctx.events[-1], FreeSpinsEnd)
    assert p.ctx.win == base_win(p) + 90


def test_cap_reached_over_two_spins() -> None:
    # Bet 1 x 10, cap 20 x 10 = 200: each MAGE_AND_OWL spin wins 50 + 100 = 150; the second is cut to 50.
    p = play(feature_script("MAGE", [MAGE_AND_OWL, MAGE_AND_OWL]), bet=Bet(1, 10), settings={"free_spin_cap_x": 20})
    assert p.of(WinCapReached) == [WinCapReached(200, 200)]
    assert p.of(FreeSpinsEnd) == [FreeSpinsEnd(2, 200, capped=True)]
    assert p.kinds == ["feature_start", "free_spin", "free_spin"]
    assert p.ctx.win == base_win(p) + 200


def test_cap_reached_exactly_then_passed() -> None:
    # Bet 1 x 10, cap 15 x 10 = 150 = exactly one MAGE_AND_OWL spin. The feature ends only when its
    # win is higher than the cap (rules page, "exact boundary"): a win equal to it plays on, and the
    # next paying spin ends it. Exactly 150 is paid.
    script = feature_script("MAGE", [MAGE_AND_OWL, BLANK, MAGE_AND_OWL])
    p = play(script, bet=Bet(1, 10), settings={"free_spin_cap_x": 15})
    assert p.of(WinCapReached) == [WinCapReached(150, 150)]
    assert p.of(FreeSpinsEnd) == [FreeSpinsEnd(3, 150, capped=True)]
    assert p.kinds == ["feature_start", "free_spin", "free_spin", "free_spin"]
    assert p.ctx.win == base_win(p) + 150


def test_below_the_cap_everything_is_paid() -> None:
    p = play(feature_script("MAGE", [MAGE_AND_OWL] + [BLANK] * 9), ["start"] + ["spin"] * 10 + ["collect"])
    assert p.of(WinCapReached) == []
    assert p.of(FreeSpinsEnd) == [FreeSpinsEnd(10, 950, capped=False)]
    assert p.kinds[-1] == "collect_or_gamble"
    assert p.ctx.win == base_win(p) + 950


def test_no_gamble_after_a_capped_feature_in_session() -> None:
    s = Session(GAME, balance=10_000, seed=0, settings={"free_spin_cap_x": 3})
    events = s.spin(seed=4388065962391315442)  # the golden free-spins round
    while s.pending is not None:
        assert s.pending.kind in ("feature_start", "free_spin")
        events += s.choose(s.pending.choices[0])
    capped = [e for e in events if isinstance(e, FreeSpinsEnd)]
    assert capped[0].capped
    assert capped[0].win == 3 * 90
    assert not [e for e in events if isinstance(e, DecisionPending) and e.kind == "collect_or_gamble"]


# -- gamble -----------------------------------------------------------------------------------------
def test_gamble_offered_after_a_win() -> None:
    p = play([idx(LINE1_POTION)], ["collect"], bet=Bet(1, 10))
    assert p.kinds == ["collect_or_gamble"]
    assert p.decisions[0].choices == ("collect", "gamble")
    assert p.ctx.win == 50
    assert p.of(GambleEnd) == []


def test_no_gamble_without_a_win() -> None:
    p = play([idx(BLANK)])
    assert p.decisions == []
    assert p.ctx.win == 0
    assert [type(e) for e in p.ctx.events] == [Spin]


@pytest.mark.parametrize(("limit_x", "offered"), [(5, True), (6, True), (250, True), (4, False), (0, False)])
def test_gamble_offered_only_when_win_is_within_the_limit(limit_x: int, offered: bool) -> None:  # noqa: FBT001
    # The win is 50 at a total bet of 10: the limit 5 x 10 = 50 still allows the gamble.
    p = play([idx(LINE1_POTION)], bet=Bet(1, 10), settings={"gamble_limit_x": limit_x})
    assert p.kinds == (["collect_or_gamble"] if offered else [])
    assert p.ctx.win == 50


def test_gamble_switched_off() -> None:
    p = play([idx(LINE1_POTION)], bet=Bet(1, 10), settings={"gamble": False})
    assert p.decisions == []
    assert p.ctx.win == 50


def test_never_gamble_in_autoplay() -> None:
    p = play([idx(LINE1_POTION)], bet=Bet(1, 10), autoplay=True)
    assert p.decisions == []
    assert p.ctx.win == 50
    p = play(feature_script("MAGE", [MAGE_AND_OWL] + [BLANK] * 9), autoplay=True)
    assert p.kinds == ["feature_start"] + ["free_spin"] * 10


@pytest.mark.parametrize(
    ("card", "name", "color"),
    [
        (0, "AH", "red"),
        (9, "10H", "red"),
        (12, "KH", "red"),
        (13, "AD", "red"),
        (25, "KD", "red"),
        (26, "AC", "black"),
        (38, "KC", "black"),
        (39, "AS", "black"),
        (49, "JS", "black"),
        (51, "KS", "black"),
    ],
)
@pytest.mark.parametrize("guess", ["red", "black"])
def test_gamble_card(card: int, name: str, color: str, guess: str) -> None:
    answers = ["gamble", guess, "collect"] if guess == color else ["gamble", guess]
    p = play([idx(LINE1_POTION), card], answers, bet=Bet(1, 10))
    cards = p.of(GambleCard)
    won = guess == color
    assert cards == [GambleCard(guess, name, color, won, 100 if won else 0)]
    if won:
        assert p.kinds == ["collect_or_gamble", "gamble", "gamble"]
        assert p.of(GambleEnd) == [GambleEnd("collect", 100)]
        assert p.ctx.win == 100
    else:
        assert p.kinds == ["collect_or_gamble", "gamble"]
        assert p.of(GambleEnd) == [GambleEnd("lost", 0)]
        assert p.ctx.win == 0


def test_gamble_collect_before_a_card() -> None:
    p = play([idx(LINE1_POTION)], ["gamble", "collect"], bet=Bet(1, 10))
    assert p.decisions[1].choices == ("collect", "red", "black")
    assert p.of(GambleCard) == []
    assert p.of(GambleEnd) == [GambleEnd("collect", 50)]
    assert p.ctx.win == 50


def test_gamble_stops_past_the_limit() -> None:
    # Limit 10 x 10 = 100: 50 -> 100 (still allowed) -> 200 (past it: ends, paid).
    p = play([idx(LINE1_POTION), 0, 13], ["gamble", "red", "red"], bet=Bet(1, 10), settings={"gamble_limit_x": 10})
    assert [c.win for c in p.of(GambleCard)] == [100, 200]
    assert p.of(GambleEnd) == [GambleEnd("limit", 200)]
    assert p.kinds == ["collect_or_gamble", "gamble", "gamble"]
    assert p.ctx.win == 200


def test_gamble_after_free_spins_gambles_the_whole_round_win() -> None:
    script = [*feature_script("MAGE", [MAGE_AND_OWL] + [BLANK] * 9), 51]
    p = play(script, ["start"] + ["spin"] * 10 + ["gamble", "red"])
    assert p.kinds[-2:] == ["collect_or_gamble", "gamble"]
    card = p.of(GambleCard)[0]
    assert (card.card, card.won, card.win) == ("KS", False, 0)
    assert p.ctx.win == 0


# -- through the session -------------------------------------------------------------------------------
def test_session_round_events_frame_the_game_events() -> None:
    s = Session(GAME, balance=1_000, seed=0, bet=Bet(1, 10))
    events = s.spin(seed=1)
    assert isinstance(events[0], RoundStart)
    assert events[0] == RoundStart("book_of_spells", 1, 1, 10, 1, 10, 990)
    while s.pending is not None:
        assert isinstance(events[-1], DecisionPending)
        kind, choice = s.pending.kind, s.pending.choices[0]
        more = s.choose(choice)
        assert more[0] == ChoiceMade(kind, choice)
        events += more
    assert isinstance(events[-1], RoundEnd)
    assert events[-1].balance == s.balance


# -- settings ---------------------------------------------------------------------------------------------
def test_default_settings() -> None:
    assert GAME.validate_settings({}) == {"free_spin_cap_x": 5000, "gamble_limit_x": 250, "gamble": 1}
    assert GAME.validate_settings({"gamble": True, "gamble_limit_x": 0})["gamble_limit_x"] == 0
    assert GAME.validate_settings({"gamble": False})["gamble"] == 0
    assert GAME.validate_settings({"free_spin_cap_x": 1})["free_spin_cap_x"] == 1


@pytest.mark.parametrize(
    ("settings", "message"),
    [
        ({"bonus": 1}, "unknown setting 'bonus'; the settings are free_spin_cap_x, gamble_limit_x, gamble"),
        ({"gamble": 2}, "setting 'gamble' must be 0, 1, true or false, not 2"),
        ({"gamble": 1.0}, "setting 'gamble' must be 0, 1, true or false, not 1.0"),
        ({"gamble": "yes"}, "setting 'gamble' must be 0, 1, true or false"),
        ({"free_spin_cap_x": 0}, "setting 'free_spin_cap_x' must be an integer of at least 1, not 0"),
        ({"free_spin_cap_x": True}, "setting 'free_spin_cap_x' must be an integer of at least 1, not True"),
        ({"free_spin_cap_x": 2.5}, "must be an integer of at least 1, not 2.5"),
        ({"gamble_limit_x": -1}, "setting 'gamble_limit_x' must be an integer of at least 0, not -1"),
        ({"gamble_limit_x": "250"}, "setting 'gamble_limit_x' must be an integer of at least 0, not '250'"),
    ],
)
def test_bad_settings(settings: dict[str, Any], message: str) -> None:
    with pytest.raises(EngineError) as info:
        GAME.validate_settings(settings)
    assert message in str(info.value)
    with pytest.raises(EngineError):
        Session(GAME, settings=settings)
