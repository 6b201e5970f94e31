"""The built site on loopback and system Chromium driven by Playwright.

The site is built by ``build.py``'s own `build_site` and served by its `SiteServer` in a
thread of this process (so the tests see exactly what ``build.py serve`` serves, and the
benchmark can count the bytes it sent). Chromium is Debian's ``/usr/bin/chromium``;
Playwright never downloads a browser.
"""

from __future__ import annotations

import importlib.util
import sys
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

if TYPE_CHECKING:
    from playwright.sync_api import Browser, BrowserContext, ConsoleMessage, Page, Playwright, Request, Response

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = Path("/usr/bin/chromium")
# Headless, no sandbox (root in a container), and none of Chromium's own traffic to Google
# hosts (component updates, sync, field trials...), so every request seen is the page's.
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-default-apps",
    "--disable-extensions",
    "--disable-domain-reliability",
    "--metrics-recording-only",
    "--no-default-browser-check",
]
# Python's first load takes a few seconds; leave room for a slow, busy CI machine.
READY_TIMEOUT_MS = 90_000
# Records CSP violations and the page's slotstudio:* events from the first script on.
INIT_SCRIPT = """
window.__csp = [];
document.addEventListener("securitypolicyviolation", (e) => {
  window.__csp.push(`${e.violatedDirective} blocked ${e.blockedURI || "inline"} (${e.sourceFile}:${e.lineNumber})`);
});
window.__events = [];
for (const t of ["ready", "roundStart", "roundEnd", "featureStart", "featureEnd", "jackpotWin", "exit", "error"]) {
  window.addEventListener(`slotstudio:${t}`, (e) => window.__events.push(e.detail));
}
"""


def build_module() -> ModuleType:
    """``build.py`` as a module (its file name clashes with the PyPI package ``build``)."""
    name = "slot_studio_build"
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, ROOT / "build.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses look their module up while the file runs
    spec.loader.exec_module(module)
    return module


def build_site(out: Path) -> Any:
    """Build the site of this checkout into ``out`` with the running interpreter's tools."""
    build = build_module()
    return build.build_site(out, python=Path(sys.executable), plugins=build.FIXTURE)


def serve(site: Path, *, base: str = "/") -> Any:
    """`build.SiteServer` for ``site`` on a free loopback port, serving from a thread."""
    server = build_module().SiteServer(site, host="127.0.0.1", port=0, base=base, quiet=True)
    server.start()
    return server


TEST_ARGS = ["--js-flags=--liftoff-only"]
"""What the tests' browser adds to `CHROMIUM_ARGS`: V8 keeps WebAssembly at its baseline
compiler. Its optimising tier recompiles Pyodide's hot functions in the background of every
fresh context, about 1.5 s of processor time per page load that no test can see (the code
does the same, only faster later); the suite's pages are short-lived. `build.py bench`
measures with the browser as it ships (`launch(..., tests=False)`)."""


def launch(playwright: Playwright, *, tests: bool = True, extra: tuple[str, ...] = ()) -> Browser:
    if not CHROMIUM.exists():
        raise RuntimeError(
            f"{CHROMIUM} is missing: `python3 build.py test` installs it (apt-get install chromium)"
        )
    args = CHROMIUM_ARGS + (TEST_ARGS if tests else []) + list(extra)
    return playwright.chromium.launch(executable_path=str(CHROMIUM), args=args, headless=True)


@dataclass
class Watch:
    """Everything a browser context asked for and everything its pages complained about."""

    origin: str
    requests: list[str] = field(default_factory=list)
    navigated: dict[int, int] = field(default_factory=dict)
    """Per frame (its id), how many times it has navigated."""
    _started: dict[int, tuple[int, int]] = field(default_factory=dict)
    _failures: list[tuple[str, str, tuple[int, int] | None]] = field(default_factory=list)
    bad_status: list[str] = field(default_factory=list)
    console_errors: list[str] = field(default_factory=list)
    page_errors: list[str] = field(default_factory=list)

    def attach(self, context: BrowserContext) -> None:
        context.on("request", self._on_request)
        context.on("requestfailed", self._on_failed)
        context.on("page", lambda page: page.on("framenavigated", self._on_navigated))
        context.on("response", self._on_response)
        context.on("console", self._on_console)
        context.on("weberror", lambda e: self.page_errors.append(str(e.error)))

    def _on_request(self, request: Request) -> None:
        self.requests.append(request.url)
        if request.service_worker is not None:
            return  # the precache's: no page of its own
        try:
            frame = id(request.frame)
        except Exception:  # no frame (a request of a worker)
            return
        self._started[id(request)] = (frame, self.navigated.get(frame, 0))

    def _on_navigated(self, frame: Any) -> None:
        self.navigated[id(frame)] = self.navigated.get(id(frame), 0) + 1

    def _on_failed(self, request: Request) -> None:
        self._failures.append((request.url, str(request.failure), self._started.get(id(request))))

    @property
    def failed(self) -> list[str]:
        """The requests that failed, but for those the browser cancelled because their page
        was navigated away from (a test moving on, a reload) while they still loaded: the
        site did not fail them. Read when asked, once the navigation has been reported."""
        out = []
        for url, failure, started in self._failures:
            if failure == "net::ERR_ABORTED" and started is not None and self.navigated.get(started[0], 0) > started[1]:
                continue
            out.append(f"{url}: {failure}")
        return out

    def _on_response(self, response: Response) -> None:
        if response.status >= 400:
            self.bad_status.append(f"{response.status} {response.url}")

    def _on_console(self, msg: ConsoleMessage) -> None:
        if msg.type == "error":
            self.console_errors.append(msg.text)

    def foreign(self) -> list[str]:
        """Requests that left the site's origin (data: and blob: URLs stay in the page)."""
        out = []
        for url in self.requests:
            parts = urlsplit(url)
            if parts.scheme in ("data", "blob"):
                continue
            if f"{parts.scheme}://{parts.netloc}" != self.origin:
                out.append(url)
        return out


