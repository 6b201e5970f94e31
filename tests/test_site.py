"""Layer 6: the built site in headless Chromium (system Chromium through Playwright).

The site of this checkout is built into a temporary folder by ``build.py``'s own code and
served on loopback by its server (``tests/browser/helpers.py``). Every test records every
request of its browser context: none may leave the site's origin, none may fail, and the
Content-Security-Policy may block nothing. Screenshots of the key screens are saved in
``test-artifacts/``.

The game is `tests.browser.fixtures.GAME` (the first game with a gamble and free spins). Its
seeds are asked of the engine in CPython (``Session(GAME, seed=N)`` plays the rounds of
``play.html?seed=N``; ``python3 -m pyengine play <id> --seed N --jsonl`` shows them):
`LOSS_SEED`'s first two rounds lose, `WIN_SEED`'s first round wins `WIN` and waits for collect
or gamble, `TABS_SEED`'s first three rounds wait for nothing but Collect.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from pyengine.events import RoundEnd
from pyengine.games import GAME_IDS, game_ids, get_game
from pyengine.session import Session
from tests.browser import helpers as h
from tests.browser.fixtures import DESKTOP, GAME, PHONE, PLAY, Visit

pytestmark = pytest.mark.browser


# -- the engine in CPython: seeds and amounts ----------------------------------------------------
BETS = get_game(GAME).bets
NAME = get_game(GAME).name
SEARCH = range(1, 5_000)


def first_seed(prop: Callable[[int], bool], what: str) -> int:
    """The first session seed in `SEARCH` with ``prop``."""
    for n in SEARCH:
        if prop(n):
            return n
    raise AssertionError(f"no session seed in {SEARCH} has {what}: the reel strips or the engine changed")


def loses_twice(seed: int) -> bool:
    """The session's first two rounds win nothing and wait for nothing (Spin plays each to its end)."""
    s = Session(GAME, seed=seed)
    for _ in range(2):
        end = s.spin()[-1]
        if s.pending is not None or not isinstance(end, RoundEnd) or end.win != 0:
            return False
    return True


def wins_to_gamble(seed: int) -> bool:
    """The session's first round wins and waits for Collect, with Gamble offered."""
    s = Session(GAME, seed=seed)
    s.spin()
    return s.pending is not None and s.pending.kind == "collect_or_gamble" and "gamble" in s.pending.choices


def collects_three(seed: int) -> bool:
    """The session's first three rounds wait for nothing but Collect (what `play_round` answers)."""
    s = Session(GAME, seed=seed)
    for _ in range(3):
        s.spin()
        while s.pending is not None:
            if s.pending.kind != "collect_or_gamble":
                return False
            s.choose("collect")
    return True


LOSS_SEED = first_seed(loses_twice, "two losing rounds first")
WIN_SEED = first_seed(wins_to_gamble, "a first round that waits for collect or gamble")
TABS_SEED = first_seed(collects_three, "three rounds that wait for nothing but Collect")


def _first_win() -> int:
    s = Session(GAME, seed=WIN_SEED)
    s.spin()
    return s.round_win


WIN = _first_win()
"""What `WIN_SEED`'s first round wins (minor units)."""
WIN_MAJOR = WIN / BETS.minor_per_major
OFFERED = sorted({lines * level for lines in BETS.lines for level in BETS.levels})
"""Every total bet the game offers (minor units), as the lobby's games.json lists them."""
NOT_OFFERED = BETS.format(next(t for t in range(OFFERED[0], OFFERED[-1]) if t not in OFFERED))
"""The smallest amount between the smallest and the largest total bet that is not offered."""
GOOD_BET = BETS.format(max(t for t in OFFERED if 2 * t <= OFFERED[-1]))
"""An offered total bet that is not the default: the largest up to half the maximum."""


def events(page: Page, kind: str | None = None) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = page.evaluate("() => window.__events")
    return [e for e in found if kind is None or e["type"] == kind]


def meter(page: Page, name: str) -> str:
    return str(page.text_content(f"#meter-{name}")).strip()


