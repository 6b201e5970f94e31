"""Moonshine end to end in headless Chromium, with seeded rounds searched with the engine in
CPython: on a phone, a Sheriff win and then, after a coin-size and coins-per-line change, a
Grandma win, the meters in coins and switched to money (the choice kept over a reload); on
a desktop, the Moonshine Bonus: the card waits for Start, a block opened by a click, a
reload mid-pick (the same board back), the rest picked by the keyboard to the Start block,
a reload mid free spins, and the round played to its end as the engine plays it. Every page
must stay on its own origin.
"""

from __future__ import annotations

import functools
import json
from typing import Any

import pytest

pytest.importorskip("playwright", reason="the browser tests need the dev extra (playwright)")

from playwright.sync_api import Page

from pyengine import events as ev
from pyengine.model import Bet
from pyengine.session import Session
from tests.browser import helpers as h

# The session fixtures (site build, server, Playwright, Chromium) come from tests/conftest.py.
from tests.browser.fixtures import PHONE, Visit
from tests.test_site import events, meter

pytestmark = pytest.mark.browser

GAME = "moonshine"
PLAY = f"play.html?game={GAME}"
KEY = "slotstudio:v1:" + GAME + ":seed:{seed}"
T0 = 1_700_000_000.0  # the page's Date.now() (seconds)
ROUND_MS = 90_000
SEARCH = range(0, 20_000)
START = "[data-action=start_feature]:not([hidden])"


# -- the engine in CPython --------------------------------------------------------------------------
def session(seed: int) -> Session:
    return Session(GAME, seed=seed, clock=lambda: T0)


def play(s: Session) -> list[ev.Event]:
    out = s.spin()
    while s.pending is not None:
        out += s.choose(s.pending.choices[0])
    return out


def _bonus(e: list[ev.Event]) -> bool:
    return any(isinstance(x, ev.PickStart) for x in e)


def _board(e: list[ev.Event]) -> list[str]:
    """What every block of a bonus's board held (the board is placed before the first pick)."""
    held = {x.cell: x.prize for x in e if isinstance(x, ev.PickReveal)}
    end = next(x for x in e if isinstance(x, ev.PickEnd))
    held.update(zip(end.cells, end.prizes, strict=True))
    return [held[i] for i in range(len(held))]


@functools.cache
def wins_seed() -> int:
    """A first round with a Sheriff win and a second with one of Grandma's own pays."""
    for n in SEARCH:
        s = session(n)
        first = play(s)
        if _bonus(first) or not any(isinstance(x, ev.ScatterWin) for x in first):
            continue
        second = play(s)
        if not _bonus(second) and any(isinstance(x, ev.LineWin) and x.symbol == "GRANDMA" for x in second):
            return n
    raise AssertionError("no seed with a Sheriff win, then a Grandma win")


@functools.cache
def bonus_seed() -> int:
    """A first spin that starts the bonus on a board whose blocks 1 and 6 are not Start blocks."""
    for n in SEARCH:
        e = play(session(n))
        if _bonus(e):
            board = _board(e)
            if "start" not in (board[0], board[5]):
                return n
    raise AssertionError("no seed starts the bonus on such a board")


# -- the page ------------------------------------------------------------------------------------------
def open_game(v: Visit, seed: int) -> Page:
    return h.open_game(v, GAME, seed, clock=T0)


def reload(page: Page) -> None:
    page.reload()
    h.wait_started(page)
    page.wait_for_selector("#loading", state="hidden", timeout=60_000)


def wait_events(page: Page, kind: str, n: int = 1) -> None:
    h.wait_events(page, kind, n, ROUND_MS)


def pick_board(page: Page) -> dict[str, Any] | None:
    return h.pick_board(page)


def wait_board(page: Page, opened: int) -> dict[str, Any]:
    return h.wait_pick(page, ROUND_MS, opened=opened)


def saved_round(page: Page, seed: int) -> dict[str, Any] | None:
    text = page.evaluate("k => localStorage.getItem(k)", KEY.format(seed=seed))
    found: dict[str, Any] | None = json.loads(text)["state"]["round"]
    return found


