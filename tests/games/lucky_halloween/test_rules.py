"""Lucky Halloween rules: lines and scatters on hand-built windows, the Pumpkin Rider's six
features with scripted draws, cauldron free spins with bonus spins, the Full Moon ladder
(its reachable finals compared with the rule document's three lists), pick neutrality,
and whole rounds through `Session`."""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import pytest

from pyengine.autoplay import Autoplay, AutoplayLimits, StopReason
from pyengine.data import Field, load_lines_game, read_data_file
from pyengine.errors import EngineError, GameDataError, RoundInProgressError
from pyengine.events import (
    Event,
    FreeSpinsAwarded,
    FreeSpinsEnd,
    LineWin,
    PickEnd,
    PickStart,
    ScatterWin,
    Spin,
    WinMultiplier,
    dumps,
    events_from_json,
)
from pyengine.games import get_game
from pyengine.games.lucky_halloween import (
    FEATURES,
    LadderClimb,
    LadderStart,
    LadderWin,
    LuckyHalloween,
    RiderAppears,
    RiderSymbols,
)
from pyengine.model import Bet
from pyengine.replay import replay
from pyengine.rng import ScriptedRng
from pyengine.round import Decision, RoundContext
from pyengine.session import Session
from tests.data_support import edited

T0 = 1_767_225_600.0  # 2026-01-01 00:00 UTC
ROOT = read_data_file("lucky_halloween.json").value
BET = Bet(20, 5)  # total bet 100 minor units


def _game() -> LuckyHalloween:
    g = get_game("lucky_halloween")
    assert isinstance(g, LuckyHalloween)
    return g


GAME = _game()
DEN = GAME.rider.denominator
PLAIN = DEN - 1  # a Rider draw past every feature's weight: a plain spin
R = 3**5
"""The stop combinations of the hand-built games' reels (strips of 3): the round's first draw
is ``rider x R + stops``."""


def rider_draw(feature: str) -> int:
    """The scripted value of the first draw that brings the Rider with ``feature``."""
    i = FEATURES.index(feature)
    return sum(GAME.rider.weights[:i])


def variant(**changes: Any) -> dict[str, Any]:
    return edited(ROOT, **changes)


def build(data: dict[str, Any]) -> LuckyHalloween:
    return LuckyHalloween(load_lines_game(Field("lucky_halloween.json", "", data)))


QUIET = (("A", "K", "Q"), ("J", "CAT", "BAT"), ("K", "A", "J"), ("Q", "J", "A"), ("BAT", "CAT", "K"))
"""A window without any win."""
FREE_QUIET = QUIET


def fixed(
    window: Sequence[Sequence[str]],
    *,
    special: Sequence[Sequence[str]] | None = None,
    free: Sequence[Sequence[str]] = FREE_QUIET,
) -> LuckyHalloween:
    """The game whose reels always show ``window`` (one stop per reel: strips of 3)."""
    special = special or [["CAT", "BAT", "SCARECROW"]] * 5
    reels = {"base": window, "special": special, "free": free}
    return build(variant(reels={k: [list(c) for c in v] for k, v in reels.items()}))


def with_symbols(
    symbol: str, positions: Sequence[tuple[int, int]], base: Sequence[Sequence[str]] = QUIET
) -> list[list[str]]:
    w = [list(col) for col in base]
    for reel, row in positions:
        w[reel][row] = symbol
    return w


def play(
    game: LuckyHalloween, script: Sequence[int] = (), *, answer: int = 0, seed: int = 0
) -> tuple[RoundContext, list[Decision]]:
    """Play a round to its end, answering every decision with its choice number ``answer``
    (the last one when there are fewer)."""
    ctx = RoundContext(ScriptedRng(list(script), seed), BET, {})
    proc = game.play(ctx)
    decisions: list[Decision] = []
    try:
        d = next(proc)
        while True:
            decisions.append(d)
            d = proc.send(d.choices[min(answer, len(d.choices) - 1)])
    except StopIteration:
        pass
    return ctx, decisions


def of(ctx: RoundContext, kind: type[Event]) -> list[Any]:
    return [e for e in ctx.events if isinstance(e, kind)]


