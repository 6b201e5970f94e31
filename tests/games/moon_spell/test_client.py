"""slotui on a real Moon Spell session: Moon values, the cash win, Hold and Respin (board,
respin counter, prize ladder, collection, max win), Feature Buy, the time jackpot and
recovery after a reload.

The controller is driven as ``web/main.py`` drives it (see ``tests/client_support.py``).
Seeds are not pinned: each test asks the engine for the first session seed whose first
round has what it needs, so a change of strips or weights picks another seed.
"""

from __future__ import annotations

import functools
from fractions import Fraction
import itertools
from collections.abc import Callable
from typing import Any

import pytest

from pyengine import events as ev
from pyengine.games.moon_spell import MoonCashWin, MoonPrizes
from pyengine.autoplay import AutoplayLimits, StopReason
from pyengine.games import get_game
from pyengine.session import Session
from slotui.controller import Controller, stop_reason
from slotui.beats import screen_for
from slotui.holdrespin import HoldGrid, LadderView, RespinCounter
from slotui.intro import FeatureCard
from slotui.pages import PageContext, page_html
from slotui.pages import x_text
from slotui.render import draw
from tests.client_support import (
    FRAME_MS,
    GAME_EVENT_TYPES,
    Clock,
    Rig,
    first,
    idle,
    WinWatch,
    make_rig,
    play_round,
    record_events,
    restore_rig,
    round_log,
    wall_clock,
)

MOON = "moon_spell"
GAME = get_game(MOON)
DESC: dict[str, Any] = GAME.describe()
FMT = GAME.bets.format
TRIGGER = int(DESC["hold_and_respin"]["trigger"])
RESPINS = int(DESC["hold_and_respin"]["respins"])
LADDER = {int(k): int(v) for k, v in DESC["hold_and_respin"]["ladder"].items()}
ASSETS = "static/games/moon_spell"
INFO = {"rtp": 0.9314, "max_win_x": 5224, "mode_rtp": {"base": 0.9314, "buy": 0.9574}}


# -- seeds, found with the engine ----------------------------------------------------------------
def first_round(seed: int, *, buy: bool = False, clock: Callable[[], float] = wall_clock) -> list[ev.Event]:
    """The first round of ``Session(MOON, seed=seed)``, Start pressed when asked."""
    s = Session(MOON, seed=seed, clock=clock)
    events = s.buy() if buy else s.spin()
    while s.pending is not None:
        events += s.choose(s.pending.choices[0])
    return events


def _has(events: list[ev.Event], kind: type[ev.Event]) -> bool:
    return any(isinstance(e, kind) for e in events)


def _end(events: list[ev.Event]) -> ev.HoldAndRespinEnd | None:
    return next((e for e in events if isinstance(e, ev.HoldAndRespinEnd)), None)


KINDS: dict[str, Callable[[int], bool]] = {
    "cash": lambda n: _has(r := first_round(n), MoonCashWin) and not _has(r, ev.HoldAndRespinStart),
    "cash_and_lines": lambda n: _has(r := first_round(n), MoonCashWin) and _has(r, ev.LineWin),
    "ladder": lambda n: (e := _end(first_round(n))) is not None and e.count >= min(LADDER),
    "small_bonus": lambda n: (e := _end(first_round(n))) is not None and e.count < min(LADDER),
    "loss": lambda n: not _has(r := first_round(n), ev.LineWin) and not _has(r, MoonPrizes),
    "buy_ladder": lambda n: (e := _end(first_round(n, buy=True))) is not None and e.count >= min(LADDER) + 1,
}


@functools.cache
def seed_of(kind: str) -> int:
    for n in range(20_000):
        if KINDS[kind](n):
            return n
    raise AssertionError(f"no Moon Spell seed of kind {kind!r}")


def rig(seed: int, **kw: Any) -> Rig:
    return make_rig(seed, game=MOON, **kw)


# -- every event type ----------------------------------------------------------------------------


