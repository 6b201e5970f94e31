"""Full Moon Fever end to end in headless Chromium: a line win, then a Haunted House scatter
win starting Winfalls, a pet chosen by a click, a free spin cascading to ×3 or more; on a
phone, a reload at the pet screen, a pet chosen by keyboard and a reload mid-cascade; and
the bets that fit the balance (Max Bet disabled while the balance is short, the bet stepping
down after a round). Every page must stay on its own origin.

Seeds are searched with the engine in CPython, which then plays the same rounds: the page's
meters and messages must agree with it.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator
from typing import Any

import pytest

pytest.importorskip("playwright", reason="the browser tests need the dev extra (playwright)")

from playwright.sync_api import Page

from pyengine import events as ev
from pyengine.games import get_game
from pyengine.model import Bet
from pyengine.session import Session
from slotui.games.full_moon_fever import SCREEN
from tests.browser import helpers as h

# The session fixtures (site build, server, Playwright, Chromium) come from tests/conftest.py.
from tests.browser.fixtures import PHONE, Visit
from tests.client_support import play_through
from tests.test_site import events, meter

pytestmark = pytest.mark.browser

GAME = "full_moon_fever"
PLAY = f"play.html?game={GAME}"
KEY = "slotstudio:v1:" + GAME + ":seed:{seed}"
T0 = 1_700_000_000.0
ROUND_MS = 120_000
SEARCH = range(0, 20_000)
START = "[data-action=start_feature]:not([hidden])"


# -- the engine in CPython ----------------------------------------------------------------------------
def session(seed: int, **kw: object) -> Session:
    return Session(GAME, seed=seed, clock=lambda: T0, **kw)  # type: ignore[arg-type]


def fmt(minor: int) -> str:
    return session(0).game.bets.format(minor)


def play(s: Session) -> list[ev.Event]:
    return play_through(s)


def line_only(log: list[ev.Event]) -> bool:
    return any(isinstance(e, ev.LineWin) for e in log) and not any(isinstance(e, ev.FreeSpinsAwarded) for e in log)


def winfalls_to(log: list[ev.Event], at_least: int) -> bool:
    """Winfalls of the fewest free spins (quick to watch) with a spin cascading to ×``at_least``."""
    fewest = min(int(n) for n in session(0).game.describe()["winfalls"]["spins"])
    awarded = next((e for e in log if isinstance(e, ev.FreeSpinsAwarded)), None)
    reached = any(isinstance(e, ev.WinMultiplier) and e.multiplier >= at_least for e in log)
    return awarded is not None and awarded.count == fewest and reached


def find(prop: Callable[[int], bool], what: str) -> int:
    for n in SEARCH:
        if prop(n):
            return n
    raise AssertionError(f"no session seed in {SEARCH} has {what}: the game's data changed")


@functools.cache
def line_then_winfalls_seed() -> int:
    """A first round with a line win (no feature), a second that starts Winfalls and
    cascades to ×3 or more."""

    def prop(n: int) -> bool:
        s = session(n)
        return line_only(play(s)) and winfalls_to(play(s), 3)

    return find(prop, "a line win, then Winfalls reaching ×3")


@functools.cache
def winfalls_seed() -> int:
    """A first round that starts Winfalls (of the fewest free spins) whose first free spin
    cascades at least twice."""

    def prop(n: int) -> bool:
        log = play(session(n))
        if not winfalls_to(log, 1):
            return False
        first = next((i for i, e in enumerate(log) if isinstance(e, ev.FreeSpinStart)), None)
        if first is None:
            return False
        second = next((i for i, e in enumerate(log) if isinstance(e, ev.FreeSpinStart) and e.number == 2), len(log))
        return sum(isinstance(e, ev.Cascade) for e in log[first:second]) >= 2

    return find(prop, "Winfalls whose first free spin cascades twice")


@functools.cache
def loss_seed() -> int:
    return find(lambda n: not any(e.category == "win" for e in play(session(n))), "a losing first round")


# -- the page ------------------------------------------------------------------------------------------
def open_game(v: Visit, seed: int, *, turbo: bool = True) -> Page:
    return h.open_game(v, GAME, seed, clock=T0, turbo=turbo)


def wait_events(page: Page, kind: str, n: int = 1, timeout: float = ROUND_MS) -> None:
    h.wait_events(page, kind, n, timeout)


def wait_pets(page: Page) -> list[list[float]]:
    """Wait until the pet screen waits on the player; the four cards' boxes."""
    boxes: list[list[float]] = h.wait_pick(page, ROUND_MS, "pet")["boxes"]
    assert len(boxes) == 4
    return boxes


