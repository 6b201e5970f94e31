"""Moon Spell end to end in headless Chromium: a 3-4 Moon cash win, Hold and Respin up the
prize ladder (with a reload while it waits for Start), Feature Buy on a phone (price,
bonus, balance, and a reload during a bought bonus's animation), and a time jackpot drop
with the page's clock under the test's control. Every page must stay on its own origin.

The page's session clock is the browser's ``Date.now()``; each test fixes it with
Playwright's ``page.clock`` so that the engine in CPython, given the same clock, plays the
same rounds, jackpot draws included. Seeds are searched with the engine, as in
``tests/test_client_browser.py``.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator
from typing import Any

import pytest

pytest.importorskip("playwright", reason="the browser tests need the dev extra (playwright)")

from playwright.sync_api import Page

from pyengine import events as ev
from pyengine.games.moon_spell import MoonCashWin
from pyengine.session import Session
from slotui.controller import clock_text
from tests.browser import helpers as h

# The session fixtures (site build, server, Playwright, Chromium) come from tests/conftest.py.
from tests.browser.fixtures import PHONE, Visit
from tests.client_support import Clock, play_through
from tests.test_site import events, meter

pytestmark = pytest.mark.browser

GAME = "moon_spell"
PLAY = f"play.html?game={GAME}"
KEY = "slotstudio:v1:" + GAME + ":seed:{seed}"
T0 = 1_700_000_000.0  # the page's Date.now() (seconds): 2023-11-14 22:13:20 UTC
ROUND_MS = 90_000
SEARCH = range(0, 20_000)
START = "[data-action=start_feature]"
SHOWN = ":not([hidden])"


# -- the engine in CPython --------------------------------------------------------------------------
def session(seed: int, clock: Callable[[], float] | None = None) -> Session:
    return Session(GAME, seed=seed, clock=clock or Clock())


def fmt(minor: int) -> str:
    return session(0).game.bets.format(minor)


def play(s: Session, *, buy: bool = False) -> list[ev.Event]:
    return play_through(s, buy=buy)


def find_seed(prop: Callable[[list[ev.Event]], bool], what: str, *, buy: bool = False) -> int:
    for n in SEARCH:
        if prop(play(session(n), buy=buy)):
            return n
    raise AssertionError(f"no session seed in {SEARCH} has {what}: the game's data changed")


def _end(events: list[ev.Event]) -> ev.HoldAndRespinEnd | None:
    return next((e for e in events if isinstance(e, ev.HoldAndRespinEnd)), None)


@functools.cache
def cash_seed() -> int:
    return find_seed(
        lambda e: any(isinstance(x, MoonCashWin) for x in e) and _end(e) is None,
        "a first spin with a 3-4 Moon cash win",
    )


@functools.cache
def ladder_seed() -> int:
    return find_seed(
        lambda e: (x := _end(e)) is not None and x.count >= 10, "a first spin whose bonus reaches 10 Moons"
    )


@functools.cache
def buy_seed() -> int:
    """Two bought bonuses in a row, the first one up the ladder."""

    def prop(n: int) -> bool:
        s = session(n)
        first = _end(play(s, buy=True))
        return first is not None and first.count >= 10 and _end(play(s, buy=True)) is not None

    for n in SEARCH:
        if prop(n):
            return n
    raise AssertionError("no seed whose first bought bonus reaches the ladder")


# -- the page ------------------------------------------------------------------------------------------
def open_game(v: Visit, seed: int, *, turbo: bool = True) -> Page:
    return h.open_game(v, GAME, seed, clock=T0, turbo=turbo)


def wait_events(page: Page, kind: str, n: int = 1, timeout: float = ROUND_MS) -> None:
    h.wait_events(page, kind, n, timeout)


def live(page: Page) -> str:
    return str(page.text_content("#live") or "").strip()


@pytest.fixture
def clean_visit(visit: Visit) -> Iterator[Visit]:
    yield visit
    visit.assert_clean()


# -- 1. the base game and a cash win --------------------------------------------------------------
def test_a_moon_cash_win_and_the_base_game_screen(clean_visit: Visit) -> None:
    seed = cash_seed()
    s = session(seed)
    log = play(s)
    cash = next(e for e in log if isinstance(e, MoonCashWin))
    page = open_game(clean_visit, seed)
    # Moon Spell's controls: 20 fixed lines (no lines control), Buy Bonus, the jackpot panel.
    assert page.locator(".stepper.lines").is_hidden()
    assert page.locator("[data-action=buy]").is_visible()
    assert page.locator("#jackpot").is_visible()
    assert page.text_content("#jackpot-amount") == fmt(0)
    fresh = session(seed).jackpot
    assert fresh is not None
    assert page.text_content("#jackpot-time") == clock_text(fresh.seconds_left(int(T0 * 1000)))
    assert page.text_content("#ap-feature-label") == "Stop when Hold and Respin is won"
    clean_visit.shot("moon-ready")
    page.click("[data-action=spin]")
    wait_events(page, "roundEnd")
    h.wait_state(page, "ready", ROUND_MS)
    assert meter(page, "balance") == fmt(s.balance)
    assert meter(page, "win") == fmt(s.last_round.win if s.last_round else -1)
    assert cash.win > 0
    assert events(page, "featureStart") == []
    clean_visit.shot("moon-cash-win")


# -- 2. Hold and Respin up the ladder, with a reload at Start -------------------------------------------
def test_hold_and_respin_reaches_the_ladder_and_survives_a_reload_at_start(clean_visit: Visit) -> None:
    seed = ladder_seed()
    s = session(seed)
    before = s.balance - s.bet.total
    log = play(s)
    end = _end(log)
    assert end is not None
    ladder = next(e for e in log if isinstance(e, ev.LadderPrize))
    page = open_game(clean_visit, seed)
    page.click("[data-action=spin]")
    page.wait_for_selector(f"{START}{SHOWN}", timeout=ROUND_MS)
    assert h.state(page) == "feature"
    assert str(page.text_content(START)).strip().upper() == "START BONUS"
    h.wait_text(page, "#live", "press Start")
    clean_visit.shot("moon-hold-and-respin-intro")
    # A reload here: the bonus waits for Start again.
    page.reload()
    h.wait_started(page)
    page.wait_for_selector("#loading", state="hidden", timeout=60_000)
    page.wait_for_selector(f"{START}{SHOWN}", timeout=ROUND_MS)
    assert h.state(page) == "feature"
    assert meter(page, "balance") == fmt(before)
    page.click(START)
    wait_events(page, "featureStart")
    assert events(page, "featureStart")[0]["bought"] is False
    h.wait_text(page, "#live", "Respin", ROUND_MS)
    clean_visit.shot("moon-hold-and-respin")
    wait_events(page, "featureEnd")
    ended = events(page, "featureEnd")[0]
    assert (ended["win"], ended["moons"]) == (end.win, end.count)
    clean_visit.shot("moon-hold-and-respin-end")
    wait_events(page, "roundEnd")
    h.wait_state(page, "ready", ROUND_MS)
    assert meter(page, "balance") == fmt(s.balance)
    assert meter(page, "win") == fmt(end.win)
    assert ladder.count == end.count


# -- 3. Feature Buy on a phone, and a reload during a bought bonus ----------------------------------
def test_feature_buy_on_a_phone_and_a_reload_during_the_bought_bonus(browser: Any, server: Any) -> None:
    v = Visit(browser, server.url, viewport=PHONE, is_mobile=True, has_touch=True, device_scale_factor=2)
    try:
        seed = buy_seed()
        s = session(seed)
        price = s.price("buy")
        start = s.balance
        first = play(s, buy=True)
        after_first = s.balance
        second = play(s, buy=True)
        page = open_game(v, seed)
        buy = page.locator("[data-action=buy]")
        box = buy.bounding_box()
        assert box is not None
        assert box["y"] + box["height"] <= PHONE["height"]
        assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")
        buy.tap()
        page.wait_for_selector("#dlg-buy[open]", timeout=60_000)
        assert page.text_content("#buy-price") == fmt(price)
        assert fmt(price) in str(page.text_content("#buy-confirm"))
        v.shot("moon-buy-dialog-phone")
        # Cancel buys nothing.
        page.click("#buy-cancel")
        page.wait_for_selector("#dlg-buy", state="hidden", timeout=60_000)
        assert meter(page, "balance") == fmt(start)
        buy.tap()
        page.wait_for_selector("#dlg-buy[open]", timeout=60_000)
        page.click("#buy-confirm")
        page.wait_for_selector("#dlg-buy", state="hidden", timeout=60_000)
        wait_events(page, "roundStart")
        assert events(page, "roundStart")[0]["stake"] == price
        wait_events(page, "featureStart")
        assert events(page, "featureStart")[0]["bought"] is True
        page.wait_for_timeout(1200)
        v.shot("moon-bought-bonus-phone")
        wait_events(page, "roundEnd")
        h.wait_state(page, "ready", ROUND_MS)
        end1 = next(e for e in first if isinstance(e, ev.RoundEnd))
        assert events(page, "featureEnd")[0]["win"] == end1.win
        assert meter(page, "balance") == fmt(after_first)
        # The second bought bonus: reload during its animation -> its end result.
        buy.tap()
        page.wait_for_selector("#dlg-buy[open]", timeout=60_000)
        page.click("#buy-confirm")
        wait_events(page, "featureStart", 2)
        page.reload()
        h.wait_state(page, "ready")
        page.wait_for_selector("#loading", state="hidden", timeout=60_000)
        end2 = next(e for e in second if isinstance(e, ev.RoundEnd))
        assert meter(page, "balance") == fmt(s.balance)
        assert meter(page, "win") == fmt(end2.win)
        saved = page.evaluate("k => JSON.parse(localStorage.getItem(k)).state.round", KEY.format(seed=seed))
        assert saved is None, "the bought round was saved finished"
        v.shot("moon-bought-bonus-after-reload-phone")
        v.assert_clean()
    finally:
        v.close()


# -- 4. the time jackpot --------------------------------------------------------------------------------
def test_a_time_jackpot_drop_with_the_clock_past_the_deadline(clean_visit: Visit) -> None:
    seed = cash_seed()
    clock = Clock()
    s = session(seed, clock)
    assert s.jackpot is not None
    deadline = s.jackpot.deadline_ms
    page = open_game(clean_visit, seed)
    left = s.jackpot.seconds_left(int(T0 * 1000))
    assert page.text_content("#jackpot-time") == clock_text(left)
    # The clock moves: the time left ticks down with it.
    page.clock.set_fixed_time(T0 + 61)
    h.wait_text(page, "#jackpot-time", clock_text(left - 61))
    # Bet max, one spin feeds the pot.
    page.click("[data-action=bet_max]")
    s.set_bet(s.game.bets.max_bet)
    clock.t = T0 + 61  # the engine's clock follows the page's
    play(s)
    page.click("[data-action=bet_max]")  # pressed again at the maximum: spins
    wait_events(page, "roundEnd")
    h.wait_state(page, "ready", ROUND_MS)
    h.wait_text(page, "#jackpot-amount", fmt(s.jackpot.amount))
    # Past the deadline the next spin surely wins the pot.
    t2 = deadline / 1000 + 30
    page.clock.set_fixed_time(t2)
    h.wait_text(page, "#jackpot-time", "00:00:00")
    clock.t = t2
    log = play(s)
    won = next(e for e in log if isinstance(e, ev.JackpotWin))
    page.click("[data-action=spin]")
    wait_events(page, "jackpotWin")
    assert events(page, "jackpotWin")[0]["amount"] == won.amount
    h.wait_text(page, "#live", f"Time jackpot won: {fmt(won.amount)}!")
    assert page.locator("#jackpot.won").count() == 1
    clean_visit.shot("moon-jackpot-won")
    wait_events(page, "roundEnd", 2)
    h.wait_state(page, "ready", ROUND_MS)
    assert meter(page, "balance") == fmt(s.balance)
    assert page.text_content("#jackpot-amount") == fmt(s.jackpot.amount)
    assert page.text_content("#jackpot-time") == clock_text(s.jackpot.seconds_left(int(t2 * 1000)))
