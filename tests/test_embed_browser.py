"""The embed both ways, in Chromium: docs/examples/host.html, served from another origin,
drives a whole session through commands and sees every event; a page of a foreign origin
commands nothing and hears nothing; a bad ``host=`` is refused before any Python loads."""

from __future__ import annotations

from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from playwright.sync_api import Frame, Page

from tests.browser import helpers as h
from tests.browser.fixtures import PLAY, Visit
from tests.client_support import find_seed

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parent.parent
SEED = find_seed("loss")
RESULT_MS = 60_000


def game_frame(page: Page) -> Frame:
    handle = page.locator("#demo").element_handle()
    assert handle is not None
    frame = handle.content_frame()
    assert frame is not None
    return frame


def send(page: Page, command: str) -> dict[str, Any]:
    """Send ``command`` from the host page and return the game's answer to it."""
    rid = page.evaluate("(c) => window.host.send(c)", command)
    page.wait_for_function("(r) => r in window.host.results", arg=rid, timeout=RESULT_MS)
    result: dict[str, Any] = page.evaluate("(r) => window.host.results[r]", rid)
    assert result["command"] == command
    return result


def events(page: Page, kind: str | None = None) -> list[dict[str, Any]]:
    got: list[dict[str, Any]] = page.evaluate("() => window.host.events")
    return [m for m in got if kind is None or m["type"] == kind]


def test_the_host_page_drives_a_whole_session(visit: Visit, server: Any) -> None:
    host_server = h.serve(ROOT / "docs" / "examples")
    host_origin = h.origin_of(host_server.url)
    try:
        demo = f"{server.url}{PLAY}&seed={SEED}&embed=1&debug=1"
        page = visit.page
        page.goto(f"{host_server.url}host.html?demo={quote(demo, safe='')}")
        page.wait_for_function("() => window.host.events.some(m => m.type === 'ready')", timeout=h.READY_TIMEOUT_MS)
        seen = events(page)
        for m in seen:  # one envelope for every message
            assert m["source"] == "slot-studio"
            assert m["version"] == 1
            assert isinstance(m["payload"], dict)
        types = [m["type"] for m in seen]
        progress = [m["payload"]["percent"] for m in seen if m["type"] == "loadProgress"]
        assert len(progress) >= 3
        assert progress == sorted(set(progress))
        assert progress[-1] == 100
        assert types.index("loadProgress") < types.index("ready")
        resize = events(page, "resize")
        assert resize
        width, height = resize[-1]["payload"]["width"], resize[-1]["payload"]["height"]
        assert height == round(width * 10 / 16 if width >= 640 else width * 16 / 10)
        ready = events(page, "ready")[0]["payload"]

        state = send(page, "getState")
        assert state["ok"] is True
        assert state["state"]["state"] == "ready"
        assert state["state"]["balance"] == ready["balance"]
        assert state["state"]["bet"] == ready["bet"]
        assert state["state"]["muted"] is True  # an embed starts muted

        # Two spins at once: the first plays a round, the second is refused, nothing half-done.
        first, second = page.evaluate("() => [window.host.send('spin'), window.host.send('spin')]")
        page.wait_for_function("(ids) => ids.every(r => r in window.host.results)", arg=[first, second])
        results = page.evaluate("() => window.host.results")
        assert results[first]["ok"] is True
        assert results[second] == {**results[second], "ok": False, "reason": "a round is being played"}
        page.wait_for_function("() => window.host.events.some(m => m.type === 'roundEnd')", timeout=RESULT_MS)
        assert len(events(page, "roundStart")) == 1
        end = events(page, "roundEnd")[0]["payload"]
        assert end["balance"] == ready["balance"] - ready["bet"] + end["win"]
        page.wait_for_function(
            "(b) => window.host.events.some(m => m.type === 'balance' && m.payload.balance === b)",
            arg=end["balance"], timeout=RESULT_MS,
        )

        # Pause holds the game until resume.
        assert send(page, "pause")["ok"] is True
        refused = send(page, "spin")
        assert refused["ok"] is False
        assert refused["reason"] == "the game is paused: send resume first"
        assert refused["state"]["paused"] is True
        assert send(page, "resume")["ok"] is True

        # Sound: already off, then on, then off.
        assert send(page, "mute")["reason"] == "the sound is already off"
        assert send(page, "unmute")["state"]["muted"] is False
        assert send(page, "mute")["state"]["muted"] is True

        frame = game_frame(page)
        assert send(page, "openPaytable")["ok"] is True
        frame.wait_for_function("() => document.getElementById('dlg-paytable').open")
        frame.evaluate("() => document.getElementById('dlg-paytable').close()")
        assert send(page, "openRules")["ok"] is True
        frame.wait_for_function("() => document.getElementById('dlg-help').open")
        frame.evaluate("() => document.getElementById('dlg-help').close()")

        assert send(page, "stopAutoplay")["reason"] == "no autoplay is running"
        unknown = page.evaluate(
            "() => { const r = 'x1'; document.getElementById('demo').contentWindow.postMessage("
            "{source: 'slot-studio', type: 'deposit', version: 1, payload: {}, requestId: r}, '*'); return r; }"
        )
        page.wait_for_function("(r) => r in window.host.results", arg=unknown)
        assert "is not a command" in page.evaluate("(r) => window.host.results[r].reason", unknown)

        closed = send(page, "close")
        assert closed["ok"] is True
        page.wait_for_function("() => window.host.events.some(m => m.type === 'exit')")
        assert events(page, "exit")[0]["payload"] == {"balance": end["balance"], "closed": True}
        assert send(page, "spin")["reason"] == "the game was closed"

        # The game posted to the host page's origin only, and took every command from it.
        stats = frame.evaluate("() => window.slotStats.embed")
        assert stats["targets"] == [host_origin]
        assert stats["ignored"] == 0
        answered = len(page.evaluate("() => Object.keys(window.host.results)"))
        assert stats["accepted"] + stats["refused"] == answered
        visit.shot("embed-host-page")
    finally:
        host_server.shutdown()
        host_server.server_close()
    visit.watch.requests = [u for u in visit.watch.requests if not u.startswith(host_server.url)]
    visit.assert_clean()


