"""Shared helpers for the game client's CPython tests (``tests/test_client_*.py``).

`FakeHost` stands in for the page (``web/main.py``'s ``Page``): it records every
data-state change, controls value, announcement, posted message, saved snapshot and
opened dialog. `run` and `play_until` drive a `Controller` the way the browser does:
``tick(now)`` once per animation frame (every `FRAME_MS`), and a draw through
`slotui.render.draw` whenever ``tick`` asks for one. Time is always explicit; nothing
sleeps.
"""

from __future__ import annotations

import functools
import importlib
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import pytest

from pyengine import events as ev
from pyengine.games import game_ids, get_game, plugin
from pyengine.session import DEFAULT_BALANCE, Session
from slotui import controller as controller_module
from slotui import beats
from slotui.beats import Beat
from slotui.canvas import RecordingCanvas
from slotui.controller import Controller
from slotui.controls import Controls
from slotui.layout import Layout, compute_layout
from slotui.pick import board as pick_board
from slotui.pages import PageContext
from slotui.reels import ReelBank
from slotui.render import draw
from slotui.view import View
from slotui.stage import screen_for
from tests.games import EventTypes, a_game, all_of, decides

__all__ = [
    "FRAME_MS",
    "GAME",
    "GAME_EVENT_TYPES",
    "SPRITES",
    "Clock",
    "EventRecorder",
    "FakeHost",
    "Rig",
    "find_seed",
    "idle",
    "make_rig",
    "play_through",
    "play_until",
    "record_events",
    "restore_rig",
    "run",
    "wall_clock",
]

GAME = a_game(all_of(decides("collect_or_gamble"), decides("free_spin")), "a gamble and free spins")
"""The game of a rig unless a test asks for another: the first registered game whose wins
are offered to gamble and whose feature is free spins (`find_seed` finds its rounds)."""
FRAME_MS = 16.7
"""One animation frame at 60 Hz."""

GAME_EVENT_TYPES = EventTypes()
"""Game id -> the event types its rounds bring, from its test kit (``tests/games/<id>/__init__.py``):
its client tests play every one of them."""


def wall_clock() -> float:
    """A fixed wall clock (seconds) for sessions and restores: recent enough that a
    restored round is never older than the engine's 90-day pending limit."""
    return 1_700_000_000.0


def _sprites() -> tuple[str, ...]:
    """Each registered game's sprite keys, as the browser adapter rasterizes them
    (``App.rasterize``): its symbols (the reel symbols and its screen's other symbol pictures),
    each blurred too, and its screen's pictures."""
    symbols: dict[str, None] = {}
    pictures: dict[str, None] = {}
    for game in game_ids():
        importlib.import_module(plugin(game).screen)  # the screen registers itself
        screen = screen_for(game)
        symbols |= dict.fromkeys((*(s["id"] for s in get_game(game).describe()["symbols"]), *screen.extra_symbols))
        pictures |= dict.fromkeys(p.name for p in screen.pictures)
    return (*symbols, *(f"{s}:blur" for s in symbols), *pictures)


SPRITES: tuple[str, ...] = _sprites()
"""Every sprite key the browser adapter rasterizes (``App.rasterize``), for every registered game."""


@dataclass
class FakeHost:
    """A recording `slotui.controller.Host`."""

    states: list[str] = field(default_factory=list)
    controls_log: list[Controls] = field(default_factory=list)
    announcements: list[str] = field(default_factory=list)
    posts: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    saves: list[str] = field(default_factory=list)
    dialogs: list[str] = field(default_factory=list)
    shared: list[tuple[str, str]] = field(default_factory=list)

    # -- the Host protocol ------------------------------------------------------------
    def set_state(self, state: str) -> None:
        self.states.append(state)

    def set_controls(self, controls: Controls) -> None:
        self.controls_log.append(controls)

    def announce(self, text: str) -> None:
        self.announcements.append(text)

    def post(self, kind: str, detail: dict[str, Any]) -> None:
        self.posts.append((kind, dict(detail)))

    def save(self, snapshot: str) -> None:
        self.saves.append(snapshot)

    def open_dialog(self, kind: str) -> None:
        self.dialogs.append(kind)

    def share(self, url: str, title: str) -> None:
        self.shared.append((url, title))

    # -- reading it back --------------------------------------------------------------
    @property
    def state(self) -> str:
        """The page's current data-state ("" before the first tick)."""
        return self.states[-1] if self.states else ""

    @property
    def controls(self) -> Controls:
        assert self.controls_log, "the controller has not published its controls yet"
        return self.controls_log[-1]

    @property
    def snapshot(self) -> str:
        """What the page last saved in localStorage."""
        assert self.saves, "nothing was saved"
        return self.saves[-1]

    def posted(self, kind: str) -> list[dict[str, Any]]:
        return [d for k, d in self.posts if k == kind]


