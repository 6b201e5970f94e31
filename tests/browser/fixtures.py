"""Browser test fixtures shared by every browser test module (registered in tests/conftest.py).

One session-scoped site build, server, Playwright and Chromium serve all browser tests.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from filelock import FileLock
from playwright.sync_api import Browser, BrowserContext, Page, Playwright, sync_playwright

from tests.browser import helpers as h
from tests.games import a_game, all_of, decides

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "test-artifacts"
GAME = a_game(all_of(decides("collect_or_gamble"), decides("free_spin")), "a gamble and free spins")
"""The game the shared browser tests play: the first registered game whose wins are offered to
gamble and whose feature is free spins (they play its gamble, its free spins and its reloads)."""
PLAY = f"play.html?game={GAME}"
DESKTOP = {"width": 1280, "height": 720}
PHONE = {"width": 390, "height": 844}
# Records every data-state the page goes through.
STATES_SCRIPT = """
window.__states = [];
new MutationObserver(() => window.__states.push(document.documentElement.dataset.state))
  .observe(document, {attributes: true, subtree: true, attributeFilter: ["data-state"]});
"""


# -- fixtures ----------------------------------------------------------------------------------


@pytest.fixture(scope="session")
def site(tmp_path_factory: pytest.TempPathFactory, worker_id: str) -> Any:
    """This checkout's site, built once into a temporary folder: once for the whole run, when
    pytest-xdist runs it in several workers (the first to get here builds, the others wait).

    ``SLOT_STUDIO_SITE=path`` tests a site that is already built there instead
    (``build.py test`` builds one beside the engine tests and passes it so).
    """
    prebuilt = os.environ.get("SLOT_STUDIO_SITE")
    if prebuilt:
        return SimpleNamespace(path=Path(prebuilt).resolve())
    if worker_id == "master":  # not under xdist
        return SimpleNamespace(path=h.build_site(tmp_path_factory.mktemp("site") / "site").path)
    shared = tmp_path_factory.getbasetemp().parent  # the run's folder, above each worker's
    with FileLock(str(shared / "site.lock")):
        out = shared / "site"
        if not (out / "play.html").exists():
            h.build_site(out)
    return SimpleNamespace(path=out)


@pytest.fixture(scope="session")
def server(site: Any) -> Iterator[Any]:
    srv = h.serve(site.path)
    yield srv
    srv.shutdown()
    srv.server_close()


@pytest.fixture(scope="session")
def playwright() -> Iterator[Playwright]:
    with sync_playwright() as p:
        yield p


@pytest.fixture(scope="session")
def browser(playwright: Playwright) -> Iterator[Browser]:
    b = h.launch(playwright)
    yield b
    b.close()


@pytest.fixture(scope="session")
def games(site: Any) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((site.path / "games.json").read_text())
    return data


class Visit:
    """A fresh browser context (no cache, no storage) on the site, with what it saw."""

    def __init__(self, browser: Browser, base_url: str, **options: Any) -> None:
        self.base_url = base_url
        self.context: BrowserContext
        self.context, self.watch = h.new_context(browser, h.origin_of(base_url), **options)
        self.context.add_init_script(STATES_SCRIPT)
        self.page: Page = self.context.new_page()

    def goto(self, path: str) -> Page:
        self.page.goto(self.base_url + path)
        return self.page

    def csp_violations(self) -> list[str]:
        try:
            return list(self.page.evaluate("() => window.__csp || []"))
        except Exception:  # the page is gone or navigating
            return []

    def assert_clean(self) -> None:
        """No foreign request, no failed request or error status, no CSP violation, no JS error."""
        w = self.watch
        assert w.foreign() == [], f"requests left the origin {w.origin}: {w.foreign()}"
        assert w.bad_status == [], f"error responses: {w.bad_status}"
        failed = [f for f in w.failed if "ERR_INTERNET_DISCONNECTED" not in f]
        assert failed == [], f"failed requests: {failed}"
        assert self.csp_violations() == [], f"the CSP blocked: {self.csp_violations()}"
        assert w.page_errors == [], f"uncaught errors: {w.page_errors}"

    def shot(self, name: str) -> None:
        ARTIFACTS.mkdir(exist_ok=True)
        self.page.screenshot(path=str(ARTIFACTS / f"{name}.png"))

    def close(self) -> None:
        self.context.close()


@pytest.fixture
def visit(browser: Browser, server: Any) -> Iterator[Visit]:
    v = Visit(browser, server.url, viewport=DESKTOP)
    yield v
    v.close()