def test_every_moon_spell_event_type_is_played(monkeypatch: pytest.MonkeyPatch) -> None:
    """A cash win, a bonus up the ladder, a bought bonus, a round over the max win (the limit
    lowered) and a jackpot drop: together every Moon Spell event type; the controller plays
    each round's whole log in order."""
    seen: set[str] = set()
    with record_events(monkeypatch) as played:
        for kind in ("cash_and_lines", "ladder"):
            played.events.clear()
            r = rig(seed_of(kind), turbo=True)
            play_round(r)
            assert played.events == round_log(r.session), kind
            seen |= played.types
        played.events.clear()
        r = rig(seed_of("buy_ladder"), turbo=True)
        play_round(r, buy=True)
        assert played.events == round_log(r.session)
        seen |= played.types
        with monkeypatch.context() as m:
            m.setattr(GAME, "max_win_x", 20)
            played.events.clear()
            r = rig(seed_of("buy_ladder"), turbo=True)
            play_round(r, buy=True)
            assert _has(round_log(r.session), ev.WinCapReached)
            assert played.events == round_log(r.session)
            seen |= played.types
        played.events.clear()
        r, _ = jackpot_rig()
        play_round(r)
        assert _has(round_log(r.session), ev.JackpotWin)
        assert played.events == round_log(r.session)
        seen |= played.types
    assert seen == GAME_EVENT_TYPES[MOON]


# -- Moons on the reels -------------------------------------------------------------------------
def test_moons_show_their_values_as_their_reel_lands() -> None:
    r = rig(seed_of("cash"))
    c = r.controller
    r.press("spin")
    r.run(FRAME_MS)
    prizes = first(round_log(r.session), MoonPrizes)
    expected = {(int(a), int(b)): FMT(p) for (a, b), p in zip(prizes.positions, prizes.prizes, strict=True)}
    assert c.view.cell_values == expected
    # While the reels spin, no value is drawn on a reel that is still moving.
    r.canvas.take()
    draw(r.canvas, r.layout, c.view, c.now)
    assert not set(expected.values()) & set(r.canvas.texts())
    r.until(lambda c: not c.view.reels.moving)
    r.canvas.take()
    draw(r.canvas, r.layout, c.view, c.now)
    texts = r.canvas.texts()
    for value in expected.values():
        assert value in texts
    window = c.view.reels.window()
    for col, row in expected:
        assert window[col][row] == DESC["moon"]["symbol"]


def test_a_cash_win_of_three_or_four_moons_is_presented_with_the_line_wins() -> None:
    r = rig(seed_of("cash_and_lines"))
    labels: list[str] = []

    def watch(c: Controller) -> None:
        if c.view.line_label and (not labels or labels[-1] != c.view.line_label):
            labels.append(c.view.line_label)

    play_round(r, watch=watch)
    log = round_log(r.session)
    cash = first(log, MoonCashWin)
    lines = [e for e in log if isinstance(e, ev.LineWin)]
    assert f"{cash.count} MOONS PAY {FMT(cash.win)}" in labels
    assert len(labels) == len(lines) + 1, "each line, then the Moons, in one presentation"
    total = cash.win + sum(e.win for e in lines)
    assert any(a.endswith(f": {FMT(total)}") for a in r.host.announcements)
    assert r.host.controls.win == FMT(first(log, ev.RoundEnd).win)
    assert r.host.controls.balance == FMT(r.session.balance)


# -- Hold and Respin -----------------------------------------------------------------------------
def test_five_moons_show_the_intro_and_wait_for_start() -> None:
    r = rig(seed_of("ladder"))
    c = r.controller
    r.press("spin")
    r.until(lambda c: c.context() == "feature_start" and not c.presenting)
    intro = c.view.intro
    assert isinstance(intro, FeatureCard)
    assert intro.waiting
    assert intro.title == "HOLD AND RESPIN"
    assert r.host.state == "feature"
    start = r.host.controls.buttons["start_feature"]
    assert (start.visible, start.enabled, start.label) == (True, True, "START BONUS")
    assert "Hold and Respin: press Start to play the respins." in r.host.announcements
    r.canvas.take()
    draw(r.canvas, r.layout, c.view, c.now)
    assert "PRESS START" in r.canvas.texts()
    assert "HOLD AND RESPIN" in r.canvas.texts()
    for name in ("bet_up", "bet_down", "bet_max", "buy", "spin"):
        assert not r.host.controls.buttons[name].enabled, name