def last_record(page: Page, seed: int) -> dict[str, Any]:
    text = page.evaluate("k => localStorage.getItem(k)", KEY.format(seed=seed))
    history: list[dict[str, Any]] = json.loads(text)["state"]["history"]
    return history[-1]


def coins(minor: int, coin: int) -> str:
    return f"{minor // coin:,}"


# -- 1. the coin controls, a Sheriff win and a Grandma win, on a phone ------------------------------------
def test_coin_controls_a_sheriff_win_and_a_grandma_win_on_a_phone(browser: Any, server: Any) -> None:
    v = Visit(browser, server.url, viewport=PHONE, is_mobile=True, has_touch=True, device_scale_factor=2)
    try:
        seed = wins_seed()
        s = session(seed)
        page = open_game(v, seed)
        # The coin game's controls: lines, coin size and coins per line, all on the screen.
        for group in (".stepper.lines", ".stepper.bpl", ".stepper.coins"):
            box = page.locator(group).bounding_box()
            assert box is not None, group
            assert box["x"] >= 0, group
            assert box["x"] + box["width"] <= PHONE["width"], group
        assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")
        assert page.text_content("#lbl-bet") == "Coin size"
        assert (meter(page, "balance"), meter(page, "bet"), meter(page, "coins")) == ("50,000", "25", "1")
        assert page.text_content("#currency") == "COINS"
        v.shot("moonshine-ready-phone")
        # A Sheriff win: 3 or more anywhere pay x the total coins bet.
        first = play(s)
        sheriff = next(e for e in first if isinstance(e, ev.ScatterWin))
        page.locator("[data-action=spin]").tap()
        wait_events(page, "roundEnd")
        h.wait_state(page, "ready", ROUND_MS)
        coin = s.bet.coin
        assert meter(page, "win") == coins(s.last_round.win if s.last_round else -1, coin)
        assert meter(page, "balance") == coins(s.balance, coin)
        assert events(page, "roundEnd")[0]["win"] == s.last_round.win if s.last_round else False
        assert sheriff.win == sheriff.multiplier * s.bet.total
        v.shot("moonshine-sheriff-win-phone")
        # A coin-size change (0.02 -> 0.05) and 2 coins a line: 50 coins bet, worth 2.50.
        page.locator("[data-action=bet_up]").tap()
        page.locator("[data-action=coins_up]").tap()
        h.wait_text(page, "#meter-coins", "2")
        assert meter(page, "bpl") == "0.05"
        assert meter(page, "bet") == "50"
        s.set_bet(Bet(25, 5, 2))
        assert meter(page, "balance") == coins(s.balance, 5)
        second = play(s)
        assert any(isinstance(e, ev.LineWin) and e.symbol == "GRANDMA" for e in second)
        page.locator("[data-action=spin]").tap()
        wait_events(page, "roundEnd", 2)
        h.wait_state(page, "ready", ROUND_MS)
        win = s.last_round.win if s.last_round else -1
        assert meter(page, "win") == coins(win, 5)
        assert events(page, "roundStart")[1]["stake"] == 250
        v.shot("moonshine-grandma-win-phone")
        # The paytable: pays in coins per coin bet, the Sheriff x the total coins bet.
        page.locator("[data-action=paytable]").tap()
        page.wait_for_selector("#dlg-paytable[open]", timeout=60_000)
        text = str(page.text_content("#dlg-paytable .dlg-body"))
        assert "coins per coin bet" in text
        assert "3: 3 × 50 = 150 coins (7.50)" in text  # 25 lines x 2 coins of 0.05
        v.shot("moonshine-paytable-phone")
        page.click("#dlg-paytable [data-close]")
        page.wait_for_selector("#dlg-paytable", state="hidden", timeout=60_000)
        # The meters in money, and back after a reload the player's choice stays.
        page.locator("[data-action=units]").tap()
        h.wait_text(page, "#currency", "FUN")
        fmt = s.game.bets.format
        assert (meter(page, "balance"), meter(page, "bet"), meter(page, "win")) == (
            fmt(s.balance),
            fmt(250),
            fmt(win),
        )
        assert page.get_attribute("[data-action=units]", "aria-pressed") == "true"
        v.shot("moonshine-money-meters-phone")
        reload(page)
        h.wait_text(page, "#meter-balance", fmt(s.balance))
        assert page.text_content("#currency") == "FUN"
        v.assert_clean()
    finally:
        v.close()


