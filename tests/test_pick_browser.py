"""The shared pick end to end in headless Chromium, on the tests' fixture game (built into
the test site only, off the lobby): a cell opened by a click, by the digit keys, by the
arrow keys and Enter, and by a tap on a phone; a reload mid-pick brings back the same
board; the unpicked cells are shown at the end; autoplay answers the picks. The engine in
CPython replays each round from the choices the page made and must agree with the page."""

from __future__ import annotations

import functools
import json
from typing import Any

import pytest

pytest.importorskip("playwright", reason="the browser tests need the dev extra (playwright)")

from playwright.sync_api import Page

from pyengine.events import PickEnd, PickReveal
from pyengine.session import Session
from tests.browser import helpers as h
from tests.browser.fixtures import PHONE, Visit
from tests.test_site import events

pytestmark = pytest.mark.browser

GAME = "pick_fixture"
KEY = "slotstudio:v1:" + GAME + ":seed:{seed}"
ROUND_MS = 90_000
START = "[data-action=start_feature]:not([hidden])"


@functools.cache
def bonus_seed() -> int:
    for seed in range(20_000):
        s = Session(GAME, seed=seed)
        s.spin()
        if s.pending is not None:
            return seed
    raise AssertionError("no fixture seed starts the bonus")


def open_game(v: Visit, seed: int) -> Page:
    page = v.goto(f"play.html?game={GAME}&seed={seed}")
    h.wait_state(page, "ready")
    page.wait_for_selector("#loading", state="hidden", timeout=60_000)
    page.click("[data-action=turbo]")
    return page


def board(page: Page) -> dict[str, Any] | None:
    return h.pick_board(page)


def wait_board(page: Page, name: str, opened: int | None = None) -> dict[str, Any]:
    """Wait until the board ``name`` waits on a pick (with ``opened`` cells open)."""
    return h.wait_pick(page, ROUND_MS, name, opened)


def to_charm(page: Page) -> dict[str, Any]:
    page.click("[data-action=spin]")
    page.wait_for_selector(START, timeout=ROUND_MS)
    assert h.state(page) == "feature"
    page.click(START)
    return wait_board(page, "charm")


def click_cell(page: Page, box: list[float]) -> None:
    page.mouse.click(*h.box_centre(page, box))


def saved(page: Page, seed: int) -> dict[str, Any]:
    text = page.evaluate("k => localStorage.getItem(k)", KEY.format(seed=seed))
    data: dict[str, Any] = json.loads(text)
    return data


def finish_with_enter(page: Page) -> None:
    """Press Enter on every board that waits, until the round ends."""
    before = len(events(page, "roundEnd"))
    for _ in range(40):
        if len(events(page, "roundEnd")) > before:
            return
        p = board(page)
        if p is not None and p["waiting"]:
            page.keyboard.press("Enter")
            page.wait_for_timeout(150)
        else:
            page.wait_for_timeout(100)
    page.wait_for_function("n => window.__events.filter(e => e.type === 'roundEnd').length > n", arg=before)


def test_click_keys_reload_and_the_end_of_a_pick(clean_visit: Visit) -> None:
    seed = bonus_seed()
    page = open_game(clean_visit, seed)
    charm = to_charm(page)
    assert len(charm["boxes"]) == 3
    click_cell(page, charm["boxes"][1])  # a click on the second charm
    hidden = wait_board(page, "board", 0)
    assert len(hidden["boxes"]) == 12
    clean_visit.shot("pick-board")
    page.keyboard.press("Digit3")  # the digit keys: the third cell
    page.wait_for_function("() => window.slotStats.pick && window.slotStats.pick.open.includes(2)", timeout=60_000)
    state = saved(page, seed)["state"]["round"]
    if state is None:
        pytest.skip("the first board cell stopped the pick")
    assert state["choices"] == ["start", "1", "2"]
    # A reload mid-pick: the same board, with the same cell open.
    wait_board(page, "board", 1)
    page.reload()
    h.wait_state(page, "feature")
    back = wait_board(page, "board", 1)
    assert back["open"] == [2]
    # Arrows and Enter open the focused cell.
    focus = back["focus"]
    page.keyboard.press("ArrowRight")
    page.wait_for_function("f => window.slotStats.pick.focus !== f", arg=focus, timeout=60_000)
    moved = board(page)
    assert moved is not None
    page.keyboard.press("Enter")
    page.wait_for_function(
        "f => { const p = window.slotStats.pick; return !p || p.open.includes(f); }", arg=moved["focus"], timeout=60_000
    )
    # Play the board out; its end shows what the other cells held, then the round ends.
    page.wait_for_function("() => !window.slotStats.pick || window.slotStats.pick.waiting"
                           " || window.slotStats.pick.ended", timeout=ROUND_MS)
    finish_with_enter(page)
    history = saved(page, seed)["state"]["history"]
    last = history[-1]
    s = Session(GAME, seed=0)
    replayed = s.replay(seed=last["seed"], choices=last["choices"])
    assert [e.to_json() for e in replayed] == last["events"]
    ends = [e for e in replayed if isinstance(e, PickEnd)]
    reveals = [e for e in replayed if isinstance(e, PickReveal) and e.name == "board"]
    assert len(ends[-1].cells) + len(reveals) == 12
    clean_visit.assert_clean()


def test_a_tap_on_a_phone_picks_a_cell(browser: Any, server: Any) -> None:
    v = Visit(browser, server.url, viewport=PHONE, has_touch=True, is_mobile=True)
    try:
        page = open_game(v, bonus_seed())
        charm = to_charm(page)
        page.touchscreen.tap(*h.box_centre(page, charm["boxes"][0]))
        wait_board(page, "board", 0)
        v.shot("pick-board-phone")
        v.assert_clean()
    finally:
        v.close()


def test_autoplay_answers_the_picks(clean_visit: Visit) -> None:
    page = open_game(clean_visit, bonus_seed())
    page.keyboard.press("KeyA")
    page.wait_for_selector("#dlg-autoplay[open]", timeout=60_000)
    page.select_option("#ap-rounds", "10")
    h.more_autoplay_settings(page)
    page.set_checked("#ap-feature", checked=False)
    page.click("#ap-start")
    page.wait_for_function("() => window.slotStats.pick && window.slotStats.pick.name === 'board'", timeout=ROUND_MS)
    page.wait_for_function("() => window.__events.some(e => e.type === 'roundEnd')", timeout=ROUND_MS)
    first = saved(page, bonus_seed())["state"]["history"][0]
    assert first["choices"][0] == "start"
    assert any(e["type"] == "pick_end" for e in first["events"])
    page.click("[data-action=autoplay]")  # stop it
    clean_visit.assert_clean()


@pytest.fixture
def clean_visit(visit: Visit) -> Any:
    return visit
