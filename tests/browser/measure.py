"""Page-load numbers for ``build.py bench``: a built site on loopback in headless Chromium.

    python tests/browser/measure.py --site site [--runs 3] [--game book_of_spells]

Cold: a fresh browser context (empty HTTP cache, no service worker) from navigation to
``data-state=ready``, with the bytes the server sent before ready (gzip, as served) and the
same files uncompressed. Warm: reloads once the service worker has precached the site.
Times are ``window.slotStudio.marks`` (ms since navigation start, recorded by boot.js).
``window.slotStats`` (fps, frame time, ready time from Python) is printed where the page has it.
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

from playwright.sync_api import Page, sync_playwright  # noqa: E402

from tests.browser import helpers as h  # noqa: E402

STAGES = [
    ("boot.js running", "boot"),
    ("PyScript imported", "pyscript"),
    ("snapshot downloaded", "snapshotFetched"),
    ("Python ready (interpreter)", "py:Loaded interpreter"),
    ("wheel + client unpacked", "py:Loaded files"),
    ("main.py starts", "pyReady"),
    ("data-state=ready", "ready"),
]


def marks(page: Page) -> dict[str, float]:
    found: dict[str, float] = page.evaluate("() => window.slotStudio.marks")
    return found


def fmt_ms(values: list[float]) -> str:
    if not values:
        return "n/a"
    return f"best {min(values):,.0f} ms, median {statistics.median(values):,.0f} ms (n={len(values)})"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--site", type=Path, required=True)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--game", default="book_of_spells")
    args = ap.parse_args()
    server = h.serve(args.site.resolve())
    url = f"{server.url}play.html?game={args.game}&seed=1"
    cold: list[float] = []
    warm: list[float] = []
    cold_marks: list[dict[str, float]] = []
    raw = sent = requests = 0
    stats: Any = None
    with sync_playwright() as p:
        browser = h.launch(p)
        for run in range(args.runs):
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
                ok = [s for s in served if s.status == 200]
                raw = sum(s.raw_bytes for s in ok)
                sent = sum(s.sent_bytes for s in ok)
                requests = len(served)
                # Warm: once the service worker has precached the build, reload from its cache.
                page.evaluate("() => navigator.serviceWorker.ready")
                page.wait_for_function("() => navigator.serviceWorker.controller !== null", timeout=60_000)
                for _ in range(args.runs):
                    page.reload()
                    h.wait_state(page, "ready")
                    warm.append(marks(page)["ready"])
                # Python's own numbers while the reels spin, where the page exposes them.
                page.click("[data-action=spin]")
                page.wait_for_timeout(4000)  # the stats cover the last 240 frames: mostly spinning
                stats = page.evaluate("() => window.slotStats ? Object.assign({}, window.slotStats) : null")
            context.close()
        browser.close()
    server.shutdown()
    best = min(range(len(cold)), key=lambda i: cold[i])
    print(f"  cold load to data-state=ready: {fmt_ms(cold)}")
    print(f"  warm load (service worker cache): {fmt_ms(warm)}")
    print(f"  cold load transfer: {requests} requests, {sent / 1e6:.2f} MB as served (gzip), {raw / 1e6:.2f} MB raw")
    print("  where the best cold load spent its time (ms since navigation start):")
    for label, key in STAGES:
        if key in cold_marks[best]:
            print(f"    {cold_marks[best][key]:>8,.0f}  {label}")
    if stats:
        print(
            f"  window.slotStats: fps {stats.get('fps')}, frameMsP95 {stats.get('frameMsP95')} ms, "
            f"readyMs {stats.get('readyMs')}, spin pressed to reels moving {stats.get('spinLatencyMs')} ms"
        )
    else:
        print("  window.slotStats: not exposed by the page")


if __name__ == "__main__":
    main()