@dataclass
class Rig:
    """A controller on a real session, its fake host, a recording canvas and a layout."""

    session: Session
    host: FakeHost
    controller: Controller
    canvas: RecordingCanvas
    layout: Layout

    @property
    def now(self) -> float:
        return self.controller.now

    def run(self, ms: float) -> float:
        return run(self.controller, self.canvas, self.layout, self.controller.now, ms)

    def until(self, predicate: Callable[[Controller], bool], limit_ms: float = 60_000.0) -> float:
        return play_until(self.controller, predicate, limit_ms, canvas=self.canvas, layout=self.layout)

    def press(self, action: str) -> None:
        self.controller.press(action, self.controller.now)

    def settle(self, limit_ms: float = 60_000.0) -> float:
        """Play on until nothing is presented and no automatic step is due."""
        return self.until(idle, limit_ms)


def idle(c: Controller) -> bool:
    """Nothing left to animate and the round is not playing on by itself."""
    return (
        not c.presenting
        and c.autoplay is None
        and c.pending_kind != "free_spin"
        and not c.view.reels.moving
        and c.view.banner is None
    )


def make_rig(
    seed: int,
    *,
    settings: dict[str, Any] | None = None,
    turbo: bool = False,
    reduced_motion: bool = False,
    session: Session | None = None,
    balance: int = DEFAULT_BALANCE,
    start_ms: float = 1000.0,
    size: tuple[int, int] = (1000, 700),
    resume: bool = False,
    game: str = GAME,
    clock: Callable[[], float] = wall_clock,
    sprites: tuple[str, ...] = SPRITES,
) -> Rig:
    """A controller on ``Session(game, seed=seed)`` (or ``session``), ticked once at ``start_ms``."""
    if session is None:
        session = Session(game, seed=seed, settings=settings, balance=balance, clock=clock)
    host = FakeHost()
    c = Controller(session, host, turbo=turbo, reduced_motion=reduced_motion)
    canvas = RecordingCanvas(size[0], size[1], sprites=sprites)
    layout = compute_layout(*size)
    c.now = start_ms
    if resume:
        c.resume()
    if c.tick(start_ms):
        draw(canvas, layout, c.view, start_ms)
    return Rig(session, host, c, canvas, layout)


def run(controller: Controller, canvas: RecordingCanvas, layout: Layout, from_ms: float, ms: float) -> float:
    """Tick frames from ``from_ms`` for ``ms`` milliseconds, drawing when asked; return the last time."""
    now = from_ms
    end = from_ms + ms
    while now < end:
        now = min(now + FRAME_MS, end)
        if controller.tick(now):
            draw(canvas, layout, controller.view, now)
    return now


def play_until(
    controller: Controller,
    predicate: Callable[[Controller], bool],
    limit_ms: float,
    *,
    canvas: RecordingCanvas | None = None,
    layout: Layout | None = None,
) -> float:
    """Tick frames from the controller's time until ``predicate`` holds; return that time.

    Draws every frame ``tick`` asks for when ``canvas`` and ``layout`` are given. Fails
    the test when ``limit_ms`` of game time pass first.
    """
    now = controller.now
    end = now + limit_ms
    while not predicate(controller):
        if now >= end:
            pytest.fail(f"not reached within {limit_ms:.0f} ms (context {controller.context()!r})")
        now += FRAME_MS
        if controller.tick(now) and canvas is not None and layout is not None:
            draw(canvas, layout, controller.view, now)
        # Keep the canvas's record small: only the last frame matters to the tests.
        if canvas is not None and len(canvas.calls) > 5000:
            canvas.take()
    return now


@dataclass
class EventRecorder:
    """The events the controller consumed through ``beat_for``, in order."""

    events: list[ev.Event] = field(default_factory=list)

    @property
    def types(self) -> set[str]:
        return {e.type for e in self.events}

    def count(self, kind: type[ev.Event]) -> int:
        return sum(isinstance(e, kind) for e in self.events)


