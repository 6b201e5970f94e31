"""The game's showcase on the page: its Watch links (a round link for every feature and win
tier, with the event's odds), read from the site's ``showcase.json``.

The build writes ``showcase.json`` from `pyengine.showcase` (the first seed of a fixed stream
that plays each feature, the exact odds of the feature from the game's report). The page
fetches it once the game is ready (it is not on the first load's path) and puts the game's
entries in the rules page's context (``info["showcase"]``); attract mode plays them.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping, Sequence
from html import escape
from typing import Any

from pyengine.link import watch_url

from .words import number, tr

__all__ = ["entries_of", "load", "odds_of", "title_of", "watch_html"]

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


def title_of(e: Entry, word: Callable[..., str] = tr) -> str:
    """An entry's title in the player's language: a win tier's from the shared catalogue, a
    feature's from the game's (``watch.<id>``, or ``watch.<mode>.<id>`` outside the base
    game), through ``word`` (`stage.GameScreen.word`: the game's, else the shared one)."""
    ident, mode = str(e.get("id", "")), str(e.get("mode", "base"))
    if ident == "win_best":
        return tr("watch.best", x=number(float(e.get("win_x", 0)), 2))
    if e.get("kind") == "tier" and ident.startswith("win_") and ident.endswith("x") and ident[4:-1].isdigit():
        return tr("watch.tier", x=number(int(ident[4:-1])))
    return word(f"watch.{ident}" if mode == "base" else f"watch.{mode}.{ident}")


def odds_of(probability: float | None) -> str:
    """A chance as "1 in N" in the player's language (`pyengine.math.rtp.odds_text`'s)."""
    if probability is None:
        return tr("odds.none")
    if probability <= 0:
        return tr("odds.never")
    return tr("odds.one_in", n=number(1 / probability))


def _facts(e: Entry) -> str:
    win = tr("watch.win", x=number(float(e.get("win_x", 0)), 2))
    odds = e.get("odds") or {}
    if odds.get("probability"):
        simulated = str(odds.get("method", "")).startswith("simulated")
        return tr("watch.facts_simulated" if simulated else "watch.facts", win=win, odds=odds_of(odds["probability"]))
    return win


def watch_html(game: str, entries: Sequence[Entry], word: Callable[..., str] = tr) -> str:
    """The rules page's Watch section ("" without entries): each entry's round link, its win
    and the odds of what it shows; titles through ``word`` (`title_of`)."""
    if not entries:
        return ""
    items = "".join(
        f'<li class="watch-item" data-entry="{escape(str(e["id"]))}">'
        f'<a class="watch-link" href="{escape(watch_url(game, str(e["token"])))}">{escape(title_of(e, word))}</a>'
        f'<span class="watch-facts">{escape(_facts(e))}</span></li>'
        for e in entries
    )
    return (
        f'<section class="watch"><h3>{escape(tr("watch.heading"))}</h3><p>{escape(tr("watch.intro"))}</p>'
        f'<ul class="watch-list">{items}</ul></section>'
    )
