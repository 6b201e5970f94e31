"""The math page (``math.html?game=ID``) in headless Chromium: the engine in Pyodide, in a
worker and without numpy (the page's own FFT), draws every game's par sheet as the command
line computes it, and its what-if recomputes a game's exact RTP after a strip edit to
the value ``rtp --edit`` gives; bad parameters and refused edits change nothing; it works
offline after one visit; each game's rules page links it.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Iterator
from functools import cache
from typing import Any

import pytest
from playwright.sync_api import Page

from pyengine.games import GAME_IDS, get_game, plugin
from tests.browser import helpers as h
from tests.browser.fixtures import ARTIFACTS, Visit

pytestmark = pytest.mark.browser

ROUNDS = 20_000
"""Rounds the page simulates for a game without an exact distribution (small: the page's
figures are compared with the command line's at the same rounds and seed)."""
SHEET_MS = 300_000


@pytest.fixture
def clean_visit(visit: Visit) -> Iterator[Visit]:
    yield visit
    visit.assert_clean()


@cache
def cli_sheet(game_id: str, *edits: str, mode: str = "base") -> dict[str, Any]:
    cmd = [sys.executable, "-m", "pyengine", "rtp", game_id, "--json", "--rounds", str(ROUNDS), "--seed", "1"]
    cmd += ["--mode", mode]
    out = subprocess.run([*cmd, *(f"--edit={e}" for e in edits)], capture_output=True, text=True, check=True)
    data: dict[str, Any] = json.loads(out.stdout)
    return data


def open_math(visit: Visit, game_id: str, mode: str | None = None) -> Page:
    page = visit.goto(f"math.html?game={game_id}&rounds={ROUNDS}" + (f"&mode={mode}" if mode else ""))
    try:
        h.wait_state(page, "ready", timeout=SHEET_MS)
    except AssertionError:
        errors = page.evaluate("() => window.slotMath.errors")
        raise AssertionError(f"the math page never got ready: {errors}") from None
    return page


def _compare(page_sheet: dict[str, Any], cli: dict[str, Any]) -> None:
    """The page's par sheet against the command line's: exact figures to float precision
    (the page's FFT is not numpy's), simulated ones identically (the same rounds)."""
    assert page_sheet["rtp"] == pytest.approx(cli["rtp"], abs=1e-12)
    got, want = page_sheet["par_sheet"], cli["par_sheet"]
    assert got["distribution"]["source"]["kind"] == want["distribution"]["source"]["kind"]
    for a, b in zip(got["distribution"]["buckets"], want["distribution"]["buckets"], strict=True):
        assert a["probability"] == pytest.approx(b["probability"], abs=1e-12)
        assert a["rtp_share"] == pytest.approx(b["rtp_share"], abs=1e-12)
    assert got["sigma"]["value"] == pytest.approx(want["sigma"]["value"], rel=1e-9)
    assert [f["id"] for f in got["features"]] == [f["id"] for f in want["features"]]


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_the_math_page_draws_the_par_sheet_the_command_line_computes(clean_visit: Visit, game_id: str) -> None:
    page = open_math(clean_visit, game_id)
    sheet = page.evaluate("() => window.slotMath.sheet")
    _compare(sheet, cli_sheet(game_id))
    # What the page shows is that sheet: the RTP, one table row a bucket, every feature.
    buckets = sheet["par_sheet"]["distribution"]["buckets"]
    assert page.locator("[data-fact=rtp] dd").inner_text() == f"{sheet['rtp'] * 100:.4f}%"
    assert page.locator("#table-distribution tbody tr").count() == len(buckets)
    assert page.locator("#table-features tbody tr").count() == len(sheet["par_sheet"]["features"])
    checks = sheet["par_sheet"]["checks"]
    assert page.locator("#table-checks tbody tr").count() == len(checks)
    for i, c in enumerate(checks):
        cells = page.locator("#table-checks tbody tr").nth(i).locator("td")
        assert cells.nth(0).inner_text() == c["asks"]
        assert cells.nth(2).inner_text() == {True: "yes", False: "no", None: "not known"}[c["met"]]
    for chart in ("distribution", "share", "components", "funnel"):
        # Each chart drew something: its canvas is not blank.
        inked = page.evaluate(
            "id => { const c = document.getElementById(id); const d = c.getContext('2d')"
            ".getImageData(0, 0, c.width, c.height).data; for (let i = 3; i < d.length; i += 4)"
            " if (d[i]) return true; return false; }",
            f"chart-{chart}",
        )
        assert inked, chart
    source = page.locator("#dist-source").inner_text()
    assert source.startswith("Exact." if plugin(game_id).distribution else f"Simulated: {ROUNDS:,} rounds")
    # What the game pays apart from a round's win (a time jackpot) is said under the buckets.
    apart = sheet["par_sheet"]["distribution"]["apart"]
    note = page.locator("#dist-apart")
    assert note.is_visible() == bool(apart)
    for name, share in apart.items():
        assert f"{name} {share * 100:.4f}%" in note.inner_text()
    # The page drew the par sheet with progress reports from the worker.
    assert page.evaluate("() => window.slotMath.progress.length") > 0
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"math-{game_id}.png"), full_page=True)


