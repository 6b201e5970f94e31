"""``lang=`` in Chromium: the page speaks German, Spanish or English, every word from the
language's catalogue; without ``lang=`` it speaks the browser's language; numbers and money
are written as the browser's own ``Intl`` writes them for the language; an unknown
language is refused before Python loads.

The texts checked are everything a player reads or hears on the page: its text nodes, its
labels and titles, and every text the canvas drew (``slotStudio.strays`` asks the page
which of them no catalogue gave), with the dialogs open in turn. Every game's screens in
every language are checked at every size by test_sizes_browser.py; this file goes through
one game's dialogs and the language's choice.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page

from tests.browser import helpers as h
from tests.browser.fixtures import DESKTOP, PLAY, Visit
from tests.test_sizes_browser import TEXTS
from tests.test_words import INTL, SAMPLES

pytestmark = pytest.mark.browser

CATALOGUES = Path(__file__).resolve().parents[1] / "web" / "slotui" / "lang"
LOCALES = {"en": "en-US", "de": "de-DE", "es": "es-ES"}


def shared(lang: str) -> dict[str, str]:
    return dict(json.loads((CATALOGUES / f"{lang}.json").read_text(encoding="utf-8")))


def ready(page: Page) -> None:
    page.wait_for_function("() => document.documentElement.dataset.state === 'ready'", timeout=h.READY_TIMEOUT_MS)
    page.wait_for_selector("#loading", state="hidden", timeout=60_000)


def strays(page: Page) -> list[str]:
    return list(page.evaluate("(t) => window.slotStudio.strays(t)", page.evaluate(TEXTS)))


def open_dialog(page: Page, action: str, dialog: str) -> None:
    page.locator(f"[data-action={action}]").click()
    page.wait_for_function("(d) => document.getElementById(d).open", arg=dialog)


def close_dialog(page: Page, dialog: str) -> None:
    page.keyboard.press("Escape")
    page.wait_for_function("(d) => !document.getElementById(d).open", arg=dialog)


@pytest.mark.parametrize("lang", ["de", "es", "en"])
def test_every_word_of_the_page_and_its_dialogs_is_the_languages(visit: Visit, lang: str) -> None:
    page = visit.goto(f"{PLAY}&seed=5&debug=1&lang={lang}")
    ready(page)
    words = shared(lang)
    assert page.evaluate("() => document.documentElement.lang") == lang
    assert str(page.locator(".meter.balance .meter-label").text_content()).strip() == words["page.balance"]
    assert str(page.locator("[data-action=spin]").text_content()).strip() == words["button.spin"]
    assert strays(page) == []
    page.keyboard.press("Space")  # a round, so that the history has one
    page.wait_for_function("() => window.__events.some((e) => e.type === 'roundEnd')", timeout=120_000)
    for action, dialog in (("paytable", "dlg-paytable"), ("help", "dlg-help"), ("history", "dlg-history"),
                           ("settings", "dlg-settings")):
        open_dialog(page, action, dialog)
        assert strays(page) == [], f"{dialog} in {lang}"
        close_dialog(page, dialog)
    rules = shared(lang)["rules.spin_heading"]
    open_dialog(page, "help", "dlg-help")
    assert rules in page.locator("#dlg-help .dlg-body").inner_text()
    assert page.evaluate("() => window.slotStudio.missingWords") == []  # every data-i18n key was there
    visit.assert_clean()


def test_without_lang_the_page_speaks_the_browsers_language(browser: Browser, server: Any) -> None:
    v = Visit(browser, server.url, viewport=DESKTOP, locale="es-ES")
    try:
        page = v.goto(f"{PLAY}&seed=5&debug=1")
        ready(page)
        assert page.evaluate("() => document.documentElement.lang") == "es"
        assert str(page.locator("[data-action=spin]").text_content()).strip() == shared("es")["button.spin"]
        assert strays(page) == []
        v.assert_clean()
    finally:
        v.close()


@pytest.mark.parametrize(("lang", "currency"), [("de", "EUR"), ("es", "EUR"), ("de", ""), ("es", "GBP"), ("en", "USD")])
def test_money_and_numbers_follow_the_language(visit: Visit, lang: str, currency: str) -> None:
    money = f"&currency={currency}" if currency else ""
    page = visit.goto(f"{PLAY}&seed=5&embed=1&debug=1&lang={lang}{money}")
    ready(page)
    options = (
        {"style": "currency", "currency": currency, "currencyDisplay": "narrowSymbol"}
        if currency
        else {"minimumFractionDigits": 2, "maximumFractionDigits": 2}
    )
    want = page.evaluate("([l, o]) => new Intl.NumberFormat(l, o).format(1000)", [LOCALES[lang], options])
    assert page.locator("#meter-balance").inner_text() == want  # a fresh demo balance of 1,000
    # The figures slotui.words writes (checked in CPython against INTL) are the browser's own.
    intl = page.evaluate(
        """([locale, samples]) => [
             ...samples.map(([v, d]) => new Intl.NumberFormat(locale, {maximumFractionDigits: d}).format(v)),
             new Intl.NumberFormat(locale, {style: 'percent', minimumFractionDigits: 2}).format(0.961),
             ...[Date.UTC(2026, 11, 7, 15, 12, 0), Date.UTC(2026, 8, 3, 4, 5, 6)].map((t) =>
               new Intl.DateTimeFormat(locale, {dateStyle: 'medium', timeStyle: 'medium', timeZone: 'UTC'})
                 .format(t) + ' UTC')]""",
        [LOCALES[lang], [list(s) for s in SAMPLES]],
    )
    assert tuple(intl) == INTL[lang]
    visit.assert_clean()


def test_an_unknown_language_is_refused_before_python(visit: Visit) -> None:
    page = visit.goto(f"{PLAY}&lang=fr")
    page.wait_for_function("() => document.documentElement.dataset.state === 'error'")
    assert "lang=" in page.locator("#message").inner_text()
    assert not [u for u in visit.watch.requests if "pyodide" in u or u.endswith("main.py")]
