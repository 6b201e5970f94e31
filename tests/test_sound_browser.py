"""Sound on the site, in headless Chromium (``--autoplay-policy=no-user-gesture-required``).

With ``debug=1`` the page lists every cue it scheduled (``slotStats.sounds``: name and
context time), the audio context's state (``slotStats.audio``) and whether sound is off
(``slotStats.soundMuted``). What is asserted is which cues were scheduled and why, never
when: a spin schedules one stop per reel, a win its chime and a loss none; every game's
losing spin its spin, one stop per reel of that game and no win; every game's features (its
showcase rounds, replayed) schedule the cues of their events; muted, nothing; a hidden tab
suspends the context; an embed starts muted until the speaker is tapped. No game is named:
the shared test game and every registered game are asked.
"""

from __future__ import annotations

import json
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, Playwright

from pyengine.events import Event
from pyengine.games import GAME_IDS, get_game, plugin
from pyengine.link import decode, play_link
from pyengine.session import Session
from tests.browser import helpers as h
from tests.browser.fixtures import DESKTOP, GAME, Visit
from tests.client_support import find_seed

pytestmark = pytest.mark.browser

AUTOPLAY = ("--autoplay-policy=no-user-gesture-required",)
EXTRA = ("reel_stop", "tick", "scatter")
"""Cues besides an event's own: the reels' stops, the count-up's ticks, a scatter win's chime."""
TURBO = "localStorage.setItem('slotstudio:v1:settings', JSON.stringify({turbo: true}));"


@pytest.fixture(scope="module")
def audio_browser(playwright: Playwright) -> Iterator[Browser]:
    b = h.launch(playwright, extra=AUTOPLAY)
    yield b
    b.close()


@pytest.fixture
def ear(audio_browser: Browser, server: Any) -> Iterator[Visit]:
    v = Visit(audio_browser, server.url, viewport=DESKTOP)
    yield v
    v.assert_clean()
    v.close()


def reels(game: str) -> int:
    return len(get_game(game).describe()["reels"]["base"])


def sounds(page: Page) -> list[str]:
    return list(page.evaluate("() => (window.slotStats.sounds || []).map(s => s[0])"))


def wait_sound(page: Page) -> None:
    """Until sound.js has loaded and the page's sound is attached (``slotStats.sounds``)."""
    page.wait_for_function("() => window.slotStats && Array.isArray(window.slotStats.sounds)", timeout=60_000)


def open_game(v: Visit, seed: int, extra: str = "", game: str = GAME) -> Page:
    v.page.clock.set_fixed_time(h.PAGE_T0)
    page = v.goto(f"play.html?game={game}&seed={seed}&debug=1{extra}")
    h.wait_state(page, "ready")
    page.wait_for_selector("#loading", state="hidden", timeout=60_000)
    wait_sound(page)
    return page


def speaker(page: Page, *, muted: bool) -> None:
    """Until the speaker button shows the sound off (``aria-pressed`` false) or on: the bar is
    drawn on the frame after the setting changes."""
    want = "false" if muted else "true"
    page.wait_for_function(
        f"() => document.querySelector('[data-action=sound]').getAttribute('aria-pressed') === '{want}'",
        timeout=30_000,
    )


def running(page: Page) -> None:
    page.wait_for_function("() => window.slotStats.audio === 'running'", timeout=30_000)


def spin_to_rest(page: Page) -> None:
    """Spin and wait until the round has ended or waits at Collect."""
    ends = len([e for e in page.evaluate("() => window.__events") if e["type"] == "roundEnd"])
    page.click("[data-action=spin]")
    page.wait_for_function(
        "n => window.__events.filter(e => e.type === 'roundEnd').length > n"
        " || !document.querySelector('[data-action=collect]').hidden",
        arg=ends,
        timeout=90_000,
        polling=50,
    )