MODES = {g: tuple(getattr(get_game(g), "modes", ("base",))) for g in GAME_IDS}
"""Each game's bet modes, as the site's games.json lists them."""


TWO_MODES: list[Any] = [g for g in GAME_IDS if len(MODES[g]) > 1] or [
    pytest.param(None, marks=pytest.mark.skip(reason="no registered game has a second bet mode"))
]


@pytest.mark.parametrize("game_id", TWO_MODES)
def test_each_bet_mode_has_its_par_sheet_and_its_what_if(clean_visit: Visit, game_id: str) -> None:
    """A game with a second mode (a Feature Buy) links the par sheet of each; the other
    mode's sheet is the command line's ``--mode`` one, and its what-if is that mode's (a
    strip edit need not move it: a bought round may spin no reels)."""
    mode = MODES[game_id][1]
    page = open_math(clean_visit, game_id, mode)
    sheet = page.evaluate("() => window.slotMath.sheet")
    assert sheet["mode"] == mode
    _compare(sheet, cli_sheet(game_id, mode=mode))
    links = page.locator("#math-modes a")
    assert [links.nth(i).get_attribute("data-mode") for i in range(links.count())] == list(MODES[game_id])
    assert page.locator("#math-modes a[aria-current=page]").get_attribute("data-mode") == mode
    assert f"({mode})" in page.locator("#math-title").inner_text()
    # The what-if of that mode: the RTP the command line gives for the same edit and mode.
    strip_set, reel, symbol = _strip_edit(game_id)
    edit = f"strip:{strip_set}:{reel}:{symbol}:+2"
    page.evaluate(f"() => {{ window.slotMath.edits = [{json.dumps(edit)}]; }}")
    page.click("#wi-run")
    page.wait_for_function(
        "() => window.slotMath.whatIf !== null && window.slotMath.state === 'ready'", timeout=SHEET_MS
    )
    got = page.evaluate("() => window.slotMath.whatIf")
    want = cli_sheet(game_id, edit, mode=mode)
    assert got["mode"] == mode
    assert got["rtp"] == pytest.approx(want["rtp"], abs=1e-12)
    assert got["edits"] == want["edits"] == [edit]
    assert ("par_sheet" in got) == ("par_sheet" in want)


def _strip_edit(game_id: str) -> tuple[str, int, str]:
    """A strip set, reel and symbol of the game to edit (the first set, reel 3, the top symbol)."""
    from pyengine.data import read_data_file

    data = read_data_file(f"{game_id}.json").value
    return next(iter(data["reels"])), 3, next(iter(data["paytable"]))