def play_round(page: Page) -> None:
    """Spin with the button, collect a win if one waits, and wait until the round has ended."""
    before = len(events(page, "roundEnd"))
    page.click("[data-action=spin]")
    # A win waits for Collect or Gamble (an unseeded session may win): collect it.
    page.wait_for_function(
        """n => window.__events.filter(e => e.type === 'roundEnd').length > n
             || !document.querySelector('[data-action=collect]').hidden""",
        arg=before,
        timeout=30_000,
    )
    if page.is_visible("[data-action=collect]"):
        page.click("[data-action=collect]")
    page.wait_for_function(
        "n => window.__events.filter(e => e.type === 'roundEnd').length > n", arg=before, timeout=30_000
    )
    h.wait_state(page, "ready", 30_000)


def wait_decision(page: Page) -> None:
    """Wait until the Collect button shows (a win waits for collect or gamble)."""
    page.wait_for_selector("[data-action=collect]:not([hidden])", timeout=30_000)


# -- the lobby ---------------------------------------------------------------------------------


def test_lobby_lists_the_playable_games(visit: Visit, games: dict[str, Any]) -> None:
    page = visit.goto("index.html")
    page.wait_for_selector(f".tile-link[data-game={GAME}]")
    tiles = page.locator(".tile-link")
    shown = [g for g in games["games"] if not g.get("hidden")]
    # The registered games that are not shipped (the tests' fixture game) are hidden.
    assert [g["id"] for g in games["games"] if g.get("hidden")] == [g for g in game_ids() if g not in GAME_IDS]
    assert tiles.count() == len(shown)
    entry = next(g for g in games["games"] if g["id"] == GAME)
    tile = page.locator(f".tile-link[data-game={GAME}]")
    assert tile.get_attribute("href") == f"./{PLAY}"
    assert NAME in tile.inner_text()
    assert tile.locator(".tile-rtp").inner_text() == f"{entry['rtp'] * 100:.2f}%"
    assert f"{int(entry['max_win_x']):,}" in tile.locator(".tile-maxwin").inner_text()
    # The tile art loaded (tile.svg, or the fallback composition).
    assert page.evaluate("() => [...document.querySelectorAll('.tile-art img')].every(i => i.naturalWidth > 0)")
    visit.shot("lobby-desktop")
    # Keyboard: the first Tab reaches the first game, Enter opens it.
    page.keyboard.press("Tab")
    assert page.evaluate("() => document.activeElement.dataset.game") == games["games"][0]["id"]
    page.keyboard.press("Enter")
    page.wait_for_url(f"**/{PLAY}")
    visit.assert_clean()


def test_lobby_on_a_phone(browser: Browser, server: Any) -> None:
    v = Visit(browser, server.url, viewport=PHONE, is_mobile=True, has_touch=True, device_scale_factor=2)
    try:
        page = v.goto("index.html")
        page.wait_for_selector(f".tile-link[data-game={GAME}]")
        assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")
        box = page.locator(f".tile-link[data-game={GAME}]").bounding_box()
        assert box is not None
        assert box["height"] >= 44
        v.shot("lobby-phone")
        v.assert_clean()
    finally:
        v.close()


# -- the game page -------------------------------------------------------------------------------


def test_game_loads_and_plays_rounds(visit: Visit) -> None:
    page = visit.goto(f"{PLAY}&seed={LOSS_SEED}")
    assert h.state(page) == "loading"
    h.wait_state(page, "ready")
    assert page.locator("#title").inner_text() == NAME
    assert page.evaluate("() => document.body.classList.contains('ready')")
    page.wait_for_selector("#loading", state="hidden", timeout=60_000)  # it fades out
    ready = events(page, "ready")
    assert len(ready) == 1
    assert ready[0]["game"] == GAME
    visit.shot("game-ready-desktop")
    balance = meter(page, "balance")
    page.evaluate("() => { window.__states = []; }")
    play_round(page)
    states: list[str] = page.evaluate("() => window.__states")
    assert "spinning" in states, states
    assert states[-1] == "ready", states
    assert meter(page, "balance") != balance
    start, end = events(page, "roundStart"), events(page, "roundEnd")
    assert len(start) == 1
    assert len(end) == 1
    assert {"win", "balance"} <= set(end[0]), end[0]
    # Space spins too.
    page.locator("#reels").click(position={"x": 5, "y": 5})
    page.keyboard.press("Space")
    page.wait_for_function("() => window.__events.filter(e => e.type === 'roundEnd').length >= 2", timeout=30_000)
    h.wait_state(page, "ready", 30_000)
    visit.shot("game-after-rounds-desktop")
    visit.assert_clean()