# -- data ------------------------------------------------------------------------------------
def test_the_data_loads_with_the_documented_shape() -> None:
    d = GAME.data
    assert len(d.paylines) == 20
    assert d.bets.lines == (20,)
    assert GAME.royals == ("TEN", "J", "Q", "K", "A")
    assert GAME.highs == ("LANTERN", "SCARECROW", "CAT", "BAT")
    assert GAME.ladder.rungs_x == (
        *(3, 5, 6, 8, 9, 10, 11, 12, 15, 16, 17, 18, 19, 20),
        *(30, 40, 60, 80, 100, 300, 400, 500, 800),
    )
    assert sorted(v for v, _ in GAME.rider.tree) == [3, 5, 6, 8, 9, 10, 12, 20]
    assert [v for v, _ in GAME.free.cauldron] == [10, 12, 15, 16, 18, 20]
    assert [v for v, _ in GAME.free.bonus_cauldron] == [5, 6, 7, 8]
    assert GAME.jackpot.contribution == Fraction(3, 100)
    assert GAME.target_rtp == Fraction("0.9311")
    assert not any(set(s) & set(GAME.royals) for s in GAME.special_reels.strips)
    assert not any({"FREE", "BONUS"} & set(s) for s in GAME.free_reels.strips)
    desc = GAME.describe()
    assert desc["paytable_x"]["LANTERN"]["5"] == "50"
    assert desc["paytable_x"]["TEN"]["3"] == "1/4"
    assert set(desc["rider"]["weights"]) == set(FEATURES)


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"paytable_unit": "1/10"}, "paytable_unit"),
        ({"reels__special": [["A", "CAT", "BAT"]] * 5}, "reels.special[0]"),
        ({"reels__free": [["FREE", "CAT", "BAT"]] * 5}, "reels.free[0]"),
        ({"rider__weights__mega_wild": 10**6}, "rider.weights"),
        ({"rider__mega_wild": {"4": 1}}, "rider.mega_wild.4"),
        ({"full_moon_bonus__shortcuts_x": {"19": 7}}, "full_moon_bonus.shortcuts_x.19"),
        ({"full_moon_bonus__minimum_x": {"3": 13, "4": 17, "5": 40}}, "full_moon_bonus.minimum_x.3"),
        ({"free_spins__bonus_spins__chance": {"numerator": 2, "denominator": 1}}, "free_spins.bonus_spins.chance"),
        ({"scatters__bonus__symbol": "CAT"}, "scatters.bonus.symbol"),
        ({"jackpot__contribution": "2"}, "jackpot.contribution"),
    ],
)
def test_bad_data_names_the_file_and_the_field(change: dict[str, Any], field: str) -> None:
    with pytest.raises(GameDataError) as err:
        build(variant(**change))
    assert err.value.field == field
    assert "lucky_halloween.json" in str(err.value)


# -- lines and scatters on hand-built windows ---------------------------------------------------
@pytest.mark.parametrize(
    ("middle", "symbol", "count", "pay"),
    [
        (("LANTERN",) * 5, "LANTERN", 5, 1000),
        (("CAT", "WILD", "CAT", "WILD", "K"), "CAT", 4, 100),
        (("WILD", "WILD", "WILD", "Q", "BAT"), "WILD", 3, 50),  # wilds alone pay as the Lantern (Q 4 pays less)
        (("WILD", "WILD", "BAT", "BAT", "BAT"), "BAT", 5, 300),
        (("TEN", "TEN", "TEN", "A", "A"), "TEN", 3, 5),
        (("FREE", "WILD", "WILD", "K", "K"), None, 0, 0),  # the Wild does not stand in for a scatter
        (("K", "K", "BONUS", "K", "K"), None, 0, 0),
    ],
)
def test_line_one_pays_the_paytable_in_twentieths_of_the_total_bet(
    middle: tuple[str, ...], symbol: str | None, count: int, pay: int
) -> None:
    w = [[QUIET[r][0], middle[r], QUIET[r][2]] for r in range(5)]
    ctx, _ = play(fixed(w), [PLAIN * R])
    line1 = [x for x in of(ctx, LineWin) if x.line == 1]
    if symbol is None:
        assert not line1
        return
    (win,) = line1
    assert (win.symbol, win.count, win.multiplier) == (symbol, count, pay)
    assert win.win == pay * BET.bet_per_line  # pay/20 x the total bet


