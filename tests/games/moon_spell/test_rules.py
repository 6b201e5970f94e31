"""Moon Spell rules: Moons with cash prizes, Hold and Respin, the prize ladder, the max-win
cap, Feature Buy and the time jackpot, played through the game's `play` generator with
hand-made windows and scripted draws, and through `Session` where the session matters."""

from __future__ import annotations

import json
from collections.abc import Sequence
from fractions import Fraction
from typing import Any

import pytest

from pyengine.autoplay import Autoplay, AutoplayLimits, StopReason
from pyengine.data import Field, load_lines_game, read_data_file
from pyengine.errors import (
    EngineError,
    GameDataError,
    InsufficientFundsError,
    RoundInProgressError,
    SnapshotError,
)
from pyengine.events import (
    Event,
    FeatureBought,
    HoldAndRespinEnd,
    HoldAndRespinStart,
    JackpotWin,
    LadderPrize,
    LineWin,
    Respin,
    RoundEnd,
    WinCapReached,
)
from pyengine.features.hold_and_respin import HoldAndRespinRules, hold_and_respin
from pyengine.features.jackpot import DAY_MS, JackpotRules, TimeJackpot
from pyengine.games import get_game
from pyengine.games.moon_spell import POSITIONS, MoonCashWin, MoonPrizes, MoonSpell
from pyengine.model import Bet
from pyengine.replay import replay
from pyengine.rng import Rng, ScriptedRng
from pyengine.round import Decision, RoundContext
from pyengine.session import Session
from tests.data_support import edited

T0 = 1_767_225_600.0  # 2026-01-01 00:00 UTC
ROOT = read_data_file("moon_spell.json").value
BET = Bet(20, 5)  # total stake 100 minor units


def _game() -> MoonSpell:
    g = get_game("moon_spell")
    assert isinstance(g, MoonSpell)
    return g


GAME = _game()
PRIZES = GAME.moon.prizes_x  # 0.5x ... 100x the total stake

def _starts(weights: Sequence[int]) -> dict[str, int]:
    """Prize -> the scripted value of ``below(sum(weights))`` that draws it (the game looks
    the draw up in a table of the cumulative weights)."""
    return {str(p): sum(weights[:i]) for i, p in enumerate(PRIZES) if weights[i]}


X = _starts(GAME.moon.base_weights)  # "1/2" -> the draw of a base Moon worth 0.5x
XR = _starts(GAME.moon.respin_weights)


def variant(**changes: Any) -> dict[str, Any]:
    return edited(ROOT, **changes)


def build(data: dict[str, Any]) -> MoonSpell:
    return MoonSpell(load_lines_game(Field("moon_spell.json", "", data)))


def fixed(window: Sequence[Sequence[str]]) -> MoonSpell:
    """The game with one-stop reels that always show ``window`` (per reel, top first)."""
    return build(variant(reels={"base": [list(col) for col in window]}))


def play(
    game: MoonSpell, script: Sequence[int] = (), *, mode: str = "base", bet: Bet = BET, seed: int = 0
) -> tuple[RoundContext, list[Decision]]:
    """Play a round to its end, answering every decision with its first choice."""
    ctx = RoundContext(ScriptedRng(list(script), seed), bet, {}, mode=mode)
    proc = game.play(ctx)
    decisions: list[Decision] = []
    try:
        d = next(proc)
        while True:
            decisions.append(d)
            d = proc.send(d.choices[0])
    except StopIteration:
        pass
    return ctx, decisions


def of(ctx: RoundContext, kind: type[Event]) -> list[Any]:
    return [e for e in ctx.events if isinstance(e, kind)]


# A window without line wins or Moons; Moons are placed over it.
QUIET = (("A", "K", "Q"), ("J", "CRYSTAL", "RAVEN"), ("K", "A", "J"), ("Q", "J", "A"), ("RAVEN", "CAT", "K"))


def with_moons(positions: Sequence[tuple[int, int]], base: Sequence[Sequence[str]] = QUIET) -> list[list[str]]:
    w = [list(col) for col in base]
    for reel, row in positions:
        w[reel][row] = "MOON"
    return w