def test_a_spin_schedules_one_stop_per_reel_and_a_win_only_when_it_wins(ear: Visit) -> None:
    # The sound's code comes once the game is ready, not on the first load: held back, the
    # game is ready without it (and silent), and sound comes when it arrives.
    held: list[Any] = []
    ear.page.route("**/sound.js", lambda route: held.append(route))
    ear.page.clock.set_fixed_time(h.PAGE_T0)
    page = ear.goto(f"play.html?game={GAME}&seed={find_seed('loss')}&debug=1")
    h.wait_state(page, "ready")
    for _ in range(600):
        if held:
            break
        page.wait_for_timeout(50)
    assert len(held) == 1
    assert page.evaluate("() => window.slotStats.sounds === undefined")
    held[0].continue_()
    page.unroute("**/sound.js")
    wait_sound(page)
    page.click("#title")  # a tap: the audio context starts
    running(page)
    spin_to_rest(page)
    lost = sounds(page)
    assert lost.count("spin") == 1
    assert lost.count("reel_stop") == reels(GAME)
    assert not [n for n in lost if n.startswith("win_")]
    times = page.evaluate("() => window.slotStats.sounds.map(s => s[1])")
    assert all(isinstance(t, int | float) for t in times)

    page = open_game(ear, find_seed("win"))
    page.click("#title")
    running(page)
    spin_to_rest(page)
    won = sounds(page)
    assert won.count("reel_stop") == reels(GAME)
    assert any(n.startswith("win_") for n in won)
    # The gamble: its start, then the card's verdict.
    page.click("[data-action=gamble]")
    page.click("[data-action=red]")
    h.wait_text(page, "#live", "The card is")
    gambled = sounds(page)[len(won):]
    assert gambled[0] == "gamble"
    assert gambled[1] in ("gamble_win", "gamble_lose")


@pytest.mark.parametrize("game", GAME_IDS)
def test_every_game_s_losing_spin_schedules_its_spin_and_one_stop_per_reel(ear: Visit, game: str) -> None:
    """A losing round of each game: its spin, one stop per reel of that game, no win, and
    only the cues its round's events call for."""
    seed = find_seed("loss", game=game)
    page = open_game(ear, seed, game=game)
    page.click("#title")  # a tap: the audio context starts
    running(page)
    spin_to_rest(page)
    got = sounds(page)
    assert got.count("spin") == 1, got
    assert got.count("reel_stop") == reels(game), got
    assert not [n for n in got if n.startswith("win_")], got
    wanted = _called_for(Session(game, seed=seed).spin(), game)
    assert [n for n in got if n not in EXTRA] == wanted, (game, got)


SOUND_CODE = ("slotui/cues.", "slotui/webaudio.")
"""The shared sound code's modules (their source, bytecode and compiled dataclasses)."""


def sound_code(names: list[str]) -> list[str]:
    """The members of an archive that are sound code: the cues, the Web Audio side, a game's
    voice (its screen package's ``sound``; ``slotui/sound`` is the silent stand-in)."""
    return [n for n in names if n.startswith(SOUND_CODE)
            or (n.rpartition("/")[2].split(".")[0] == "sound" and not n.startswith("slotui/sound."))]


