"""The showcase on the site, in headless Chromium: the lobby's Watch links (one per entry of
every game, each copied whole), each game's rules page ends with them, every entry's round
link replays the engine's round, and attract mode (``embed=1&attract=1``) loops the rounds,
pauses, and gives way to a normal game on the first interaction.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Page

from pyengine.events import dumps
from pyengine.games import GAME_IDS
from pyengine.link import decode, play_link
from tests.browser import helpers as h
from tests.browser.fixtures import DESKTOP, Visit

pytestmark = pytest.mark.browser

READY_MS = 120_000


@pytest.fixture
def clean_visit(visit: Visit) -> Iterator[Visit]:
    yield visit
    visit.assert_clean()


def site_showcase(site: Any) -> dict[str, Any]:
    """The site's showcase.json."""
    return dict(json.loads((Path(site.path) / "showcase.json").read_text())["games"])


def _log(token: str) -> list[str]:
    return dumps(play_link(decode(token))).splitlines()


def test_the_site_has_the_engines_showcase(site: Any) -> None:
    built = h.build_module().showcases(Path(sys.executable), list(GAME_IDS))
    shown = site_showcase(site)
    assert set(shown) >= set(GAME_IDS)
    for g in GAME_IDS:
        assert [e["token"] for e in shown[g]["entries"]] == [e["token"] for e in built[g]["entries"]]


def test_the_lobby_offers_every_entry_and_copies_its_link(browser: Any, server: Any, site: Any) -> None:
    v = Visit(browser, server.url, viewport=DESKTOP, permissions=["clipboard-read", "clipboard-write"])
    try:
        page = v.goto("index.html")
        page.wait_for_selector("#games[data-watch=ready]", timeout=60_000)
        showcase = site_showcase(site)
        for g in GAME_IDS:
            tile = page.locator(f".tile:has(.tile-link[data-game={g}])")
            items = tile.locator(".watch-item")
            assert items.count() == len(showcase[g]["entries"])
            hrefs = [items.nth(i).locator("a").get_attribute("href") for i in range(items.count())]
            assert hrefs == [f"{server.url}play.html?game={g}&replay={e['token']}" for e in showcase[g]["entries"]]
        first = GAME_IDS[0]
        tile = page.locator(f".tile:has(.tile-link[data-game={first}])")
        tile.locator("summary").click()
        tile.locator(".watch-copy").first.click()
        page.wait_for_function("() => navigator.clipboard.readText().then(t => t.includes('replay='))", timeout=30_000)
        copied = page.evaluate("() => navigator.clipboard.readText()")
        assert copied == f"{server.url}play.html?game={first}&replay={showcase[first]['entries'][0]['token']}"
        v.shot("lobby-watch")
        v.assert_clean()
    finally:
        v.close()


def test_the_rules_page_ends_with_the_watch_links(clean_visit: Visit, site: Any) -> None:
    game = GAME_IDS[-1]
    page = h.open_game(clean_visit, game, 1)
    page.wait_for_function("() => window.slotStudio.showcaseEntries > 0", timeout=60_000)
    page.click("[data-action=help]")
    section = page.locator("#dlg-help .watch")
    section.wait_for(timeout=30_000)
    tokens = [e["token"] for e in site_showcase(site)[game]["entries"]]
    links = section.locator("a.watch-link")
    assert [links.nth(i).get_attribute("href") for i in range(links.count())] == [
        f"play.html?game={game}&replay={t}" for t in tokens
    ]


def _storage(page: Page) -> dict[str, str]:
    return dict(page.evaluate("() => Object.fromEntries(Object.entries(localStorage))"))


def test_every_showcase_entry_replays_the_engines_round(clean_visit: Visit, site: Any) -> None:
    """One page plays the first entry back (its presentation's events and win are the engine's);
    then the page's own engine (the wheel in Pyodide, ``slotStats.replayLog``) replays every
    entry of every game, each equal to the CPython log. (Each game's replay page, presentation
    and all, is `test_replay_browser`'s.) Nothing stored changes."""
    showcase = site_showcase(site)
    page = h.open_game(clean_visit, GAME_IDS[0], 1)
    before = _storage(page)
    first = showcase[GAME_IDS[0]]["entries"][0]
    page = clean_visit.goto(f"play.html?game={GAME_IDS[0]}&replay={first['token']}&debug=1")
    h.wait_state(page, "ready", READY_MS)
    h.wait_events(page, "roundEnd", timeout=300_000)
    assert page.evaluate("() => window.slotStats.replay") == _log(first["token"])
    assert [e["win"] for e in page.evaluate("() => window.__events") if e["type"] == "roundEnd"] == [first["win"]]
    checked = 0
    for g in GAME_IDS:
        for e in showcase[g]["entries"]:
            logged = page.evaluate("t => window.slotStats.replayLog(t)", e["token"])
            assert logged == _log(e["token"]), (g, e["id"])
            assert json.loads(logged[-1])["win"] == e["win"], (g, e["id"])
            checked += 1
    assert checked == sum(len(showcase[g]["entries"]) for g in GAME_IDS)
    assert page.evaluate("t => window.slotStats.replayLog(t)", first["token"][:-4]).startswith("refused:")
    assert _storage(page) == before