# -- data ------------------------------------------------------------------------------
def test_the_data_loads_with_the_documented_shape() -> None:
    d = GAME.data
    assert len(d.paylines) == 20
    assert d.bets.lines == (20,)
    assert [str(x) for x in PRIZES] == ["1/2", "1", "2", "3", "5", "10", "20", "50", "100"]
    assert dict(GAME.respin.ladder) == {10: 50, 11: 100, 12: 200, 13: 300, 14: 1000, 15: 5000}
    assert (GAME.respin.trigger, GAME.respin.respins) == (5, 3)
    assert GAME.max_win_x == 5224
    assert GAME.buy.target_rtp == Fraction("0.9574")
    assert GAME.target_rtp == Fraction("0.9314")
    # The Wild is on reels 2-4 only, the Moon can land on every reel.
    assert [("WILD" in s) for s in GAME.base_reels.strips] == [False, True, True, True, False]
    assert all("MOON" in s for s in GAME.base_reels.strips)


@pytest.mark.parametrize(
    ("change", "field"),
    [
        ({"moon__weights__base": [1, 2, 3]}, "moon.weights.base"),
        ({"moon__prizes_x": ["0.01", "1", "2", "3", "5", "10", "20", "50", "100"]}, "moon.prizes_x"),
        ({"moon__symbol": "WOLF"}, "moon.symbol"),
        ({"hold_and_respin__respin_moon": {"numerator": 3, "denominator": 3}}, "hold_and_respin.respin_moon"),
        ({"feature_buy__moons": {"4": 1}}, "feature_buy.moons.4"),
        ({"jackpot__contribution": "1.5"}, "jackpot.contribution"),
        ({"jackpot__deadline_utc_minute": 1440}, "jackpot.deadline_utc_minute"),
    ],
)
def test_bad_data_names_the_field(change: dict[str, Any], field: str) -> None:
    with pytest.raises(GameDataError) as err:
        build(variant(**change))
    assert err.value.field == field


# -- base game: lines and Moons -----------------------------------------------------------
def test_wild_substitutes_but_not_for_the_moon() -> None:
    # Line 1 (middle row): WOLF WILD WOLF -> 3 Wolves; line 2 (top row): MOON WILD MOON pays nothing.
    w = [["MOON", "WOLF", "Q"], ["WILD", "WILD", "J"], ["MOON", "WOLF", "A"], ["J", "Q", "K"], ["K", "A", "J"]]
    ctx, _ = play(fixed(w), [0])
    wins = of(ctx, LineWin)
    assert [(x.line, x.symbol, x.count) for x in wins if x.line in (1, 2)] == [(1, "WOLF", 3)]
    assert all(x.symbol != "MOON" for x in wins)


def test_one_or_two_moons_show_prizes_but_pay_nothing() -> None:
    ctx, decisions = play(fixed(with_moons([(0, 0), (3, 2)])), [0, X["100"], X["1/2"]])
    (prizes,) = of(ctx, MoonPrizes)
    assert prizes.positions == ((0, 0), (3, 2))
    assert prizes.prizes == (10_000, 50)
    assert not of(ctx, MoonCashWin)
    assert ctx.win == 0
    assert decisions == []


@pytest.mark.parametrize("count", [3, 4])
def test_three_or_four_moons_pay_their_combined_prize(count: int) -> None:
    spots = [(0, 1), (1, 0), (2, 2), (4, 0)][:count]
    picks = [X["1/2"], X["1"], X["20"], X["3"]][:count]
    ctx, decisions = play(fixed(with_moons(spots)), [0, *picks])
    (cash,) = of(ctx, MoonCashWin)
    expected = sum(int(p * 100) for p in PRIZES if X.get(str(p)) in picks)
    assert (cash.count, cash.win, ctx.win) == (count, expected, expected)
    assert cash.positions == tuple(sorted(spots))
    assert decisions == []


def test_five_moons_trigger_hold_and_respin_after_the_player_starts_it() -> None:
    spots = [(0, 0), (1, 1), (2, 2), (3, 0), (4, 1)]
    # Reel draw, 5 prizes (1x each), then 3 empty respins (every empty position misses).
    den = GAME.respin.denominator
    misses = [den - 1] * (10 * 3)
    ctx, decisions = play(fixed(with_moons(spots)), [0, *[X["1"]] * 5, *misses])
    assert [d.kind for d in decisions] == ["feature_start"]
    assert decisions[0].feature
    assert not of(ctx, MoonCashWin)
    (start,) = of(ctx, HoldAndRespinStart)
    assert start.positions == tuple(sorted(spots))
    assert start.respins == 3
    assert [r.respins_left for r in of(ctx, Respin)] == [2, 1, 0]
    (end,) = of(ctx, HoldAndRespinEnd)
    assert (end.count, end.cash, end.ladder, end.win) == (5, 500, 0, 500)
    assert ctx.win == 500
    assert ctx.features == ["hold_and_respin"]