# -- 2. the bonus: click, reload mid-pick, keyboard, reload mid free spins --------------------------------
def test_the_bonus_by_click_and_keyboard_with_reloads_mid_pick_and_mid_free_spins(visit: Visit) -> None:
    seed = bonus_seed()
    page = open_game(visit, seed)
    page.click("[data-action=spin]")
    page.wait_for_selector(START, timeout=ROUND_MS)
    assert str(page.text_content(START)).strip().upper() == "START BONUS"
    assert h.state(page) == "feature"
    h.wait_text(page, "#live", "press Start")
    visit.shot("moonshine-bonus-card")
    page.click(START)
    board = wait_board(page, 0)
    assert len(board["boxes"]) == 18
    assert board["name"] == "moonshine"
    visit.shot("moonshine-pick-board")
    # A click opens the first block.
    page.mouse.click(*h.box_centre(page, board["boxes"][0]))
    wait_board(page, 1)
    saved = saved_round(page, seed)
    assert saved is not None
    assert saved["choices"] == ["start", "0"]
    # A reload mid-pick: the same board, the first block open, waiting for the next pick.
    reload(page)
    back = wait_board(page, 1)
    assert back["open"] == [0]
    assert h.state(page) == "feature"
    visit.shot("moonshine-pick-after-reload")
    # The keyboard: 6 opens the sixth block, then the arrows and Enter until a Start block.
    page.keyboard.press("Digit6")
    wait_board(page, 2)
    page.keyboard.press("ArrowRight")
    for _ in range(18):
        p = pick_board(page)
        if p is None or p["ended"]:
            break
        opened = len(p["open"])
        page.keyboard.press("Enter")
        page.wait_for_function(
            "k => { const p = window.slotStats.pick; return !p || p.ended || (p.waiting && p.open.length > k); }",
            arg=opened,
            timeout=ROUND_MS,
            polling=50,
        )
    page.wait_for_function("() => !window.slotStats.pick || window.slotStats.pick.ended", timeout=ROUND_MS)
    ended = pick_board(page)
    if ended is not None:
        assert len(ended["open"]) == 18  # the unpicked blocks are shown
        page.wait_for_timeout(400)  # they have turned over
        visit.shot("moonshine-pick-end")
    wait_events(page, "featureStart")
    # A reload mid free spins (two of them played).
    page.wait_for_function(
        "k => { const r = JSON.parse(localStorage.getItem(k)).state.round;"
        " return r && r.choices.filter(c => c === 'spin').length >= 2; }",
        arg=KEY.format(seed=seed),
        timeout=ROUND_MS,
        polling=50,
    )
    visit.shot("moonshine-free-spins")
    reload(page)
    assert h.state(page) in ("feature", "spinning")
    wait_events(page, "roundEnd")
    h.wait_state(page, "ready", ROUND_MS)
    visit.shot("moonshine-bonus-end")
    # The engine replays the round from the choices the page made, and agrees with the meters.
    record = last_record(page, seed)
    s = session(seed)
    replayed = s.replay(seed=record["seed"], choices=record["choices"])
    assert [e.to_json() for e in replayed] == record["events"]
    end = next(e for e in replayed if isinstance(e, ev.RoundEnd))
    fs_end = next(e for e in replayed if isinstance(e, ev.FreeSpinsEnd))
    coin = Bet(**{k: record["bet"][k] for k in ("lines", "bet_per_line", "coins")}).coin
    assert meter(page, "win") == coins(end.win, coin)
    assert meter(page, "balance") == coins(end.balance, coin)
    assert events(page, "featureEnd")[-1]["win"] == fs_end.win
    picks = [c for c in record["choices"] if c.isdigit()]
    assert picks[:2] == ["0", "5"]
    visit.assert_clean()
