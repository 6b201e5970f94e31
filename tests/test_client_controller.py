"""slotui.controller: the client's state machine on a real session of the rig's game
(`tests.client_support.GAME`: the first game with a gamble and free spins).

The controller is driven as ``web/main.py`` drives it: ``tick(now)`` every frame (16.7 ms),
``press(action, now)`` for buttons and keys, ``resume()`` after a reload. Every frame it
asks for is drawn on a recording canvas, so the renderer sees every state too.
"""

from __future__ import annotations

import importlib
from typing import Any

import pytest

from pyengine import events as ev
from pyengine.autoplay import AutoplayLimits, StopReason
from pyengine.games import game_ids, get_game, plugin
from pyengine.model import Bet
from pyengine.session import Session
from slotui.render import draw
from slotui.controller import Controller, stop_reason
from slotui.keys import action_for_key
from slotui.timing import NORMAL, REDUCED, TURBO
from slotui.expanding import ExpandingSymbol
from slotui.overlay import IntroCard
from tests.client_support import (
    FRAME_MS,
    GAME,
    GAME_EVENT_TYPES,
    Rig,
    find_seed,
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


def own_intro(game: str) -> type[IntroCard]:
    """The intro card of ``game``'s free spins: the one `IntroCard` its screen module defines."""
    module = importlib.import_module(plugin(game).screen)
    cards = [
        v
        for v in vars(module).values()
        if isinstance(v, type) and issubclass(v, IntroCard) and v.__module__ == module.__name__
    ]
    assert len(cards) == 1, cards
    return cards[0]


INTRO: Any = own_intro(GAME)
"""The rig's game's intro card (its own fields: the spins, the chosen symbol)."""


def expanding(c: Controller) -> str | None:
    """The expanding symbol shown above the reels, if any."""
    shown = c.view.overlay(ExpandingSymbol)
    return shown.symbol if shown is not None else None


FEATURE_SEED = find_seed("free_spins")
RETRIGGER_SEED = find_seed("retrigger")
CAP_SETTINGS = {"free_spin_cap_x": 5}
CAP_SEED = find_seed("capped", **CAP_SETTINGS)
WIN_SEED = find_seed("win")
LOSS_SEED = find_seed("loss")
GAMBLE_WON_SEED = find_seed("gamble_won")
GAMBLE_LOST_SEED = find_seed("gamble_lost")
LIMIT_SETTINGS = {"gamble_limit_x": 1}
GAMBLE_LIMIT_SEED = find_seed("gamble_limit", **LIMIT_SETTINGS)

BET_ACTIONS = ("bet_up", "bet_down", "lines_up", "lines_down", "bet_max")


def fmt(minor: int) -> str:
    return f"{minor // 100:,}.{minor % 100:02d}"


def to_feature_start(r: Rig) -> None:
    r.press("spin")
    r.until(lambda c: c.context() == "feature_start")


def finish_round(r: Rig) -> None:
    """Play on to the end of the round, starting the feature and collecting as needed."""

    def done(c: Controller) -> bool:
        if idle(c) and c.pending_kind == "feature_start":
            c.press("start_feature", c.now)
        elif idle(c) and c.pending_kind in ("collect_or_gamble", "gamble"):
            c.press("collect", c.now)
        return idle(c) and not c.session.in_round

    r.until(done, 600_000)


# -- a plain spin ---------------------------------------------------------------------------
def test_a_losing_spin_goes_ready_spinning_ready_and_posts_the_engine_numbers() -> None:
    r = make_rig(LOSS_SEED)
    assert r.host.states == ["ready"]
    assert r.host.controls.buttons["spin"].label == "SPIN"
    r.press("spin")
    r.run(FRAME_MS)
    assert r.host.state == "spinning"
    assert r.controller.view.reels.moving
    assert r.host.controls.buttons["spin"].label == "STOP"
    r.until(idle)
    assert r.host.states == ["ready", "spinning", "ready"]
    log = round_log(r.session)
    start, end = first(log, ev.RoundStart), first(log, ev.RoundEnd)
    assert r.host.posts == [
        ("roundStart", {"game": GAME, "stake": start.stake, "balance": start.balance}),
        ("roundEnd", {"win": end.win, "balance": end.balance}),
    ]
    assert end.win == 0
    assert r.host.announcements[-1] == "No win."
    c = r.host.controls
    assert (c.balance, c.win, c.total_bet) == (fmt(r.session.balance), "0.00", fmt(r.session.bet.total))
    spin = first(log, ev.Spin)
    assert r.controller.view.reels.window() == [list(col) for col in spin.window]


def test_a_win_is_presented_then_collected_and_the_meters_match_the_session() -> None:
    r = make_rig(WIN_SEED)
    r.press("spin")
    r.until(idle)
    s = r.session
    assert r.controller.context() == "collect_or_gamble"
    assert r.host.state == "ready"
    c = r.host.controls
    assert c.win == fmt(s.round_win)
    assert c.balance == fmt(s.balance)
    for name in ("collect", "gamble"):
        assert c.buttons[name].visible, name
        assert c.buttons[name].enabled, name
    assert c.buttons["bet_max"].label == "GAMBLE"  # on desktop Bet Max becomes Gamble
    wins = [e for e in round_log(s) if isinstance(e, ev.LineWin | ev.ScatterWin)]
    assert any(a.startswith("Win: ") and a.endswith(fmt(sum(w.win for w in wins))) for a in r.host.announcements)
    assert r.controller.view.highlights, "the winning symbols stay framed"
    r.press("collect")
    r.until(idle)
    assert not s.in_round
    last = s.last_round
    assert last is not None
    assert r.host.posted("roundEnd") == [{"win": last.win, "balance": s.balance}]
    c = r.host.controls
    assert (c.balance, c.win) == (fmt(s.balance), fmt(last.win))
    assert r.host.states == ["ready", "spinning", "ready"]


def test_every_engine_call_is_saved_for_a_reload() -> None:
    r = make_rig(WIN_SEED)
    r.press("spin")
    # The round waits at Collect: a reload credits the win (the rule for a page left at Collect).
    reloaded = Session.restore(r.host.snapshot, clock=wall_clock)
    assert not reloaded.in_round
    assert reloaded.balance == r.session.balance + r.session.round_win
    r.until(idle)
    r.press("collect")
    restored = Session.restore(r.host.snapshot, clock=wall_clock)
    assert not restored.in_round
    assert restored.balance == r.session.balance


# -- quick stop -------------------------------------------------------------------------------
def reels_settled_after(action: str | None, press_at: float) -> tuple[float, Rig]:
    r = make_rig(LOSS_SEED)
    t0 = r.now
    r.press("spin")
    r.run(press_at if action is not None else FRAME_MS)
    assert r.controller.view.reels.moving
    if action is not None:
        assert r.controller.context() == "spinning"
        r.press(action)
    r.until(lambda c: not c.view.reels.moving)
    return r.now - t0, r


@pytest.mark.parametrize("action", ["stop", "spin"])
def test_quick_stop_ends_the_spin_much_sooner(action: str) -> None:
    normal, _ = reels_settled_after(None, 0)
    assert normal >= NORMAL.windup + NORMAL.spin_min + 4 * NORMAL.stagger + NORMAL.stop
    quick, r = reels_settled_after(action, 300.0)
    assert quick <= 300.0 + 160.0 + 2 * FRAME_MS
    assert quick < normal / 2
    spin = first(round_log(r.session), ev.Spin)
    assert [reel.stop for reel in r.controller.view.reels.reels] == list(spin.stops)
    assert r.session.rounds_played == 1, "a quick stop never starts another round"


def test_quick_stop_hurries_the_win_presentation() -> None:
    r = make_rig(WIN_SEED)
    r.press("spin")
    r.until(lambda c: c.view.line_label != "")  # the wins are being shown
    t = r.now
    r.press("stop")
    r.until(idle)
    assert r.now - t <= 3 * FRAME_MS
    assert r.host.controls.win == fmt(r.session.round_win)


def test_each_line_win_is_written_at_the_end_of_its_line_and_the_total_under_the_reels() -> None:
    """Each winning line's amount on its last winning symbol; the ticker under the reels names
    the line and gives the total won so far, as a message."""
    r = make_rig(WIN_SEED)
    shown: list[tuple[str, str, int, tuple[int, ...] | None]] = []

    def watch(c: Controller) -> bool:
        v = c.view
        seen = (v.line_label, v.line_amount, v.line_count, v.line_rows)
        if v.line_amount and (not shown or shown[-1] != seen):
            shown.append(seen)
        return idle(c) and bool(shown)

    r.press("spin")
    r.until(watch)
    log = round_log(r.session)
    lines = [e for e in log if isinstance(e, ev.LineWin)]
    assert lines, "the seed wins on a line"
    paylines = r.controller.desc["paylines"]
    # The seed's round is one spin: its wins are shown together, after the count-up.
    assert sum(1 for e in log if isinstance(e, ev.Spin)) == 1
    total = sum(int(getattr(e, "win", 0)) for e in log if e.category == "win")
    for w in lines:
        want = (f"LINE {w.line} · TOTAL WIN {fmt(total)}", fmt(w.win), w.count, tuple(paylines[w.line - 1]))
        assert want in shown, (want, shown)
    # Drawn: the amount's text lies on the line's last winning symbol.
    w = lines[-1]
    r.controller.view.line_rows = tuple(paylines[w.line - 1])
    r.controller.view.line_count = w.count
    r.controller.view.line_amount = fmt(w.win)
    r.controller.view.highlights = [(0, 0)]
    r.canvas.take()
    draw(r.canvas, r.layout, r.controller.view, r.now)
    x, y, cw, ch = r.layout.cell_rect(w.count - 1, paylines[w.line - 1][w.count - 1])
    texts = [c for c in r.canvas.take() if c[0] == "text" and c[1] == fmt(w.win)]
    assert texts, "the amount is drawn"
    assert all(x <= float(str(t[2])) <= x + cw and y <= float(str(t[3])) <= y + ch for t in texts), texts


# -- bets ---------------------------------------------------------------------------------------
def test_bet_buttons_work_when_idle() -> None:
    r = make_rig(LOSS_SEED)
    s = r.session
    assert s.bet == Bet(9, 10)
    r.press("bet_up")
    r.run(FRAME_MS)
    assert s.bet == Bet(9, 20)
    c = r.host.controls
    assert (c.bet_per_line, c.total_bet, c.lines) == ("0.20", "1.80", "9")
    r.press("bet_down")
    r.press("bet_down")
    assert s.bet == Bet(9, 5)
    r.press("lines_down")
    assert s.bet == Bet(8, 5)
    r.run(FRAME_MS)
    assert r.host.controls.total_bet == "0.40"
    # The ends: the lowest level holds, and its minus button is disabled.
    for _ in range(10):
        r.press("bet_down")
    r.run(FRAME_MS)
    assert s.bet.bet_per_line == 1
    assert not r.host.controls.buttons["bet_down"].enabled
    assert r.host.controls.buttons["bet_up"].enabled


def test_lines_up_past_nine_wraps_to_one_and_back() -> None:
    r = make_rig(LOSS_SEED)
    assert r.session.bet.lines == 9
    r.press("lines_up")
    r.run(FRAME_MS)
    assert r.session.bet.lines == 1
    assert r.host.controls.lines == "1"
    r.press("lines_down")
    assert r.session.bet.lines == 9


def test_bet_max_then_bet_max_again_spins_at_the_maximum() -> None:
    r = make_rig(LOSS_SEED)
    r.press("bet_max")
    r.run(FRAME_MS)
    s = r.session
    assert s.bet == s.game.bets.max_bet == Bet(9, 100)
    assert not s.in_round
    assert not r.controller.presenting
    assert r.host.controls.total_bet == "9.00"
    r.press("bet_max")
    r.run(FRAME_MS)
    assert r.controller.view.reels.moving
    assert r.host.posted("roundStart")[0]["stake"] == 900
    r.until(idle)
    assert r.session.rounds_played == 1


def assert_bets_locked(r: Rig) -> None:
    """Bet buttons are disabled, and pressing them anyway changes nothing."""
    r.run(FRAME_MS)
    buttons = r.host.controls.buttons
    for name in BET_ACTIONS:
        assert not buttons[name].enabled, f"{name} is enabled in context {r.controller.context()!r}"
    before = r.session.bet
    for name in BET_ACTIONS:
        r.press(name)
    assert r.session.bet == before


def test_bet_buttons_are_disabled_and_ignored_during_a_round() -> None:
    r = make_rig(FEATURE_SEED, turbo=True)
    r.press("spin")
    r.run(100)
    assert r.controller.context() == "spinning"
    assert_bets_locked(r)
    r.until(lambda c: c.context() == "feature_start")
    assert_bets_locked(r)
    r.press("start_feature")
    r.until(lambda c: c.meters.free_spin[0] == 2)
    assert r.controller.context() == "free_spins"
    assert_bets_locked(r)
    r.until(lambda c: idle(c) and c.pending_kind == "collect_or_gamble", 300_000)
    r.press("gamble")
    r.run(FRAME_MS)
    assert r.controller.context() == "gamble"
    assert_bets_locked(r)
    assert r.session.rounds_played == 0
    assert r.session.bet == Bet(9, 10)


def test_a_bet_change_while_a_win_waits_collects_it_first() -> None:
    r = make_rig(WIN_SEED)
    r.press("spin")
    r.until(idle)
    win = r.session.round_win
    assert r.host.controls.buttons["bet_up"].enabled
    r.press("bet_up")
    assert not r.session.in_round
    assert r.session.bet == Bet(9, 20)
    r.until(idle)
    assert r.host.posted("roundEnd")[-1]["win"] == win


# -- gamble -------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("seed", "guess"),
    [(GAMBLE_WON_SEED, "red"), (GAMBLE_WON_SEED, "black"), (GAMBLE_LOST_SEED, "red"), (GAMBLE_LOST_SEED, "black")],
)
def test_gamble_shows_the_card_and_ends_with_the_engine_result(seed: int, guess: str) -> None:
    r = make_rig(seed)
    r.press("spin")
    r.until(idle)
    win = r.session.round_win
    r.press("gamble")
    r.run(FRAME_MS)
    c = r.controller
    assert c.context() == "gamble"
    assert r.host.state == "feature"
    g = c.view.gamble
    assert g is not None
    assert (g.win, g.potential, g.card) == (fmt(win), fmt(2 * win), None)
    buttons = r.host.controls.buttons
    for name in ("red", "black", "collect"):
        assert buttons[name].visible, name
    assert not buttons["spin"].enabled
    texts = r.canvas.texts()
    assert f"GAMBLE WIN {fmt(win)}" in texts
    r.press(guess)
    shown: list[tuple[str, str]] = []

    def watch(c: Controller) -> bool:
        g = c.view.gamble
        if g is not None and g.card is not None and (g.card, g.result) not in shown:
            shown.append((g.card, g.result))
        return idle(c)

    r.until(watch)
    card = first(round_log(r.session), ev.GambleCard)
    assert card.guess == guess
    assert shown == [(card.card, "YOU WIN" if card.won else "YOU LOSE")]
    colour = "red" if card.card[-1] in "HD" else "black"
    assert any(a.startswith(f"The card is {colour}.") for a in r.host.announcements)
    if card.won:
        assert c.context() == "gamble"
        g = c.view.gamble
        assert g is not None
        assert (g.win, g.potential, g.card, g.history) == (fmt(2 * win), fmt(4 * win), None, [card.card])
        assert r.host.controls.win == fmt(2 * win)
        r.press("collect")
        r.until(idle)
    assert not r.session.in_round
    assert c.view.gamble is None
    end = first(round_log(r.session), ev.RoundEnd)
    assert end.win == (2 * win if card.won else 0)
    assert r.host.posted("roundEnd") == [{"win": end.win, "balance": end.balance}]
    assert r.host.controls.win == fmt(end.win)
    assert r.host.controls.balance == fmt(r.session.balance)
    assert r.host.state == "ready"


