"""The page's side of the embed's commands: `embedapi.Commands` handed to ``embed.js``
(``slotStudio.embed.setHandler``) once the game is ready. With ``debug=1``,
``slotStats.embed`` holds ``embed.js``'s counters (commands accepted, refused, messages
ignored by origin, the origins posted to)."""

from __future__ import annotations

from typing import Any

from pyodide.ffi import create_proxy, to_js  # type: ignore[import-not-found]

from slotui import jspage
from slotui.embedapi import Commands

__all__ = ["attach"]


class _Host:
    """What `Commands` needs of the page."""

    def __init__(self, app: Any) -> None:
        self.app = app

    def post(self, kind: str, detail: dict[str, Any]) -> None:
        self.app.page.post(kind, detail)

    def announce(self, text: str) -> None:
        self.app.page.announce(text)

    def save(self, snapshot: str) -> None:
        self.app.page.save(snapshot)

    def open_dialog(self, kind: str) -> None:
        self.app.open_dialog(kind)

    def close_dialogs(self) -> None:
        for dlg in jspage.document.querySelectorAll("dialog[open]"):
            dlg.close()


def attach(app: Any) -> tuple[Commands, Any]:
    """Take the host's commands for ``app`` (`browser.App`) from now on."""
    commands = Commands(app.controller, _Host(app), lambda: float(jspage.window.performance.now()))

    def handle(name: Any, payload: Any) -> Any:
        result = commands.run(str(name), payload)
        app.wake()
        return to_js(result, dict_converter=jspage.window.Object.fromEntries)

    proxy = create_proxy(handle)
    jspage.STUDIO.embed.setHandler(proxy)
    if app.debug:
        app.stats.embed = jspage.STUDIO.embed.stats
    return commands, proxy