def test_the_first_load_carries_no_sound_code_and_sound_comes_after_ready(ear: Visit, site: Any) -> None:
    """The sound code (the cues, every game's voice, the Web Audio side: sound.zip, and
    sound.js) is fetched once the game is ready: the archives of the first load hold none of
    it and no request before ``data-state=ready`` is for it. Held back, a whole round plays
    with the silent stand-in (nothing scheduled, nothing broken); once it arrives, a spin
    schedules its stops."""
    root = Path(site.path)
    first = [root / "slotui.zip", *sorted((root / "static" / "games").glob("*/client.zip"))]
    for archive in first:
        with zipfile.ZipFile(archive) as zf:
            assert sound_code(zf.namelist()) == [], archive
    with zipfile.ZipFile(root / "sound.zip") as zf:
        late = zf.namelist()
    assert {"slotui/cues.py", "slotui/cues.pyc", "slotui/webaudio.py", "slotui/webaudio.pyc"} <= set(late)
    voices = {f"slotui/games/{g}/sound.pyc" for g in GAME_IDS if plugin(g).screen.startswith("slotui.games.")}
    assert voices <= set(late)
    build_line = next(ln for ln in (root / "sw.js").read_text().splitlines() if ln.startswith("const BUILD = "))
    assert "sound.zip" in json.loads(build_line.removeprefix("const BUILD = ").rstrip(";"))["files"]  # precached
    held: list[Any] = []
    ear.page.route("**/sound.zip", lambda route: held.append(route))
    page = ear.goto(f"play.html?game={GAME}&seed={find_seed('loss')}&debug=1")
    h.wait_state(page, "ready")
    before = page.evaluate(
        """() => [...performance.getEntriesByType('resource')]
             .filter(e => e.startTime <= window.slotStudio.marks.ready)
             .map(e => new URL(e.name).pathname)"""
    )
    assert before, before
    assert not [p for p in before if p.endswith(("/sound.zip", "/sound.js"))], before
    for _ in range(600):
        if held:
            break
        page.wait_for_timeout(50)
    assert len(held) == 1  # asked for once the game was ready
    page.click("#title")  # a tap: the audio context would start, if there were one
    spin_to_rest(page)  # the silent stand-in: the round plays, nothing is scheduled
    assert page.evaluate("() => window.slotStats.sounds === undefined")
    assert page.evaluate("() => window.slotStats.audio === undefined")
    page.keyboard.press("KeyM")  # the speaker, before the sound code: kept and saved
    speaker(page, muted=True)
    held[0].continue_()
    page.unroute("**/sound.zip")
    wait_sound(page)
    assert page.evaluate("() => window.slotStats.soundMuted") is True
    assert json.loads(page.evaluate("() => localStorage.getItem('slotstudio:v1:sound')"))["muted"] is True
    page.keyboard.press("KeyM")
    page.wait_for_function("() => window.slotStats.soundMuted === false", timeout=30_000)
    speaker(page, muted=False)
    page.click("#title")
    running(page)
    spin_to_rest(page)
    got = sounds(page)
    assert got.count("spin") == 1
    assert got.count("reel_stop") == reels(GAME)


def test_muted_schedules_nothing_and_the_settings_are_remembered(ear: Visit) -> None:
    page = open_game(ear, find_seed("win"))
    page.keyboard.press("KeyM")
    page.wait_for_function("() => window.slotStats.soundMuted === true", timeout=30_000)
    speaker(page, muted=True)
    spin_to_rest(page)
    assert sounds(page) == []
    page.click("[data-action=settings]")
    page.evaluate("() => { const v = document.getElementById('set-volume'); v.value = '40';"
                  " v.dispatchEvent(new Event('input')); }")
    saved = json.loads(page.evaluate("() => localStorage.getItem('slotstudio:v1:sound')"))
    assert saved == {"muted": True, "volume": 0.4}
    page.reload()
    h.wait_started(page)
    wait_sound(page)
    assert page.evaluate("() => window.slotStats.soundMuted") is True
    assert page.evaluate("() => document.getElementById('set-volume').value") == "40"


def test_a_saved_mute_is_shown_before_the_sound_code_comes(audio_browser: Browser, server: Any) -> None:
    v = Visit(audio_browser, server.url, viewport=DESKTOP, service_workers="block")  # sound.zip from the network
    try:
        v.context.add_init_script(
            "localStorage.setItem('slotstudio:v1:sound', JSON.stringify({muted: true, volume: 0.3}));")
        held: list[Any] = []
        v.page.route("**/sound.zip", lambda route: held.append(route))
        page = v.goto(f"play.html?game={GAME}&seed={find_seed('loss')}&debug=1")
        h.wait_state(page, "ready")
        speaker(page, muted=True)  # from the saved setting, on the silent stand-in
        for _ in range(600):
            if held:
                break
            page.wait_for_timeout(50)
        assert len(held) == 1
        assert page.evaluate("() => window.slotStats.sounds === undefined")  # not come yet
        held[0].continue_()
        page.unroute("**/sound.zip")
        wait_sound(page)
        assert page.evaluate("() => window.slotStats.soundMuted") is True
        assert page.evaluate("() => document.getElementById('set-volume').value") == "30"
        v.assert_clean()
    finally:
        v.close()


