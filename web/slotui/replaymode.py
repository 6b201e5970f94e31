"""A round link on the page: ``play.html?game=ID&replay=TOKEN`` plays one round back, read
only (`pyengine.link` reads the token and refuses a bad one).

The round is played by a session of its own (the balance the round started from, its bet and
operator settings), never the player's: the page claims no save, reads none and writes none
(`page.Page.read_only`), and every play control stays off (`controller.Controller.lock`). The
bar above the controls shows the round's stake, win and multiplier, with "Play again" (the
page again: the same round from its start) and "Play this game" (the game's own address, its
saved session or a new one). Nothing leads from a replay into play that keeps its outcome.
"""

from __future__ import annotations

from typing import Any

from pyengine import events as ev
from pyengine.games import get_game
from pyengine.link import LinkError, RoundLink, decode, link_session, play_link, replay_round

from .words import number, tr

__all__ = [
    "LinkError", "RoundLink", "canonical_log", "expose_replay_log", "link_session", "read_link", "replay_round",
    "start_replay", "summary",
]


def read_link(token: str, game_id: str) -> RoundLink:
    """The round ``token`` carries for the page's game (a `LinkError` that says why not)."""
    link = decode(token)
    if link.game != game_id:
        raise LinkError(tr("replay.other_game", game=get_game(link.game).name, here=get_game(game_id).name))
    return link


def summary(events: list[ev.Event], fmt: Any) -> str:
    """The bar's words: the round's stake, win and multiplier."""
    start = next(e for e in events if isinstance(e, ev.RoundStart))
    end = next(e for e in reversed(events) if isinstance(e, ev.RoundEnd))
    x = end.win / start.stake if start.stake else 0.0
    return tr("replay.summary", stake=fmt(start.stake), win=fmt(end.win), x=number(x, 2))


def start_replay(controller: Any, events: list[ev.Event]) -> None:
    """Present ``events`` (already played by the controller's session) with every play
    control off."""
    controller.lock(tr("replay.locked"))
    controller.message = ""  # the replay's bar says it (the reason is still said on a key)
    controller.queue.extend(events)
    controller.dirty = True


def canonical_log(events: list[ev.Event]) -> list[str]:
    """The round's event log as ``play --jsonl`` prints it: one canonical JSON line per event."""
    return ev.dumps(events).splitlines()


def replay_log(token: object) -> list[str] | str:
    """The canonical log of the round ``token`` links to, replayed by this engine (a refusal's
    reason as text, prefixed ``refused:``)."""
    try:
        return canonical_log(play_link(decode(token)))
    except LinkError as exc:
        return f"refused: {exc}"


def expose_replay_log(stats: Any) -> Any:
    """With ``debug=1``: ``slotStats.replayLog(token)`` replays any round link in the page's own
    engine (the wheel in Pyodide) and returns its log, for checking many links in one page."""
    from pyodide.ffi import create_proxy, to_js  # type: ignore[import-not-found]

    def call(token: object) -> Any:
        out = replay_log(str(token))
        return to_js(out) if isinstance(out, list) else out

    proxy = create_proxy(call)
    stats.replayLog = proxy
    return proxy