# -- Hold and Respin ------------------------------------------------------------------------
RULES = HoldAndRespinRules(5, 3, 1, 10, {10: 50, 11: 100, 12: 200, 13: 300, 14: 1000, 15: 5000})


def run_bonus(held: dict[tuple[int, int], int], script: Sequence[int]) -> RoundContext:
    ctx = RoundContext(ScriptedRng(list(script)), BET, {})
    hold_and_respin(ctx, RULES, POSITIONS, held, lambda rng: 100 * (1 + rng.below(3)))
    return ctx


HIT, MISS = 0, 9  # below(10) < 1 lands a Moon


def test_a_new_moon_resets_the_respins_and_three_blank_respins_end_it() -> None:
    held = {p: 50 for p in POSITIONS[:5]}
    # respin 1: blank; respin 2: blank; respin 3: one Moon at the first empty position (prize
    # draw 2 -> 300); then three blanks.
    empty = 10
    script = [MISS] * empty + [MISS] * empty + [HIT, 2] + [MISS] * (empty - 1) + [MISS] * 9 * 3
    ctx = run_bonus(held, script)
    respins = of(ctx, Respin)
    assert [r.respins_left for r in respins] == [2, 1, 3, 2, 1, 0]
    assert respins[2].positions == (POSITIONS[5],)
    assert respins[2].prizes == (300,)
    assert respins[2].count == 6
    (end,) = of(ctx, HoldAndRespinEnd)
    assert (end.count, end.respins, end.cash, end.ladder) == (6, 6, 5 * 50 + 300, 0)


def test_filling_all_fifteen_positions_ends_the_bonus_and_pays_the_top_rung() -> None:
    held = {p: 50 for p in POSITIONS[:5]}
    script: list[int] = []
    for _ in range(10):
        script += [HIT, 0]  # every empty position lands a 1x (100) Moon on the first respin
    ctx = run_bonus(held, script)
    (respin,) = of(ctx, Respin)
    assert respin.count == 15
    assert respin.respins_left == 3
    (ladder,) = of(ctx, LadderPrize)
    assert (ladder.count, ladder.multiplier, ladder.win) == (15, 5000, 500_000)
    (end,) = of(ctx, HoldAndRespinEnd)
    assert end.win == 5 * 50 + 10 * 100 + 500_000


@pytest.mark.parametrize(("moons", "rung"), [(9, 0), (10, 50), (11, 100), (12, 200), (13, 300), (14, 1000)])
def test_the_ladder_pays_by_the_final_count(moons: int, rung: int) -> None:
    held = {p: 50 for p in POSITIONS[:moons]}
    ctx = run_bonus(held, [MISS] * (15 - moons) * 3)
    assert [e.win for e in of(ctx, LadderPrize)] == ([rung * 100] if rung else [])
    assert of(ctx, HoldAndRespinEnd)[0].ladder == rung * 100


def test_the_max_win_caps_the_round() -> None:
    spots = list(POSITIONS[:5])
    script = [0, *[X["100"]] * 5] + [0, XR["100"]] * 10  # 15 Moons of 100x each: 6500x
    game = build(
        variant(reels={"base": with_moons(spots)}, hold_and_respin__respin_moon={"numerator": 1, "denominator": 2})
    )
    ctx, _ = play(game, script)
    cap = 5224 * BET.total
    assert of(ctx, WinCapReached) == [WinCapReached(cap, cap)]
    assert ctx.win == cap
    end = of(ctx, HoldAndRespinEnd)[0]
    assert end.cash + end.ladder == 6500 * BET.total  # the events keep the full count; the pay is capped


# -- Feature Buy -------------------------------------------------------------------------
def session(balance: int = 1_000_000, seed: int = 1, clock: Any = None, **kw: Any) -> Session:
    return Session("moon_spell", balance=balance, seed=seed, bet=BET, clock=clock or (lambda: T0), **kw)