def origin_of(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}"


def new_context(browser: Browser, origin: str, **options: Any) -> tuple[BrowserContext, Watch]:
    """A fresh context (empty caches and storage) with its `Watch` and the init script. Its
    browser speaks American English unless ``locale`` says otherwise (the page speaks the
    browser's language when the address gives none: the tests do not depend on the machine's)."""
    options.setdefault("locale", "en-US")
    context = browser.new_context(**options)
    context.add_init_script(INIT_SCRIPT)
    watch = Watch(origin)
    watch.attach(context)
    return context, watch


def wait_text(page: Page, selector: str, text: str, timeout: float = 60_000) -> None:
    """Wait until the element at ``selector`` contains ``text``."""
    page.wait_for_function(
        "([s, t]) => (document.querySelector(s)?.textContent || '').includes(t)",
        arg=[selector, text],
        timeout=timeout,
        polling=50,
    )


def wait_state(page: Page, state: str, timeout: float = READY_TIMEOUT_MS) -> None:
    """Wait for ``<html data-state=state>``; on timeout, say where the page stood."""
    try:
        page.wait_for_function(
            "s => document.documentElement.dataset.state === s", arg=state, timeout=timeout, polling=50
        )
    except Exception as exc:
        try:
            where = page.evaluate(
                "() => ({state: document.documentElement.dataset.state,"
                " progress: document.getElementById('progress')?.value,"
                " loading: document.getElementById('loading-text')?.textContent,"
                " message: document.getElementById('message')?.innerText,"
                " details: document.querySelector('#message pre')?.textContent})"
            )
        except Exception as inner:  # the page itself is gone
            where = f"(page unavailable: {inner})"
        raise AssertionError(f"data-state never became {state!r} within {timeout / 1000:.0f} s: {where}") from exc


def wait_started(page: Page, timeout: float = READY_TIMEOUT_MS) -> None:
    """Wait until Python runs the game: ``ready``, or ``spinning``/``feature`` for a resumed round."""
    try:
        page.wait_for_function(
            "() => ['ready', 'spinning', 'feature'].includes(document.documentElement.dataset.state)",
            timeout=timeout,
            polling=50,
        )
    except Exception as exc:
        raise AssertionError(f"the game never started: data-state is {state(page)!r}") from exc


def state(page: Page) -> str:
    return str(page.evaluate("() => document.documentElement.dataset.state"))


PAGE_T0 = 1_700_000_000.0
"""The page's ``Date.now()`` (seconds) in the games' seeded browser tests: 2023-11-14 22:13:20
UTC, so that the engine in CPython, given the same clock, plays the same rounds."""


def open_game(visit: Any, game: str, seed: int, *, clock: float | None = PAGE_T0, turbo: bool = True) -> Page:
    """Open ``game`` at ``seed`` (the page's clock fixed at ``clock``), wait until it is ready
    and its loading screen has gone, and switch turbo on (unless a page before left it on)."""
    if clock is not None:
        visit.page.clock.set_fixed_time(clock)
    page: Page = visit.goto(f"play.html?game={game}&seed={seed}")
    wait_state(page, "ready")
    page.wait_for_selector("#loading", state="hidden", timeout=60_000)
    if turbo:
        if page.get_attribute("[data-action=turbo]", "aria-pressed") != "true":
            page.click("[data-action=turbo]")
        page.wait_for_selector("[data-action=turbo][aria-pressed=true]", timeout=60_000)
    return page


def wait_events(page: Page, kind: str, n: int = 1, timeout: float = 90_000) -> None:
    """Wait until the page has posted ``n`` events of type ``kind`` (``window.__events``)."""
    page.wait_for_function(
        "([t, n]) => window.__events.filter(e => e.type === t).length >= n",
        arg=[kind, n],
        timeout=timeout,
        polling=50,
    )


# -- picks: the page's pick board (window.slotStats.pick, published by slotui.browser) ----------
def pick_board(page: Page) -> dict[str, Any] | None:
    """The pick board on the page (name, boxes, open cells, waiting, ...), or None."""
    found: dict[str, Any] | None = page.evaluate("() => window.slotStats && window.slotStats.pick || null")
    return found


def wait_pick(page: Page, timeout: float, name: str | None = None, opened: int | None = None) -> dict[str, Any]:
    """Wait until a pick board (``name``, if given) waits on the player with ``opened``
    cells open (any number if None); the board."""
    page.wait_for_function(
        "([n, k]) => { const p = window.slotStats && window.slotStats.pick;"
        " return p && (n === null || p.name === n) && p.waiting && (k === null || p.open.length === k); }",
        arg=[name, opened],
        timeout=timeout,
        polling=50,
    )
    found = pick_board(page)
    assert found is not None
    return found


def box_centre(page: Page, box: list[float]) -> tuple[float, float]:
    """The page point at the centre of ``box`` (x, y, w, h in CSS pixels of the game canvas)."""
    canvas = page.locator("#reels").bounding_box()
    assert canvas is not None
    return canvas["x"] + box[0] + box[2] / 2, canvas["y"] + box[1] + box[3] / 2


def more_autoplay_settings(page: Page) -> None:
    """Open the autoplay dialog's "More autoplay settings" (the single-win and feature stops)."""
    if not page.evaluate("() => document.getElementById('ap-more').open"):
        page.click("#ap-more > summary")
    page.wait_for_selector("#ap-single", state="visible", timeout=60_000)
