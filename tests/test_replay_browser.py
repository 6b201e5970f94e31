"""A round link on the page (``play.html?game=ID&replay=TOKEN``, `slotui.replaymode`) in
headless Chromium: every game plays the link's round back, the same event log and win as the
engine's, read only (the saved session byte-identical before and after, no play control on);
a bad token is refused with a clear message that offers the game, and changes nothing stored.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Page

from pyengine.games import GAME_IDS, get_game
from pyengine.session import Session
from pyengine.link import encode, first_round, link_of
from tests.browser import helpers as h
from tests.browser.fixtures import DESKTOP, PHONE, Visit

pytestmark = pytest.mark.browser

SEED = 7
READY_MS = 120_000


@pytest.fixture
def clean_visit(visit: Visit) -> Iterator[Visit]:
    yield visit
    visit.assert_clean()


def storage(page: Page) -> dict[str, str]:
    return dict(page.evaluate("() => Object.fromEntries(Object.entries(localStorage))"))


def quiet(game: str, seed: int) -> bool:
    """The first round of session ``seed`` waits on no decision."""
    s = Session(game, seed=seed, clock=lambda: h.PAGE_T0)
    s.spin()
    return s.pending is None


def saved_game(v: Visit, game: str) -> dict[str, str]:
    """Play one round of ``game`` normally, so that the browser holds its save; return the
    storage as it stands."""
    seed = next(s for s in range(1000) if quiet(game, s))
    page = h.open_game(v, game, seed)
    page.click("[data-action=spin]")
    h.wait_events(page, "roundEnd")
    page.wait_for_function("() => Object.keys(localStorage).length > 0", timeout=30_000)
    lobby = v.goto("index.html")  # the game's page gone (its last save written), the lobby writes none
    lobby.wait_for_load_state()
    return storage(lobby)


@pytest.mark.parametrize("game", GAME_IDS)
def test_a_round_link_replays_the_engines_round_and_writes_nothing(clean_visit: Visit, game: str) -> None:
    record, events = first_round(game, SEED)
    token = encode(link_of(game, record))
    before = saved_game(clean_visit, game)
    page = clean_visit.goto(f"play.html?game={game}&replay={token}&debug=1")
    h.wait_state(page, "ready", READY_MS)
    h.wait_events(page, "roundEnd", timeout=300_000)
    logged = page.evaluate("() => window.slotStats.replay")
    assert logged == [json.dumps(e.to_json(), sort_keys=True, separators=(",", ":")) for e in events]
    end = [e for e in page.evaluate("() => window.__events") if e["type"] == "roundEnd"]
    assert [e["win"] for e in end] == [record.win]
    # Read only: every play control off, the round's figures on the bar, the save untouched.
    assert page.is_disabled("[data-action=spin]")
    assert page.is_disabled("[data-action=bet_up]")
    bar = page.locator("#replay-bar")
    assert bar.is_visible()
    assert "Replay of a round" in bar.inner_text()
    assert f"win {get_game(game).bets.format(record.win)}" in bar.inner_text()
    # Space asks for a round: the locked page says why none starts, and none does.
    page.evaluate("() => { document.getElementById('live').textContent = ''; }")
    page.keyboard.press("Space")
    page.wait_for_function("() => document.getElementById('live').textContent.startsWith('Replay')", timeout=30_000)
    assert len([e for e in page.evaluate("() => window.__events") if e["type"] == "roundStart"]) == 1
    assert storage(page) == before
    clean_visit.shot(f"replay-{game}")


def test_play_this_game_leaves_the_replay_for_the_games_own_session(clean_visit: Visit) -> None:
    game = GAME_IDS[0]
    record, _ = first_round(game, SEED)
    page = clean_visit.goto(f"play.html?game={game}&replay={encode(link_of(game, record))}")
    h.wait_state(page, "ready", READY_MS)
    page.click('#replay-bar [data-replay="play"]')
    page.wait_for_url(lambda url: "replay=" not in url and f"game={game}" in url, timeout=60_000)
    h.wait_state(page, "ready", READY_MS)
    assert page.locator("#replay-bar").is_hidden()
    assert page.is_enabled("[data-action=spin]")


@pytest.mark.parametrize("kind", ["truncated", "edited", "other_game", "garbage"])
def test_a_bad_round_link_is_refused_and_offers_the_game(clean_visit: Visit, kind: str) -> None:
    game, other = GAME_IDS[0], GAME_IDS[1]
    token = encode(link_of(game, first_round(game, SEED)[0]))
    bad = {
        "truncated": token[:-5],
        "edited": token[:10] + ("A" if token[10] != "A" else "B") + token[11:],
        "other_game": encode(link_of(other, first_round(other, SEED)[0])),
        "garbage": "not-a-token",
    }[kind]
    before = saved_game(clean_visit, game)
    page = clean_visit.goto(f"play.html?game={game}&replay={bad}")
    h.wait_state(page, "error", READY_MS)
    message = page.locator("#message")
    assert "This round cannot be replayed" in message.inner_text()
    assert "round link" in message.inner_text()
    href = message.get_by_role("link", name="Play this game").get_attribute("href")
    assert href is not None
    assert "replay=" not in href
    assert f"game={game}" in href
    assert storage(page) == before


# -- Share this round ---------------------------------------------------------------------------
SHARE_STUB = """
window.__shared = [];
Object.defineProperty(navigator, "share", {
  configurable: true,
  value: (data) => { window.__shared.push(data); return Promise.resolve(); },
});
"""


def _played(v: Visit, game: str) -> tuple[Page, str]:
    """``game`` opened at a seed whose first round waits on nothing, that round played;
    the page and the address that replays it (as the engine makes it)."""
    seed = next(s for s in range(1000) if quiet(game, s))
    page = h.open_game(v, game, seed)
    assert page.is_disabled("[data-action=share]")  # nothing played yet
    page.click("[data-action=spin]")
    h.wait_events(page, "roundEnd")
    page.wait_for_selector("[data-action=share]:not([disabled])", timeout=120_000)
    record, _ = first_round(game, seed, clock=lambda: h.PAGE_T0)
    return page, f"{v.base_url}play.html?game={game}&replay={encode(link_of(game, record))}"


def _shared(page: Page) -> dict[str, str]:
    page.wait_for_function("() => window.slotStudio.lastShare !== null", timeout=30_000)
    got: dict[str, str] = page.evaluate("() => window.slotStudio.lastShare")
    page.evaluate("() => { window.slotStudio.lastShare = null; }")
    return got


def test_share_copies_the_rounds_link_and_the_history_shares_each_round(browser: Any, server: Any) -> None:
    v = Visit(browser, server.url, viewport=DESKTOP, permissions=["clipboard-read", "clipboard-write"])
    try:
        game = GAME_IDS[0]
        page, url = _played(v, game)
        page.click("[data-action=share]")
        assert _shared(page) == {"how": "clipboard", "url": url}
        assert page.evaluate("() => navigator.clipboard.readText()") == url
        assert "copied" in page.locator("#notice").inner_text()
        page.click("[data-action=history]")
        page.locator("#dlg-history .share-round").first.click()
        assert _shared(page) == {"how": "clipboard", "url": url}
        page.keyboard.press("Escape")
        # The link, opened in another browser (a fresh context: no storage), replays the round.
        other = Visit(browser, server.url, viewport=DESKTOP)
        try:
            replay = other.goto(url.removeprefix(server.url) + "&debug=1")
            h.wait_state(replay, "ready", READY_MS)
            h.wait_events(replay, "roundEnd", timeout=300_000)
            won = [e["win"] for e in replay.evaluate("() => window.__events") if e["type"] == "roundEnd"]
            assert won == [e["win"] for e in page.evaluate("() => window.__events") if e["type"] == "roundEnd"]
            other.assert_clean()
        finally:
            other.close()
        v.assert_clean()
    finally:
        v.close()


def test_share_on_a_phone_opens_the_share_sheet(browser: Any, server: Any) -> None:
    v = Visit(browser, server.url, viewport=PHONE, has_touch=True, is_mobile=True)
    try:
        v.context.add_init_script(SHARE_STUB)
        game = GAME_IDS[-1]
        page, url = _played(v, game)
        page.tap("[data-action=share]")
        assert _shared(page) == {"how": "share", "url": url}
        sheet = page.evaluate("() => window.__shared")
        assert [d["url"] for d in sheet] == [url]
        assert get_game(game).name in sheet[0]["title"]
        v.assert_clean()
    finally:
        v.close()