@pytest.mark.parametrize(("count", "pay_x"), [(1, 0), (2, 0), (3, 2), (4, 10), (5, 50)])
def test_scatters_pay_the_total_bet_and_add_to_line_wins(count: int, pay_x: int) -> None:
    spots = [(0, 0), (1, 2), (2, 0), (3, 2), (4, 0)][:count]
    base = [list(c) for c in QUIET]
    base[0][1] = base[1][1] = base[2][1] = "LANTERN"  # line 1: 3 Lanterns, 2.5x
    ctx, _ = play(fixed(with_symbols("BONUS", spots, base)), [PLAIN * R, *[0] * 200], answer=0)
    scat = of(ctx, ScatterWin)
    line = sum(x.win for x in of(ctx, LineWin))
    assert line == 250
    if pay_x:
        (s,) = scat
        assert (s.symbol, s.count, s.win) == ("BONUS", count, pay_x * 100)
    else:
        assert not scat
    ladder = sum(x.win for x in of(ctx, LadderWin))
    assert ctx.win == line + pay_x * 100 + ladder
    assert bool(of(ctx, LadderStart)) == (count >= 3)


# -- the Pumpkin Rider ---------------------------------------------------------------------
def test_special_reels_spin_the_royal_free_strips() -> None:
    special = [["LANTERN", "CAT", "BAT"]] * 5
    ctx, _ = play(fixed(QUIET, special=special), [rider_draw("special_reels") * R, 0])
    (rider,) = of(ctx, RiderAppears)
    assert rider.feature == "special_reels"
    (spin,) = of(ctx, Spin)
    assert spin.phase == "special"
    assert {w.symbol for w in of(ctx, LineWin)} == {"LANTERN", "CAT", "BAT"}
    assert ctx.win == (1000 + 400 + 300) * 5  # the rows: 5 Lanterns, 5 Cats, 5 Bats
    assert ctx.win == sum(w.win for w in of(ctx, LineWin))


@pytest.mark.parametrize("index", range(8))
def test_the_pumpkin_tree_multiplies_every_prize_of_the_spin(index: int) -> None:
    base = [list(c) for c in QUIET]
    base[0][1] = base[1][1] = base[2][1] = "LANTERN"
    w = with_symbols("FREE", [(0, 0), (3, 2)], base)
    ctx, _ = play(fixed(w), [rider_draw("pumpkin_tree") * R, index])
    m = GAME.rider.tree[index][0]
    (mult,) = of(ctx, WinMultiplier)
    assert mult.multiplier == m
    (line,) = of(ctx, LineWin)
    assert line.win == 250 * m
    assert ctx.win == 250 * m