def test_hold_and_respin_counter_resets_and_the_ladder_lights_rung_by_rung(monkeypatch: pytest.MonkeyPatch) -> None:
    r = rig(seed_of("ladder"))
    c = r.controller
    lefts: list[int] = []
    lits: list[int] = []
    moons: list[int] = []
    states: set[str] = set()
    bets_locked = True

    def watch(c: Controller) -> None:
        nonlocal bets_locked
        counter, ladder = c.view.overlay(RespinCounter), c.view.overlay(LadderView)
        if counter is not None and c.meters.in_feature:
            if not lefts or lefts[-1] != counter.left:
                lefts.append(counter.left)
            if not moons or moons[-1] != counter.count:
                moons.append(counter.count)
            states.add(r.host.state)
            bets_locked = bets_locked and not any(
                r.host.controls.buttons[b].enabled for b in ("bet_up", "bet_down", "bet_max", "buy")
            )
        if ladder is not None and c.meters.in_feature and (not lits or lits[-1] != ladder.lit):
            lits.append(ladder.lit)

    with record_events(monkeypatch) as played:
        play_round(r, watch=watch)
    log = round_log(r.session)
    assert played.events == log
    start = first(log, ev.HoldAndRespinStart)
    respins = [e for e in log if isinstance(e, ev.Respin)]
    end = first(log, ev.HoldAndRespinEnd)
    # The Moons held only grow, one by one as each lands, up to the engine's count.
    assert moons[0] == len(start.positions)
    assert moons == list(range(moons[0], end.count + 1))
    # The ladder lights rung by rung as the count grows: never skipping one.
    reached = sum(1 for n in LADDER if end.count >= n)
    assert lits == list(range(0, reached + 1))
    # The counter: each respin spends one; a respin that lands a Moon resets it to 3.
    resets = sum(1 for e in respins if e.positions)
    assert lefts[0] == RESPINS
    back_to_full = sum(1 for a, b in itertools.pairwise(lefts) if b == RESPINS and a < RESPINS)
    assert back_to_full == resets
    assert lefts[-1] == respins[-1].respins_left
    assert states == {"feature"}
    assert bets_locked, "the stake cannot change during the bonus"
    # The end: the total collected, the ladder prize, the messages and the meters.
    assert r.host.posted("featureStart") == [
        {"feature": "hold_and_respin", "moons": len(start.positions), "respins": RESPINS, "bought": False}
    ]
    assert r.host.posted("featureEnd") == [
        {"feature": "hold_and_respin", "win": end.win, "moons": end.count, "respins": end.respins}
    ]
    ladder = first(log, ev.LadderPrize)
    assert ladder.multiplier == LADDER[end.count]
    assert f"Prize ladder: {end.count} Moons pay {ladder.multiplier:,}× the bet, {FMT(ladder.win)}." in (
        r.host.announcements
    )
    counter, rungs = c.view.overlay(RespinCounter), c.view.overlay(LadderView)
    assert counter is not None
    assert (counter.label, counter.collected) == ("BONUS WIN", FMT(end.win))
    assert rungs is not None
    assert rungs.paid == end.count
    round_end = first(log, ev.RoundEnd)
    assert r.host.controls.win == FMT(round_end.win)
    assert r.host.controls.balance == FMT(r.session.balance)
    assert r.host.state == "ready"
    # The final board stays: every Moon with its value, drawn with the ladder and the counter.
    r.canvas.take()
    draw(r.canvas, r.layout, c.view, c.now)
    texts = r.canvas.texts()
    assert "BONUS WIN" in texts
    assert FMT(LADDER[min(LADDER)] * r.session.bet.total) in texts
    grid = c.view.overlay(HoldGrid)
    assert grid is not None
    held = grid.held(c.now)
    assert len(held) == end.count
    assert r.canvas.sprites_drawn().count(DESC["moon"]["symbol"]) == end.count