FOREIGN_PAGE = """<!doctype html><html><head><title>Not the host</title></head><body>
<iframe id="demo" src="{src}" width="640" height="420"></iframe>
<script>
window.heard = [];
window.addEventListener("message", (e) => {{
  if (e.data && e.data.source === "slot-studio") window.heard.push(e.data);
}});
window.command = (type) => document.getElementById("demo").contentWindow.postMessage(
  {{source: "slot-studio", type, version: 1, payload: {{}}, requestId: "f1"}}, "*");
</script></body></html>"""


def test_a_foreign_origin_commands_nothing_and_hears_nothing(visit: Visit, server: Any, tmp_path: Path) -> None:
    """The game is told its host is another origin: this page's spin is ignored and counted,
    and none of the game's messages reach it (they are posted to the host's origin only)."""
    told = "https://www.example.com"
    src = f"{server.url}{PLAY}&seed={SEED}&embed=1&debug=1&host={quote(told, safe='')}"
    (tmp_path / "index.html").write_text(FOREIGN_PAGE.format(src=src))
    foreign = h.serve(tmp_path)
    try:
        page = visit.page
        page.goto(foreign.url)
        handle = page.locator("#demo").element_handle()
        assert handle is not None
        frame = handle.content_frame()
        assert frame is not None
        frame.wait_for_function("() => window.slotStats && window.slotStats.embed", timeout=h.READY_TIMEOUT_MS)
        before = frame.evaluate("() => window.slotStats.embed.ignored")
        page.evaluate("() => window.command('spin')")
        frame.wait_for_function("(n) => window.slotStats.embed.ignored > n", arg=before, timeout=RESULT_MS)
        stats = frame.evaluate("() => window.slotStats.embed")
        assert stats["targets"] == [told]
        assert stats["accepted"] == 0
        assert stats["refused"] == 0
        assert stats["ignoredOrigins"] == {h.origin_of(foreign.url): stats["ignored"]}
        assert frame.evaluate("() => window.__events.filter(e => e.type === 'roundStart').length") == 0
        assert frame.evaluate("() => document.documentElement.dataset.state") == "ready"
        assert page.evaluate("() => window.heard") == []
    finally:
        foreign.shutdown()
        foreign.server_close()
    visit.watch.requests = [u for u in visit.watch.requests if not u.startswith(foreign.url)]
    visit.assert_clean()


@pytest.mark.parametrize("host", ["ftp://example.com", "https://example.com/path", "example.com", ","])
def test_a_bad_host_parameter_is_refused_before_python(visit: Visit, host: str) -> None:
    page = visit.goto(f"{PLAY}&embed=1&host={quote(host, safe='')}")
    page.wait_for_function("() => document.documentElement.dataset.state === 'error'", timeout=RESULT_MS)
    assert "host=" in page.locator("#message").inner_text()
    assert not [u for u in visit.watch.requests if "pyodide" in u or u.endswith("main.py")]