def test_game_on_a_phone(browser: Browser, server: Any) -> None:
    v = Visit(browser, server.url, viewport=PHONE, is_mobile=True, has_touch=True, device_scale_factor=3)
    try:
        page = v.goto(f"{PLAY}&seed={LOSS_SEED}")
        h.wait_state(page, "ready")
        assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")
        spin = page.locator("[data-action=spin]").bounding_box()
        assert spin is not None
        assert spin["width"] >= 44
        assert spin["y"] + spin["height"] <= PHONE["height"]
        # The canvas's backing store follows devicePixelRatio, up to 2 (browser.MAX_PIXEL_RATIO).
        width = page.evaluate("() => document.getElementById('reels').width")
        css = page.evaluate("() => document.getElementById('reels').getBoundingClientRect().width")
        assert width == pytest.approx(css * 2, abs=3)
        page.locator("[data-action=spin]").tap()
        page.wait_for_function("() => window.__events.some(e => e.type === 'roundEnd')", timeout=30_000)
        v.shot("game-phone")
        v.assert_clean()
    finally:
        v.close()


def test_offline_after_one_visit(visit: Visit, server: Any) -> None:
    page = visit.goto(f"{PLAY}&seed={LOSS_SEED}")
    h.wait_state(page, "ready")
    # The service worker installs once the game is ready and precaches what every page needs,
    # then this game's art.
    page.wait_for_function("() => window.slotStudio.offline === 'ready'", timeout=60_000, polling=100)
    precached = page.evaluate(
        """async () => {
            const reg = await navigator.serviceWorker.ready;
            const keys = await caches.keys();
            const mine = keys.filter(k => k.startsWith('slot-studio:'));
            const cache = await caches.open(mine[0]);
            return {active: reg.active.state, caches: mine, entries: (await cache.keys()).length};
        }"""
    )
    assert precached["active"] in ("activated", "activating")
    assert len(precached["caches"]) == 1
    assert precached["entries"] >= 20
    served = len(server.served)
    visit.context.set_offline(True)
    try:
        page.reload()
        h.wait_state(page, "ready")
        # The repeat visit started Python from the precached snapshot, and the page read the
        # runtime's large files from the cache itself (no request for them, not even one the
        # service worker answers), then gave the page its own fetch back.
        seen = page.evaluate(
            """() => ({marks: Object.keys(window.slotStudio.marks),
                       requested: performance.getEntriesByType('resource').map(e => e.name)
                         .filter(n => /snapshot[.]bin|pyodide[.]asm[.]wasm|stdlib[.]zip|[.]whl/.test(n)),
                       fetch: String(window.fetch).includes('[native code]')})"""
        )
        assert "snapshotLoaded" in seen["marks"], seen
        assert seen["requested"] == [], seen
        assert seen["fetch"], seen
        play_round(page)
        visit.shot("game-offline")
    finally:
        visit.context.set_offline(False)
    # The browser's own service-worker update check (sw.js) ignores the emulated offline mode;
    # it is not the page's request, and on a real outage it simply fails.
    extra = [r.path for r in server.served[served:] if r.path != "/sw.js"]
    assert extra == [], f"the offline reload still reached the server: {extra}"
    visit.assert_clean()