def test_a_bonus_below_the_ladder_pays_its_moons_only() -> None:
    r = rig(seed_of("small_bonus"), turbo=True)
    play_round(r)
    log = round_log(r.session)
    end = first(log, ev.HoldAndRespinEnd)
    assert not _has(log, ev.LadderPrize)
    assert end.win == end.cash
    rungs = r.controller.view.overlay(LadderView)
    assert rungs is not None
    assert rungs.lit == 0
    assert r.host.posted("featureEnd")[0]["win"] == end.win


def bonus_time(*, turbo: bool = False, hurry: bool = False, reduced: bool = False) -> float:
    r = rig(seed_of("ladder"), turbo=turbo, reduced_motion=reduced)
    r.press("spin")
    r.until(lambda c: c.context() == "feature_start" and not c.presenting)
    r.press("start_feature")
    t0 = r.now

    def done(c: Controller) -> bool:
        if hurry and c.beat is not None:
            c.press("stop", c.now)  # Space, a click on the reels or STOP, every frame
        return idle(c) and not c.session.in_round

    r.until(done, 600_000)
    return r.now - t0


def test_turbo_and_quick_stop_hurry_the_bonus() -> None:
    normal = bonus_time()
    assert bonus_time(turbo=True) < normal * 0.6
    assert bonus_time(hurry=True) < normal * 0.35
    assert bonus_time(reduced=True) < normal


def test_the_spin_button_stops_and_space_is_stop_during_the_bonus() -> None:
    r = rig(seed_of("ladder"))
    r.press("spin")
    r.until(lambda c: c.context() == "feature_start" and not c.presenting)
    r.press("start_feature")
    r.until(lambda c: type(c.beat).__name__ == "RespinBeat")
    assert r.controller.context() == "free_spins"  # keys: Space / Enter / S stop
    spin = r.host.controls.buttons["spin"]
    assert (spin.label, spin.enabled) == ("STOP", True)


