"""Page-load numbers for ``build.py bench``: a built site on loopback in headless Chromium.

    python tests/browser/measure.py --site site [--runs 3] [--game ID] [--profile both]

``--game`` is the game page to load (default: the first registered game).

Two profiles:

- ``desktop``: loopback at full speed. Cold is a fresh browser context (empty HTTP cache, no
  service worker) from navigation to ``data-state=ready``; warm is a reload once the service
  worker has precached the site.
- ``phone``: the player on a phone over 4G, through the DevTools protocol: the CPU 4× slower,
  10 Mbit/s down, 40 ms round trip, the HTTP cache off (`PHONE_PROFILE`). The first load, its
  bytes over the wire, the first paint of the game's own art, and the repeat visit (the
  service worker's cache, same throttling).

Times are ``window.slotStudio.marks`` (ms since navigation start, recorded by boot.js). Bytes
over the wire are the page's own Resource Timing ``transferSize`` (body as encoded plus
headers) of every response that ended before ``data-state=ready``.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from playwright.sync_api import Browser, BrowserContext, Page, sync_playwright  # noqa: E402

from pyengine.games import game_ids  # noqa: E402
from tests.browser import helpers as h  # noqa: E402

# The phone profile of issue 14 (DevTools protocol figures: bytes per second, milliseconds).
PHONE_PROFILE = {"cpu_slowdown": 4, "down_bps": 10_000_000 / 8, "up_bps": 5_000_000 / 8, "rtt_ms": 40}
PHONE_VIEWPORT = {"width": 390, "height": 844}
PHONE_TIMEOUT_MS = 180_000

STAGES = [
    ("boot.js running", "boot"),
    ("game art painted (loading screen)", "art"),
    ("PyScript imported", "pyscript"),
    ("pyodide.asm.wasm downloaded", "net:pyodide.asm.wasm"),
    ("stdlib.zip downloaded", "net:stdlib.zip"),
    ("snapshot.bin downloaded (service worker cache)", "net:snapshot.bin"),
    ("snapshot read", "snapshotFetched"),
    ("Python started from the snapshot", "snapshotLoaded"),
    ("Python ready (interpreter)", "py:Loaded interpreter"),
    ("wheel + client unpacked", "py:Loaded files"),
    ("main.py starts", "pyReady"),
    ("the game's screen module unpacked", "py:screen"),
    ("the client starts (App)", "py:main"),
    ("session restored or made", "py:session"),
    ("controller and screen made", "py:controller"),
    ("game pictures decoded", "py:images"),
    ("sprites rasterised", "py:rasterized"),
    ("round resumed, first tick", "py:resumed"),
    ("first frame drawn", "py:drawn"),
    ("data-state=ready", "ready"),
]

# Every response that ended before `ready`, as the page saw it: [name, transferSize, decodedBodySize].
WIRE_JS = """() => {
  const ready = window.slotStudio.marks.ready;
  const nav = performance.getEntriesByType("navigation");
  const res = performance.getEntriesByType("resource");
  return [...nav, ...res].filter(e => e.responseEnd <= ready)
    .map(e => [new URL(e.name).pathname, e.transferSize, e.decodedBodySize]);
}"""


# When the two largest downloads ended (Resource Timing), shown among the page's marks.
NET_JS = """() => Object.fromEntries(performance.getEntriesByType("resource")
  .filter(e => /pyodide[.]asm[.]wasm$|stdlib[.]zip$|snapshot[.]bin$/.test(e.name))
  .map(e => ["net:" + e.name.split("/").pop(), e.responseEnd]))"""


def marks(page: Page) -> dict[str, float]:
    found: dict[str, float] = page.evaluate("() => window.slotStudio.marks")
    found.update(page.evaluate(NET_JS))
    return found


def fmt_ms(values: list[float]) -> str:
    if not values:
        return "n/a"
    return f"best {min(values):,.0f} ms, median {statistics.median(values):,.0f} ms (n={len(values)})"


def throttle(context: BrowserContext, page: Page) -> None:
    """Apply `PHONE_PROFILE` to ``page`` (it lasts across its reloads)."""
    cdp = context.new_cdp_session(page)
    cdp.send("Network.enable")
    cdp.send("Network.setCacheDisabled", {"cacheDisabled": True})
    cdp.send(
        "Network.emulateNetworkConditions",
        {
            "offline": False,
            "latency": PHONE_PROFILE["rtt_ms"],
            "downloadThroughput": PHONE_PROFILE["down_bps"],
            "uploadThroughput": PHONE_PROFILE["up_bps"],
        },
    )
    cdp.send("Emulation.setCPUThrottlingRate", {"rate": PHONE_PROFILE["cpu_slowdown"]})


def wire(page: Page) -> list[tuple[str, int, int]]:
    """(path, bytes over the wire, bytes decoded) of each response that ended before ready."""
    return [(str(p), int(t), int(d)) for p, t, d in page.evaluate(WIRE_JS)]


def wait_precached(page: Page) -> None:
    """Wait until the service worker controls the page and has cached what it precaches."""
    page.evaluate("() => navigator.serviceWorker.ready")
    page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=PHONE_TIMEOUT_MS)
    page.wait_for_function(
        "() => !('offline' in window.slotStudio) || window.slotStudio.offline === 'ready'",
        timeout=PHONE_TIMEOUT_MS, polling=200,
    )


def print_stages(m: dict[str, float]) -> None:
    print("  where it spent its time (ms since navigation start):")
    for label, key in sorted((s for s in STAGES if s[1] in m), key=lambda s: m[s[1]]):
        print(f"    {m[key]:>8,.0f}  {label}")


def print_wire(rows: list[tuple[str, int, int]], top: int = 6) -> None:
    total = sum(t for _, t, _ in rows)
    print(f"  bytes over the wire before ready: {total / 1e6:.2f} MB in {len(rows)} responses "
          f"({sum(d for _, _, d in rows) / 1e6:.2f} MB decoded)")
    for path, t, d in sorted(rows, key=lambda r: -r[1])[:top]:
        print(f"    {t / 1e6:>6.2f} MB  {path.rsplit('/', 2)[-2:][-1]:<24} ({d / 1e6:.2f} MB decoded)")


def desktop(browser: Browser, server: Any, url: str, runs: int) -> None:
    cold: list[float] = []
    warm: list[float] = []
    cold_marks: list[dict[str, float]] = []
    raw = sent = requests = 0
    stats: Any = None
    for run in range(runs):
        context, _watch = h.new_context(browser, h.origin_of(server.url), viewport={"width": 1280, "height": 720})
        page = context.new_page()
        start = len(server.served)
        page.goto(url)
        h.wait_state(page, "ready")
        served = server.served[start:]
        m = marks(page)
        cold.append(m["ready"])
        cold_marks.append(m)
        if run == 0:
            rows = wire(page)
            ok = [s for s in served if s.status == 200]
            raw = sum(s.raw_bytes for s in ok)
            sent = sum(t for _, t, _ in rows)
            requests = len(rows)
            wait_precached(page)
            for _ in range(runs):
                page.reload()
                h.wait_state(page, "ready")
                warm.append(marks(page)["ready"])
            # Python's own numbers while the reels spin, where the page exposes them.
            page.click("[data-action=spin]")
            page.wait_for_timeout(4000)  # the stats cover the last 240 frames: mostly spinning
            stats = page.evaluate("() => window.slotStats ? Object.assign({}, window.slotStats) : null")
        context.close()
    best = min(range(len(cold)), key=lambda i: cold[i])
    print("Desktop, loopback, no throttling:")
    print(f"  cold load to data-state=ready: {fmt_ms(cold)}")
    print(f"  warm load (service worker cache): {fmt_ms(warm)}")
    print(f"  cold load: {requests} responses before ready, {sent / 1e6:.2f} MB over the wire; "
          f"{raw / 1e6:.2f} MB raw of every file served")
    print_stages(cold_marks[best])
    if stats:
        print(
            f"  window.slotStats: fps {stats.get('fps')}, frameMsP95 {stats.get('frameMsP95')} ms, "
            f"readyMs {stats.get('readyMs')}, spin pressed to reels moving {stats.get('spinLatencyMs')} ms"
        )


def phone(browser: Browser, server: Any, url: str, runs: int) -> None:
    first: list[float] = []
    art: list[float] = []
    repeat: list[float] = []
    repeat_marks: dict[str, float] = {}
    all_marks: list[dict[str, float]] = []
    rows: list[tuple[str, int, int]] = []
    for run in range(runs):
        context, _watch = h.new_context(
            browser, h.origin_of(server.url), viewport=PHONE_VIEWPORT, is_mobile=True, has_touch=True,
            device_scale_factor=3,
        )
        page = context.new_page()
        throttle(context, page)
        page.goto(url, timeout=PHONE_TIMEOUT_MS)
        h.wait_state(page, "ready", PHONE_TIMEOUT_MS)
        m = marks(page)
        first.append(m["ready"])
        if "art" in m:
            art.append(m["art"])
        all_marks.append(m)
        if run == 0:
            rows = wire(page)
            wait_precached(page)
            for _ in range(max(1, runs)):
                page.reload(timeout=PHONE_TIMEOUT_MS)
                h.wait_state(page, "ready", PHONE_TIMEOUT_MS)
                repeat_marks = marks(page)
                repeat.append(repeat_marks["ready"])
        context.close()
    p = PHONE_PROFILE
    print(
        f"Phone profile (DevTools protocol: CPU {p['cpu_slowdown']}x slower, "
        f"{p['down_bps'] * 8 / 1e6:.0f} Mbit/s down, {p['rtt_ms']} ms RTT, HTTP cache off):"
    )
    print(f"  first load to data-state=ready: {fmt_ms(first)}")
    print(f"  game art painted on the loading screen: {fmt_ms(art)}")
    print(f"  repeat visit (service worker): {fmt_ms(repeat)}")
    print_wire(rows)
    best = min(range(len(first)), key=lambda i: first[i])
    print_stages(all_marks[best])
    print("  the last repeat visit:")
    print_stages(repeat_marks)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--site", type=Path, required=True)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--game", default=game_ids()[0])
    ap.add_argument("--profile", choices=("desktop", "phone", "both"), default="both")
    args = ap.parse_args()
    server = h.serve(args.site.resolve())
    url = f"{server.url}play.html?game={args.game}&seed=1"
    with sync_playwright() as pw:
        browser = h.launch(pw, tests=False)
        if args.profile in ("desktop", "both"):
            desktop(browser, server, url, args.runs)
        if args.profile in ("phone", "both"):
            phone(browser, server, url, args.runs)
        browser.close()
    server.shutdown()


if __name__ == "__main__":
    main()
