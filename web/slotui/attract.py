"""Attract mode: ``play.html?game=ID&embed=1&attract=1`` plays the game's showcase rounds
(`slotui.watch`, from ``showcase.json``) one after another, read only and muted, for a
marketing page's frame.

Each round is a round link played back as a replay plays it (`slotui.replaymode`): the
page's session is the first link's own, never the player's save (nothing is claimed, read
or written), and every play control stays off. The bar names the round on screen and offers
**Pause** (the motion stops where it is and resumes from there: WCAG 2.2.2, motion longer
than 5 seconds can be paused) and **Play**. The first interaction other than Pause (a tap on
the game, a key, Play) stops the loop and starts a normal game: the same address without
``attract``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from pyengine.link import LinkError, RoundLink, decode

from . import replaymode
from .watch import title_of
from .words import tr

__all__ = ["HOLD_MS", "Attract", "links_of", "plain_address", "run"]

HOLD_MS = 2500.0
"""How long a round's end stays on screen before the next round starts."""
POLL_MS = 200
"""How often the loop looks whether the round on screen has ended."""
ATTRACT_KINDS = ("feature", "jackpot", "tier")
"""The order the entries play in: the features first, then the jackpot and the big wins."""


def links_of(
    entries: Sequence[dict[str, Any]], game: str, word: Callable[..., str] | None = None
) -> list[tuple[RoundLink, str]]:
    """The showcase entries' round links of ``game`` with their titles (`watch.title_of`,
    through ``word``: the game's screen's words), features first; an entry whose token does
    not decode (another version's) is skipped."""
    out: list[tuple[RoundLink, str]] = []
    def rank(e: dict[str, Any]) -> int:
        kind = e.get("kind")
        return ATTRACT_KINDS.index(kind) if kind in ATTRACT_KINDS else len(ATTRACT_KINDS)

    ranked = sorted(entries, key=rank)
    for e in ranked:
        try:
            link = decode(str(e["token"]))
        except LinkError:
            continue
        if link.game == game:
            out.append((link, title_of(e, word) if word is not None else str(e.get("title", ""))))
    return out


def plain_address(search: str) -> str:
    """The page's address without ``attract`` (and without ``replay``): the normal game."""
    from . import jspage

    query = jspage.window.URLSearchParams.new(search)
    query.delete("attract")
    query.delete("replay")
    return f"./play.html?{query.toString()}"


class Attract:
    """The loop: a round, its end held for `HOLD_MS`, the next; paused on Pause."""

    def __init__(self, app: Any, links: list[tuple[RoundLink, str]], now: Callable[[], float]) -> None:
        self.app = app
        self.links = links
        self.now = now
        self.index = 0
        self.played = 0
        self.paused = False
        self.stopped = False
        self.ended_at: float | None = None
        self.paused_at = 0.0
        self.offset = 0.0
        """The time spent paused: the controller's clock runs that much behind the page's."""
        controller = app.controller
        self._tick = controller.tick
        controller.tick = self.tick  # the clock the controller sees stops while paused

    # -- the controller's clock --------------------------------------------------------------
    def tick(self, now: float) -> bool:
        """The controller's frame at the page's time ``now`` less the time spent paused;
        nothing moves while paused."""
        if self.paused:
            return False
        return bool(self._tick(now - self.offset))

    # -- the loop ---------------------------------------------------------------------------
    def first(self) -> None:
        """The first round (already played by `App.start` as its replay) is on screen."""
        self.played = 1
        self.ended_at = None

    def poll(self) -> bool:
        """Start the next round when the one on screen has ended and been held; True when one
        started."""
        if self.paused or self.stopped:
            return False
        c = self.app.controller
        if c.presenting or c.view.reels.moving:
            self.ended_at = None
            return False
        t = self.now() - self.offset
        if self.ended_at is None:
            self.ended_at = t
            return False
        if t - self.ended_at < HOLD_MS:
            return False
        self.index = (self.index + 1) % len(self.links)
        self.play(self.index)
        return True

    def play(self, index: int) -> None:
        """Play link ``index`` back in the page's session (topped up to the round's balance)."""
        link, _title = self.links[index]
        session = self.app.session
        if session.balance < link.balance:
            session.add_funds(link.balance - session.balance)
        events = replaymode.replay_round(session, link)
        c = self.app.controller
        c.queue.extend(events)
        c.dirty = True
        self.played += 1
        self.ended_at = None

    @property
    def title(self) -> str:
        return self.links[self.index][1]

    # -- the player's controls -------------------------------------------------------------------
    def pause(self) -> None:
        if not self.paused:
            self.paused = True
            self.paused_at = self.now()

    def resume(self) -> None:
        if self.paused:
            self.paused = False
            self.offset += self.now() - self.paused_at

    def stats(self) -> dict[str, Any]:
        """What ``slotStats.attract`` says: the rounds played, the one on screen, paused."""
        return {"played": self.played, "index": self.index, "title": self.title, "paused": self.paused,
                "rounds": len(self.links)}