def test_a_hidden_tab_suspends_the_context_and_schedules_nothing(ear: Visit) -> None:
    page = open_game(ear, find_seed("loss"))
    page.click("#title")
    running(page)
    page.evaluate(
        "() => { for (const [k, v] of [['hidden', true], ['visibilityState', 'hidden']])"
        " Object.defineProperty(document, k, {value: v, configurable: true});"
        " document.dispatchEvent(new Event('visibilitychange')); }"
    )
    page.wait_for_function("() => window.slotStats.audio === 'suspended'", timeout=30_000)
    spin_to_rest(page)
    assert sounds(page) == []
    page.evaluate(
        "() => { delete document.hidden; delete document.visibilityState;"
        " document.dispatchEvent(new Event('visibilitychange')); }"
    )
    running(page)
    spin_to_rest(page)
    assert sounds(page).count("reel_stop") == reels(GAME)


def test_an_embed_starts_muted_until_the_speaker_is_tapped(ear: Visit) -> None:
    page = open_game(ear, find_seed("loss"), "&embed=1")
    assert page.evaluate("() => window.slotStats.soundMuted") is True
    assert page.inner_text("[data-action=sound]").strip().upper() == "MUTED"
    spin_to_rest(page)
    assert sounds(page) == []
    page.click("[data-action=sound]")
    page.wait_for_function("() => window.slotStats.soundMuted === false", timeout=30_000)
    running(page)
    spin_to_rest(page)
    assert sounds(page).count("spin") == 1


# -- every game's features: its showcase rounds replayed -------------------------------------------
def _called_for(events: list[Event], game: str) -> list[str]:
    """The cues a round's events call for (`slotui.cues.cue_of`, in the game's voice)."""
    import importlib

    from slotui.cues import cue_of, voice_of
    from slotui.stage import screen_for

    importlib.import_module(plugin(game).screen)
    v = voice_of(screen_for(game).voice)
    return [f[0] for e in events if (f := cue_of(e, v)) is not None and f[0] not in EXTRA]


def _expected(token: str, game: str) -> list[str]:
    """The cues the events of the round ``token`` links to call for."""
    return _called_for(play_link(decode(token)), game)


def _cover(game: str, entries: list[dict[str, Any]]) -> list[tuple[str, list[str]]]:
    """The fewest showcase rounds (greedy) that together call for every cue the game's rounds do."""
    cues = {e["token"]: _expected(e["token"], game) for e in entries}
    wanted = set().union(*map(set, cues.values()))
    chosen: list[tuple[str, list[str]]] = []
    while wanted:
        token = max(cues, key=lambda t: len(wanted & set(cues[t])))
        chosen.append((token, cues[token]))
        wanted -= set(cues[token])
    return chosen


@pytest.mark.parametrize("game", GAME_IDS)
def test_every_feature_of_the_game_schedules_its_sounds(ear: Visit, site: Any, game: str) -> None:
    entries = json.loads((Path(site.path) / "showcase.json").read_text())["games"][game]["entries"]
    ear.context.add_init_script(TURBO)
    page = ear.page
    for token, wanted in _cover(game, entries):
        page.goto(f"{ear.base_url}play.html?game={game}&replay={token}&debug=1")
        page.mouse.click(5, 5)  # a tap while it loads: the page may start its sound
        h.wait_state(page, "ready", 120_000)
        h.wait_events(page, "roundEnd", timeout=300_000)
        got = [n for n in sounds(page) if n not in EXTRA and not n.startswith("win_")]
        assert got == wanted, (game, token[:16])
        assert sounds(page).count("reel_stop") >= 1
