"""Moonshine's screen in CPython: the controller and the screen on real sessions, through the
test rig (`tests.client_support`). Grandma's wins and the Sheriff's, a full bonus (the card,
the pick with its tally, the Start block, the unpicked blocks, the free spins with their
multiplier, the bonus total), recovery at Start, mid-pick and mid free spins, the coin
steppers and the meters in coins or in money, the pages. Seeds are searched with the engine."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import pytest

from pyengine import events as ev
from pyengine.model import Bet
from pyengine.session import Session
from slotui.games import moonshine as ms
from slotui.canvas import RecordingCanvas
from slotui.controller import Controller
from slotui.intro import FeatureCard
from slotui.keys import action_for_key, shortcuts
from slotui.pages import history_html, page_context, page_html
from slotui.pick import PickOverlay, board
from slotui.render import draw
from tests.client_support import (
    GAME_EVENT_TYPES,
    SPRITES,
    Rig,
    idle,
    make_rig,
    record_events,
    restore_rig,
    round_log,
    wall_clock,
)

GAME = "moonshine"
SYMBOLS = ("GRANDMA", "SHERIFF", "BONUS", "PA", "MA", "DAUGHTER", "SON", "PIE", "CHICKEN", "CORN", "MELON")
MS_SPRITES: tuple[str, ...] = (
    *SPRITES,
    *SYMBOLS,
    *(f"{s}:blur" for s in SYMBOLS),
    *(p.name for p in ms.BLOCK_PICTURES),
)
"""What the browser rasterizes for Moonshine: its symbols, the frame art and the blocks."""
SEARCH = range(0, 5000)


# -- seeds, found with the engine -----------------------------------------------------------------
def _play(seed: int) -> list[ev.Event]:
    s = Session(GAME, seed=seed, clock=wall_clock)
    out = s.spin()
    while s.pending is not None:
        out += s.choose(s.pending.choices[0])
    return out


def _bonus(events: list[ev.Event]) -> bool:
    return any(isinstance(e, ev.PickStart) for e in events)


def _grandma_in(e: ev.LineWin, events: list[ev.Event]) -> bool:
    spin = next(x for x in events if isinstance(x, ev.Spin))
    return any(spin.window[r][row] == ms.GRANDMA for r, row in e.positions)


@functools.cache
def seed_of(kind: str) -> int:
    tests: dict[str, Callable[[list[ev.Event]], bool]] = {
        # Grandma's own pay, and a pay she completes, in one base spin.
        "grandma": lambda e: (
            not _bonus(e)
            and any(isinstance(x, ev.LineWin) and x.symbol == ms.GRANDMA for x in e)
            and any(isinstance(x, ev.LineWin) and x.symbol != ms.GRANDMA and _grandma_in(x, e) for x in e)
        ),
        "sheriff": lambda e: not _bonus(e) and any(isinstance(x, ev.ScatterWin) for x in e),
        # A bonus whose first blocks in order are not a Start block at once, at 2x or more.
        "bonus": lambda e: (
            sum(isinstance(x, ev.PickReveal) for x in e) >= 3
            and any(isinstance(x, ev.WinMultiplier) and x.multiplier >= 2 for x in e)
        ),
    }
    for n in SEARCH:
        if tests[kind](_play(n)):
            return n
    raise AssertionError(f"no seed of kind {kind!r} in {SEARCH}")


def rig(seed: int, **kw: Any) -> Rig:
    return make_rig(seed, game=GAME, sprites=MS_SPRITES, **kw)


def watch_labels(r: Rig, until: Callable[[Controller], bool], limit_ms: float = 120_000) -> set[str]:
    """The labels under the reels seen while playing until ``until``."""
    seen: set[str] = set()

    def step(c: Controller) -> bool:
        if c.view.line_label:
            seen.add(c.view.line_label)
        return until(c)

    r.until(step, limit_ms)
    return seen


def to_card(r: Rig) -> None:
    r.press("spin")
    r.until(lambda c: idle(c) and c.pending_kind == "feature_start")


def to_pick(r: Rig) -> PickOverlay:
    to_card(r)
    r.press("start_feature")
    r.until(lambda c: idle(c) and c.pending_kind == "pick")
    found = board(r.controller)
    assert found is not None
    return found


def pick_and_wait(r: Rig, action: str) -> None:
    picked = len(round_log(r.session))
    r.press(action)
    r.until(lambda c: len(round_log(c.session)) > picked and not c.presenting)


def finish(r: Rig, watch: Callable[[Controller], None] | None = None) -> None:
    """Open the focused block whenever the board waits, and play to the round's end."""

    def done(c: Controller) -> bool:
        if watch is not None:
            watch(c)
        if idle(c) and c.pending_kind == "pick":
            c.press("pick_enter", c.now)
        return idle(c) and not c.session.in_round

    r.until(done, 600_000)