@contextmanager
def record_events(monkeypatch: pytest.MonkeyPatch) -> Iterator[EventRecorder]:
    """Record every event `Controller.tick` plays (``beat_for`` groups consecutive wins,
    taking the rest from the queue itself; those are recorded too)."""
    recorder = EventRecorder()
    original = beats.beat_for

    def spy(e: ev.Event, c: Controller) -> Beat | None:
        queued = list(c.queue)
        beat = original(e, c)
        taken = len(queued) - len(c.queue)
        recorder.events.append(e)
        recorder.events.extend(queued[:taken])
        return beat

    with monkeypatch.context() as m:
        m.setattr(controller_module, "beat_for", spy)
        yield recorder


class Clock:
    """A session clock the test moves (seconds since the epoch)."""

    def __init__(self, t: float = wall_clock()) -> None:
        self.t = t

    def __call__(self) -> float:
        return self.t


def play_through(s: Session, *, buy: bool = False) -> list[ev.Event]:
    """Spin (or buy the feature) and answer every decision with its first choice (start, the
    first cell, spin, collect): the round's whole log."""
    out = s.buy() if buy else s.spin()
    while s.pending is not None:
        out += s.choose(s.pending.choices[0])
    return out


def _first_round(
    seed: int, settings: dict[str, int], answers: tuple[str, ...] = (), game: str = GAME
) -> tuple[Session, list[ev.Event]]:
    """Play the first round of a seeded session of ``game``: ``answers`` for the first
    decisions, then the first choice of every decision (what autoplay takes: start, spin,
    collect)."""
    s = Session(game, seed=seed, settings=settings)
    events = s.spin()
    queue = list(answers)
    while s.pending is not None:
        choice = queue.pop(0) if queue else s.pending.choices[0]
        if choice not in s.pending.choices:
            break
        events += s.choose(choice)
    return s, events


def _is_kind(kind: str, seed: int, settings: dict[str, int], game: str) -> bool:
    if kind.startswith("gamble_"):
        _, events = _first_round(seed, settings, game=game)
        if not any(isinstance(e, ev.ChoiceMade) and e.kind == "collect_or_gamble" for e in events):
            return False
        if any(isinstance(e, ev.FreeSpinsAwarded) for e in events):
            return False
        _, events = _first_round(seed, settings, ("gamble", "red"), game)
        ends = [e for e in events if isinstance(e, ev.GambleEnd)]
        cards = [e for e in events if isinstance(e, ev.GambleCard)]
        if kind == "gamble_won":  # the first red wins and the gamble goes on (then collected)
            return len(cards) == 1 and cards[0].won and ends[0].reason == "collect"
        if kind == "gamble_lost":
            return bool(ends) and ends[0].reason == "lost"
        return bool(ends) and ends[0].reason == "limit"
    _, events = _first_round(seed, settings, game=game)
    if kind == "free_spins":
        return any(isinstance(e, ev.FreeSpinsAwarded) for e in events)
    if kind == "retrigger":
        return any(isinstance(e, ev.FreeSpinsAwarded) and e.retrigger for e in events)
    if kind == "expanded":
        return any(isinstance(e, ev.ExpandedWin) for e in events)
    if kind == "capped":
        return any(isinstance(e, ev.WinCapReached) for e in events)
    if kind == "win":
        return any(isinstance(e, ev.ChoiceMade) and e.kind == "collect_or_gamble" for e in events) and not any(
            isinstance(e, ev.FreeSpinsAwarded) for e in events
        )
    if kind == "loss":  # a game's own wins (a prize on the reels) are in the round's end
        return (
            not any(isinstance(e, ev.DecisionPending) for e in events)
            and not any(isinstance(e, ev.LineWin | ev.ScatterWin) for e in events)
            and all(e.win == 0 for e in events if isinstance(e, ev.RoundEnd))
        )
    raise ValueError(f"unknown kind {kind!r}")