def _attract(v: Visit, game: str) -> Page:
    """Attract mode of ``game``, turbo on (the visitor's setting) so that rounds are short."""
    page = v.goto("index.html")
    page.evaluate("() => localStorage.setItem('slotstudio:v1:settings', JSON.stringify({turbo: true}))")
    page = v.goto(f"play.html?game={game}&embed=1&attract=1&debug=1")
    h.wait_state(page, "ready", READY_MS)
    page.wait_for_selector("#attract-bar", state="visible", timeout=60_000)
    return page


def _ends(page: Page) -> int:
    return int(page.evaluate("() => window.__events.filter(e => e.type === 'roundEnd').length"))


def test_attract_mode_plays_showcase_rounds_pauses_and_stops_on_a_click(clean_visit: Visit, site: Any) -> None:
    game = GAME_IDS[0]
    page = _attract(clean_visit, game)
    entries = site_showcase(site)[game]["entries"]
    assert page.is_disabled("[data-action=spin]")
    assert page.locator("#replay-bar").is_hidden()
    # Two showcase rounds play one after the other, each the engine's.
    page.wait_for_function(
        "() => window.__events.filter(e => e.type === 'roundEnd').length >= 2", timeout=600_000, polling=200
    )
    stats = page.evaluate("() => window.slotStats.attract")
    assert stats["played"] >= 2
    assert stats["rounds"] == len(entries)
    wins = [e["win"] for e in page.evaluate("() => window.__events") if e["type"] == "roundEnd"][:2]
    order = [e for kind in ("feature", "jackpot", "tier") for e in entries if e["kind"] == kind]
    assert wins == [order[0]["win"], order[1]["win"]]  # the features first, in the showcase's order
    # Pause: the loop and the motion stop where they are, and resume from there.
    page.click('[data-attract="pause"]')
    page.wait_for_function("() => window.slotStats.attract.paused === true", timeout=30_000)
    assert page.get_attribute('[data-attract="pause"]', "aria-pressed") == "true"
    held = (_ends(page), page.evaluate("() => window.slotStats.attract.played"))
    page.wait_for_timeout(HOLD_WAIT_MS)
    assert (_ends(page), page.evaluate("() => window.slotStats.attract.played")) == held
    page.click('[data-attract="pause"]')
    page.wait_for_function("() => window.slotStats.attract.paused === false", timeout=30_000)
    page.wait_for_function(
        "n => window.slotStats.attract.played > n", arg=held[1], timeout=600_000, polling=200
    )
    # The first other interaction ends attract mode: the normal game, without attract.
    page.mouse.click(*_centre(page, "#reels"))
    page.wait_for_url(lambda url: "attract" not in url and f"game={game}" in url, timeout=60_000)
    h.wait_state(page, "ready", READY_MS)
    assert page.locator("#attract-bar").is_hidden()
    assert page.is_enabled("[data-action=spin]")


HOLD_WAIT_MS = 4000
"""Longer than the hold between two rounds: while paused, no next round starts in it."""


def _centre(page: Page, selector: str) -> tuple[float, float]:
    box = page.locator(selector).bounding_box()
    assert box is not None
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


def test_a_watch_link_replays_offline_after_one_visit(clean_visit: Visit, site: Any, server: Any) -> None:
    """After one visit of the game (its service worker precached the site), a Watch link
    replays its round with the network off: the engine's round, no request reaching the server."""
    game = GAME_IDS[-1]
    entry = site_showcase(site)[game]["entries"][0]
    page = clean_visit.goto(f"play.html?game={game}")
    h.wait_state(page, "ready", READY_MS)
    page.wait_for_function("() => window.slotStudio.offline === 'ready'", timeout=120_000, polling=100)
    served = len(server.served)
    clean_visit.context.set_offline(True)
    try:
        page = clean_visit.goto(f"play.html?game={game}&replay={entry['token']}&debug=1")
        h.wait_state(page, "ready", READY_MS)
        h.wait_events(page, "roundEnd", timeout=300_000)
        assert page.evaluate("() => window.slotStats.replay") == _log(entry["token"])
        assert [e["win"] for e in page.evaluate("() => window.__events") if e["type"] == "roundEnd"] == [entry["win"]]
    finally:
        clean_visit.context.set_offline(False)
    extra = [r.path for r in server.served[served:] if r.path != "/sw.js"]
    assert extra == [], f"the offline replay still reached the server: {extra}"