def test_reload_in_the_middle_of_a_gamble_restores_it(visit: Visit) -> None:
    page = visit.goto(f"{PLAY}&seed={WIN_SEED}")
    h.wait_state(page, "ready")
    page.click("[data-action=spin]")
    wait_decision(page)
    assert meter(page, "win") == BETS.format(WIN)
    visit.shot("game-collect-or-gamble")
    page.click("[data-action=gamble]")
    page.wait_for_selector("[data-action=red]:not([hidden])", timeout=30_000)
    win, balance = meter(page, "win"), meter(page, "balance")
    visit.shot("game-gamble")
    page.reload()
    h.wait_started(page)  # the gamble resumes at once (data-state may read "feature")
    page.wait_for_selector("#loading", state="hidden", timeout=60_000)
    page.wait_for_selector("[data-action=red]:not([hidden])", timeout=30_000)
    assert page.locator("[data-action=black]").is_visible()
    assert meter(page, "win") == win
    assert meter(page, "balance") == balance
    page.click("[data-action=collect]")
    page.wait_for_function("() => window.__events.some(e => e.type === 'roundEnd')", timeout=30_000)
    h.wait_state(page, "ready", 30_000)
    page.wait_for_function(
        "b => document.getElementById('meter-balance').textContent.trim() !== b", arg=balance, timeout=60_000
    )
    before = float(balance.replace(",", ""))
    assert float(meter(page, "balance").replace(",", "")) == pytest.approx(before + WIN_MAJOR)
    visit.assert_clean()


def test_a_page_left_at_collect_is_paid_on_return(visit: Visit) -> None:
    # The rule (the game's rules, docs/games/<id>.md, Game recovery): a reload at Collect credits the win.
    page = visit.goto(f"{PLAY}&seed={WIN_SEED}")
    h.wait_state(page, "ready")
    page.click("[data-action=spin]")
    wait_decision(page)
    balance = float(meter(page, "balance").replace(",", ""))
    page.reload()
    h.wait_state(page, "ready")
    assert page.locator("[data-action=collect]").is_hidden()
    assert float(meter(page, "balance").replace(",", "")) == pytest.approx(balance + WIN_MAJOR)
    visit.assert_clean()


def test_a_corrupt_saved_game_shows_a_notice_and_still_starts(visit: Visit) -> None:
    page = visit.goto(f"{PLAY}&seed={WIN_SEED}")
    h.wait_state(page, "ready")
    page.click("[data-action=spin]")
    wait_decision(page)
    keys: list[str] = page.evaluate(
        "g => Object.keys(localStorage).filter(k => k.includes(g))", GAME
    )
    assert keys, "nothing of the game was saved in localStorage"
    page.evaluate("ks => ks.forEach(k => localStorage.setItem(k, '{corrupt'))", keys)
    page.reload()
    h.wait_state(page, "ready")
    notice = page.locator("#notice")
    assert notice.is_visible()
    assert notice.inner_text().strip() != ""
    visit.shot("game-corrupt-save-notice")
    page.click("#notice .notice-close")
    assert notice.is_hidden()
    visit.assert_clean()


def test_two_tabs_of_one_game_never_lose_a_round(visit: Visit) -> None:
    """The rules allow one game at a time: a second tab shows the game but waits, and says
    so; when it is played there instead ("Play here instead"), the first one stops at once
    and says so (it no longer saves over the other); reloaded, it shows the other tab's
    rounds and waits in turn."""
    a = visit.goto(f"{PLAY}&seed={TABS_SEED}")
    h.wait_state(a, "ready")
    play_round(a)
    b = visit.context.new_page()
    b.goto(visit.base_url + f"{PLAY}&seed={TABS_SEED}")
    h.wait_state(b, "ready")
    h.wait_text(b, "#notice .notice-text", "another tab")
    assert b.locator("[data-action=spin]").is_disabled()
    with b.expect_navigation():
        b.click("#notice .notice-action")
    h.wait_state(b, "ready")
    assert meter(b, "balance") == meter(a, "balance")  # B carries on from A's save
    play_round(b)
    play_round(b)
    a.wait_for_function(
        "() => document.querySelector('#notice .notice-text').textContent.includes('another tab')", timeout=60_000
    )
    assert a.locator("[data-action=spin]").is_disabled()
    balance_b = meter(b, "balance")
    a.evaluate("() => { document.getElementById('live').textContent = ''; }")
    a.keyboard.press("Space")  # a stopped tab does not spin, and saves nothing:
    h.wait_text(a, "#live", "another tab")  # the press was handled, and said why it cannot play
    assert meter(b, "balance") == balance_b
    a.reload()
    h.wait_state(a, "ready")
    assert meter(a, "balance") == balance_b  # tab B's rounds are all there
    assert a.locator("[data-action=spin]").is_disabled()  # and B still plays them
    history = a.evaluate(
        "k => JSON.parse(localStorage.getItem(k)).state.history.length", f"slotstudio:v1:{GAME}:seed:{TABS_SEED}"
    )
    assert history == 3
    b.close()
    visit.assert_clean()