async def run(make_app: Callable[[RoundLink], Any], game: str) -> Attract | None:
    """Attract mode on the page: the showcase fetched, the first round played by the app
    ``make_app`` builds for its link (a replay), the loop and its bar wired. Without a
    showcase (none for the game, the file unreachable offline) the normal game starts."""
    from pyodide.ffi import create_proxy  # type: ignore[import-not-found]

    from . import jspage, watch

    w = jspage.window
    import importlib

    from pyengine.games import plugin

    from .beats import screen_for

    importlib.import_module(plugin(game).screen)  # the game's screen, with its words
    links = links_of(await watch.load({}, game), game, screen_for(game).word)
    plain = plain_address(str(w.location.search))
    if not links:
        w.location.replace(plain)
        return None
    app = make_app(links[0][0])
    await app.start()
    loop = Attract(app, links, lambda: float(w.performance.now()))
    loop.first()
    doc = jspage.document
    doc.getElementById("replay-bar").hidden = True
    bar = doc.getElementById("attract-bar")
    text = bar.querySelector(".attract-text")
    pause = bar.querySelector('[data-attract="pause"]')
    shown: list[Any] = [None]

    def publish() -> None:
        stats = loop.stats()
        if stats != shown[0]:
            shown[0] = stats
            text.textContent = tr("watch.label", title=loop.title)
            pause.textContent = tr("attract.resume") if loop.paused else tr("attract.pause")
            pause.setAttribute("aria-pressed", "true" if loop.paused else "false")
            app.stats.attract = jspage.js_obj(stats)

    def stop(*_args: Any) -> None:
        if loop.stopped:
            return
        loop.stopped = True
        w.clearInterval(timer)
        app.stats.attract = jspage.js_obj({**loop.stats(), "stopped": True})
        w.location.assign(plain)

    def on_pause(evt: Any) -> None:
        evt.stopPropagation()
        if loop.paused:
            loop.resume()
            app.wake()
        else:
            loop.pause()
        publish()

    def on_input(evt: Any) -> None:
        target = evt.target
        if hasattr(target, "closest") and not jspage.nil(target.closest('[data-attract="pause"]')):
            return  # Pause is not the interaction that ends the loop
        if str(getattr(evt, "key", "")) in ("Tab", "Shift"):
            return  # moving the focus (to Pause) is not either
        stop()

    def on_poll() -> None:
        if loop.poll():
            app.wake()
        publish()

    proxies = [create_proxy(f) for f in (on_pause, on_input, stop, on_poll)]
    pause.addEventListener("click", proxies[0])
    for kind in ("pointerdown", "keydown"):
        doc.addEventListener(kind, proxies[1], jspage.js_obj({"capture": True}))
    bar.querySelector('[data-attract="play"]').addEventListener("click", proxies[2])
    timer = w.setInterval(proxies[3], POLL_MS)
    bar.hidden = False
    publish()
    app._proxies.extend(proxies)
    return loop