def test_gamble_ends_at_the_limit() -> None:
    r = make_rig(GAMBLE_LIMIT_SEED, settings=LIMIT_SETTINGS)
    r.press("spin")
    r.until(idle)
    r.press("bet_max")  # the Gamble button on desktop
    r.run(FRAME_MS)
    assert r.controller.context() == "gamble"
    r.press("red")
    r.until(idle)
    assert not r.session.in_round
    assert "Gamble limit reached: the win is collected." in r.host.announcements
    end = first(round_log(r.session), ev.GambleEnd)
    assert end.reason == "limit"
    assert r.host.posted("roundEnd")[-1]["win"] == end.win


def test_spin_while_a_win_waits_collects_and_spins() -> None:
    r = make_rig(WIN_SEED)
    r.press("spin")
    r.until(idle)
    win = r.session.round_win
    r.press("spin")
    r.until(idle)
    assert r.session.rounds_played >= 1
    assert r.host.posted("roundEnd")[0]["win"] == win
    assert len(r.host.posted("roundStart")) == 2


# -- free spins -----------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("seed", "motion"),
    [(FEATURE_SEED, "turbo"), (RETRIGGER_SEED, "turbo"), (FEATURE_SEED, "reduced")],
    ids=["ten", "retrigger", "ten-reduced-motion"],
)
def test_free_spins_play_every_spin_with_the_expanding_symbol(
    seed: int, motion: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    r = make_rig(seed, turbo=motion == "turbo", reduced_motion=motion == "reduced")
    c = r.controller
    with record_events(monkeypatch) as played:
        to_feature_start(r)
        log = round_log(r.session)
        symbol = first(log, ev.ExpandingSymbolChosen).symbol
        # The game's own intro has chosen the symbol, and waits for Start.
        intro = c.view.intro
        assert isinstance(intro, INTRO)
        assert (intro.symbol, intro.waiting, intro.spins) == (symbol, True, 10)
        assert r.host.state == "feature"
        assert r.host.controls.buttons["start_feature"].visible
        assert r.host.controls.buttons["start_feature"].enabled
        r.canvas.take()
        draw(r.canvas, r.layout, c.view, c.now)  # the waiting intro is still: draw it once
        assert symbol in r.canvas.sprites_drawn()
        assert "PRESS START" in r.canvas.texts()
        assert "10 FREE SPINS" in r.canvas.texts()
        assert r.host.posted("featureStart") == [{"feature": "free_spins", "spins": 10}]
        name = next(s["name"] for s in c.desc["symbols"] if s["id"] == symbol)
        assert f"The expanding symbol is the {name}. Press Start to play the free spins." in r.host.announcements

        r.press("start_feature")
        r.run(FRAME_MS)
        assert c.view.intro is None
        assert expanding(c) == symbol
        statuses: list[str] = []
        banners: set[str] = set()

        def watch(c: Controller) -> bool:
            if c.meters.in_feature:
                assert r.host.state == "feature"
                assert expanding(c) == symbol
                if c.view.status and (not statuses or statuses[-1] != c.view.status):
                    statuses.append(c.view.status)
            if c.view.banner is not None:
                banners.add(c.view.banner.title)
            return idle(c) and c.pending_kind == "collect_or_gamble"

        r.until(watch, 600_000)

    log = round_log(r.session)
    starts = [e for e in log if isinstance(e, ev.FreeSpinStart)]
    assert played.count(ev.FreeSpinStart) == len(starts) >= 10
    assert played.events == log, "the controller played the engine's log, in order"
    for s in starts:
        assert any(t.startswith(f"FREE SPIN {s.number} OF {s.total}  ") for t in statuses), s
    end = first(log, ev.FreeSpinsEnd)
    assert end.spins == len(starts)
    assert statuses[-1].endswith(f"FEATURE WIN {fmt(end.win)}"), "the live total adds up to the engine's"
    assert r.host.posted("featureEnd") == [{"feature": "free_spins", "win": end.win, "spins": end.spins}]
    assert "FREE SPINS WIN" in banners
    retriggers = [e for e in log if isinstance(e, ev.FreeSpinsAwarded) and e.retrigger]
    if seed == RETRIGGER_SEED:
        assert retriggers
        assert "+10 FREE SPINS" in banners
        assert "10 more free spins!" in r.host.announcements
        assert starts[-1].total == 10 + 10 * len(retriggers)
    # After the feature: the symbol is gone, the base game looks normal again.
    assert not c.meters.in_feature
    assert expanding(c) is None
    assert c.view.status == ""
    assert r.host.state == "ready"
    assert r.host.controls.win == fmt(r.session.round_win)
    r.press("collect")
    r.until(idle)
    assert r.host.controls.balance == fmt(r.session.balance)


def press_start_during_the_intro(beat: str) -> tuple[float, Rig]:
    """Press Start while ``beat`` of the intro plays; how long until the free spins start."""
    r = make_rig(FEATURE_SEED)
    r.press("spin")
    r.until(lambda c: type(c.beat).__name__ == beat)
    assert r.controller.context() == "free_spins"  # still presenting the intro
    t = r.now
    r.press("start_feature")
    r.until(lambda c: c.view.intro is None, 10_000)
    assert expanding(r.controller) == first(round_log(r.session), ev.ExpandingSymbolChosen).symbol
    r.until(lambda c: c.meters.free_spin[0] == 1, 10_000)
    return r.now - t, r


def test_quick_stop_during_the_expansion_is_not_lost() -> None:
    r = make_rig(find_seed("expanded"))
    to_feature_start(r)
    r.press("start_feature")
    r.until(lambda c: type(c.beat).__name__ == "ExpansionBeat" and getattr(c.beat, "stage", 0) == 2, 300_000)
    t = r.now
    r.press("stop")
    r.until(lambda c: type(c.beat).__name__ != "ExpansionBeat")
    grow_ms = 700.0  # the expansion animation at normal speed
    assert r.now - t <= grow_ms + 3 * FRAME_MS


def test_start_pressed_while_the_intro_chooses_the_symbol_starts_at_once() -> None:
    took, _ = press_start_during_the_intro("ChooseBeat")
    assert took <= NORMAL.pause + 4 * FRAME_MS


def test_start_pressed_during_the_intro_is_remembered() -> None:
    """No second press is needed: the free spins start by themselves after the intro."""
    _, r = press_start_during_the_intro("IntroBeat")
    assert r.host.controls_log
    assert not any(c.buttons["start_feature"].visible for c in r.host.controls_log)


def test_start_pressed_during_the_intro_finishes_it_at_once() -> None:
    took, _ = press_start_during_the_intro("IntroBeat")
    assert took <= NORMAL.pause + 4 * FRAME_MS


def test_every_event_type_is_played(monkeypatch: pytest.MonkeyPatch) -> None:
    """Rounds with a retrigger, the win limit, a gamble won up to its limit and one lost:
    together they hold every event type of the rig's game (its kit's ``EVENT_TYPES``), and the
    controller plays each round's whole log. (Each other game's are played by the client tests
    in its own folder, ``tests/games/<id>/``.)"""
    rounds: list[tuple[int, dict[str, int], tuple[str, ...]]] = [
        (RETRIGGER_SEED, {}, ()),
        (CAP_SEED, CAP_SETTINGS, ()),
        (GAMBLE_LIMIT_SEED, LIMIT_SETTINGS, ("gamble", "red")),
        (GAMBLE_LOST_SEED, {}, ("gamble", "black", "red")),
    ]
    seen: set[str] = set()
    with record_events(monkeypatch) as played:
        for seed, settings, answers in rounds:
            played.events.clear()
            r = make_rig(seed, settings=settings, turbo=True)
            todo = list(answers)

            def step(c: Controller, todo: list[str] = todo) -> bool:
                if idle(c) and c.session.in_round:
                    kind = c.pending_kind
                    if kind == "feature_start":
                        c.press("start_feature", c.now)
                    elif kind in ("collect_or_gamble", "gamble"):
                        choices = c.session.pending.choices if c.session.pending else ()
                        c.press(todo.pop(0) if todo and todo[0] in choices else "collect", c.now)
                return idle(c) and not c.session.in_round

            r.press("spin")
            r.until(step, 600_000)
            assert played.events == round_log(r.session)
            seen |= played.types
    assert seen == GAME_EVENT_TYPES[GAME]


# -- the win limit ----------------------------------------------------------------------------
def play_capped_round(r: Rig) -> tuple[set[tuple[str, str]], int]:
    """Play the capped round to its end; the banners seen and the highest win meter."""
    seen = WinWatch()

    def watch(c: Controller) -> None:
        seen(c)
        if c.view.banner is not None and c.view.banner.title == "WIN LIMIT REACHED":
            assert "WIN LIMIT REACHED" in r.canvas.texts()
        r.canvas.take()

    play_round(r, watch=watch)
    return seen.banners, seen.shown


def test_the_win_limit_shows_its_banner_and_ends_the_feature() -> None:
    r = make_rig(CAP_SEED, settings=CAP_SETTINGS, turbo=True)
    banners, _ = play_capped_round(r)
    log = round_log(r.session)
    cap = first(log, ev.WinCapReached)
    assert cap.cap == CAP_SETTINGS["free_spin_cap_x"] * r.session.bet.total
    assert ("WIN LIMIT REACHED", fmt(cap.win)) in banners
    assert f"The free-spin win limit is reached: {fmt(cap.win)}." in r.host.announcements
    end = first(log, ev.FreeSpinsEnd)
    assert end.capped
    assert end.spins < 10 or end.win == cap.win
    # No gamble after a capped feature: the round ended by itself.
    assert not any(isinstance(e, ev.DecisionPending) and e.kind == "collect_or_gamble" for e in log)
    assert r.host.posted("featureEnd") == [{"feature": "free_spins", "win": cap.win, "spins": end.spins}]
    assert r.host.controls.balance == fmt(r.session.balance)
    assert r.host.controls.win == fmt(first(log, ev.RoundEnd).win)


def test_the_win_meter_never_shows_more_than_the_capped_round_pays() -> None:
    r = make_rig(CAP_SEED, settings=CAP_SETTINGS, turbo=True)
    _, shown = play_capped_round(r)
    assert shown <= first(round_log(r.session), ev.RoundEnd).win


# -- autoplay -----------------------------------------------------------------------------------
AUTOPLAY_CASES = {
    StopReason.ROUNDS: (LOSS_SEED, AutoplayLimits(3, stop_on_feature=False), 100_000),
    StopReason.LOSS_LIMIT: (LOSS_SEED, AutoplayLimits(50, loss_limit=300, stop_on_feature=False), 100_000),
    StopReason.BALANCE: (LOSS_SEED, AutoplayLimits(50, stop_on_feature=False), 90),
    StopReason.SINGLE_WIN: (WIN_SEED, AutoplayLimits(50, single_win_limit=1, stop_on_feature=False), 100_000),
    StopReason.FEATURE: (FEATURE_SEED, AutoplayLimits(50, stop_on_feature=True), 100_000),
    StopReason.PLAYER: (LOSS_SEED, AutoplayLimits(50, stop_on_feature=False), 100_000),
}


@pytest.mark.parametrize("reason", list(AUTOPLAY_CASES), ids=[str(r) for r in AUTOPLAY_CASES])
def test_autoplay_stops_with_the_reason_announced(reason: StopReason) -> None:
    seed, limits, balance = AUTOPLAY_CASES[reason]
    r = make_rig(seed, balance=balance, turbo=True)
    c = r.controller
    r.press("autoplay")
    assert r.host.dialogs == ["autoplay"]  # the page shows the autoplay dialog, which calls:
    c.start_autoplay(limits)
    r.run(FRAME_MS)
    assert c.autoplay is not None
    assert c.context() == "autoplay"
    assert r.host.state == "spinning"
    b = r.host.controls.buttons["autoplay"]
    assert (b.label, b.pressed, b.enabled) == ("STOP AUTO", True, True)
    if reason is StopReason.PLAYER:
        r.until(lambda c: c.session.rounds_played == 2)
        r.press("autoplay_stop")

    def done(c: Controller) -> bool:
        # A tap on the canvas starts a feature the round waits on (web/main.py on_tap).
        if c.pending_kind == "feature_start" and not c.presenting:
            c.press("start_feature", c.now)
        if c.pending_kind == "collect_or_gamble" and not c.presenting:
            offered.append(True)  # a feature played by hand after autoplay stopped: the gamble is offered
            c.press("collect", c.now)
        return c.autoplay is None and idle(c) and not c.session.in_round

    offered: list[bool] = []

    r.until(done, 600_000)
    assert stop_reason(reason, GAME) in r.host.announcements
    if reason is not StopReason.FEATURE:  # (after a feature stop the player plays the feature on)
        assert r.host.announcements[-1] == stop_reason(reason, GAME)
    elif r.session.last_round is not None and r.session.last_round.win:
        assert offered
    assert c.autoplay is None
    assert not r.session.in_round
    b = r.host.controls.buttons["autoplay"]
    assert (b.label, b.pressed, b.enabled) == ("AUTO", False, True)
    assert r.host.state == "ready"
    assert c.context() == "idle"
    assert r.host.controls.balance == fmt(r.session.balance)
    # Autoplay never gambles and always collects.
    for record in r.session.history:
        assert not any(isinstance(e, ev.GambleCard) for e in record.events)
    if reason is StopReason.ROUNDS:
        assert r.session.rounds_played == 3
    if reason is StopReason.PLAYER:
        assert r.session.rounds_played == 2


def test_autoplay_stopped_for_free_spins_hands_the_start_to_the_player() -> None:
    r = make_rig(FEATURE_SEED, turbo=True)
    c = r.controller
    c.start_autoplay(AutoplayLimits(10, stop_on_feature=True))
    r.until(lambda c: c.pending_kind == "feature_start" and not c.presenting, 60_000)
    r.run(1000)
    assert c.autoplay is None
    assert r.host.announcements[-1] == stop_reason(StopReason.FEATURE, GAME)
    assert c.context() == "feature_start"
    assert r.host.controls.buttons["start_feature"].visible


def test_autoplay_through_free_spins_when_not_stopping_on_the_feature() -> None:
    r = make_rig(FEATURE_SEED, turbo=True)
    c = r.controller
    c.start_autoplay(AutoplayLimits(1, stop_on_feature=False))
    r.until(lambda c: c.autoplay is None and idle(c), 600_000)
    assert r.host.announcements[-1] == stop_reason(StopReason.ROUNDS, GAME)
    log = round_log(r.session)
    assert r.host.posted("featureEnd")[0]["win"] == first(log, ev.FreeSpinsEnd).win
    assert r.host.posted("roundEnd") == [{"win": first(log, ev.RoundEnd).win, "balance": r.session.balance}]


def test_autoplay_button_in_autoplay_stops_it() -> None:
    r = make_rig(LOSS_SEED, turbo=True)
    r.controller.start_autoplay(AutoplayLimits(50))
    r.run(200)
    r.press("autoplay")
    r.until(lambda c: c.autoplay is None and idle(c))
    assert r.host.announcements[-1] == stop_reason(StopReason.PLAYER, GAME)
    assert r.session.rounds_played == 1
    assert r.host.dialogs == []


# -- recovery ---------------------------------------------------------------------------------
def assert_same_reels(restored: Rig) -> None:
    spins = [e for e in restored.session.round_events if isinstance(e, ev.Spin)]
    reels = restored.controller.view.reels
    assert [reel.stop for reel in reels.reels] == list(spins[-1].stops)
    assert reels.window() == [list(col) for col in spins[-1].window]
    assert not reels.moving


def test_reload_at_feature_start_shows_the_chosen_symbol_and_continues() -> None:
    r = make_rig(FEATURE_SEED, turbo=True)
    to_feature_start(r)
    symbol = first(round_log(r.session), ev.ExpandingSymbolChosen).symbol
    b = restore_rig(r.host.snapshot, turbo=True)
    assert b.session.pending is not None
    assert b.session.pending.kind == "feature_start"
    assert_same_reels(b)
    intro = b.controller.view.overlay(INTRO)
    assert intro is not None
    assert (intro.symbol, intro.waiting) == (symbol, True)
    assert b.controller.context() == "feature_start"
    assert b.host.state == "feature"
    assert b.host.controls.buttons["start_feature"].visible
    assert b.host.controls.balance == r.host.controls.balance
    assert b.host.controls.win == fmt(r.session.round_win)
    b.canvas.take()
    draw(b.canvas, b.layout, b.controller.view, b.controller.now)
    assert symbol in b.canvas.sprites_drawn()
    assert "PRESS START" in b.canvas.texts()
    for rig in (r, b):
        rig.press("start_feature")
        rig.run(FRAME_MS)
        assert expanding(rig.controller) == symbol
        finish_round(rig)
    assert b.session.balance == r.session.balance
    assert b.host.controls.balance == r.host.controls.balance
    assert b.session.last_round == r.session.last_round


def test_reload_mid_free_spins_shows_symbol_counter_and_reels_and_continues() -> None:
    r = make_rig(RETRIGGER_SEED, turbo=True)
    to_feature_start(r)
    r.press("start_feature")
    r.until(lambda c: c.meters.free_spin[0] == 12 and c.meters.in_feature, 300_000)
    symbol = first(round_log(r.session), ev.ExpandingSymbolChosen).symbol
    b = restore_rig(r.host.snapshot, turbo=True)
    c = b.controller
    starts = [e for e in b.session.round_events if isinstance(e, ev.FreeSpinStart)]
    assert (starts[-1].number, starts[-1].total) == (12, 20)
    assert_same_reels(b)
    assert expanding(c) == symbol
    assert c.view.intro is None
    assert c.meters.in_feature
    assert c.meters.free_spin == (12, 20)
    assert c.view.status.startswith("FREE SPIN 12 OF 20  ")
    assert b.host.state == "feature"
    assert c.context() == "free_spins"
    # What the page drew right after resume(): the symbol above the reels and the counter.
    assert symbol in b.canvas.sprites_drawn()
    assert c.view.status in b.canvas.texts()
    # The same reels as the uninterrupted game once its spin 12 has landed.
    r.until(lambda c: not c.view.reels.moving)
    assert r.controller.view.reels.window() == c.view.reels.window()
    finish_round(r)
    finish_round(b)
    assert b.session.balance == r.session.balance
    assert b.host.controls.balance == r.host.controls.balance
    assert b.session.last_round == r.session.last_round
    assert b.host.posted("featureEnd") == r.host.posted("featureEnd")


def test_reload_mid_gamble_shows_the_gamble_and_continues() -> None:
    r = make_rig(GAMBLE_WON_SEED)
    r.press("spin")
    r.until(idle)
    r.press("gamble")
    r.run(FRAME_MS)
    r.press("red")
    r.until(idle)
    assert r.controller.context() == "gamble"
    card = first(round_log(r.session), ev.GambleCard)
    b = restore_rig(r.host.snapshot)
    c = b.controller
    assert_same_reels(b)
    assert c.context() == "gamble"
    assert b.host.state == "feature"
    g = c.view.gamble
    assert g is not None
    assert (g.win, g.potential, g.history, g.card) == (fmt(card.win), fmt(2 * card.win), [card.card], None)
    assert b.host.controls.win == fmt(card.win)
    assert b.host.controls.buttons["red"].visible
    b.canvas.take()
    draw(b.canvas, b.layout, b.controller.view, b.controller.now)
    assert f"GAMBLE WIN {fmt(card.win)}" in b.canvas.texts()
    for rig in (r, b):
        rig.press("black")
        rig.until(idle)
        if rig.session.in_round:
            rig.press("collect")
            rig.until(idle)
    assert not b.session.in_round
    assert b.session.balance == r.session.balance
    assert b.host.controls.balance == r.host.controls.balance
    assert b.session.last_round == r.session.last_round


def test_reload_between_rounds_shows_the_last_reels_and_win() -> None:
    r = make_rig(WIN_SEED)
    r.press("spin")
    r.until(idle)
    r.press("collect")
    r.until(idle)
    b = restore_rig(r.host.snapshot)
    last = b.session.last_round
    assert last is not None
    spin = [e for e in last.events if isinstance(e, ev.Spin)][-1]
    assert b.controller.view.reels.window() == [list(col) for col in spin.window]
    assert b.host.controls.win == fmt(last.win)
    assert b.host.controls.balance == fmt(b.session.balance)
    assert b.controller.context() == "idle"
    assert b.host.state == "ready"


# -- the data-state of a spin that wins free spins --------------------------------------------
def test_a_spin_that_wins_free_spins_is_spinning_until_its_reels_land() -> None:
    r = make_rig(FEATURE_SEED)
    r.press("spin")
    r.run(FRAME_MS)
    assert r.controller.view.reels.moving
    assert r.host.state == "spinning"


# -- settings and dialogs ------------------------------------------------------------------------
def test_turbo_and_reduced_motion_pick_the_timing() -> None:
    r = make_rig(LOSS_SEED)
    c = r.controller
    assert c.timing is NORMAL
    r.press("turbo")
    r.run(FRAME_MS)
    assert c.timing is TURBO
    assert r.host.controls.buttons["turbo"].pressed
    c.reduced_motion = True
    assert c.timing is REDUCED
    r.press("turbo")
    assert c.timing is REDUCED


def test_turbo_spins_are_faster() -> None:
    times = []
    for turbo in (False, True):
        r = make_rig(LOSS_SEED, turbo=turbo)
        t0 = r.now
        r.press("spin")
        r.until(idle)
        times.append(r.now - t0)
    assert times[1] < times[0] * 0.6


@pytest.mark.parametrize("action", ["paytable", "help", "history", "settings", "exit"])
def test_screens_are_opened_through_the_page(action: str) -> None:
    r = make_rig(LOSS_SEED)
    r.press(action)
    assert r.host.dialogs == [action]
    assert not r.session.in_round


def test_an_engine_error_is_shown_not_raised() -> None:
    r = make_rig(LOSS_SEED, balance=50)
    r.press("spin")
    r.run(FRAME_MS)
    assert not r.session.in_round
    assert "more than the balance" in r.host.announcements[-1]
    assert r.host.controls.message == r.host.announcements[-1]
    assert r.host.state == "ready"


# -- TURBO SPIN: Space or the Spin button held down ---------------------------------------------
def test_holding_spin_plays_round_after_round_at_turbo_pace_until_released() -> None:
    r = make_rig(LOSS_SEED)
    r.press("spin")
    r.press("hold")
    assert r.controller.held
    assert r.controller.timing is TURBO
    r.until(lambda c: c.session.rounds_played >= 4, 60_000)
    r.press("release")
    assert not r.controller.held
    assert r.controller.timing is not TURBO
    r.until(idle)
    played = r.session.rounds_played
    r.run(5_000)
    assert r.session.rounds_played == played  # nothing starts once the key is up
    assert not r.session.in_round


def test_holding_spin_collects_a_waiting_win_and_stops_at_a_feature_or_an_empty_balance() -> None:
    # The rig's game waits at Collect after a win: holding Spin collects and plays on.
    r = make_rig(WIN_SEED)
    r.press("spin")
    r.until(lambda c: c.pending_kind == "collect_or_gamble" and not c.presenting)
    r.press("hold")
    r.until(lambda c: c.session.rounds_played >= 2)
    r.press("release")
    assert r.session.history[0].win > 0
    # A small balance: the hold ends by itself when the stake no longer fits.
    stake = r.session.bet.total
    poor = make_rig(LOSS_SEED, balance=2 * stake + 5)
    poor.press("hold")
    poor.until(lambda c: not c.held, 600_000)
    assert poor.session.balance < stake
    assert "more than the balance" in poor.controller.message
    # During autoplay a hold does nothing.
    a = make_rig(LOSS_SEED)
    a.controller.start_autoplay(AutoplayLimits(rounds=3))
    a.press("hold")
    assert not a.controller.held


def test_a_loss_limit_not_above_the_stake_is_refused() -> None:
    r = make_rig(LOSS_SEED)
    stake = r.session.bet.total
    why = r.controller.start_autoplay(AutoplayLimits(10, loss_limit=stake))
    assert why == f"The loss limit must be higher than the stake of {fmt(stake)}."
    assert r.controller.autoplay is None
    assert r.session.rounds_played == 0
    assert r.controller.start_autoplay(AutoplayLimits(10, loss_limit=stake + 1)) is None
    assert r.controller.autoplay is not None


# -- a balance below every bet -------------------------------------------------------------------------
def test_a_balance_below_every_bet_offers_the_reset_and_bet_max_fits_the_balance() -> None:
    """Below the smallest bet, Spin says what can be done and opens Settings (where the
    demo balance is reset); Bet Max sets the highest bet the balance covers."""
    from pyengine.model import Bet
    from pyengine.session import DEFAULT_BALANCE

    r = make_rig(1, balance=0)
    r.press("spin")
    assert not r.session.in_round
    assert "below the smallest bet" in r.controller.message
    assert "Reset the demo balance" in r.controller.message
    assert r.host.dialogs[-1] == "settings"
    assert r.controller.reset_balance() == f"Demo balance reset to {r.controller.fmt(DEFAULT_BALANCE)}."
    assert r.session.balance == DEFAULT_BALANCE
    assert r.controller.reset_balance().startswith("The demo balance is already")
    r2 = make_rig(1, balance=500)  # 5.00: covers 9 lines at 0.50, not at 1.00
    r2.press("bet_max")
    assert r2.session.bet == Bet(9, 50)
    assert r2.session.bet.total <= r2.session.balance
    r2.press("bet_max")  # pressed again: it spins at that bet
    assert r2.session.in_round or r2.session.last_round is not None



def test_a_feature_key_starts_the_next_free_spin_at_once() -> None:
    """The rules' feature keys start the next free spin: pressed while the game pauses
    between free spins, the next spin starts without waiting out the pause."""
    r = make_rig(find_seed("free_spins"))
    c = r.controller
    to_feature_start(r)
    r.press("start_feature")
    r.until(lambda c: idle(c) or (c.pending_kind == "free_spin" and not c.presenting), 120_000)
    r.until(lambda c: c.pending_kind == "free_spin" and not c.presenting, 120_000)
    spins = [e for e in r.session.round_events if isinstance(e, ev.FreeSpinStart)]
    assert action_for_key("Space", c.context()) == "stop"
    r.press(action_for_key("Space", c.context()) or "")
    after = [e for e in r.session.round_events if isinstance(e, ev.FreeSpinStart)]
    assert len(after) == len(spins) + 1  # the next free spin started on the key


def test_a_locked_page_plays_and_saves_nothing() -> None:
    """Another tab took the game over: this page's controls are disabled, presses only say
    why, no engine call and no save happen, only the information pages open."""
    r = make_rig(3)
    saves = len(r.host.saves)
    r.controller.lock("played in another tab")
    r.run(50)
    buttons = r.host.controls.buttons
    assert not buttons["spin"].enabled
    assert not buttons["bet_up"].enabled
    assert buttons["paytable"].enabled
    before = r.session.snapshot()
    for action in ("spin", "bet_up", "bet_max", "autoplay", "hold"):
        r.press(action)
    r.run(500)
    assert r.session.snapshot() == before
    assert len(r.host.saves) == saves
    assert r.host.announcements[-1] == "played in another tab"
    r.press("paytable")
    assert r.host.dialogs[-1] == "paytable"
    assert r.controller.reset_balance() == "played in another tab"


COIN_GAMES = [g for g in game_ids() if get_game(g).bets.coin_game]


@pytest.mark.parametrize("game", COIN_GAMES)
def test_a_refusal_is_worded_in_the_meters_units_and_goes_once_its_cause_is_gone(game: str) -> None:
    """With the meters in coins, a spin the balance does not cover is refused in coins; once
    the bet is lowered (or a round played), the refusal is no longer shown."""
    bets = get_game(game).bets
    bet = bets.default
    r = make_rig(1, game=game, balance=bet.total - 1)
    c = r.controller
    assert c.coin_meters
    r.press("spin")
    assert not r.session.in_round
    coin = bet.coin
    assert c.message == (
        f"The total bet of {bet.total // coin:,} COINS is more than the balance of {(bet.total - 1) // coin:,} "
        "COINS; lower the bet."
    )
    assert c.controls().message == c.message
    r.press("bet_down")
    assert r.session.bet.total < bet.total
    assert c.message == ""
    assert c.controls().message == ""


def test_a_refusal_goes_once_the_bet_is_changed() -> None:
    r = make_rig(1, balance=get_game(GAME).bets.default.total - 1)
    r.press("spin")
    assert "more than the balance" in r.controller.message
    r.press("bet_down")
    assert r.controller.message == ""