def test_a_save_nested_thousands_deep_never_stops_the_page(visit: Visit) -> None:
    """A game save and a settings value nested 5,000 levels deep: the page discards them,
    says so, starts a fresh session, and the next reload is clean."""
    page = visit.goto(f"{PLAY}&seed={WIN_SEED}")
    h.wait_state(page, "ready")
    deep = "[" * 5000 + "]" * 5000
    keys = [f"slotstudio:v1:{GAME}:seed:{WIN_SEED}", "slotstudio:v1:settings"]
    page.evaluate("([ks, d]) => ks.forEach(k => localStorage.setItem(k, d))", [keys, deep])
    page.reload()
    h.wait_state(page, "ready")
    assert "could not be restored" in page.locator("#notice").inner_text()
    page.click("[data-action=spin]")
    page.wait_for_function("() => window.__events.some(e => e.type === 'roundStart')", timeout=30_000)
    page.reload()
    h.wait_state(page, "ready")
    assert page.locator("#notice").is_hidden()
    visit.assert_clean()


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("", list(GAME_IDS)),
        ("game=nope", ["nope", *GAME_IDS]),
        (
            f"game={GAME}&bet={NOT_OFFERED}",
            [NOT_OFFERED, BETS.format(OFFERED[0]), BETS.format(BETS.default.total), BETS.format(OFFERED[-1])],
        ),
        (f"game={GAME}&seed=abc", ["abc", "18446744073709551615"]),
        (f"game={GAME}&seed=18446744073709551616", ["18446744073709551615"]),
        (f"game={GAME}&foo=1", ["foo", "game", "bet", "seed", "embed"]),
        (f"game={GAME}&embed=yes", ["embed=1"]),
    ],
    ids=["no-game", "unknown-game", "bet-not-offered", "seed-not-a-number", "seed-too-big", "unknown-param", "embed"],
)
def test_bad_parameters_show_a_message_naming_the_valid_values(visit: Visit, query: str, expected: list[str]) -> None:
    page = visit.goto(f"play.html?{query}")
    h.wait_state(page, "error", 15_000)
    message = page.locator("#message")
    assert message.is_visible()
    text = message.inner_text()
    for word in expected:
        assert word in text, f"{word!r} is not in the message: {text!r}"
    page.wait_for_timeout(300)
    assert h.state(page) == "error"
    python = [u for u in visit.watch.requests if "/pyodide/" in u or "/pyscript/" in u or u.endswith(".py")]
    assert python == [], f"a bad address still loaded Python: {python}"
    if query.startswith(f"game={GAME}&bet"):
        visit.shot("bad-parameter-message")
    visit.assert_clean()


def test_a_good_bet_parameter_is_accepted(visit: Visit) -> None:
    assert BETS.format(BETS.default.total) != GOOD_BET  # the parameter changes the bet
    page = visit.goto(f"{PLAY}&bet={GOOD_BET}&seed={LOSS_SEED}")
    h.wait_state(page, "ready")
    assert page.evaluate("() => slotStudio.params.bet") == GOOD_BET
    assert meter(page, "bet") == GOOD_BET
    visit.assert_clean()


