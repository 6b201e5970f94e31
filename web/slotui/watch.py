"""The game's showcase on the page: its Watch links (a round link for every feature and win
tier, with the event's odds), read from the site's ``showcase.json``.

The build writes ``showcase.json`` from `pyengine.showcase` (the first seed of a fixed stream
that plays each feature, the exact odds of the feature from the game's report). The page
fetches it once the game is ready (it is not on the first load's path) and puts the game's
entries in the rules page's context (``info["showcase"]``); attract mode plays them.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from html import escape
from typing import Any

from pyengine.link import watch_url

__all__ = ["entries_of", "load", "watch_html"]

Entry = Mapping[str, Any]


def entries_of(showcase: Mapping[str, Any], game: str) -> list[dict[str, Any]]:
    """The game's entries of a parsed ``showcase.json`` (none when it lists no such game)."""
    found = showcase.get("games", {}).get(game)
    if not isinstance(found, Mapping):
        return []
    return [dict(e) for e in found.get("entries", []) if isinstance(e, Mapping) and isinstance(e.get("token"), str)]


async def load(info: dict[str, Any], game: str) -> list[dict[str, Any]]:
    """Fetch ``showcase.json`` and put the game's entries in ``info["showcase"]`` (the rules
    page's context); an unreachable file leaves them out (the page offers no Watch links)."""
    from slotui import jspage

    try:
        res = await jspage.window.fetch("showcase.json")
        if not res.ok:
            return []
        entries = entries_of(json.loads(str(await res.text())), game)
    except Exception:  # offline before the file was cached: no Watch links, nothing else changes
        return []
    info["showcase"] = entries
    jspage.STUDIO.showcaseEntries = len(entries)  # (for tests: the rules page now lists them)
    return entries


def _facts(e: Entry) -> str:
    win = f"win {float(e.get('win_x', 0)):,.2f}×"
    odds = e.get("odds") or {}
    if odds.get("probability"):
        simulated = " (simulated)" if str(odds.get("method", "")).startswith("simulated") else ""
        return f"{win} · {odds.get('text', '')}{simulated}"
    return win


def watch_html(game: str, entries: Sequence[Entry]) -> str:
    """The rules page's Watch section ("" without entries): each entry's round link, its win
    and the odds of what it shows."""
    if not entries:
        return ""
    items = "".join(
        f'<li class="watch-item" data-entry="{escape(str(e["id"]))}">'
        f'<a class="watch-link" href="{escape(watch_url(game, str(e["token"])))}">{escape(str(e["title"]))}</a>'
        f'<span class="watch-facts">{escape(_facts(e))}</span></li>'
        for e in entries
    )
    return (
        '<section class="watch"><h3>Watch the features</h3>'
        "<p>Each link replays one round that shows it, exactly as it was played. Beside it: the round's"
        " win and the chance of a round like it, from the game's exact math (a win tier's from a"
        " simulation).</p>"
        f'<ul class="watch-list">{items}</ul></section>'
    )