def test_the_max_win_limit_ends_the_bonus_with_its_message(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(GAME, "max_win_x", 20)
    r = rig(seed_of("buy_ladder"), turbo=True)
    watch = WinWatch()
    play_round(r, buy=True, watch=watch)
    banners, shown = watch.banners, watch.shown
    log = round_log(r.session)
    cap = first(log, ev.WinCapReached)
    assert cap.win == 20 * r.session.bet.total
    assert ("MAX WIN REACHED", f"20× THE BET · {FMT(cap.win)}") in banners
    assert f"The maximum win of 20× the bet is reached: {FMT(cap.win)} is paid." in r.host.announcements
    assert shown <= cap.win, "the win meter never shows more than the round pays"
    assert r.host.posted("featureEnd")[0]["win"] == cap.win
    assert r.host.controls.win == FMT(cap.win)


# -- Feature Buy -----------------------------------------------------------------------------------
def test_buy_opens_the_dialog_then_confirm_plays_the_bought_bonus() -> None:
    r = rig(seed_of("buy_ladder"))
    s = r.session
    price = s.price("buy")
    assert price == DESC["feature_buy"]["price_x"] * s.bet.total
    b = r.host.controls.buttons["buy"]
    assert (b.visible, b.enabled, b.label) == (True, True, "BUY BONUS")
    before = s.balance
    r.press("buy")
    assert r.host.dialogs == ["buy"]
    assert not s.in_round, "nothing is bought before Confirm"
    assert s.rounds_played == 0
    titles: list[str] = []

    def watch(c: Controller) -> None:
        if isinstance(c.view.intro, FeatureCard) and (not titles or titles[-1] != c.view.intro.title):
            titles.append(c.view.intro.title)

    play_round(r, buy=True, watch=watch)
    log = round_log(r.session)
    assert r.host.posted("roundStart")[0]["stake"] == price
    assert "BONUS BOUGHT" in titles
    assert f"Feature bought for {FMT(price)}: Hold and Respin starts." in r.host.announcements
    start = first(log, ev.HoldAndRespinStart)
    assert r.host.posted("featureStart") == [
        {"feature": "hold_and_respin", "moons": len(start.positions), "respins": RESPINS, "bought": True}
    ]
    end = first(log, ev.RoundEnd)
    assert s.balance == before - price + end.win
    assert r.host.controls.balance == FMT(s.balance)
    assert r.host.controls.win == FMT(end.win)
    assert s.last_round is not None
    assert s.last_round.mode == "buy"


def test_buy_is_refused_when_the_balance_is_too_low() -> None:
    bets = GAME.bets
    cheapest = DESC["feature_buy"]["price_x"] * bets.lines[0] * bets.levels[0]
    r = rig(seed_of("loss"), balance=cheapest)
    assert r.session.price("buy") > cheapest
    b = r.host.controls.buttons["buy"]
    assert b.visible
    assert not b.enabled
    r.press("buy")
    r.run(FRAME_MS)
    assert r.host.dialogs == []
    assert f"more than the balance {FMT(cheapest)}" in r.host.announcements[-1]
    assert r.host.controls.message == r.host.announcements[-1]
    error = r.controller.confirm_buy()
    assert error is not None
    assert "Lower the bet" in error
    assert r.session.rounds_played == 0
    assert r.session.balance == cheapest
    # The lowest bet makes it affordable.
    for _ in bets.levels:
        r.press("bet_down")
    r.run(FRAME_MS)
    assert r.session.price("buy") == cheapest
    assert r.host.controls.buttons["buy"].enabled


def test_buy_is_disabled_while_a_round_or_autoplay_runs() -> None:
    r = rig(seed_of("loss"), turbo=True)
    r.press("spin")
    r.run(FRAME_MS)
    assert not r.host.controls.buttons["buy"].enabled
    assert r.controller.confirm_buy() == "Finish the round in play before buying the feature."
    r.until(idle)
    r.controller.start_autoplay(AutoplayLimits(3, stop_on_feature=False))
    r.run(FRAME_MS)
    assert not r.host.controls.buttons["buy"].enabled
    assert r.controller.confirm_buy() == "Stop autoplay before buying the feature."


def test_book_of_spells_has_no_buy_button_and_keeps_its_lines_control() -> None:
    r = make_rig(0)
    assert not r.host.controls.buttons["buy"].visible
    assert r.host.controls.buttons["lines_up"].visible
    assert r.host.controls.jackpot == ""
    m = rig(0)
    assert not m.host.controls.buttons["lines_up"].visible, "20 fixed lines: nothing to change"
    assert not m.host.controls.buttons["lines_down"].visible
    assert m.host.controls.lines == "20"


# -- the time jackpot --------------------------------------------------------------------------
def jackpot_rig() -> tuple[Rig, Clock]:
    """A session whose next spin surely drops the jackpot: a few spins feed the pot, then the
    clock passes the pot's deadline."""
    clock = Clock()
    r = rig(seed_of("loss"), turbo=True, clock=clock)
    s = r.session
    for _ in range(3):
        s.set_bet(s.game.bets.max_bet)
        s.spin()
        while s.pending is not None:
            s.choose(s.pending.choices[0])
    assert s.jackpot is not None
    clock.t = s.jackpot.deadline_ms / 1000 + 5
    r.controller.resume()
    r.run(FRAME_MS)
    return r, clock


def test_the_jackpot_panel_shows_the_pot_and_the_time_left_ticking() -> None:
    clock = Clock()
    r = rig(seed_of("loss"), clock=clock)
    s = r.session
    assert s.jackpot is not None
    left = s.jackpot.seconds_left(s.now_ms())
    h, rest = divmod(left, 3600)
    assert r.host.controls.jackpot == FMT(0)
    assert r.host.controls.jackpot_time == f"{h:02d}:{rest // 60:02d}:{rest % 60:02d}"
    clock.t += 61
    r.run(FRAME_MS)
    h, rest = divmod(left - 61, 3600)
    assert r.host.controls.jackpot_time == f"{h:02d}:{rest // 60:02d}:{rest % 60:02d}"
    r.press("bet_max")
    play_round(r)
    assert r.host.controls.jackpot == FMT(s.jackpot.amount)
    assert s.jackpot.amount > 0
    clock.t = s.jackpot.deadline_ms / 1000 + 100
    r.run(FRAME_MS)
    assert r.host.controls.jackpot_time == "00:00:00"


def test_a_jackpot_drop_is_announced_and_paid() -> None:
    r, _clock = jackpot_rig()
    s = r.session
    assert s.jackpot is not None
    pot = s.jackpot.amount
    balance = s.balance
    banners: list[str] = []
    pots: list[str] = []

    def watch(c: Controller) -> None:
        if c.view.banner is not None and (not banners or banners[-1] != c.view.banner.title):
            banners.append(c.view.banner.title)
        if not pots or pots[-1] != r.host.controls.jackpot:
            pots.append(r.host.controls.jackpot)

    play_round(r, watch=watch)
    log = round_log(s)
    win = first(log, ev.JackpotWin)
    assert win.amount >= pot
    assert "TIME JACKPOT" in banners
    assert f"Time jackpot won: {FMT(win.amount)}!" in r.host.announcements
    assert r.host.posted("jackpotWin") == [{"amount": win.amount}]
    end = first(log, ev.RoundEnd)
    assert end.win >= win.amount
    assert s.balance == balance - s.bet.total + end.win
    assert r.host.controls.balance == FMT(s.balance)
    assert r.host.controls.win == FMT(end.win)
    # The panel shows the pot being won until the announcement, then the new pot.
    assert FMT(win.amount) in pots
    assert r.host.controls.jackpot == FMT(s.jackpot.amount)
    assert s.jackpot.amount < win.amount
    assert s.jackpot.drops == 1


# -- autoplay ------------------------------------------------------------------------------------
def test_autoplay_stops_for_hold_and_respin_in_the_game_s_own_words() -> None:
    message = stop_reason(StopReason.FEATURE, MOON)
    assert message == "Autoplay stopped: Hold and Respin won!"
    assert "free spins" not in message
    assert stop_reason(StopReason.FEATURE, "book_of_spells") == "Autoplay stopped: free spins won!"
    r = rig(seed_of("ladder"), turbo=True)
    r.controller.start_autoplay(AutoplayLimits(10, stop_on_feature=True))
    r.until(lambda c: c.autoplay is None and not c.presenting, 120_000)
    assert message in r.host.announcements
    assert r.controller.context() == "feature_start"
    assert r.host.controls.buttons["start_feature"].visible
    intro = r.controller.view.intro
    assert isinstance(intro, FeatureCard)
    assert intro.waiting


# -- recovery ------------------------------------------------------------------------------------
def test_reload_at_the_start_of_hold_and_respin_waits_for_start_again() -> None:
    r = rig(seed_of("ladder"), turbo=True)
    r.press("spin")
    r.until(lambda c: c.context() == "feature_start" and not c.presenting)
    b = restore_rig(r.host.snapshot, turbo=True, game=MOON)
    c = b.controller
    assert b.session.pending is not None
    assert b.session.pending.kind == "feature_start"
    assert c.context() == "feature_start"
    assert b.host.state == "feature"
    assert b.host.controls.buttons["start_feature"].visible
    assert c.view.cell_values == r.controller.view.cell_values
    assert c.view.reels.window() == r.controller.view.reels.window()
    intro = c.view.intro
    assert isinstance(intro, FeatureCard)
    assert intro.waiting
    b.canvas.take()
    draw(b.canvas, b.layout, c.view, c.now)
    assert "PRESS START" in b.canvas.texts()
    for x in (r, b):
        x.press("start_feature")
        x.until(lambda c: idle(c) and not c.session.in_round, 600_000)
    assert b.session.balance == r.session.balance
    assert b.session.last_round == r.session.last_round
    assert b.host.controls.balance == r.host.controls.balance
    assert b.host.posted("featureEnd") == r.host.posted("featureEnd")


@pytest.mark.parametrize("kind", ["bought", "won"])
def test_reload_during_the_bonus_animation_shows_its_end_result(kind: str) -> None:
    r = rig(seed_of("buy_ladder" if kind == "bought" else "ladder"))
    if kind == "bought":
        r.press("buy")
        assert r.controller.confirm_buy() is None
    else:
        r.press("spin")
        r.until(lambda c: c.context() == "feature_start" and not c.presenting)
        r.press("start_feature")
    r.until(lambda c: type(c.beat).__name__ == "RespinBeat")
    assert r.controller.meters.in_feature
    # The session was saved finished: the bonus was played when it was bought / started.
    b = restore_rig(r.host.snapshot, game=MOON)
    s = b.session
    assert not s.in_round
    last = s.last_round
    assert last is not None
    end = first(list(last.events), ev.HoldAndRespinEnd)
    c = b.controller
    assert c.context() == "idle"
    assert b.host.state == "ready"
    assert not c.meters.in_feature
    grid, rungs, counter = c.view.overlay(HoldGrid), c.view.overlay(LadderView), c.view.overlay(RespinCounter)
    assert grid is not None
    assert len(grid.held(c.now)) == end.count
    assert rungs is not None
    assert rungs.count == end.count
    assert counter is not None
    assert (counter.label, counter.collected) == ("BONUS WIN", FMT(end.win))
    assert b.host.controls.win == FMT(last.win)
    assert b.host.controls.balance == FMT(s.balance)
    assert b.host.announcements == [f"Hold and Respin result: {end.count} Moons, bonus win {FMT(end.win)}."]
    texts = b.canvas.texts()
    assert "BONUS WIN" in texts
    assert FMT(end.win) in texts
    # The next spin goes back to the reels, with the ladder at rest above them.
    b.press("spin")
    b.run(FRAME_MS)
    assert c.view.overlay(HoldGrid) is None
    resting = c.view.overlay(LadderView)
    assert resting is not None
    assert resting.lit == 0
    # The interrupted page, played on, ends the same.
    r.until(lambda c: idle(c) and not c.session.in_round, 600_000)
    assert r.host.controls.balance == FMT(last.balance_after)


# -- drawing budget --------------------------------------------------------------------------------
def test_every_frame_of_a_bonus_stays_within_the_call_budget() -> None:
    r = rig(seed_of("buy_ladder"), turbo=True, size=(1920, 1080))
    worst = 0

    def watch(c: Controller) -> None:
        nonlocal worst
        r.canvas.take()
        draw(r.canvas, r.layout, c.view, c.now)
        worst = max(worst, len(r.canvas.take()))

    play_round(r, buy=True, watch=watch)
    # ~30 us a call: a full board with the ladder, the counter and a banner stays near 3 ms.
    assert 0 < worst <= 110


# -- pages ----------------------------------------------------------------------------------------
def page(kind: str, bet_per_line: int = 10, lines: int = 20, **kw: Any) -> str:
    """Dialog ``kind`` for Moon Spell at this bet, as `pages.page_html` chooses it."""
    fields: dict[str, Any] = {"desc": DESC, "info": {}, "fmt": FMT, "assets": ASSETS}
    fields.update(kw)
    ctx = PageContext(bet_per_line=bet_per_line, lines=lines, stake=bet_per_line * lines, **fields)
    html = page_html(kind, screen_for(MOON), ctx)
    assert html is not None
    return html


def test_paytable_shows_pays_moon_prizes_and_the_ladder_at_the_current_bet() -> None:
    html = page("paytable", 10, 20)
    assert "multipliers of the total stake, not credits" in html
    assert "total stake of 2.00 (20 fixed lines at 0.10)" in html
    for symbol, pays in DESC["paytable"].items():
        for count, x in pays.items():
            # The rules: a line pays the total stake times the multiplier shown (pay / 20 lines).
            shown = x_text(Fraction(x, 20))
            assert f'<li><b>{count}×</b> <span class="mult">{shown}</span> {FMT(x * 10)}</li>' in html, (symbol, count)
    # Reel 1 has no Wild, so "a line of Wilds alone" cannot happen and is not promised.
    assert "alone pays" not in html
    assert "<li><b>0.5×</b> 1.00</li>" in html  # the smallest Moon prize at 2.00
    assert "<li><b>100×</b> 200.00</li>" in html
    for moons, x in LADDER.items():
        assert f'<tr><th scope="row">{moons} Moons</th><td>{x:,}×</td><td>{FMT(x * 200)}</td></tr>' in html
    assert "except the Moon" in html
    assert html.count('class="payline"') == len(DESC["paylines"])


def test_rules_give_every_feature_and_the_par_sheet_figures() -> None:
    html = page("help", 10, 20, info=INFO, settings={})
    for text in (
        'Return to player: <b class="fig-rtp">93.14%</b>',
        'Return to player in Feature Buy: <b class="fig-rtp-buy">95.74%</b>',
        'Maximum win: <b class="fig-max">5,224×</b> the total bet',
        f"for {DESC['feature_buy']['price_x']}× the total bet: <b>{FMT(DESC['feature_buy']['price_x'] * 200)}</b>",
        "resets the respins to 3",
        "10 Moons: 50×",
        "15 Moons: 5,000×",
        "1% of the stake of every spin",
        "00:00 UTC",
        "up to certain once the deadline is reached",
        "does not contribute to the time jackpot",
        "Hold and Respin",
    ):
        assert text in html, text
    assert "free spins" not in html


def test_the_buy_dialog_shows_the_price_and_says_when_the_balance_is_short() -> None:
    x = DESC["feature_buy"]["price_x"]
    html = page("buy", 5, 20, price=x * 100, balance=100_000, info={"mode_rtp": {"buy": 0.9574}})
    assert f'<strong id="buy-price">{FMT(x * 100)}</strong>' in html
    assert f"{x}× your total bet of 1.00" in html
    assert "95.74%" in html
    assert "not enough" not in html
    short = page("buy", 5, 20, price=x * 100, balance=1000)
    assert "Your balance of 10.00 is not enough" in short


def test_history_names_the_bonus_the_buy_and_the_jackpot() -> None:
    r, _ = jackpot_rig()
    s = r.session
    s.set_bet(s.game.bets.default)
    s.buy()
    html = page("history", history=s.history)
    assert f"Feature Buy {FMT(s.price('buy'))}" in html
    assert "Hold and Respin" in html
    s.spin()
    while s.pending is not None:
        s.choose(s.pending.choices[0])
    html = page("history", history=s.history)
    assert "· jackpot " in html


def test_the_history_shows_a_bonus_rounds_final_board_and_a_bought_rounds_board() -> None:
    """The history lists a bonus round with its final board (the held Moons and their
    prizes), and a bought round, which has no reels of its own, with its board too."""
    from slotui.games.moon_spell import SCREEN
    from slotui.pages import page_context, page_html

    s = Session(MOON, seed=seed_of("ladder"), balance=10**7)
    s.spin()
    while s.pending is not None:
        s.choose(s.pending.choices[0])
    s.buy()
    won, bought = s.history
    end = next(e for e in won.events if isinstance(e, ev.HoldAndRespinEnd))
    html = page_html("history", SCREEN, page_context(s, DESC, INFO, "static/games/moon_spell"))
    assert html is not None
    assert html.count('class="mini board') == 2
    assert f'aria-label="Moons held: {end.count}"' in html
    first_board = html.split('class="mini board')[2]  # newest first: the won bonus is second
    assert first_board.count('class="held"') == end.count
    held = sum(e.prizes.__len__() for e in won.events if isinstance(e, ev.HoldAndRespinStart | ev.Respin))
    assert held == end.count
    assert bought.mode == "buy"


def test_the_prize_ladder_stands_above_the_reels_in_the_base_game() -> None:
    """As the rules page says: the ladder's rungs above the reels in the base game, none lit,
    from the first screen on and after every base spin (the bonus then lights them)."""
    r = make_rig(1, game="moon_spell", resume=True)
    band = r.controller.view.band
    assert isinstance(band, LadderView)
    ladder = get_game("moon_spell").describe()["hold_and_respin"]["ladder"]
    assert [n for n, _, _ in band.rungs] == sorted(int(k) for k in ladder)
    assert band.lit == 0
    assert not band.active
    r.press("spin")
    r.until(lambda c: idle(c), 60_000)
    assert isinstance(r.controller.view.band, LadderView)