@functools.cache
def find_seed(kind: str, start: int = 0, *, game: str = GAME, **settings: int) -> int:
    """The first session seed from ``start`` whose first round of ``game`` (the rig's
    unless asked) is of ``kind``, found by playing rounds with the engine (``settings`` are
    the session's operator settings):

    - ``free_spins``: triggers free spins; ``retrigger``: free spins that award more;
      ``expanded``: free spins with an expanded win;
    - ``capped``: free spins that reach the win limit (pass the game's win cap setting, small);
    - ``win``: a base-game win offered to gamble; ``loss``: no win and no decision (any
      game);
    - ``gamble_won``, ``gamble_lost``, ``gamble_limit``: a base-game win whose first
      gamble on red wins (and may go on), loses, or passes the limit (pass the game's
      gamble limit setting).

    >>> find_seed("loss") >= 0
    True
    """
    for seed in range(start, start + 100_000):
        if _is_kind(kind, seed, settings, game):
            return seed
    raise AssertionError(f"no seed of kind {kind!r} for {game} from {start}")


def restore_rig(
    snapshot: str,
    *,
    turbo: bool = False,
    start_ms: float = 500_000.0,
    game: str = GAME,
    clock: Callable[[], float] = wall_clock,
    sprites: tuple[str, ...] = SPRITES,
) -> Rig:
    """What a reload does: `Session.restore` the saved text, a new `Controller`, ``resume()``."""
    session = Session.restore(snapshot, game=game, clock=clock)
    return make_rig(0, session=session, turbo=turbo, start_ms=start_ms, resume=True, sprites=sprites)


def play_round(
    r: Rig, *, buy: bool = False, watch: Callable[[Controller], None] | None = None, limit_ms: float = 600_000.0
) -> None:
    """Spin (or buy), press Start when a feature waits for it, open the first closed cell of
    every pick board, play to the end of the round; ``watch`` sees the controller on every
    frame."""
    if buy:
        r.press("buy")
        assert r.controller.confirm_buy() is None
    else:
        r.press("spin")

    def done(c: Controller) -> bool:
        if watch is not None:
            watch(c)
        if idle(c) and c.pending_kind == "feature_start":
            c.press("start_feature", c.now)
        if idle(c) and c.pending_kind == "pick" and (b := pick_board(c)) is not None:
            c.press(f"pick:{b.closed()[0]}", c.now)
        return idle(c) and not c.session.in_round

    r.until(done, limit_ms)


class WinWatch:
    """A ``watch`` for `play_round`: the banners shown (title, subtitle) and the highest win meter."""

    def __init__(self) -> None:
        self.banners: set[tuple[str, str]] = set()
        self.shown = 0

    def __call__(self, c: Controller) -> None:
        self.shown = max(self.shown, c.meters.win)
        if c.view.banner is not None:
            self.banners.add((c.view.banner.title, c.view.banner.subtitle))


def round_log(session: Session) -> list[ev.Event]:
    """The events of the round in play, or of the last finished one."""
    if session.in_round:
        return list(session.round_events)
    assert session.last_round is not None
    return list(session.last_round.events)


def first(events: list[ev.Event], kind: type[ev.Event]) -> Any:
    found = [e for e in events if isinstance(e, kind)]
    assert found, f"no {kind.__name__} in the round"
    return found[0]


# -- drawing and pages out of play ----------------------------------------------------------------
def view_with(strips: list[tuple[str, ...]], **kw: Any) -> View:
    """A view of ``strips`` (3 rows, stops 3, 4, 5...) with ``kw`` set on it."""
    v = View(ReelBank(strips, 3, [3 + i for i in range(len(strips))]))
    for k, value in kw.items():
        setattr(v, k, value)
    return v


def draw_view(v: View, *, sprites: tuple[str, ...] = SPRITES, now: float = 5000.0) -> RecordingCanvas:
    """``v`` drawn on a phone-sized canvas (every push popped)."""
    canvas = RecordingCanvas(1170, 2532, sprites=sprites)
    draw(canvas, compute_layout(canvas.width, canvas.height), v, now)
    assert canvas.calls.count(("pop",)) == sum(1 for c in canvas.calls if c[0] == "push")
    return canvas


def page_context(game: str, bet_per_line: int, lines: int, **kw: Any) -> PageContext:
    """The pages' context of ``game`` at a bet, with no lobby figures unless given (``info``)."""
    g = get_game(game)
    fields: dict[str, Any] = {"desc": g.describe(), "info": {}, "fmt": g.bets.format}
    fields.update(kw)
    return PageContext(
        bet_per_line=bet_per_line, lines=lines, stake=bet_per_line * lines, assets=f"static/games/{game}", **fields
    )
