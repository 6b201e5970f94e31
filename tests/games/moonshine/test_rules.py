"""Moonshine rules: Grandma's own pays against the pays she completes, no substitution for
the Sheriff or the bonus symbol, the Sheriff on the total coins bet, coin bets, the Moonshine
Bonus (board placed before any pick, picked until a Start Free Spins block, free spins at the
multiplier, no retrigger), played through the game's `play` generator with hand-made windows
and scripted draws, and through `Session` where the session matters."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from pyengine.autoplay import Autoplay, AutoplayLimits, StopReason
from pyengine.data import load_lines_game, parse_data, read_data_file
from pyengine.errors import ChoiceError, EngineError, GameDataError
from pyengine.events import (
    Event,
    FreeSpinsAwarded,
    FreeSpinsEnd,
    FreeSpinStart,
    LineWin,
    PickEnd,
    PickReveal,
    PickStart,
    ScatterWin,
    Spin,
    WinMultiplier,
)
from pyengine.features.pick import PICK
from pyengine.games import get_game
from pyengine.games.moonshine import FEATURE, Moonshine
from pyengine.model import Bet, ReelSet, Window
from pyengine.replay import replay
from pyengine.rng import Rng, ScriptedRng
from pyengine.round import Decision, RoundContext
from pyengine.session import Session
from tests.data_support import edited

ROOT = read_data_file("moonshine.json").value


def _game() -> Moonshine:
    g = get_game("moonshine")
    assert isinstance(g, Moonshine)
    return g


GAME = _game()
G, SH, BO = "GRANDMA", "SHERIFF", "BONUS"


def variant(**changes: Any) -> dict[str, Any]:
    return edited(ROOT, **changes)


def load(data: dict[str, Any]) -> Moonshine:
    return Moonshine(load_lines_game(parse_data("moonshine.json", json.dumps(data))))


def rows(top: str, middle: str, bottom: str) -> Window:
    """A window from three rows of five symbol ids separated by spaces."""
    t, m, b = top.split(), middle.split(), bottom.split()
    return tuple((t[i], m[i], b[i]) for i in range(5))


FILL = "CORN MELON CORN MELON CORN"


# -- the data -------------------------------------------------------------------------------------
def test_the_game_as_documented() -> None:
    d = GAME.describe()
    assert GAME.wild == G
    assert GAME.sheriff == SH
    assert GAME.bonus.symbol == BO
    assert d["wild_pays_as"] == G
    assert d["paytable"]["GRANDMA"] == {"2": 10, "3": 250, "4": 2500, "5": 10000}
    assert d["scatter_pays"] == {"3": 3, "4": 20, "5": 100}
    assert len(d["paylines"]) == 25
    assert len({tuple(p) for p in d["paylines"]}) == 25
    assert d["paylines"][:5] == [[1] * 5, [0] * 5, [2] * 5, [0, 1, 2, 1, 0], [2, 1, 0, 1, 2]]
    bets = GAME.bets
    assert bets.lines == tuple(range(1, 26))
    assert bets.coins == (1, 2, 3, 4, 5)
    assert bets.levels == (1, 2, 5, 10, 20, 25, 50, 100)  # 0.01 to 1.00 FUN
    assert bets.coin_game
    assert bets.bet_max(Bet(3, 5, 1)) == Bet(25, 5, 5)  # Bet Max keeps the coin size
    bonus = d["moonshine_bonus"]
    assert bonus["start"] == {str(k): {"spins": k, "multiplier": 1} for k in (3, 4, 5)}
    assert bonus["most"] == {str(k): {"spins": 13 + k, "multiplier": 4} for k in (3, 4, 5)}
    assert (bonus["rows"], bonus["columns"]) == (3, 6)
    assert bonus["board"] == {"spin+1": 13, "multiplier+1": 3, "start": 2}
    assert bonus["stoppers"] == ["start"]
    assert d["settings"] == {}
    assert GAME.modes == ("base",)
    json.dumps(d)


def test_every_reel_window_shows_the_sheriff_and_the_bonus_symbol_at_most_once() -> None:
    for rs in (GAME.base_reels, GAME.free_reels):
        for cols in rs.columns:
            assert all(col.count(SH) <= 1 and col.count(BO) <= 1 for col in cols)
    assert all(SH in strip and BO in strip for strip in GAME.base_reels.strips)
    # No retrigger: the free spins' strips have no bonus symbol.
    assert not any(BO in strip for strip in GAME.free_reels.strips)
    assert GAME.free_reels != GAME.base_reels


@pytest.mark.parametrize(
    ("changes", "field", "problem"),
    [
        ({"wild_pays_as": "PA"}, "wild_pays_as", "Grandma pays her own pays"),
        ({"moonshine_bonus__most__5": {"spins": 19, "multiplier": 4}}, "moonshine_bonus.most.5", "at most 18 spins"),
        ({"moonshine_bonus__most__3": {"spins": 16, "multiplier": 5}}, "moonshine_bonus.most.3", "and 4x"),
        ({"moonshine_bonus__rows": 2}, "moonshine_bonus.pick", "2 rows of 6 blocks"),
        ({"moonshine_bonus__blocks__spin+1": {}}, "moonshine_bonus.blocks.spin+1", "adds spins or multiplier"),
        ({"moonshine_bonus__blocks__start": {"spins": 1}}, "moonshine_bonus.blocks.start", "not a block"),
        ({"moonshine_bonus__start__3": {"spins": 0, "multiplier": 1}}, "moonshine_bonus.start.3.spins", "at least 1"),
        ({"moonshine_bonus__symbol": "PA"}, "moonshine_bonus.symbol", "must be a scatter"),
        ({"moonshine_bonus__pick__stoppers": ["end"]}, "moonshine_bonus.pick.stoppers", "not on the board"),
        ({"scatter_pays": {"2": 1, "3": 3}}, "scatter_pays", "three or more"),
    ],
)
def test_bad_data_names_the_file_and_the_field(changes: dict[str, Any], field: str, problem: str) -> None:
    with pytest.raises(GameDataError) as err:
        load(variant(**changes))
    assert err.value.source == "moonshine.json"
    assert err.value.field == field
    assert problem in err.value.problem


def test_a_strip_that_shows_two_sheriffs_at_once_is_refused() -> None:
    data = variant()
    strip = data["reels"]["base"][2]
    i = strip.index(SH)
    strip[(i + 2) % len(strip)] = SH
    with pytest.raises(GameDataError, match=r"moonshine\.json: field 'reels\.base': reel 3 shows 'SHERIFF' more"):
        load(data)


def test_free_strips_with_a_bonus_symbol_are_refused() -> None:
    data = variant()
    data["reels"]["free"][0][0] = BO
    with pytest.raises(GameDataError, match="cannot retrigger"):
        load(data)


# -- lines: Grandma's own pays and the pays she completes ---------------------------------------
@pytest.mark.parametrize(
    ("middle", "symbol", "count", "pay"),
    [
        ("GRANDMA GRANDMA GRANDMA GRANDMA GRANDMA", G, 5, 10000),
        ("GRANDMA GRANDMA PIE CORN MELON", G, 2, 10),  # a tie, her own 2 and PIE 3 (10 each): hers is kept
        ("GRANDMA GRANDMA PA PA MELON", "PA", 4, 125),  # PA 4 (125) beats her own 2 (10)
        ("GRANDMA GRANDMA GRANDMA MA CORN", G, 3, 250),  # her own 3 (250) beats MA 4 (100)
        ("GRANDMA GRANDMA GRANDMA PA PA", "PA", 5, 750),  # PA 5 (750) beats her own 3 (250)
        ("GRANDMA GRANDMA GRANDMA GRANDMA SON", G, 4, 2500),  # her own 4 beats SON 5 (300)
        ("MELON GRANDMA MELON GRANDMA CORN", "MELON", 4, 25),  # she substitutes
        ("PA GRANDMA CORN CORN CORN", "PA", 2, 2),
        ("GRANDMA SHERIFF SHERIFF SHERIFF CORN", None, 0, 0),  # no line pay for the Sheriff
        ("GRANDMA GRANDMA SHERIFF PA PA", G, 2, 10),  # the Sheriff breaks her run
        ("GRANDMA BONUS BONUS BONUS CORN", None, 0, 0),
        ("GRANDMA GRANDMA BONUS CORN CORN", G, 2, 10),
        ("SHERIFF GRANDMA GRANDMA GRANDMA GRANDMA", None, 0, 0),  # from reel 1 only
        ("CORN PA PA PA PA", None, 0, 0),  # a run from reel 2 does not pay
        ("CORN CORN PIE CORN CORN", None, 0, 0),  # adjacent only
    ],
)
def test_one_line(middle: str, symbol: str | None, count: int, pay: int) -> None:
    window = rows(FILL, middle, "PIE CHICKEN PIE CHICKEN PIE")
    wins = GAME.lines.evaluate(window, 1)
    if symbol is None:
        assert wins == []
    else:
        assert [(w.line, w.symbol, w.count, w.multiplier) for w in wins] == [(1, symbol, count, pay)]


def test_coinciding_wins_on_different_lines_add_up() -> None:
    window = rows("PA PA PA CORN MELON", "PA PA PA CORN MELON", "MA MA MA CORN MELON")
    wins = GAME.lines.evaluate(window, 25)
    by_line = {w.line: (w.symbol, w.count, w.multiplier) for w in wins}
    assert by_line[1] == ("PA", 3, 25)
    assert by_line[2] == ("PA", 3, 25)
    assert by_line[3] == ("MA", 3, 20)
    assert len(GAME.lines.evaluate(window, 3)) == 3
    assert len(GAME.lines.evaluate(window, 1)) == 1  # only the enabled lines pay


# -- playing a round -----------------------------------------------------------------------------
def index_of(reels: ReelSet, stops: tuple[int, ...]) -> int:
    """The draw of ``below(radix)`` that lands on ``stops`` (reel 5 the last digit)."""
    index = 0
    for stop, n in zip(stops, reels.lengths, strict=True):
        index = index * n + stop
    return index


def stop_showing(reels: ReelSet, reel: int, want: Callable[[tuple[str, ...]], bool]) -> int:
    return next(s for s, col in enumerate(reels.columns[reel]) if want(col))


def play(
    game: Moonshine, rng: Rng, bet: Bet, choose: Callable[[Decision], str] | None = None
) -> tuple[RoundContext, list[Decision]]:
    ctx = RoundContext(rng, bet, {})
    gen = game.play(ctx)
    seen: list[Decision] = []
    try:
        d = next(gen)
        while True:
            seen.append(d)
            d = gen.send(choose(d) if choose else d.choices[0])
    except StopIteration:
        pass
    return ctx, seen


def of(events: list[Event], cls: type[Any]) -> list[Any]:
    return [e for e in events if isinstance(e, cls)]


def bonus_stops(count: int) -> tuple[int, ...]:
    """Base stops that show the bonus symbol on the first ``count`` reels and neither it nor
    the Sheriff on the others."""
    reels = GAME.base_reels
    return tuple(
        stop_showing(reels, r, (lambda c: BO in c) if r < count else (lambda c: BO not in c and SH not in c))
        for r in range(5)
    )


def test_the_sheriff_pays_the_total_coins_bet_anywhere() -> None:
    reels = GAME.base_reels
    stops = tuple(
        stop_showing(reels, r, (lambda c: SH in c and BO not in c) if r in (0, 2, 4) else (lambda c: SH not in c))
        for r in range(5)
    )
    bet = Bet(7, 5, 3)  # 7 lines x 3 coins x 0.05: 21 coins, 1.05 FUN
    ctx, seen = play(GAME, ScriptedRng([index_of(reels, stops)]), bet)
    (sc,) = of(ctx.events, ScatterWin)
    assert (sc.symbol, sc.count, sc.multiplier) == (SH, 3, 3)
    assert sc.win == 3 * bet.total_coins * bet.coin == 3 * 105
    assert [p[0] for p in sc.positions] == [0, 2, 4]
    lines = sum(e.win for e in of(ctx.events, LineWin))
    assert ctx.win == lines + sc.win
    assert seen == []


def test_line_wins_are_pay_times_coins_times_coin_size() -> None:
    bet = Bet(25, 20, 4)
    for seed in range(300):
        ctx, _ = play(GAME, Rng(seed), bet)
        base = ctx.events[: next((i for i, e in enumerate(ctx.events) if isinstance(e, PickStart)), None)]
        for e in of(base, LineWin):
            assert e.win == e.multiplier * 4 * 20
        for e in of(base, ScatterWin):
            assert e.win == e.multiplier * 25 * 4 * 20


@pytest.mark.parametrize("bet", [Bet(25, 1, 1), Bet(25, 100, 5), Bet(25, 25, 3), Bet(25, 2, 2)])
def test_the_same_seed_pays_in_proportion_to_coins_and_coin_size(bet: Bet) -> None:
    """The draws do not depend on the bet: a seed lands the same way at every coin size and
    coin count, and every win scales with coins x coin size (the RTP cannot depend on them)."""
    unit = Bet(25, 1, 1)
    for seed in range(400):
        a, _ = play(GAME, Rng(seed), unit)
        b, _ = play(GAME, Rng(seed), bet)
        assert b.win == a.win * bet.coins * bet.coin
        assert [e.stops for e in of(a.events, Spin)] == [e.stops for e in of(b.events, Spin)]


def test_fewer_lines_pay_only_their_lines() -> None:
    for seed in range(300):
        ctx, _ = play(GAME, Rng(seed), Bet(5, 1, 1))
        assert all(e.line <= 5 for e in of(ctx.events, LineWin))


def _ordered_board() -> list[int]:
    """Shuffle draws that leave the board in its data order (Fisher-Yates draws j = i):
    cells 0-12 "spin+1", 13-15 "multiplier+1", 16-17 "start"."""
    return list(range(17, 0, -1))


def test_the_most_is_reached_and_the_multiplier_applies_to_every_free_spin_win() -> None:
    stops = bonus_stops(5)
    order = [str(c) for c in (13, 14, 15, *range(13), 16)]
    picks = iter(order)

    def choose(d: Decision) -> str:
        return next(picks) if d.kind == PICK else d.choices[0]

    bet = Bet(25, 2, 3)
    rng = ScriptedRng([index_of(GAME.base_reels, stops), *_ordered_board()], seed=11)
    ctx, seen = play(GAME, rng, bet, choose)
    ev = ctx.events
    assert sum(col.count(BO) for col in of(ev, Spin)[0].window) == 5
    assert seen[0].kind == "feature_start"
    assert seen[0].feature
    assert of(ev, PickStart)[0].cells == 18
    assert of(ev, PickStart)[0].columns == 6
    assert [e.prize for e in of(ev, PickReveal)] == ["multiplier+1"] * 3 + ["spin+1"] * 13 + ["start"]
    (end,) = of(ev, PickEnd)
    assert end.cells == (17,)
    assert end.prizes == ("start",)
    (awarded,) = of(ev, FreeSpinsAwarded)
    assert (awarded.count, awarded.retrigger) == (18, False)
    assert [e.number for e in of(ev, FreeSpinStart)] == list(range(1, 19))
    assert [e.multiplier for e in of(ev, WinMultiplier)] == [4] * 18
    assert [d.kind for d in seen].count("free_spin") == 18
    # Every free-spin win is its pay x coins x coin size x 4, the Sheriff's too.
    free_start = next(i for i, e in enumerate(ev) if isinstance(e, Spin) and e.phase == "free")
    base_win = sum(e.win for e in ev[:free_start] if isinstance(e, LineWin | ScatterWin))
    free = ev[free_start:]
    for e in of(free, LineWin):
        assert e.win == e.multiplier * bet.line_bet * 4
    for e in of(free, ScatterWin):
        assert e.win == e.multiplier * bet.total * 4
    free_win = sum(e.win for e in free if isinstance(e, LineWin | ScatterWin))
    (fs_end,) = of(ev, FreeSpinsEnd)
    assert (fs_end.spins, fs_end.win, fs_end.capped) == (18, free_win, False)
    assert ctx.win == base_win + free_win  # the bonus win is added to the triggering spin's wins
    assert ctx.features == [FEATURE]
    # The free spins judge their windows as a base spin would, then multiply.
    for spin in of(free, Spin):
        expected = sum(h[4] for h in GAME.lines.wins(spin.window, 25)) * bet.line_bet * 4
        i = ev.index(spin)
        nxt = next((j for j in range(i + 1, len(ev)) if isinstance(ev[j], FreeSpinStart | FreeSpinsEnd)), len(ev))
        assert sum(e.win for e in of(ev[i:nxt], LineWin)) == expected


@pytest.mark.parametrize("count", [3, 4, 5])
def test_a_stopper_first_gives_the_starting_spins_at_1x(count: int) -> None:
    stops = bonus_stops(count)
    picks = iter(["16"])
    rng = ScriptedRng([index_of(GAME.base_reels, stops), *_ordered_board()], seed=5)
    ctx, _seen = play(GAME, rng, Bet(25, 1, 1), lambda d: next(picks) if d.kind == PICK else d.choices[0])
    assert sum(col.count(BO) for col in of(ctx.events, Spin)[0].window) == count
    assert of(ctx.events, FreeSpinsAwarded)[0].count == count
    assert {e.multiplier for e in of(ctx.events, WinMultiplier)} == {1}
    assert len(of(ctx.events, PickReveal)) == 1
    end = of(ctx.events, PickEnd)[0]
    assert len(end.cells) == 17


def test_two_bonus_symbols_start_nothing_and_grandma_does_not_count() -> None:
    reels = GAME.base_reels
    stops = (
        *bonus_stops(2)[:2],
        stop_showing(reels, 2, lambda c: G in c and BO not in c),
        stop_showing(reels, 3, lambda c: G in c and BO not in c),
        stop_showing(reels, 4, lambda c: BO not in c),
    )
    ctx, seen = play(GAME, ScriptedRng([index_of(reels, stops)]), Bet(25, 1, 1))
    assert seen == []
    assert not of(ctx.events, PickStart)


def test_free_spins_never_retrigger() -> None:
    """Bonuses played from many seeds: one award each, and every free spin on the free strips."""
    seen_bonus = 0
    for seed in range(4000):
        ctx, _ = play(GAME, Rng(seed), Bet(25, 1, 1))
        if ctx.features:
            seen_bonus += 1
            assert len(of(ctx.events, FreeSpinsAwarded)) == 1
            assert len(of(ctx.events, PickStart)) == 1
            assert all(BO not in col for e in of(ctx.events, Spin) if e.phase == "free" for col in e.window)
    assert seen_bonus > 10


def test_the_game_adds_no_event_type_of_its_own() -> None:
    """The bonus is told by shared events (the window, the pick's, the free spins' and the
    multiplier's): a client needs the data's start table and nothing more."""
    from pyengine import events

    ctx, _ = play(GAME, ScriptedRng([index_of(GAME.base_reels, bonus_stops(3))]), Bet(25, 1, 1))
    assert all(type(e).__module__ == events.__name__ for e in ctx.events)


# -- through the session ---------------------------------------------------------------------------
def _bonus_seed(count: int | None = None) -> int:
    rng = Rng(77)
    for _ in range(100_000):
        seed = rng.next64()
        ctx, _ = play(GAME, Rng(seed), Bet(25, 2, 1))
        shown = sum(col.count(BO) for col in of(ctx.events, Spin)[0].window)
        if ctx.features and (count is None or shown == count):
            return seed
    raise AssertionError("no bonus seed found")


def test_a_reload_mid_pick_and_mid_free_spins_ends_as_the_unsaved_round() -> None:
    seed = _bonus_seed()
    s = Session("moonshine", balance=10_000, seed=1, bet=Bet(25, 2, 2))
    before = s.balance
    s.spin(seed=seed)
    assert s.pending is not None
    assert s.pending.kind == "feature_start"
    s.choose("start")
    assert s.pending is not None
    assert s.pending.kind == PICK
    saved = s.snapshot()
    back = Session.restore(saved)
    assert back.pending == s.pending
    while s.pending is not None and s.pending.kind == PICK:
        choice = s.pending.choices[-1]
        s.choose(choice)
        back.choose(choice)
    assert s.pending is not None
    assert s.pending.kind == "free_spin"
    s.choose("spin")
    again = Session.restore(s.snapshot())
    back.choose("spin")
    while s.pending is not None:
        choice = s.pending.choices[0]
        s.choose(choice)
        back.choose(choice)
        again.choose(choice)
    assert back.last_round == s.last_round == again.last_round
    last = s.last_round
    assert last is not None
    assert s.balance == before - Bet(25, 2, 2).total + last.win
    again_events = replay(
        "moonshine", seed=seed, lines=25, bet_per_line=2, coins=2, choices=last.choices, balance=10_000
    )
    assert tuple(again_events) == last.events


def test_a_wrong_pick_is_refused_and_changes_nothing() -> None:
    s = Session("moonshine", balance=10_000, seed=1)
    s.spin(seed=_bonus_seed())
    s.choose("start")
    d = s.pending
    assert d is not None
    s.choose(d.choices[0])
    if s.pending is None or s.pending.kind != PICK:
        pytest.skip("the first block was a stopper")
    before = s.snapshot()
    for bad in (d.choices[0], "18", "-1", "start", ""):
        with pytest.raises(ChoiceError):
            s.choose(bad)
        assert s.snapshot() == before


def test_autoplay_stops_on_the_bonus_or_plays_it_through() -> None:
    seed = _bonus_seed()
    s = Session("moonshine", balance=10**6, seed=0)
    s._seeds = [seed]
    ap = Autoplay(s, AutoplayLimits(rounds=5, stop_on_feature=True))
    ap.step()
    assert ap.reason == StopReason.FEATURE
    assert s.pending is not None
    assert s.pending.kind == "feature_start"
    s2 = Session("moonshine", balance=10**6, seed=0)
    s2._seeds = [seed]
    ap2 = Autoplay(s2, AutoplayLimits(rounds=1, stop_on_feature=False))
    events = ap2.step()
    assert s2.pending is None
    assert any(isinstance(e, FreeSpinsEnd) for e in events)


def test_only_the_base_mode_is_offered() -> None:
    with pytest.raises(EngineError, match="only mode is base"):
        GAME.price(Bet(25, 1, 1), "buy")
    assert GAME.price(Bet(25, 2, 5), "base") == 250
    s = Session("moonshine", balance=1000, seed=3)
    s.bet_max()
    assert s.bet == Bet(25, 2, 5)