def test_random_wilds_land_on_distinct_cells_over_what_was_there() -> None:
    k_index = 0  # the table's first count
    k = GAME.rider.wilds[k_index][0]
    # partial Fisher-Yates over 15 cells: below(15) = 1, below(14) = 0, ... picks cells 1, 0, 2, ...
    ctx, _ = play(fixed(QUIET), [rider_draw("random_wilds") * R, k_index, *[0] * k])
    (placed,) = of(ctx, RiderSymbols)
    assert placed.symbol == "WILD"
    assert len(set(placed.positions)) == k
    assert placed.positions == tuple((c // 3, c % 3) for c in range(k))
    for reel, row in placed.positions:
        assert placed.window[reel][row] == "WILD"
    assert ctx.win == sum(w.win for w in of(ctx, LineWin))


@pytest.mark.parametrize("left", [0, 1, 2])
def test_the_mega_wild_covers_three_whole_reels(left: int) -> None:
    ctx, _ = play(fixed(QUIET), [rider_draw("mega_wild") * R, left])
    (placed,) = of(ctx, RiderSymbols)
    assert placed.positions == tuple((r, row) for r in range(left, left + 3) for row in range(3))
    assert all(placed.window[r] == ("WILD",) * 3 for r in range(left, left + 3))
    wins = of(ctx, LineWin)
    if left == 0:  # every line starts with three wilds: at least the Lantern's 3 of a kind
        assert len(wins) == 20
        assert all(w.count >= 3 for w in wins)


def test_the_rider_drops_free_spins_symbols_and_the_feature_follows() -> None:
    # 3 scatters on reels 1, 2, 3 (the sample's first cells), rows 0, 1, 2; then the cauldron.
    ctx, decisions = play(fixed(QUIET), [rider_draw("free_spins") * R, 0, 0, 0, 0, 0, 1, 2])
    (placed,) = of(ctx, RiderSymbols)
    assert placed.symbol == "FREE"
    assert placed.positions == ((0, 0), (1, 1), (2, 2))
    assert ctx.features == ["free_spins"]
    assert [d.kind for d in decisions[:2]] == ["feature_start", "pick"]
    (scatter,) = of(ctx, ScatterWin)
    assert (scatter.symbol, scatter.count) == ("FREE", 3)


def test_the_rider_drops_bonus_symbols_and_the_ladder_follows() -> None:
    ctx, _ = play(fixed(QUIET), [rider_draw("full_moon_bonus") * R, 1, 0, 0, 0, 0, 0, 0, 0])
    (placed,) = of(ctx, RiderSymbols)
    assert (placed.symbol, len(placed.positions)) == ("BONUS", 4)
    (start,) = of(ctx, LadderStart)
    assert (start.count, start.minimum_x) == (4, 17)
    assert ctx.features == ["full_moon_bonus"]


def test_the_rider_draw_comes_first_and_is_the_only_extra_draw_of_a_plain_spin() -> None:
    rng = ScriptedRng([PLAIN * R])
    ctx = RoundContext(rng, BET, {})
    list(fixed(QUIET).play(ctx))
    assert rng.script == []
    assert not of(ctx, RiderAppears)


# -- free spins ---------------------------------------------------------------------------------
FS3 = with_symbols("FREE", [(0, 0), (2, 1), (4, 2)])


@pytest.mark.parametrize(("scatters", "extra"), [(3, 0), (4, 10), (5, 20)])
def test_a_cauldron_reveals_the_spins_and_each_scatter_past_the_third_adds_ten(scatters: int, extra: int) -> None:
    spots = [(0, 0), (1, 2), (2, 1), (3, 0), (4, 2)][:scatters]
    game = fixed(with_symbols("FREE", spots))
    # plain spin; cauldrons 10, 20, 15; the player picks the second; no bonus spins.
    idx = [v for v, _ in game.free.cauldron]
    script = [PLAIN * R, idx.index(10), idx.index(20), idx.index(15)]
    den = game.free.bonus_denominator
    script += [(den - 1) * R] * 60  # each free spin: no Rider (high digit), stops 0
    ctx, decisions = play(game, script, answer=1)
    (start,) = [e for e in of(ctx, PickStart) if e.name == "cauldron"]
    assert start.cells == 3
    (end,) = [e for e in of(ctx, PickEnd) if e.name == "cauldron"]
    assert end.prizes == ("10", "15")  # the unpicked cauldrons revealed
    (award,) = of(ctx, FreeSpinsAwarded)
    assert award.count == 20 + extra
    (fin,) = of(ctx, FreeSpinsEnd)
    assert fin.spins == 20 + extra
    assert [s.phase for s in of(ctx, Spin)] == ["base"] + ["free"] * (20 + extra)
    assert sum(1 for d in decisions if d.kind == "free_spin") == 20 + extra


def test_bonus_spins_come_from_the_rider_and_are_bounded() -> None:
    game = fixed(FS3)
    rules = game.free
    # every free spin brings the Rider while awards remain: 3 dropped scatters, then a cauldron
    script = [PLAIN * R, 0, 0, 0]  # spin; cauldrons all 10
    per_award = [0] * 10  # the Rider (0 < num) with stops 0, 3 reels sampled, 3 rows, 3 cauldrons (5 each)
    script += per_award * rules.max_awards
    # then no Rider draw any more (the bound is reached): one stop per spin
    ctx, decisions = play(game, [*script, *[0] * 100])
    riders = [e.feature for e in of(ctx, RiderAppears)]
    assert riders == ["bonus_spins"] * rules.max_awards
    awards = of(ctx, FreeSpinsAwarded)
    assert [a.retrigger for a in awards] == [False] + [True] * rules.max_awards
    assert [a.count for a in awards[1:]] == [5] * rules.max_awards
    assert of(ctx, FreeSpinsEnd)[0].spins == 10 + 5 * rules.max_awards
    assert ctx.win == sum(e.win for e in ctx.events if isinstance(e, (LineWin, ScatterWin)))
    assert "bonus_cauldron" in {e.name for e in of(ctx, PickStart)}
    assert decisions[0].feature


# -- the ladder -----------------------------------------------------------------------------------
DOCUMENT_FINALS = {
    3: [12, 15, 16, 17, 18, 30, 40, 60, 80, 100, 300, 400, 500, 800],
    4: [17, 18, 30, 40, 60, 80, 100, 300, 400, 500, 800],
    5: [40, 60, 80, 100, 300, 400, 500, 800],
}


def reachable_finals(game: LuckyHalloween, count: int) -> set[int]:
    """Every rung where the bonus can end, by exhaustive search over every pumpkin (1 to 6
    rungs, with or without COLLECT where the rules allow it) from every reachable rung."""
    rules = game.ladder
    seen = {0}
    todo = [0]
    finals: set[int] = set()
    while todo:
        p = todo.pop()
        for k in range(1, rules.steps + 1):
            _, to = rules.move(p, k)
            if to == rules.top or rules.collect_allowed(count, to):
                finals.add(rules.rungs_x[to - 1])
            if to != rules.top and to not in seen:
                seen.add(to)
                todo.append(to)
    return finals


@pytest.mark.parametrize("count", [3, 4, 5])
def test_the_reachable_finals_are_exactly_the_documents_lists(count: int) -> None:
    assert sorted(reachable_finals(GAME, count)) == DOCUMENT_FINALS[count]


def test_the_shortcuts_are_the_green_paths_19_to_60_and_20_to_100() -> None:
    rungs = GAME.ladder.rungs_x
    assert {rungs[a - 1]: rungs[b - 1] for a, b in GAME.ladder.shortcuts.items()} == {19: 60, 20: 100}


def climb(script_per_board: Sequence[Sequence[int]]) -> list[int]:
    out: list[int] = []
    for board in script_per_board:
        out += board
    return out


def test_a_climb_through_a_shortcut_to_collect() -> None:
    game = fixed(with_symbols("BONUS", [(0, 0), (2, 1), (4, 2)]))
    # Board draws: a collect draw for each pumpkin whose landing allows COLLECT, then the
    # shuffle (5 draws). With every shuffle draw at its top value the board stays in rung order.
    no_shuffle = [5, 4, 3, 2, 1]
    no_collect = game.ladder.collect[3][1] - 1
    boards = [
        # from 0: landings 1..6, none allowed: pick "6" (cell 5) -> rung 6 (10x)
        [*no_shuffle],
        # from 6: landings 7..12; 8..12 allowed (5 draws, no collect); pick "6" -> 12 (18x)
        [*[no_collect] * 5, *no_shuffle],
        # from 12: 13 -> 17 (shortcut), 14 -> 19, 15..18: all allowed; collect on every one
        [*[0] * 6, *no_shuffle],
    ]
    ctx, _ = play(game, [PLAIN * R, *climb(boards)], answer=5)
    climbs = of(ctx, LadderClimb)
    assert [(c.start, c.landed, c.position, c.collect) for c in climbs[:2]] == [(0, 6, 6, False), (6, 12, 12, False)]
    # the third board was picked at cell 5: 6 rungs from 12 -> 18 (80x) with COLLECT
    assert (climbs[2].start, climbs[2].landed, climbs[2].position, climbs[2].collect) == (12, 18, 18, True)
    (win,) = of(ctx, LadderWin)
    assert (win.rung, win.multiplier, win.win) == (18, 80, 8000)


def test_landing_on_19x_jumps_to_60x() -> None:
    game = fixed(with_symbols("BONUS", [(0, 0), (2, 1), (4, 2)]))
    no_shuffle = [5, 4, 3, 2, 1]
    no_collect = game.ladder.collect[3][1] - 1
    # answer cell 5 twice (6 + 6 = 12), then cell 0 (1 rung) -> 13 = 19x -> shortcut to 60x.
    script = [PLAIN * R, *no_shuffle, *[no_collect] * 5, *no_shuffle, *[0] * 6, *no_shuffle]
    ctx = RoundContext(ScriptedRng(script), BET, {})
    proc = game.play(ctx)
    next(proc)
    for answer in ("start", "5", "5"):
        proc.send(answer)
    with pytest.raises(StopIteration):
        proc.send("0")
    last = of(ctx, LadderClimb)[-1]
    assert (last.landed, last.position, last.collect) == (13, 17, True)
    assert of(ctx, LadderWin)[0].multiplier == 60


def test_collect_never_shows_below_the_minimum() -> None:
    for seed in range(150):
        ctx, _ = play(fixed(with_symbols("BONUS", [(0, 0), (2, 1), (4, 2)])), [PLAIN * R], seed=seed, answer=seed % 6)
        mins = GAME.ladder.minimum[3]
        for e in of(ctx, PickEnd):
            if e.name != "pumpkins":
                continue
        for c in of(ctx, LadderClimb):
            assert c.collect == (c is of(ctx, LadderClimb)[-1])
        assert of(ctx, LadderClimb)[-1].position >= mins
        assert of(ctx, LadderWin)[0].multiplier in DOCUMENT_FINALS[3]


# -- picks are neutral ------------------------------------------------------------------------------
def test_every_pumpkin_cell_gives_the_same_distribution() -> None:
    """Exhaustively: every collect draw pattern and every shuffle of one board; whichever cell
    the player picks, the picked pumpkin has the same distribution."""
    game = fixed(with_symbols("BONUS", [(0, 0), (2, 1), (4, 2)]))
    by_cell: dict[int, Counter[tuple[int, bool]]] = {c: Counter() for c in range(6)}
    # From rung 6 (after a first pick of "6"), landings 7..12: 5 collect draws (allowed on 8..12).
    num, den = game.ladder.collect[3]
    first = [5, 4, 3, 2, 1]
    for flags in itertools.product((True, False), repeat=5):
        weight = 1
        draws = []
        for f in flags:
            draws.append(0 if f else den - 1)
            weight *= num if f else den - num
        for shuffle in itertools.product(*(range(n) for n in (6, 5, 4, 3, 2))):
            for cell in range(6):
                ctx = RoundContext(ScriptedRng([PLAIN * R, *first, *draws, *shuffle, *[0] * 6, *first]), BET, {})
                proc = game.play(ctx)
                next(proc)
                proc.send("start")
                proc.send("5")
                try:
                    proc.send(str(cell))
                    proc.close()
                except StopIteration:
                    pass
                climb_ = of(ctx, LadderClimb)[1]
                by_cell[cell][(climb_.rungs, climb_.collect)] += weight
    assert all(by_cell[c] == by_cell[0] for c in range(6))
    assert sum(by_cell[0].values()) == 720 * den**5


def test_every_cauldron_gives_the_weights() -> None:
    """Exhaustively over the three cauldrons' draws: the picked count has the table's
    distribution whichever cauldron the player takes."""
    game = fixed(FS3)
    table = game.free.cauldron
    by_cell: dict[int, Counter[int]] = {c: Counter() for c in range(3)}
    for draws in itertools.product(range(len(table)), repeat=3):
        weight = 1
        for d in draws:
            weight *= table[d][1]
        for cell in range(3):
            ctx = RoundContext(ScriptedRng([PLAIN * R, *draws]), BET, {})
            proc = game.play(ctx)
            next(proc)
            proc.send("start")
            proc.send(str(cell))
            proc.close()
            by_cell[cell][of(ctx, FreeSpinsAwarded)[0].count] += weight
    total = sum(w for _, w in table) ** 3
    for cell in range(3):
        assert {v: Fraction(c, total) for v, c in by_cell[cell].items()} == {
            v: Fraction(w, sum(x for _, x in table)) for v, w in table
        }


# -- whole rounds through Session ------------------------------------------------------------------
def session(balance: int = 10**9, seed: int = 1) -> Session:
    return Session("lucky_halloween", balance=balance, seed=seed, clock=lambda: T0, bet=BET)


def finish(s: Session, answer: int = 0) -> None:
    while (d := s.pending) is not None:
        s.choose(d.choices[min(answer, len(d.choices) - 1)])


def test_rounds_conserve_the_balance_and_replay_byte_identically() -> None:
    s = session(seed=5)
    seen: set[str] = set()
    for i in range(3000):
        before = s.balance
        s.spin()
        finish(s, answer=i % 6)
        rec = s.history[-1]
        assert s.balance == before - rec.stake + rec.win
        seen.update(e.feature for e in rec.events if isinstance(e, RiderAppears))
        seen.update(rec.features)
        assert events_from_json([e.to_json() for e in rec.events]) == list(rec.events)
    assert {"free_spins", "full_moon_bonus", "special_reels", "pumpkin_tree", "random_wilds"} <= seen
    for rec in s.history[-300:]:
        again = replay(
            "lucky_halloween",
            seed=rec.seed,
            lines=rec.bet.lines,
            bet_per_line=rec.bet.bet_per_line,
            choices=rec.choices,
            balance=rec.balance_before,
            jackpot=rec.jackpot,
        )
        assert dumps(again) == dumps(list(rec.events))


def _seed_for(feature: str) -> int:
    s = session()
    for _ in range(20000):
        s.spin()
        rec_events = s.round_events
        if s.pending is not None and feature in s._round.features:  # type: ignore[union-attr]
            assert rec_events
            return s._round.seed  # type: ignore[union-attr]
        finish(s)
    raise AssertionError(f"no {feature} in 20000 rounds")


@pytest.mark.parametrize("feature", ["full_moon_bonus", "free_spins"])
def test_the_bet_cannot_change_mid_feature_and_a_restore_continues_exactly(feature: str) -> None:
    seed = _seed_for(feature)
    s = session()
    s.spin(seed=seed)
    s.choose("start")
    s.choose(s.pending.choices[0])  # type: ignore[union-attr]
    with pytest.raises(RoundInProgressError):
        s.bet_up()
    restored = Session.restore(s.snapshot(), clock=lambda: T0)
    assert restored.pending == s.pending
    while s.pending is not None:
        choice = s.pending.choices[-1]
        assert s.choose(choice) == restored.choose(choice)
    assert s.balance == restored.balance


def test_autoplay_stops_on_a_bonus_feature() -> None:
    s = session(seed=3)
    ap = Autoplay(s, AutoplayLimits(rounds=100_000, stop_on_feature=True))
    assert ap.run() == StopReason.FEATURE
    assert s.pending is not None
    assert s.pending.kind == "feature_start"


def test_only_the_base_mode_is_offered() -> None:
    with pytest.raises(EngineError):
        GAME.price(BET, "buy")
    assert GAME.modes == ("base",)
    assert GAME.price(BET, "base") == 100


def test_the_jackpot_takes_three_percent_of_every_stake() -> None:
    s = session()
    for _ in range(50):
        s.spin()
        finish(s)
    assert s.jackpot is not None
    assert s.jackpot.contributed == Fraction(3, 100) * 50 * 100


def test_the_riders_chances_never_depend_on_past_play() -> None:
    """A round depends only on its seed, bet and choices: the same seed after a long session,
    a big win or a losing streak plays exactly as in a fresh session."""
    fresh = session(seed=1)
    played = session(seed=2)
    for _ in range(500):
        played.spin()
        finish(played)
    skip = ("round_start", "round_end", "jackpot_win")  # they show the balance and the pot
    for seed in (11, 12, 13, 2**63 + 5):
        logs = []
        for s in (fresh, played):
            s.spin(seed=seed)
            finish(s)
            logs.append(dumps([e for e in s.history[-1].events if e.type not in skip]))
        assert logs[0] == logs[1]