def start_when_asked(c: Controller) -> None:
    if idle(c) and c.pending_kind == "feature_start":
        c.press("start_feature", c.now)


# -- every event -----------------------------------------------------------------------------------
def test_every_moonshine_event_type_is_played_in_order(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: set[str] = set()
    with record_events(monkeypatch) as played:
        for kind in ("sheriff", "bonus"):
            played.events.clear()
            r = rig(seed_of(kind), turbo=True)
            r.press("spin")
            finish(r, start_when_asked)
            assert played.events == round_log(r.session), kind
            seen |= played.types
    assert seen == GAME_EVENT_TYPES[GAME]


# -- wins -----------------------------------------------------------------------------------------
def test_grandma_wins_her_own_pay_and_the_pay_she_completes_in_coins() -> None:
    r = rig(seed_of("grandma"), turbo=True)
    r.press("spin")
    labels = watch_labels(r, lambda c: idle(c) and not c.session.in_round)
    log = round_log(r.session)
    own = next(e for e in log if isinstance(e, ev.LineWin) and e.symbol == ms.GRANDMA)
    done = next(e for e in log if isinstance(e, ev.LineWin) and e.symbol != ms.GRANDMA and _grandma_in(e, log))
    coin = r.session.bet.coin
    assert f"LINE {own.line} · {own.count} GRANDMAS · {own.win // coin:,} COINS" in labels
    name = next(s["name"] for s in r.controller.desc["symbols"] if s["id"] == done.symbol).upper()
    assert f"LINE {done.line} · {done.count} {name} WITH GRANDMA · {done.win // coin:,} COINS" in labels
    assert own.multiplier == r.controller.desc["paytable"][ms.GRANDMA][str(own.count)]
    win = r.session.last_round.win if r.session.last_round else -1
    assert r.host.controls.win == f"{win // coin:,}"
    assert r.host.controls.currency == "COINS"


def test_a_sheriff_win_pays_the_total_coins_bet_and_is_labelled_so() -> None:
    r = rig(seed_of("sheriff"), turbo=True)
    r.press("spin")
    labels = watch_labels(r, lambda c: idle(c) and not c.session.in_round)
    log = round_log(r.session)
    sheriff = next(e for e in log if isinstance(e, ev.ScatterWin))
    bet = r.session.bet
    assert sheriff.symbol == ms.SHERIFF
    assert sheriff.win == sheriff.multiplier * bet.total
    assert f"{sheriff.count} SHERIFFS · {sheriff.multiplier} × TOTAL BET · {sheriff.win // bet.coin:,} COINS" in labels
    framed = [(int(a), int(b)) for a, b in sheriff.positions]
    assert all(
        r.controller.view.reels.reels[a].symbol_at(r.controller.view.reels.reels[a].stop + b) == ms.SHERIFF
        for a, b in framed
    )


# -- the bonus --------------------------------------------------------------------------------------
def test_a_full_bonus_card_pick_tally_start_block_free_spins_and_total() -> None:
    r = rig(seed_of("bonus"))
    c = r.controller
    to_card(r)
    card = c.view.overlay(FeatureCard)
    assert card is not None
    assert card.waiting
    count = ms._trigger_count(round_log(r.session))
    assert card.title == "MOONSHINE BONUS"
    assert card.lines[0] == f"{count} JUGS: {count} FREE SPINS AT 1×"
    assert sorted(c.view.highlights) == sorted(ms._shown(c, ms.BONUS))
    assert len(c.view.highlights) == count
    assert r.host.controls.buttons["start_feature"].visible
    assert r.host.state == "feature"
    r.press("start_feature")
    r.until(lambda c: idle(c) and c.pending_kind == "pick")
    b = board(c)
    assert b is not None
    assert (b.columns, b.rows, len(b.cells)) == (6, 3, 18)
    assert b.tally == f"FREE SPINS {count}  ·  MULTIPLIER 1×"
    assert c.context() == "pick"
    assert b.waiting
    # The board draws the closed blocks' picture and the tally.
    r.canvas.take()
    draw(r.canvas, r.layout, c.view, c.now)
    calls = r.canvas.take()
    assert any(k[0] == "sprite" and k[1] == ms.BLOCK for k in calls)
    assert any(k[0] == "text" and k[1] == b.tally for k in calls)
    assert any(k[0] == "text" and k[1] == "PICK A BLOCK" for k in calls)
    # A click on a block: the first one opens.
    x0, y0, size, _gap = b.geometry(r.layout)
    before = len(round_log(r.session))
    c.tap(x0 + size / 2, y0 + size / 2, r.layout)
    r.until(lambda c: len(round_log(c.session)) > before and not c.presenting)
    reveal = [e for e in round_log(r.session) if isinstance(e, ev.PickReveal)][-1]
    assert reveal.cell == 0
    assert b.cells[0].prize == reveal.prize
    assert b.cells[0].picked
    spins, mult = ms.award(c.desc[ms.FEATURE], count, [reveal.prize])
    assert b.tally == f"FREE SPINS {spins}  ·  MULTIPLIER {mult}×"
    # The keyboard: a digit and then arrows with Enter.
    if c.pending_kind == "pick":
        pick_and_wait(r, action_for_key("Digit6", c.context()) or "")
    ended: list[bool] = []
    statuses: set[str] = set()
    banners: set[tuple[str, str]] = set()

    def watch(c: Controller) -> None:
        o = board(c)
        if o is not None and o.message:
            assert o.message == "THE OTHER BLOCKS HELD"
            ended.append(all(cell.prize is not None for cell in o.cells))
        if c.view.status:
            statuses.add(c.view.status)
        if c.view.banner is not None:
            banners.add((c.view.banner.title, c.view.banner.subtitle))

    finish(r, watch)
    log = round_log(r.session)
    picked = [e.prize for e in log if isinstance(e, ev.PickReveal)]
    assert picked[-1] in c.desc[ms.FEATURE]["stoppers"]
    # A screen reader hears blocks, the game's own word, not the shared "cell".
    said = r.host.announcements
    assert any(a.startswith("Block 1: ") for a in said), said
    assert any(a.startswith("The other blocks held: ") for a in said), said
    assert not any(a.startswith("Cell ") for a in said)
    assert ended, "the end of the pick was not shown"
    assert all(ended), "the unpicked blocks are all shown at the end of the pick"
    spins, mult = ms.award(c.desc[ms.FEATURE], count, picked)
    awarded = next(e for e in log if isinstance(e, ev.FreeSpinsAwarded))
    assert (awarded.count, next(e for e in log if isinstance(e, ev.WinMultiplier)).multiplier) == (spins, mult)
    assert f"{spins} FREE SPINS" in {t for t, _ in banners}
    assert any(s.startswith(f"FREE SPIN {spins} OF {spins}") and s.endswith(f"·  {mult}×") for s in statuses)
    end = next(e for e in log if isinstance(e, ev.FreeSpinsEnd))
    coin = r.session.bet.coin
    assert ("MOONSHINE BONUS WIN", f"{end.win // coin:,} COINS IN {spins} FREE SPINS") in banners
    assert c.view.overlay(ms.MultiplierBadge) is None
    assert r.host.controls.win == f"{r.session.last_round.win // coin:,}" if r.session.last_round else False
    # The history says what the bonus was, in money.
    record = r.session.last_round
    assert record is not None
    text = ms.history_board(record, c.fmt, "static/games/moonshine", {})
    assert f"{spins} free spins at {mult}×" in text
    assert c.fmt(end.win) in text


def test_reduced_motion_keeps_the_multiplier_badge_still() -> None:
    r = rig(seed_of("bonus"), reduced_motion=True)
    to_pick(r)

    def badge(c: Controller) -> bool:
        if idle(c) and c.pending_kind == "pick":
            c.press("pick_enter", c.now)
        return c.view.overlay(ms.MultiplierBadge) is not None

    r.until(badge, 300_000)
    found = r.controller.view.overlay(ms.MultiplierBadge)
    assert found is not None
    assert found.still
    sizes = set()
    for t in (0.0, 130.0, 400.0):
        canvas = RecordingCanvas(1000, 700)
        found.draw(canvas, r.layout, found.started + t)
        sizes |= {k[4] for k in canvas.calls if k[0] == "text"}
    assert len(sizes) == 1


def test_reload_at_start_shows_the_card_waiting_again() -> None:
    r = rig(seed_of("bonus"))
    to_card(r)
    back = restore_rig(r.host.snapshot, game=GAME, sprites=MS_SPRITES)
    card = back.controller.view.overlay(FeatureCard)
    assert card is not None
    assert card.waiting
    assert back.controller.context() == "feature_start"
    assert len(back.controller.view.highlights) == ms._trigger_count(round_log(back.session))


def test_reload_mid_pick_brings_back_the_board_and_finishes_as_the_engine_does() -> None:
    r = rig(seed_of("bonus"), turbo=True)
    to_pick(r)
    pick_and_wait(r, "pick:4")
    if r.session.pending is None or r.session.pending.kind != "pick":
        pytest.skip("the fifth block was a Start block")
    pick_and_wait(r, "pick:10")
    if r.session.pending is None or r.session.pending.kind != "pick":
        pytest.skip("the eleventh block was a Start block")
    opened = [e for e in round_log(r.session) if isinstance(e, ev.PickReveal)]
    back = restore_rig(r.host.snapshot, game=GAME, sprites=MS_SPRITES)
    b = board(back.controller)
    assert b is not None
    assert b.waiting
    assert [i for i, cell in enumerate(b.cells) if cell.prize is not None] == [4, 10]
    count = ms._trigger_count(round_log(back.session))
    spins, mult = ms.award(back.controller.desc[ms.FEATURE], count, [e.prize for e in opened])
    assert b.tally == f"FREE SPINS {spins}  ·  MULTIPLIER {mult}×"
    assert back.controller.context() == "pick"
    finish(back)
    record = back.session.last_round
    assert record is not None
    replay = Session(GAME, seed=0, clock=wall_clock).replay(seed=record.seed, choices=record.choices)
    assert [e.to_json() for e in replay] == [e.to_json() for e in record.events]


def test_reload_mid_free_spins_keeps_the_counter_the_multiplier_and_the_totals() -> None:
    r = rig(seed_of("bonus"), turbo=True)
    to_pick(r)

    def two_spins(c: Controller) -> bool:
        if idle(c) and c.pending_kind == "pick":
            c.press("pick_enter", c.now)
        starts = [e for e in c.session.round_events if isinstance(e, ev.FreeSpinStart)]
        return len(starts) >= 2 and not c.presenting

    r.until(two_spins, 300_000)
    log = round_log(r.session)
    multiplier = next(e for e in log if isinstance(e, ev.WinMultiplier)).multiplier
    total = next(e for e in log if isinstance(e, ev.FreeSpinsAwarded)).total
    back = restore_rig(r.host.snapshot, game=GAME, sprites=MS_SPRITES)
    c = back.controller
    assert c.meters.in_feature
    assert c.view.phase == "free"
    assert c.meters.free_spin == (2, total)
    badge = c.view.overlay(ms.MultiplierBadge)
    assert badge is not None
    assert badge.multiplier == multiplier
    assert c.view.status.startswith(f"FREE SPIN 2 OF {total}")
    assert c.view.status.endswith(f"·  {multiplier}×")
    base = sum(
        e.win
        for e in log[: log.index(next(e for e in log if isinstance(e, ev.FreeSpinStart)))]
        if isinstance(e, ev.LineWin | ev.ScatterWin)
    )
    assert c.meters.base_win == base
    finish(back)
    assert back.session.last_round is not None
    assert back.host.controls.win == f"{back.session.last_round.win // back.session.bet.coin:,}"


# -- coins ----------------------------------------------------------------------------------------------
def test_the_coin_steppers_bet_max_and_their_keys() -> None:
    r = rig(0)
    c = r.controller
    controls = r.host.controls
    bets = r.session.game.bets
    assert bets.coin_game
    assert (controls.coins, controls.bet_label, controls.bet_per_line) == ("1", "Coin size", "0.02")
    assert controls.buttons["coins_up"].visible
    assert controls.buttons["coins_up"].enabled
    assert controls.buttons["coins_down"].visible
    assert not controls.buttons["coins_down"].enabled
    assert controls.total_bet == "25"  # 25 lines x 1 coin
    r.press(action_for_key("Digit4", c.context()) or "")
    r.run(20)
    assert r.session.bet == Bet(25, 2, 2)
    assert (r.host.controls.coins, r.host.controls.total_bet) == ("2", "50")
    r.press(action_for_key("BracketLeft", c.context()) or "")
    r.press("coins_up")
    r.press("coins_up")
    r.run(20)
    assert r.session.bet.coins == 3
    r.press("bet_up")  # the coin size: 0.02 -> 0.05
    r.run(20)
    assert r.host.controls.bet_per_line == "0.05"
    assert r.host.controls.total_bet == "75"  # still 75 coins, now worth 3.75
    assert r.host.controls.balance == f"{r.session.balance // 5:,}"
    r.press("lines_down")
    r.run(20)
    assert r.session.bet == Bet(24, 5, 3)
    r.press("bet_max")  # the most lines and 5 coins, the coin size kept
    r.run(20)
    assert r.session.bet == Bet(25, 5, 5)
    assert not r.host.controls.buttons["coins_up"].enabled
    assert r.host.controls.total_bet == "125"


def test_the_coins_cannot_change_during_the_bonus() -> None:
    r = rig(seed_of("bonus"))
    to_pick(r)
    bet = r.session.bet
    assert not r.host.controls.buttons["coins_up"].enabled
    assert action_for_key("Digit4", r.controller.context()) == "pick:3"  # a block, not the coins
    r.press("coins_up")
    r.press("bet_up")
    assert r.session.bet == bet


def test_the_meters_show_coins_or_money_and_money_stays_money_outside() -> None:
    r = rig(seed_of("sheriff"), turbo=True)
    c = r.controller
    assert (r.host.controls.balance, r.host.controls.currency) == ("50,000", "COINS")
    assert r.host.controls.buttons["units"].visible
    assert r.host.controls.buttons["units"].label == "COINS"
    r.press("units")
    r.run(20)
    assert (r.host.controls.balance, r.host.controls.currency, r.host.controls.total_bet) == ("1,000.00", "FUN", "0.50")
    assert r.host.controls.buttons["units"].pressed
    r.press("spin")
    labels = watch_labels(r, lambda c: idle(c) and not c.session.in_round)
    sheriff = next(e for e in round_log(r.session) if isinstance(e, ev.ScatterWin))
    assert any(label.endswith(f"· {c.fmt(sheriff.win)}") for label in labels)
    assert r.host.controls.win == c.fmt(r.session.last_round.win if r.session.last_round else -1)
    r.press("units")
    r.run(20)
    assert r.host.controls.win == f"{(r.session.last_round.win if r.session.last_round else -1) // 2:,}"
    # The messages to an embedding page and the history are money (minor units, formatted money).
    end = r.host.posted("roundEnd")[-1]
    assert end == {"win": r.session.last_round.win if r.session.last_round else -1, "balance": r.session.balance}
    names = {s["id"]: s["name"] for s in c.desc["symbols"]}
    history = history_html(r.session.history, c.fmt, "a", names)
    assert f"Bet {c.fmt(r.session.bet.total)}" in history


def test_a_game_without_coins_shows_neither_the_coin_stepper_nor_the_units() -> None:
    r = make_rig(0)
    controls = r.host.controls
    assert not controls.buttons["coins_up"].visible
    assert not controls.buttons["units"].visible
    assert (controls.coins, controls.bet_label, controls.currency) == ("", "Bet", "FUN")
    bet = r.session.bet
    r.press("units")
    r.press(action_for_key("Digit4", r.controller.context()) or "")
    r.run(20)
    assert r.host.controls.balance == r.controller.fmt(r.session.balance)
    assert r.session.bet == bet  # one coin a line is all such a game offers


# -- pages ------------------------------------------------------------------------------------------------
def _page(kind: str, bet: Bet | None = None) -> str:
    s = Session(GAME, seed=1, clock=wall_clock)
    if bet is not None:
        s.set_bet(bet)
    c = Controller(s, _Host())
    html = page_html(kind, c.screen, page_context(s, c.desc, {"rtp": "0.9596"}, "static/games/moonshine"))
    assert html is not None
    return html


class _Host:
    def set_state(self, state: str) -> None: ...
    def set_controls(self, controls: Any) -> None: ...
    def announce(self, text: str) -> None: ...
    def post(self, kind: str, detail: dict[str, Any]) -> None: ...
    def save(self, snapshot: str) -> None: ...
    def open_dialog(self, kind: str) -> None: ...
    def share(self, url: str, title: str) -> None: ...


def test_the_paytable_pays_in_coins_per_coin_bet_and_the_sheriff_times_the_total_coins() -> None:
    html = _page("paytable", Bet(10, 5, 2))
    assert "coins per coin bet" in html
    assert "<b>5×</b> 10,000 <small>(1,000.00)</small>" in html  # Grandma: 10,000 coins x 2 coins x 0.05
    assert "3: 3 × 20 = 60 coins (3.00)" in html  # the Sheriff x 20 total coins
    assert "The Moonshine Bonus board" in html
    assert "+1 SPIN" in html
    for sid in SYMBOLS:
        assert f"symbols/{sid}.svg" in html


def test_the_rules_say_what_the_game_chose_and_the_coin_keys() -> None:
    html = _page("help")
    for words in (
        "A coin game",
        "multiplier multiplies every win of every free spin",
        "whole coins",
        "cannot be retriggered",
        "Start block ends the pick",
        "money",
    ):
        assert words in html
    keys = " ".join(shortcuts(lines=True, gamble=False, start="x", coins=True))
    assert "Coins per line: 3, 4, Numpad3, Numpad4" in keys
    assert "Coin size:" in keys
    assert "Coins per line" in html
