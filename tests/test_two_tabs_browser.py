"""Two tabs of one game, both pressing Spin at the same moment, in headless Chromium.

Only the tab that holds the game's save plays it (`slotStudio.claim`: one Web Lock per save,
claimed before the save is read). The other shows the game, plays nothing, saves nothing and
says why, with a "Play here instead" button that takes the game over (the tab that held it
stops at once and says so). For every registered game, two tabs press Spin in the same
millisecond twelve times, the game changing hands after six: every round a tab showed is
in the save (whose history, of the last ten, has dropped the first two), and the tab that
did not play says why it stopped.

What is asserted is causal (which tab started which round, what the save holds), never how
long anything took.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from pyengine.games import GAME_IDS
from pyengine.session import HISTORY_SIZE, Session
from tests.browser import helpers as h
from tests.browser.fixtures import DESKTOP

pytestmark = pytest.mark.browser

ROUNDS = 12
HAND_OVER_EVERY = 6
TAKE_OVER = ".notice-action:not([hidden])"
PREFS_KEY = "slotstudio:v1:settings"
PREFS = json.dumps({"turbo": True, "reduced": True})
# Both tabs press Spin (its key, S: a disabled button takes no click, the key reaches the
# game) at the same wall-clock millisecond; each records when it pressed.
PRESS_AT = """t => setTimeout(() => {
  window.__pressed = t;
  for (const type of ["keydown", "keyup"])
    document.dispatchEvent(new KeyboardEvent(type, {code: "KeyS", key: "s", bubbles: true}));
}, Math.max(0, t - Date.now()))"""


def quiet_seed(game: str) -> int:
    """A seed whose first rounds start no feature and win at most their stake (shown at once,
    no count-up), searched with the engine in CPython: the page plays the same rounds."""
    for seed in range(1, 20_000):
        s = Session(game, seed=seed, balance=10**9)
        for _ in range(ROUNDS):
            s.spin()
            while s.pending is not None and not s.pending.feature:
                s.choose(s.pending.choices[0])
            last = s.last_round
            if s.pending is not None or last is None or last.features or last.win > last.stake:
                break
        else:
            return seed
    raise AssertionError(f"no seed of {game} below 20,000 plays {ROUNDS} quiet rounds")


def round_ends(page: Page) -> int:
    return int(page.evaluate("() => window.__events.filter(e => e.type === 'roundEnd').length"))


def notice(page: Page) -> str:
    return str(page.evaluate("() => document.querySelector('#notice').hidden ? '' : "
                             "document.querySelector('#notice .notice-text').textContent"))


def open_tab(page: Page, url: str) -> None:
    page.goto(url)
    h.wait_started(page)
    page.wait_for_selector("#loading", state="hidden", timeout=30_000)


def finish_round(page: Page, before: int) -> None:
    """Collect a win that waits for it, until the page has ended one more round."""
    while True:
        page.wait_for_function(
            """n => window.__events.filter(e => e.type === 'roundEnd').length > n
                 || !document.querySelector('[data-action=collect]').hidden""",
            arg=before,
            timeout=60_000,
        )
        if round_ends(page) > before:
            return
        page.click("[data-action=collect]")
        page.wait_for_selector("[data-action=collect]", state="hidden", timeout=30_000)


def assert_stopped(page: Page) -> None:
    """The tab that does not hold the game says so and offers to play here instead."""
    assert "another tab" in notice(page), notice(page)
    assert page.is_visible(TAKE_OVER)
    assert page.is_disabled("[data-action=spin]")


@pytest.mark.parametrize("game", GAME_IDS)
def test_two_tabs_pressing_spin_together_never_lose_a_round(browser: Browser, server: Any, game: str) -> None:
    seed = quiet_seed(game)
    url = f"{server.url}play.html?game={game}&seed={seed}"
    key = f"slotstudio:v1:{game}:seed:{seed}"
    context, watch = h.new_context(browser, h.origin_of(server.url), viewport=DESKTOP)
    # Turbo and reduced motion, as a player may set them: the rounds are what is tested here,
    # not their animation.
    context.add_init_script(f"if (location.protocol === 'http:') localStorage.setItem({PREFS_KEY!r}, {PREFS!r});")
    try:
        tabs = [context.new_page(), context.new_page()]
        open_tab(tabs[0], url)
        open_tab(tabs[1], url)
        holder = 0
        shown = 0  # rounds the tabs showed, over every page they loaded
        for n in range(ROUNDS):
            if n and n % HAND_OVER_EVERY == 0:
                # The waiting tab takes the game over: it reloads and plays from the save.
                taker, giver = tabs[1 - holder], tabs[holder]
                with taker.expect_navigation(timeout=30_000):
                    taker.click(TAKE_OVER)
                h.wait_started(taker)
                taker.wait_for_selector("#loading", state="hidden", timeout=30_000)
                giver.wait_for_function(
                    "() => document.querySelector('#notice .notice-text').textContent.includes('another tab')",
                    timeout=30_000,
                )
                holder = 1 - holder
            player, waiting = tabs[holder], tabs[1 - holder]
            player.bring_to_front()  # the tab the player looks at (a tab behind draws few frames)
            assert_stopped(waiting)
            before, idle_before = round_ends(player), round_ends(waiting)
            at = int(player.evaluate("() => Date.now()")) + 100
            for tab in (player, waiting):
                tab.evaluate(PRESS_AT, at)
            for tab in (player, waiting):
                tab.wait_for_function("t => window.__pressed === t", arg=at, timeout=30_000)
            finish_round(player, before)
            shown += 1
            assert round_ends(waiting) == idle_before  # the waiting tab started nothing
            assert_stopped(waiting)
        saved = json.loads(tabs[holder].evaluate("k => localStorage.getItem(k)", key))["state"]
        assert saved["rounds_played"] == shown == ROUNDS
        assert [r["index"] for r in saved["history"]] == list(range(ROUNDS - HISTORY_SIZE, ROUNDS))
        assert saved["round"] is None
        assert watch.page_errors == []
    finally:
        context.close()