def picked(page: Page, seed: int) -> list[str]:
    choices: list[str] = page.evaluate(
        "k => (JSON.parse(localStorage.getItem(k)).state.round || {choices: []}).choices", KEY.format(seed=seed)
    )
    return choices


def wait_feature(page: Page, condition: str, timeout: float = ROUND_MS) -> None:
    """Wait until ``condition`` holds of ``f``, the page's feature stats."""
    page.wait_for_function(
        f"() => {{ const f = window.slotStats && window.slotStats.feature; return !!f && ({condition}); }}",
        timeout=timeout,
        polling=20,
    )


def hurry_to_the_end(page: Page) -> None:
    """Quick stop (Space) on every step until the feature's end is shown: what the test
    watched is over, the rest of the feature plays hurried (its outcome is the same)."""
    for _ in range(600):
        if events(page, "featureEnd"):
            return
        page.keyboard.press("Space")
        page.wait_for_timeout(60)
    wait_events(page, "featureEnd")


@pytest.fixture
def clean_visit(visit: Visit) -> Iterator[Visit]:
    yield visit
    visit.assert_clean()


# -- 1. a line win, the scatter, a pet by click, ×3 ---------------------------------------------------
def test_a_line_win_then_winfalls_with_a_pet_clicked_and_a_cascade_to_x3(clean_visit: Visit) -> None:
    seed = line_then_winfalls_seed()
    s = session(seed)
    first = play(s)
    after_first = s.balance
    second = play(s)
    scatter = next(e for e in second if isinstance(e, ev.ScatterWin))
    trigger_win = scatter.win + sum(e.win for e in second[: second.index(scatter)] if isinstance(e, ev.LineWin))
    end = next(e for e in second if isinstance(e, ev.FreeSpinsEnd))
    page = open_game(clean_visit, seed)
    # The first frame waited only for the pictures it draws (the reel symbols, background,
    # frame and logo); the alter egos and the pets came once the game was ready.
    symbols = len(get_game(GAME).describe()["symbols"])
    page.wait_for_function("() => window.slotStudio.pictures.done", timeout=60_000)
    pictures = page.evaluate("() => window.slotStudio.pictures")
    assert pictures["first"] == symbols + 3, pictures
    assert pictures["later"] == len(SCREEN.extra_symbols), pictures
    assert page.locator(".stepper.lines").is_hidden()  # 25 fixed lines
    assert meter(page, "bet") == "0.50"
    assert page.locator("[data-action=bet_max]").is_disabled()  # 1,000.00 cannot cover 1,250.00
    clean_visit.shot("fmf-ready")
    # A line win.
    page.click("[data-action=spin]")
    wait_events(page, "roundEnd")
    h.wait_state(page, "ready", ROUND_MS)
    assert meter(page, "win") == fmt(sum(e.win for e in first if isinstance(e, ev.LineWin)))
    assert meter(page, "balance") == fmt(after_first)
    clean_visit.shot("fmf-line-win")
    # The Haunted Houses pay and start Winfalls: the title card waits for Start.
    page.click("[data-action=spin]")
    page.wait_for_selector(START, timeout=ROUND_MS)
    assert h.state(page) == "feature"
    assert meter(page, "win") == fmt(trigger_win)
    assert str(page.text_content(START)).strip().upper() == "CHOOSE A PET"
    clean_visit.shot("fmf-winfalls-card")
    page.click(START)
    boxes = wait_pets(page)
    clean_visit.shot("fmf-pet-screen")
    # The pet screen's own PAYTABLE button leads to the Winfalls paytable.
    button: list[float] = page.evaluate("() => window.slotStats.pick.button")
    page.mouse.click(*h.box_centre(page, button))
    page.wait_for_selector("#dlg-paytable[open]", timeout=60_000)
    first = page.evaluate("() => document.querySelector('#dlg-paytable .dlg-body section').id")
    assert first == "winfalls-paytable"
    clean_visit.shot("fmf-winfalls-paytable")
    page.keyboard.press("Escape")
    page.wait_for_selector("#dlg-paytable", state="hidden", timeout=60_000)
    assert picked(page, seed) == ["start"]  # the button picked no pet
    page.mouse.click(*h.box_centre(page, boxes[0]))
    page.wait_for_function(
        "k => JSON.parse(localStorage.getItem(k)).state.round.choices.length >= 2", arg=KEY.format(seed=seed)
    )
    assert picked(page, seed)[:2] == ["start", "0"]  # the Dog, by a click
    wait_feature(page, "f.multiplier >= 3")
    clean_visit.shot("fmf-winfalls-x3")
    # The cascades drew from cached sprites: the page's own work per frame stays in budget.
    page.wait_for_function("() => window.slotStats.frameMsP95 > 0", timeout=60_000)
    assert page.evaluate("() => window.slotStats.frameMsP95") < 1000 / 60
    hurry_to_the_end(page)
    assert events(page, "featureEnd")[0]["win"] == end.win
    wait_events(page, "roundEnd", 2)
    h.wait_state(page, "ready", ROUND_MS)
    assert meter(page, "balance") == fmt(s.balance)
    clean_visit.shot("fmf-winfalls-end")