def test_feature_buy_costs_its_price_and_plays_the_whole_bonus() -> None:
    s = session()
    price = s.price("buy")
    assert price == GAME.buy.price_x * BET.total
    events = s.buy(seed=5)
    assert s.pending is None
    assert not s.in_round
    assert isinstance(events[1], FeatureBought)
    assert events[1].price == price
    start = next(e for e in events if isinstance(e, HoldAndRespinStart))
    assert len(start.positions) in dict(GAME.buy.moons)
    last = s.last_round
    assert last is not None
    assert last.mode == "buy"
    assert last.stake == price
    assert s.balance == 1_000_000 - price + last.win
    assert last.features == ("hold_and_respin",)
    assert not any(isinstance(e, LineWin) for e in events)


def test_feature_buy_does_not_feed_the_jackpot() -> None:
    s = session()
    s.buy(seed=5)
    assert s.jackpot is not None
    assert s.jackpot.contributed == 0
    s.spin(seed=6)
    while s.pending:
        s.choose(s.pending.choices[0])
    assert s.jackpot.contributed == Fraction(BET.total) * GAME.jackpot.contribution


def test_buy_is_refused_cleanly() -> None:
    s = session(balance=GAME.buy.price_x * BET.total - 1)
    before = s.snapshot()
    with pytest.raises(InsufficientFundsError, match="feature price"):
        s.buy()
    with pytest.raises(EngineError, match="autoplay never buys"):
        s.spin(mode="buy", autoplay=True)
    with pytest.raises(EngineError, match="no mode 'bonus'"):
        s.spin(mode="bonus")
    assert s.snapshot() == before
    book = Session("book_of_spells", seed=1)
    with pytest.raises(EngineError, match="no mode 'buy'"):
        book.buy()
    assert book.balance == 100_000
    assert book.rounds_played == 0


def buy_seed(test: Any) -> int:
    for seed in range(5000):
        s = session()
        s.buy(seed=seed)
        if test(s.last_round):
            return seed
    raise AssertionError("no seed found")


def test_a_bought_feature_can_reach_the_ladder() -> None:
    seed = buy_seed(lambda r: any(isinstance(e, LadderPrize) for e in r.events))
    s = session()
    events = s.buy(seed=seed)
    ladder = next(e for e in events if isinstance(e, LadderPrize))
    assert ladder.count >= 10
    assert ladder.multiplier == GAME.respin.ladder[ladder.count]


# -- the stake during the bonus, autoplay ---------------------------------------------------
def trigger_seed() -> int:
    for seed in range(200_000):
        s = session()
        s.spin(seed=seed)
        if s.pending is not None:
            return seed
    raise AssertionError("no trigger found")


def test_the_stake_cannot_change_during_the_bonus_and_restore_continues_exactly() -> None:
    seed = trigger_seed()
    s = session()
    s.spin(seed=seed)
    assert s.pending is not None
    assert s.pending.kind == "feature_start"
    with pytest.raises(RoundInProgressError):
        s.bet_up()
    restored = Session.restore(s.snapshot(), clock=lambda: T0)
    assert restored.pending == s.pending
    a = s.choose("start")
    b = restored.choose("start")
    assert a == b
    assert s.balance == restored.balance


def test_autoplay_stops_on_the_bonus_and_never_buys() -> None:
    s = session(balance=10**9, seed=0)
    ap = Autoplay(s, AutoplayLimits(rounds=100_000, stop_on_feature=True))
    assert ap.run() == StopReason.FEATURE
    assert s.pending is not None
    assert s.pending.kind == "feature_start"
    assert all(r.mode == "base" for r in s.history)


# -- replay ------------------------------------------------------------------------------
def test_replay_is_byte_identical() -> None:
    s = session(seed=9)
    for _ in range(300):
        s.spin()
        while s.pending:
            s.choose(s.pending.choices[0])
    s.buy()
    for rec in s.history:
        again = replay(
            "moon_spell",
            seed=rec.seed,
            lines=rec.bet.lines,
            bet_per_line=rec.bet.bet_per_line,
            choices=rec.choices,
            balance=rec.balance_before,
            mode=rec.mode,
            jackpot=rec.jackpot,
        )
        assert again == list(rec.events)
    assert s.history[-1].mode == "buy"


# -- the time jackpot ------------------------------------------------------------------------
RULES_JP = JackpotRules(Fraction(1, 100), 0, 60, 10)