def test_the_site_works_under_a_sub_path(browser: Browser, site: Any) -> None:
    base = "/demos/slots/"
    srv = h.serve(site.path, base=base)
    v = Visit(browser, srv.url, viewport=DESKTOP)
    try:
        page = v.goto("")  # the folder itself: index.html
        page.wait_for_selector(f".tile-link[data-game={GAME}]")
        page.click(f".tile-link[data-game={GAME}]")
        page.wait_for_url(f"**{base}{PLAY}")
        h.wait_state(page, "ready")
        # A seeded round (`LOSS_SEED`'s first round loses): an unseeded one could start a feature
        # that waits for the player, and play_round only collects a line win.
        page = v.goto(f"{PLAY}&seed={LOSS_SEED}")
        h.wait_state(page, "ready")
        play_round(page)
        assert [e["win"] for e in events(page, "roundEnd")] == [0]  # the seeded losing round
        outside = [u for u in v.watch.requests if not u.startswith(srv.url)]
        assert outside == [], f"requests outside {base}: {outside}"
        scope = page.evaluate("async () => (await navigator.serviceWorker.ready).scope")
        assert scope == srv.url
        v.assert_clean()
    finally:
        v.close()
        srv.shutdown()
        srv.server_close()


# The parent page has no CSP of its own; its inline script only collects the messages.
PARENT_PAGE = """<!doctype html><html><head><title>A marketing page</title></head><body>
<h1>Play the demo</h1>
<iframe id="demo" src="{src}" width="420" height="640" allow="fullscreen"></iframe>
<script>
window.messages = [];
window.addEventListener("message", (e) => {{
  if (e.data && e.data.source === "slot-studio") window.messages.push({{origin: e.origin, data: e.data}});
}});
</script></body></html>"""


def test_an_embedding_page_receives_messages(visit: Visit, server: Any, tmp_path: Path) -> None:
    # The parent page comes from another origin (another port). A public host name would not
    # do: Chromium does not let a public page frame a loopback address (Private Network Access).
    src = f"{server.url}{PLAY}&seed={LOSS_SEED}&embed=1"
    (tmp_path / "index.html").write_text(PARENT_PAGE.format(src=src))
    parent_server = h.serve(tmp_path)
    try:
        page = visit.page
        page.goto(parent_server.url)
        page.wait_for_function(
            "() => window.messages.some(m => m.data.type === 'ready')", timeout=h.READY_TIMEOUT_MS
        )
        frame = page.frame_locator("#demo")
        assert frame.locator(".topbar").is_hidden()
        frame.locator("[data-action=spin]").click()
        page.wait_for_function("() => window.messages.some(m => m.data.type === 'roundEnd')", timeout=30_000)
        messages: list[dict[str, Any]] = page.evaluate("() => window.messages")
        assert {m["origin"] for m in messages} == {h.origin_of(server.url)}
        by_type = {m["data"]["type"]: m["data"] for m in messages}
        assert {"ready", "roundStart", "roundEnd"} <= set(by_type)
        for m in by_type.values():
            assert m["game"] == GAME
        assert {"win", "balance"} <= set(by_type["roundEnd"])
        # Exit (Q) in an embedded game tells the embedding page, which decides where to go.
        frame.locator("body").press("KeyQ")
        page.wait_for_function("() => window.messages.some(m => m.data.type === 'exit')", timeout=60_000)
        exit_message = next(m["data"] for m in page.evaluate("() => window.messages") if m["data"]["type"] == "exit")
        assert exit_message["balance"] == by_type["roundEnd"]["balance"]
        assert frame.locator("[data-action=spin]").is_visible()  # the game stayed in its frame
        visit.shot("embedded-in-a-parent-page")
    finally:
        parent_server.shutdown()
        parent_server.server_close()
    # The parent page itself came from the other origin, on purpose.
    visit.watch.requests = [u for u in visit.watch.requests if not u.startswith(parent_server.url)]
    visit.assert_clean()
