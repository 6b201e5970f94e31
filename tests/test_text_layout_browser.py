"""Words on the page's canvas, as Chromium draws them: every game plays the rounds of its
tour that bring each of its waiting screens (`tests.text_tour.waiting_rounds`, decisions
answered with their first choice) with ``debug=1``, where
the page reads every frame's words with the boxes the browser measured
(`slotui.browser.CheckedCanvas`). At each screen that waits on the player (a feature's
Start, a pick, a win to collect) the canvas is drawn at a small and a large phone, a tablet
both ways and a desktop, and photographed into ``test-artifacts/``; between them the sizes
take turns, so that what the rounds show in between is read at every size too. No frame may
put words on words, off the canvas or on the logo, and the page's font must be no wider
than the width the layouts reckon with (so the CPython walk's check holds here).
"""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("playwright", reason="the browser tests need the dev extra (playwright)")

from playwright.sync_api import Page

from tests.browser import helpers as h
from tests.browser.fixtures import ARTIFACTS, Visit
from tests.text_tour import waiting_rounds

pytestmark = pytest.mark.browser

VIEWPORTS = ((360, 640), (412, 915), (768, 1024), (1024, 768), (1280, 800))
"""Small and large phones, a tablet upright and sideways, a desktop (CSS px)."""
ROUND_MS = 240_000
STEP_MS = 60_000
WAITS = ("feature_start", "pick", "collect_or_gamble")
"""The contexts in which the round waits on the player."""


def stats(page: Page) -> dict[str, Any]:
    found: dict[str, Any] = page.evaluate(
        "() => { const s = window.slotStats || {}; return {context: s.context || '', frames: s.textFrames || 0,"
        " problems: s.textProblems || [], ratio: s.textWidthRatio || 0, pick: s.pick || null,"
        " state: document.documentElement.dataset.state, ends: window.__events.filter(e => e.type ="
        "== 'roundEnd').length}; }"
    )
    return found


def drawn_at(page: Page, size: tuple[int, int]) -> None:
    """Resize the page and wait until the canvas has drawn a frame at its new size."""
    same = page.viewport_size == {"width": size[0], "height": size[1]}
    before = stats(page)["frames"] - (1 if same else 0)  # (at the same size the last frame counts)
    page.set_viewport_size({"width": size[0], "height": size[1]})
    page.wait_for_function(
        "([w, n]) => { const c = document.getElementById('reels'); const s = window.slotStats;"
        " return c && s && document.documentElement.clientWidth === w && s.textFrames > n"
        " && s.textSize === `${c.width}x${c.height}`; }",
        arg=[size[0], before],
        timeout=STEP_MS,
        polling=50,
    )


def waiting(page: Page) -> bool:
    s = stats(page)
    if s["context"] not in WAITS:
        return False
    return s["context"] != "pick" or bool(s["pick"] and s["pick"]["waiting"])


def answer(page: Page) -> None:
    """The first choice: Start, the first closed cell, Collect."""
    s = stats(page)
    if s["context"] == "pick":
        board = s["pick"]
        closed = [i for i in range(len(board["boxes"])) if i not in board["open"]]
        x, y = h.box_centre(page, board["boxes"][closed[0]])
        page.mouse.click(x, y)
    else:
        page.keyboard.press("Enter")


def play(visit: Visit, game: str, seed: int, shots: str) -> dict[str, Any]:
    """Play the seeded session's first round, reading every screen that waits at every size."""
    visit.page.clock.set_fixed_time(h.PAGE_T0)
    page = visit.goto(f"play.html?game={game}&seed={seed}&debug=1")
    h.wait_state(page, "ready")
    page.wait_for_selector("#loading", state="hidden", timeout=60_000)
    if page.get_attribute("[data-action=turbo]", "aria-pressed") != "true":  # (a page before may have left it on)
        page.click("[data-action=turbo]")
    page.wait_for_selector("[data-action=turbo][aria-pressed=true]", timeout=STEP_MS)
    turn = 0
    screen = 0
    page.keyboard.press("Space")
    page.wait_for_function("() => window.__events.some(e => e.type === 'roundStart')", timeout=STEP_MS, polling=50)
    while True:
        page.wait_for_function(
            "w => { const s = window.slotStats || {}; const c = s.context || '';"
            " const ended = window.__events.some(e => e.type === 'roundEnd') && s.resting;"
            " return ended || (w.includes(c) && (c !== 'pick' || (s.pick && s.pick.waiting))); }",
            arg=list(WAITS),
            timeout=ROUND_MS,
            polling=50,
        )
        if not waiting(page):
            break  # the round is over and presented
        screen += 1
        for size in VIEWPORTS:
            drawn_at(page, size)
            page.screenshot(path=str(ARTIFACTS / f"text-{shots}-{screen:02d}-{size[0]}x{size[1]}.png"))
        before = stats(page)
        answer(page)  # (at the size drawn last: the pick's boxes are those of that size)
        turn += 1
        width, height = VIEWPORTS[turn % len(VIEWPORTS)]
        page.set_viewport_size({"width": width, "height": height})
        # The answer taken: another context, or the pick's next cell opening.
        page.wait_for_function(
            "([c, k]) => { const s = window.slotStats; return s.context !== c"
            " || (c === 'pick' && (!s.pick || s.pick.open.length !== k || !s.pick.waiting)); }",
            arg=[before["context"], len(before["pick"]["open"]) if before["pick"] else -1],
            timeout=STEP_MS,
            polling=50,
        )
    for size in VIEWPORTS:
        drawn_at(page, size)
    page.screenshot(path=str(ARTIFACTS / f"text-{shots}-end.png"))
    visit.assert_clean()
    return stats(page)


def test_every_game_reads_clear_in_chromium_at_every_size(visit: Visit, games: dict[str, Any]) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    seen: dict[str, list[str]] = {}
    widest = 0.0
    for info in games["games"]:
        game = info["id"]
        rounds = waiting_rounds(game)
        assert rounds, f"{game}: the tour has no round that waits on the player"
        for r in rounds:
            try:
                result = play(visit, game, r.seed, f"{game}-{r.seed}")
            except Exception as exc:
                raise AssertionError(f"{game} seed {r.seed}: {stats(visit.page)}") from exc
            if result["problems"]:
                seen[f"{game} seed {r.seed}"] = result["problems"][:12]
            widest = max(widest, float(result["ratio"]))
    assert not seen, "words drawn wrong:\n" + "\n".join(f"{k}:\n  " + "\n  ".join(v) for k, v in seen.items())
    assert 0.5 < widest <= 1.0, f"the page's font is {widest:.2f}x the width the layouts reckon with"
