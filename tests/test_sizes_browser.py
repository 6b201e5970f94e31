"""Every game embedded at the sizes marketers embed it: 320x568, 375x667, 412x915, a 400x225
popout, 1024x576 and 1280x800, each in portrait and landscape. Nothing is cut off: every
visible control lies inside the window, no button's word overflows it, no canvas text
overlaps another or leaves the canvas (``slotStats.textProblems``), and the free-play badge
is on screen. Each game is shown at every size in each of the site's three languages,
portrait and landscape by turns, and in three currencies across them (every language in
every currency), so the longer words of German and Spanish are fitted at the smallest
sizes too, and every text on the page and on the canvas comes from the language's
catalogue (``slotStudio.strays``).
A screenshot of each goes to test-artifacts/sizes/."""

from __future__ import annotations

from typing import Any

import json
from pathlib import Path

import pytest
from playwright.sync_api import Browser

from tests.browser import helpers as h
from tests.browser.fixtures import ARTIFACTS
from pyengine.games import GAME_IDS

pytestmark = pytest.mark.browser

SIZES = ((320, 568), (375, 667), (412, 915), (400, 225), (1024, 576), (1280, 800))
LANGS = ("en", "de", "es")
CURRENCIES = ("EUR", "USD", "GBP")
PAGES = tuple(
    ((w, ht) if (i + j) % 2 == 0 else (ht, w), lang, CURRENCIES[(i + j) % len(CURRENCIES)])
    for i, (w, ht) in enumerate(SIZES)
    for j, lang in enumerate(LANGS)
)
"""(viewport, language, currency) of each page: every size in every language, portrait and
landscape by turns, and every language in every currency across the sizes."""
CATALOGUES = Path(__file__).resolve().parents[1] / "web" / "slotui" / "lang"

TEXTS = r"""() => {
  // Each shown text as it is read: the words of its block (inline parts such as a bold
  // figure run together with the sentence around them).
  const out = new Set();
  const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walk.nextNode(); n; n = walk.nextNode()) {
    let el = n.parentElement;
    if (!el || el.closest('[hidden], dialog:not([open]), #debug, #loading, .visually-hidden')) continue;
    const st = getComputedStyle(el);
    if (st.display === 'none' || st.visibility === 'hidden' || !n.textContent.trim()) continue;
    const inline = (e) => getComputedStyle(e).display === 'inline' && !e.matches('button, a');
    while (el.parentElement && inline(el)) el = el.parentElement;
    const t = el.textContent.replace(/\s+/g, ' ').trim();
    if (t) out.add(t);
  }
  for (const el of document.querySelectorAll('.app [aria-label], .app [title]')) {
    if (el.closest('[hidden]')) continue;
    for (const a of ['aria-label', 'title']) if (el.getAttribute(a)) out.add(el.getAttribute(a));
  }
  return [...out];
}"""

CHECK = """() => {
  const vw = document.documentElement.clientWidth, vh = document.documentElement.clientHeight;
  const cut = [], overflow = [];
  for (const el of document.querySelectorAll('.app *')) {
    if (el.closest('dialog') || el.closest('[hidden]')) continue;
    const st = getComputedStyle(el);
    const r = el.getBoundingClientRect();
    if (st.display === 'none' || st.visibility === 'hidden' || r.width === 0 || r.height === 0) continue;
    const name = `${el.tagName.toLowerCase()}.${el.className}${el.dataset.action ? '[' + el.dataset.action + ']' : ''}`;
    if (r.left < -1 || r.top < -1 || r.right > vw + 1 || r.bottom > vh + 1) {
      cut.push([name, Math.round(r.left), Math.round(r.top), Math.round(r.right), Math.round(r.bottom)]);
    }
    if (el.tagName === 'BUTTON' && (el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1)) {
      overflow.push([name, el.scrollWidth, el.clientWidth]);
    }
  }
  const badge = document.querySelector('.free-badge');
  const b = badge.getBoundingClientRect();
  return {
    cut, overflow, problems: window.slotStats.textProblems,
    badge: {text: badge.textContent, shown: getComputedStyle(badge).display !== 'none',
            inside: b.left >= 0 && b.top >= 0 && b.right <= vw && b.bottom <= vh},
  };
}"""


@pytest.mark.parametrize("game", GAME_IDS)
def test_nothing_is_cut_off_at_any_embed_size(browser: Browser, server: Any, game: str) -> None:
    out = ARTIFACTS / "sizes"
    out.mkdir(parents=True, exist_ok=True)
    seen: dict[str, dict[str, Any]] = {}
    for (width, height), lang, currency in PAGES:
        money = f"&currency={currency}"
        context, watch = h.new_context(
            browser, h.origin_of(server.url), viewport={"width": width, "height": height}, bypass_csp=True
        )
        try:
            page = context.new_page()
            page.goto(f"{server.url}play.html?game={game}&embed=1&debug=1&seed=5&lang={lang}{money}")
            ready = "() => document.documentElement.dataset.state === 'ready' && window.slotStats"
            page.wait_for_function(ready, timeout=h.READY_TIMEOUT_MS)
            page.evaluate("() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))")
            got = page.evaluate(CHECK)
            got["lang"] = lang
            got["strays"] = page.evaluate("(t) => window.slotStudio.strays(t)", page.evaluate(TEXTS))
            seen[f"{width}x{height} {lang} {currency}"] = got
            page.screenshot(path=str(out / f"{game}-{width}x{height}-{lang}-{currency}.png"))
            assert watch.page_errors == [], watch.page_errors
        finally:
            context.close()
    for size, got in seen.items():
        assert got["cut"] == [], f"{game} at {size}: cut off {got['cut']}"
        assert got["overflow"] == [], f"{game} at {size}: words wider than their buttons {got['overflow']}"
        assert got["problems"] == [], f"{game} at {size}: canvas texts {got['problems'][:3]}"
        badge = json.loads((CATALOGUES / f"{got['lang']}.json").read_text(encoding="utf-8"))["page.free_badge"]
        assert got["badge"] == {"text": badge, "shown": True, "inside": True}, size
        assert got["strays"] == [], f"{game} at {size}: words from no catalogue"
