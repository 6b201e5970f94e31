"""``currency=`` in Chromium: the demo money written in that currency's format by
Intl.NumberFormat (symbol, decimals, grouping) on the meters and in the pages, still demo
money (the free-play badge and tag stay); a currency the money cannot be shown in is
refused before any Python loads."""

from __future__ import annotations

import pytest

from tests.browser import helpers as h
from tests.browser.fixtures import PLAY, Visit

pytestmark = pytest.mark.browser


@pytest.mark.parametrize(("code", "symbol"), [("EUR", "€"), ("GBP", "£"), ("usd", "$")])
def test_the_demo_money_in_another_currency(visit: Visit, code: str, symbol: str) -> None:
    page = visit.goto(f"{PLAY}&seed=5&embed=1&debug=1&currency={code}")
    page.wait_for_function("() => document.documentElement.dataset.state === 'ready'", timeout=h.READY_TIMEOUT_MS)
    balance = page.locator("#meter-balance").inner_text()
    want = page.evaluate(
        "(c) => new Intl.NumberFormat('en-US', {style: 'currency', currency: c, currencyDisplay: 'narrowSymbol'})"
        ".format(1000)", code.upper(),
    )
    assert balance == want
    assert balance.startswith(symbol)
    assert page.locator("#currency").inner_text() == ""
    assert page.locator(".free-badge").inner_text() == "Free play · no real money"
    assert page.locator(".free-badge").is_visible()
    page.locator("[data-action=paytable]").click()
    page.wait_for_function("() => document.getElementById('dlg-paytable').open")
    assert symbol in page.locator("#dlg-paytable .dlg-body").inner_text()
    visit.assert_clean()


BAD = [("JPY", "has 0 decimals"), ("XQQ", "is not known"), ("EURO", "is not known")]


@pytest.mark.parametrize(("code", "why"), BAD)
def test_a_currency_the_money_cannot_be_shown_in_is_refused(visit: Visit, code: str, why: str) -> None:
    page = visit.goto(f"{PLAY}&currency={code}")
    page.wait_for_function("() => document.documentElement.dataset.state === 'error'")
    assert why in page.locator("#message").inner_text()
    assert not [u for u in visit.watch.requests if "pyodide" in u or u.endswith("main.py")]