def test_the_what_if_recomputes_the_exact_rtp_the_command_line_gives(clean_visit: Visit) -> None:
    game_id = next(g for g in GAME_IDS if plugin(g).distribution and plugin(g).build)
    page = open_math(clean_visit, game_id)
    strips, reel, symbol = _strip_edit(game_id)
    page.select_option("#wi-set", strips)
    page.select_option("#wi-reel", str(reel))
    page.select_option("#wi-symbol", symbol)
    before = page.locator("#wi-count").inner_text()
    page.click("#wi-add")
    page.click("#wi-add")
    page.click("#wi-remove")
    edit = f"strip:{strips}:{reel}:{symbol}:+1"
    assert page.evaluate("() => window.slotMath.edits") == [edit]
    assert int(page.locator("#wi-count").inner_text().split()[0]) == int(before.split()[0]) + 1
    page.click("#wi-run")
    page.wait_for_function(
        "() => window.slotMath.whatIf !== null && window.slotMath.state === 'ready'", timeout=SHEET_MS
    )
    got = page.evaluate("() => window.slotMath.whatIf")
    want = cli_sheet(game_id, edit)
    assert got["edits"] == [edit]
    assert got["rtp"] == pytest.approx(want["rtp"], abs=1e-12)
    assert got["rtp"] != pytest.approx(cli_sheet(game_id)["rtp"], abs=1e-6)
    # The edited game's exact distribution too, from the page's FFT (web/fft.js) against
    # numpy's: the same buckets, non-negative and summing to 1.
    _compare(got, want)
    probabilities = [b["probability"] for b in got["par_sheet"]["distribution"]["buckets"]]
    assert min(probabilities) >= 0
    assert sum(probabilities) == pytest.approx(1, abs=1e-12)
    assert page.locator("[data-fact=whatif-rtp] dd").inner_text() == f"{got['rtp'] * 100:.4f}%"
    # A refused edit: the engine's message, nothing recomputed, the last result kept.
    page.evaluate("() => { window.slotMath.edits = ['strip:nosuchset:1:X:+1']; }")
    page.click("#wi-run")
    h.wait_text(page, "#wi-error", "has no strip set 'nosuchset'", timeout=SHEET_MS)
    assert page.evaluate("() => window.slotMath.whatIf.rtp") == got["rtp"]


@pytest.mark.parametrize(
    ("query", "problem"),
    [
        ("game=no_such_game", 'There is no game "no_such_game".'),
        ("", "No game was chosen"),
        ("game={game}&rounds=12", "rounds must be a whole number from 1,000 to 10,000,000"),
        ("game={game}&colour=red", 'Unknown parameter "colour".'),
        ("game={game}&mode=nosuchmode", 'has no mode "nosuchmode"; its modes: base'),
    ],
)
def test_bad_parameters_say_what_is_wrong_and_start_no_python(visit: Visit, query: str, problem: str) -> None:
    page = visit.goto("math.html?" + query.format(game=GAME_IDS[0]))
    h.wait_state(page, "error", timeout=60_000)
    assert problem in page.locator("#math-message").inner_text()
    assert not any("pyodide.asm.wasm" in url for url in visit.watch.requests)


def test_the_rules_page_links_the_par_sheet_and_it_works_offline(visit: Visit) -> None:
    game_id = GAME_IDS[0]
    page = visit.goto(f"play.html?game={game_id}")
    h.wait_started(page)
    page.click("[data-action=help]")
    link = page.locator("#dlg-help .math-link a")
    assert link.get_attribute("href") == f"./math.html?game={game_id}"
    page.keyboard.press("Escape")
    page = open_math(visit, game_id)
    page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=120_000)
    page.wait_for_function(
        "async () => (await caches.keys()).length > 0 && "
        "!!(await (await caches.open((await caches.keys())[0])).match('math-worker.js'))",
        timeout=120_000,
    )
    visit.context.set_offline(True)
    page.reload()
    h.wait_state(page, "ready", timeout=SHEET_MS)
    assert page.evaluate("() => window.slotMath.sheet.rtp") == pytest.approx(cli_sheet(game_id)["rtp"], abs=1e-12)