def test_the_deadline_is_the_next_daily_time_at_least_min_minutes_away() -> None:
    day = int(T0 * 1000)
    assert RULES_JP.deadline_after(day) == day + DAY_MS
    assert RULES_JP.deadline_after(day + DAY_MS - 30 * 60_000) == day + 2 * DAY_MS
    assert RULES_JP.deadline_after(day + 5 * 3_600_000) == day + DAY_MS
    r22 = JackpotRules(Fraction(1, 100), 22 * 60, 60, 10)
    assert r22.deadline_after(day + 3_600_000) == day + 22 * 3_600_000


def test_the_drop_chance_rises_with_the_stake_and_the_clock_and_is_sure_at_the_deadline() -> None:
    jp = TimeJackpot(RULES_JP, int(T0 * 1000))
    end = jp.deadline_ms
    assert jp.drop_chance(100, end - 3_600_000) < jp.drop_chance(1000, end - 3_600_000)
    assert jp.drop_chance(100, end - 7_200_000) < jp.drop_chance(100, end - 60_000) < 1
    assert jp.drop_chance(100, end) == 1
    assert jp.drop_chance(100, end + 5) == 1


def test_the_pot_drops_surely_at_the_deadline_and_a_new_pot_starts() -> None:
    now = [T0]
    s = session(clock=lambda: now[0], seed=99)
    for _ in range(20):
        s.spin()
        while s.pending:
            s.choose(s.pending.choices[0])
    pot = s.jackpot
    assert pot is not None
    drops = pot.drops
    now[0] = pot.deadline_ms / 1000 + 1  # the deadline has passed: the next spin wins the pot
    expected = (pot.pot + Fraction(BET.total) * RULES_JP.contribution).__floor__()
    assert expected > 0
    balance = s.balance
    events = s.spin()
    while s.pending:
        events += s.choose(s.pending.choices[0])
    assert pot.drops == drops + 1
    wins = [e for e in events if isinstance(e, JackpotWin)]
    assert [w.amount for w in wins] == [expected]
    assert events.index(wins[0]) == len(events) - 2
    assert isinstance(events[-1], RoundEnd)
    last = s.last_round
    assert last is not None
    assert last.jackpot == expected
    assert s.balance == balance - BET.total + last.win
    assert pot.amount == 0
    assert pot.started_ms == int(now[0] * 1000)
    assert pot.deadline_ms > pot.started_ms


def test_the_jackpot_persists_with_the_session_and_rejects_tampering() -> None:
    now = [T0 + 3600]
    s = session(clock=lambda: now[0])
    for _ in range(30):
        s.spin()
        while s.pending:
            s.choose(s.pending.choices[0])
    snap = s.snapshot()
    r = Session.restore(snap, clock=lambda: now[0])
    assert r.jackpot is not None
    assert s.jackpot is not None
    assert r.jackpot.to_json() == s.jackpot.to_json()
    obj = json.loads(snap)
    obj["state"]["jackpot"]["pot"] = "99999"
    from pyengine.session import _checksum

    obj["checksum"] = _checksum(obj["state"])
    with pytest.raises(SnapshotError, match="jackpot"):
        Session.restore(json.dumps(obj))


def test_a_history_round_with_a_jackpot_win_verifies_on_restore() -> None:
    now = [T0]
    s = session(clock=lambda: now[0])
    assert s.jackpot is not None
    for _ in range(5):
        s.spin()
        while s.pending:
            s.choose(s.pending.choices[0])
    now[0] = s.jackpot.deadline_ms / 1000
    s.spin()
    while s.pending:
        s.choose(s.pending.choices[0])
    last = s.last_round
    assert last is not None
    assert last.jackpot > 0
    r = Session.restore(s.snapshot(), clock=lambda: now[0])
    assert r.history[-1] == last
    obj = json.loads(s.snapshot())
    obj["state"]["history"][-1]["jackpot"] += 1
    obj["state"]["history"][-1]["win"] += 1
    obj["state"]["history"][-1]["balance_after"] += 1
    obj["state"]["balance"] += 1
    from pyengine.session import _checksum

    obj["checksum"] = _checksum(obj["state"])
    with pytest.raises(SnapshotError, match="history"):
        Session.restore(json.dumps(obj), clock=lambda: now[0])