# -- 2. on a phone: reload at the pet screen, a pet by keyboard, reload mid-cascade -------------------------
def test_on_a_phone_reloads_mid_feature_and_mid_cascade_and_a_pet_by_keyboard(browser: Any, server: Any) -> None:
    v = Visit(browser, server.url, viewport=PHONE, is_mobile=True, has_touch=True, device_scale_factor=2)
    try:
        seed = winfalls_seed()
        s = session(seed)
        log = play(s)
        end = next(e for e in log if isinstance(e, ev.FreeSpinsEnd))
        page = open_game(v, seed)
        page.locator("[data-action=spin]").tap()
        page.wait_for_selector(START, timeout=ROUND_MS)
        page.locator(START).tap()
        wait_pets(page)
        # A reload at the pet screen: the same four pets wait (a round in play waits for
        # every picture before its first frame).
        page.reload()
        h.wait_state(page, "feature")
        wait_pets(page)
        assert page.evaluate("() => window.slotStudio.pictures.later") == 0
        v.shot("fmf-pet-screen-after-reload-phone")
        page.keyboard.press("Digit2")  # the Cat
        page.wait_for_function(
            "k => JSON.parse(localStorage.getItem(k)).state.round.choices.length >= 2", arg=KEY.format(seed=seed)
        )
        assert picked(page, seed)[:2] == ["start", "1"]
        # A reload while the first free spin's cascade plays.
        wait_feature(page, "f.cascading && f.freeSpin[0] === 1")
        v.shot("fmf-cascade-phone")
        page.reload()
        h.wait_state(page, "feature")
        page.wait_for_selector("#loading", state="hidden", timeout=60_000)
        wait_feature(page, "f.on && f.freeSpin[0] >= 1")
        v.shot("fmf-after-reload-mid-cascade-phone")
        assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")
        hurry_to_the_end(page)
        wait_events(page, "roundEnd")
        h.wait_state(page, "ready", ROUND_MS)
        assert meter(page, "balance") == fmt(s.balance)
        assert meter(page, "win") == fmt(s.last_round.win if s.last_round else -1)
        assert end.win > 0
        v.assert_clean()
    finally:
        v.close()


# -- 3. the bets fit the balance ----------------------------------------------------------------------------
def test_max_bet_disabled_when_short_and_the_bet_steps_down(clean_visit: Visit) -> None:
    seed = loss_seed()
    saved = session(seed, balance=3000)
    saved.set_bet(Bet(25, 100))  # 25.00 a spin with 30.00 in the balance
    page = open_game(clean_visit, seed, turbo=False)
    page.evaluate("([k, v]) => localStorage.setItem(k, v)", [KEY.format(seed=seed), saved.snapshot()])
    page.reload()
    h.wait_state(page, "ready")
    page.wait_for_selector("#loading", state="hidden", timeout=60_000)
    assert meter(page, "balance") == "30.00"
    assert meter(page, "bet") == "25.00"
    assert page.locator("[data-action=bet_max]").is_disabled()
    clean_visit.shot("fmf-max-bet-disabled")
    page.click("[data-action=spin]")
    wait_events(page, "roundEnd")
    h.wait_state(page, "ready", ROUND_MS)
    # 5.00 left: the highest bet it covers is 0.20 a line, 5.00 in all.
    h.wait_text(page, "#meter-bet", "5.00")
    assert meter(page, "balance") == "5.00"
    assert meter(page, "bpl") == "0.20"
    assert "Bet lowered to 5.00" in str(page.text_content("#live"))
    assert page.locator("[data-action=bet_max]").is_disabled()
    clean_visit.shot("fmf-bet-stepped-down")