def test_over_a_long_run_the_jackpot_pays_out_what_it_collected() -> None:
    from pyengine.math.simulate import simulate

    result = simulate("moon_spell", 60_000, seed=4)
    # 60,000 rounds at 3 s each cover about 2 days: at least two deadlines passed.
    assert result.jackpot_drops >= 2
    contributed = Fraction(result.total_stake) * GAME.jackpot.contribution
    assert result.jackpot_contributed == float(contributed)
    assert result.jackpot_paid + Fraction(result.jackpot_pot) == contributed
    # Everything collected was paid except the current pot, which is younger than one day.
    assert result.jackpot_pot < float(contributed) * 0.75


# -- the line evaluator's three-column fast path -----------------------------------------------
def reference_lines(window: Sequence[Sequence[str]]) -> list[tuple[int, str, int, int]]:
    """Every line's best win written out from the rules (no Moon substitution, pays from 3)."""
    out = []
    pays = GAME.data.paytable
    for line in GAME.data.paylines:
        syms = [window[reel][row] for reel, row in enumerate(line.rows)]
        best = (0, "", 0)
        for symbol in pays.pays:
            count = 0
            for sym in syms:
                if sym != symbol and sym != "WILD":
                    break
                count += 1
            p = pays.pay(symbol, count)
            if p > best[0]:
                best = (p, symbol, count)
        if best[0]:
            out.append((line.number, best[1], best[2], best[0]))
    return out


def test_fast_line_path_equals_the_rules_on_many_windows() -> None:
    rng = Rng(77)
    reels = GAME.base_reels
    paying = 0
    for _ in range(20_000):
        _, window = reels.draw(rng.below(reels.radix))
        fast = [(r.line, r.symbol, r.count, r.multiplier) for r in GAME.lines.evaluate(window, 20)]
        assert fast == reference_lines(window)
        paying += bool(fast)
    assert paying > 2_000


def test_fast_line_path_on_dense_windows() -> None:
    rng = Rng(78)
    inner = ["WILD", "WOLF", "A", "MOON"]  # reels 2-4 (the Wild's reels)
    outer = ["WOLF", "A", "MOON"]
    for _ in range(3_000):
        window = tuple(
            tuple((inner if reel in (1, 2, 3) else outer)[rng.below(4 if reel in (1, 2, 3) else 3)] for _ in range(3))
            for reel in range(5)
        )
        fast = [(r.line, r.symbol, r.count, r.multiplier) for r in GAME.lines.evaluate(window, 20)]
        assert fast == reference_lines(window)


def test_a_jackpot_on_a_spin_that_starts_the_bonus_is_paid_at_once() -> None:
    """The rules: the jackpot is "transferred directly … even in the middle of a bonus": it
    is credited before the bonus waits for Start, a reload there keeps it, and the round's
    win still includes it once. (The session's clock stands at the pot's deadline, where
    it must drop.)"""
    seed = next(n for n in range(50_000) if _starts_bonus(n))
    s, now = _at_deadline()
    events = s.spin(seed=seed)
    kinds = [e.type for e in events]
    assert kinds.index("jackpot_win") < kinds.index("decision_pending")
    won = next(e for e in events if e.type == "jackpot_win").amount  # type: ignore[attr-defined]
    assert won > 0
    stake = s.bet.total
    assert s.balance == 100_000 - stake + won
    back = Session.restore(s.snapshot(), clock=lambda: now)
    assert back.balance == s.balance
    assert back.round_events == s.round_events
    while s.pending is not None:
        s.choose(s.pending.choices[0])
    last = s.last_round
    assert last is not None
    assert [e.type for e in last.events].count("jackpot_win") == 1
    assert last.jackpot == won
    assert s.balance == last.balance_after == 100_000 - stake + last.win
    assert last.events[-1].win == last.win  # type: ignore[attr-defined]


def _at_deadline() -> tuple[Session, float]:
    tick = [1_767_225_600.0]
    s = Session("moon_spell", balance=100_000, seed=0, clock=lambda: tick[0])
    assert s.jackpot is not None
    tick[0] = s.jackpot.deadline_ms / 1000
    return s, tick[0]


def _starts_bonus(seed: int) -> bool:
    s = Session("moon_spell", balance=100_000, seed=0)
    s.spin(seed=seed)
    return s.pending is not None
