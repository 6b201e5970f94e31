"""The browser adapter: the page, the canvas and the clock around `slotui.Controller`.

It runs on the page's main thread (``web/main.py``, the PyScript script, awaits `main`;
it is the one module of ``slotui`` that needs a browser). It restores (or starts) the session saved in
localStorage, draws the reels on the canvas through one reused requestAnimationFrame
proxy, forwards buttons, keys and taps to the controller and applies its state to the
page. Everything that decides anything lives in `pyengine` and `slotui`.
"""

from __future__ import annotations

import asyncio
import importlib.util
import json
import os
import re
import sys
from collections import deque
from collections.abc import Callable
from fractions import Fraction
from typing import Any

from pyodide.ffi import create_proxy, to_js  # type: ignore[import-not-found]

from pyengine.autoplay import AutoplayLimits
from pyengine.errors import EngineError, OldVersionError, SnapshotError
from pyengine.games import plugin, register
from pyengine.model import Bet
from pyengine.session import Session
from pyengine.values import json_depth
from slotui import attract, codecache, jsembed, jspage, jssound, jswords, pages, replaymode, watch
from slotui.controller import Controller
from slotui.jscanvas import RASTERS, CheckedCanvas, JsCanvas, raster
from slotui.jspage import js_obj, mark, nil, pixel_ratio, wall_clock
from slotui.page import Page
from slotui.keys import action_for_key
from slotui.layout import BACKGROUND, FRAME, LOGO, Layout, compute_layout
from slotui.pick import board
from slotui.render import draw
from slotui.words import decimal, tr

# The page's globals, bound by `main` (this module is imported, without a page, when the
# build makes the Python snapshot: importing it there must not touch the browser).
js: Any = None
window: Any = None
document: Any = None
STUDIO: Any = None
PERF: Any = None
STORAGE_VERSION = "v1"
HOLD_MS = 450
"""Holding the Spin button this long starts TURBO SPIN (a shorter press is a click)."""
TEXT_PROBLEMS_KEPT = 200
"""How many of the faults `textboxes` finds a ``debug=1`` page keeps (the first ones)."""
REST_AFTER_FRAMES = 30
"""Frames the game rests (`Controller.resting`) before the loop sleeps: half a second."""
REST_TICK_MS = 250
"""How often a sleeping loop still looks at the game (it wakes at once on an input)."""


def _bind_page() -> None:
    global js, window, document, STUDIO, PERF
    jspage.bind()
    js, window, document, STUDIO, PERF = jspage.js, jspage.window, jspage.document, jspage.STUDIO, jspage.PERF


# -- the app ------------------------------------------------------------------------------------
def save_key(params: Any) -> str:
    """The localStorage key of the game's save (one per game, and per seed given in the URL)."""
    seed = None if nil(params.seed) else int(str(params.seed), 0)
    suffix = f":seed:{seed}" if seed is not None else ""
    return f"slotstudio:{STORAGE_VERSION}:{params.game}{suffix}"


BUSY_TEXT, LOST_TEXT, TAKE_OVER_LABEL = "tabs.busy", "tabs.lost", "tabs.take_over"
"""The catalogue keys of what a tab that does not play the game says, and of its button."""


class App:
    def __init__(self, *, held: bool = True, replay: replaymode.RoundLink | None = None) -> None:
        """``held``: this tab holds the game's save (`slotStudio.claim`); without it the page
        shows the save but plays nothing and saves nothing until the player takes it over.
        ``replay``: the page plays that round back, read only (`slotui.replaymode`)."""
        mark("py:main")
        params = STUDIO.params
        self.game_id = str(params.game)
        self.held = held
        self.seed = None if nil(params.seed) else int(str(params.seed), 0)
        self.debug = bool(getattr(params, "debug", False))
        self.embed = bool(params.embed)
        games = json.loads(window.JSON.stringify(STUDIO.games))
        self.info = next(g for g in games["games"] if g["id"] == self.game_id)
        if self.info.get("module"):
            register(self.game_id, str(self.info["module"]))  # a game not shipped with the engine
        self.assets = f"static/games/{self.game_id}"
        self.key = save_key(params)
        self.settings_key = f"slotstudio:{STORAGE_VERSION}:settings"
        self.replay = replay
        self.session = replaymode.link_session(replay, wall_clock) if replay else self._load_session(params)
        mark("py:session")
        self.page = Page(self.game_id, self.key)
        self.page.app = self
        prefs = self._load_prefs()
        self.controller = Controller(
            self.session,
            self.page,
            turbo=prefs.get("turbo", False),
            reduced_motion=prefs.get("reduced", False),
            money_meters=prefs.get("money", False),
        )
        self.page.controller = self.controller
        if not nil(getattr(params, "currency", None)):  # currency=EUR: the page's Intl format
            self.controller.currency = str(params.currency)
            self.controller.money = lambda minor: str(STUDIO.money(minor))
        self._take_over = create_proxy(lambda: STUDIO.takeOver(self.key))
        if not held:
            self.stop(BUSY_TEXT)
        self.stage = document.getElementById("stage")
        reels = document.getElementById("reels")
        self.canvas = CheckedCanvas(reels) if self.debug else JsCanvas(reels)
        self.text_problems: dict[str, None] = {}
        self.text_frames = 0
        self.canvas.ctx.shadowColor = "rgba(0,0,0,0.8)"
        self.layout: Layout = compute_layout(max(self.canvas.width, 1), max(self.canvas.height, 1))
        self.images: dict[str, Any] = {}
        self.blurred = False
        self.frame_ms: deque[float] = deque(maxlen=240)
        self.frame_times: deque[float] = deque(maxlen=240)
        self.ready_ms = 0.0
        self.press_at = 0.0
        self.picking = False
        self.feature_shown: tuple[object, ...] = ()
        self.stats = window.Object.new()
        window.slotStats = self.stats
        overlay = document.getElementById("debug") if self.debug else None
        self.overlay = None if nil(overlay) else overlay
        self._frame = create_proxy(self.on_frame)
        # The loop sleeps while the game rests (see `on_frame`): a timer instead of a frame.
        self._rest_timer = 0
        self._resting_frames = 0
        self.wakes: dict[str, int] = {}
        self._asleep = False
        self._nap = create_proxy(self._nap_over)
        self._hold_later = create_proxy(self._hold_from_button)
        self.hold_timer = 0
        self.hold_ended = False
        self._proxies: list[Any] = []

    # -- session ---------------------------------------------------------------------------
    def _load_session(self, params: Any) -> Session:
        text = window.localStorage.getItem(self.key)
        session: Session | None = None
        if not nil(text):
            try:
                session = Session.restore(str(text), game=self.game_id, clock=wall_clock)
            except OldVersionError as exc:  # another version of the game: keep what the save held
                session = Session(self.game_id, seed=self.seed, clock=wall_clock, balance=exc.balance)
                per = session.game.bets.minor_per_major
                said = {"game": session.game.name, "balance": decimal(exc.balance, per),
                        "refund": decimal(exc.refund, per)}
                STUDIO.notice(tr("save.old_version_refund" if exc.refund else "save.old_version", **said))
                if self.held:
                    window.localStorage.setItem(self.key, session.snapshot())
            except Exception as exc:  # whatever is stored, the page comes back with a fresh session
                if self.held:  # (the tab that holds the save decides about it)
                    window.localStorage.removeItem(self.key)
                why = str(exc) if isinstance(exc, SnapshotError) else tr("save.unreadable", error=type(exc).__name__)
                STUDIO.notice(tr("save.not_restored", why=why[:300]))
        if session is None:
            session = Session(self.game_id, seed=self.seed, clock=wall_clock)
        bet = params.bet
        if not nil(bet) and not session.in_round:
            wanted = _parse_bet(str(bet), session)
            if wanted is not None:
                session.set_bet(wanted)
        return session

    def _load_prefs(self) -> dict[str, bool]:
        prefs = {
            "reduced": bool(window.matchMedia("(prefers-reduced-motion: reduce)").matches),
            "turbo": False,
            "money": False,
        }
        raw = window.localStorage.getItem(self.settings_key)
        if not nil(raw):
            try:
                text = str(raw)
                if json_depth(text) > 4:
                    raise ValueError("the settings nest too deeply")
                saved = json.loads(text)
                prefs.update({k: bool(v) for k, v in saved.items() if k in prefs})
            except Exception:  # unreadable settings are dropped, never fatal
                window.localStorage.removeItem(self.settings_key)
        return prefs

    def save_prefs(self) -> None:
        if self.replay is not None:
            return  # a replay writes nothing
        c = self.controller
        prefs = {"turbo": c.turbo, "reduced": c.reduced_motion, "money": c.money_meters}
        window.localStorage.setItem(self.settings_key, json.dumps(prefs))

    # -- assets ------------------------------------------------------------------------------
    def picture_urls(self) -> tuple[dict[str, str], dict[str, str]]:
        """The game's pictures by name: (those its first frame draws, the others).

        The first frame draws the reel symbols, the background, the frame and the logo. The
        others (a screen's extra symbol pictures and its feature pictures) are drawn once a
        feature shows, seconds after a first spin at the earliest."""
        first_names = {s["id"] for s in self.controller.desc["symbols"]} | {BACKGROUND.name, FRAME.name, LOGO.name}
        names = [s["id"] for s in self.controller.desc["symbols"]] + list(self.controller.screen.extra_symbols)
        urls = {n: f"{self.assets}/symbols/{n}.svg" for n in names}
        for picture in self.controller.screen.pictures:
            urls[picture.name] = f"{self.assets}/{picture.name}.svg"
        # Only the pictures the build found (games.json): a game without some of them draws text.
        known = self.info.get("assets", {}).get("pictures")
        if isinstance(known, list):
            urls = {k: u for k, u in urls.items() if u in known}
        first = {k: u for k, u in urls.items() if k in first_names}
        return first, {k: u for k, u in urls.items() if k not in first}

    async def load_images(self, urls: dict[str, str], then: Callable[[str], None] | None = None) -> None:
        """Fetch and decode these pictures at once (the service worker usually has them);
        ``then`` is called with each one's name as it arrives."""

        async def one(key: str, url: str) -> None:
            img = await STUDIO.image(url)  # boot.js began fetching the first frame's pictures early
            if not nil(img):  # a missing picture falls back to drawn text
                self.images[key] = img
                if then is not None:
                    then(key)

        await asyncio.gather(*(one(k, u) for k, u in urls.items()))

    async def load_later(self, urls: dict[str, str]) -> None:
        """The pictures the first frame did not need, once the game is ready: each one's
        sprite joins the others' as it arrives (one at a time, no long task while the player
        plays)."""
        await self.load_images(urls, then=lambda key: self.rasterize({key}))
        self.controller.dirty = True
        STUDIO.pictures.done = True

    def rasterize(self, only: set[str] | None = None) -> None:
        """Every loaded picture's sprite at this layout; with ``only``, those pictures'
        sprites (and blurred ones where the others have them), added to the others."""
        L = self.layout
        sprites: dict[str, Any] = {}
        cell = L.cell * 0.92
        big = self.controller.screen.big_symbols
        for sid in self.symbol_ids():
            img = self.images.get(sid)
            if img is None or (only is not None and sid not in only):
                continue
            size = max(cell, L.reels_h * 0.95) if sid in big else cell
            sprites[sid] = raster(img, size, size)
            if only is not None and self.blurred:
                sprites[f"{sid}:blur"] = raster(img, cell, cell, blur=True)
        for picture in self.controller.screen.pictures:
            img = self.images.get(picture.name)
            if img is not None and (only is None or picture.name in only):
                sprites[picture.name] = raster(img, *picture.size(L), cover=picture.cover)
        if only is None:
            self.canvas.sprites = sprites
            self.blurred = False
        else:
            self.canvas.sprites.update(sprites)

    def rasterize_blur(self, *_args: Any) -> None:
        """The motion-blurred symbols, made after the first frame (spins use them when ready)."""
        if self.blurred:
            return
        cell = self.layout.cell * 0.92
        for sid in self.symbol_ids():
            img = self.images.get(sid)
            if img is not None:
                self.canvas.sprites[f"{sid}:blur"] = raster(img, cell, cell, blur=True)
        self.blurred = True

    def symbol_ids(self) -> list[str]:
        """The reel symbols and the game's other symbol pictures (an empty cell, ...)."""
        return [s["id"] for s in self.controller.desc["symbols"]] + list(self.controller.screen.extra_symbols)

    # -- sizing ------------------------------------------------------------------------------
    def resize(self, *_args: Any) -> None:
        rect = self.stage.getBoundingClientRect()
        dpr = pixel_ratio()
        w, h = max(int(rect.width * dpr), 1), max(int(rect.height * dpr), 1)
        if w == self.canvas.width and h == self.canvas.height and self.canvas.sprites:
            return
        el = self.canvas.el
        el.width, el.height = w, h
        self.canvas.width, self.canvas.height = w, h
        self.canvas.reset_state()
        self.canvas.ctx.shadowColor = "rgba(0,0,0,0.8)"
        self.layout = compute_layout(w, h, len(self.controller.view.reels.reels), self.controller.view.reels.rows)
        self.rasterize()
        if self.ready_ms:
            self.rasterize_blur()
        self.controller.dirty = True

    # -- input ---------------------------------------------------------------------------------
    def listen(self, target: Any, event: str, fn: Any) -> None:
        """``fn`` on ``target``'s ``event``; the loop wakes after it (an input changes the game)."""

        def handler(*args: Any) -> None:
            try:
                fn(*args)
            finally:
                self.wake()

        proxy = create_proxy(handler)
        self._proxies.append(proxy)
        target.addEventListener(event, proxy)

    def _pressed(self, action: str) -> None:
        was_moving = self.controller.view.reels.moving
        self.controller.press(action, PERF.now())
        if action == "spin" and not was_moving:
            self.press_at = float(PERF.now())

    def on_button(self, evt: Any) -> None:
        action = str(evt.currentTarget.dataset.action)
        if action == "spin" and self.hold_ended:
            self.hold_ended = False  # the click that ends holding the button is not a spin
            return
        self._pressed(action)
        if action in ("turbo", "units"):
            self.save_prefs()

    def on_key(self, evt: Any) -> None:
        if evt.ctrlKey or evt.metaKey or evt.altKey:
            return
        tag = str(getattr(evt.target, "tagName", "") or "")
        if tag in ("INPUT", "SELECT", "TEXTAREA"):
            return
        dialog = document.querySelector("dialog[open]")
        if not nil(dialog):
            # A key that opens a dialog also closes it (and Escape, Space, Enter), except
            # Space and Enter on the dialog's own buttons and links, which press them.
            pressing = tag in ("BUTTON", "A") and str(evt.code) in ("Space", "Enter", "NumpadEnter")
            if not pressing and action_for_key(str(evt.code), "dialog") == "close":
                evt.preventDefault()
                dialog.close()
            return
        if evt.repeat:
            # A spin key held down: TURBO SPIN until it is released.
            if not self.controller.held and action_for_key(str(evt.code), "idle") == "spin":
                evt.preventDefault()
                self.controller.press("hold", PERF.now())
            return
        action = action_for_key(str(evt.code), self.controller.context())
        if action is None:
            return
        evt.preventDefault()  # also keeps Space from clicking a focused button a second time
        self._pressed(action)

    def on_key_up(self, _evt: Any) -> None:
        if self.controller.held:
            self.controller.press("release", PERF.now())

    def on_spin_down(self, _evt: Any) -> None:
        """Holding the Spin button for HOLD_MS starts TURBO SPIN."""
        window.clearTimeout(self.hold_timer)
        self.hold_ended = False  # a hold that ended off the button left no click to swallow
        self.hold_timer = window.setTimeout(self._hold_later, HOLD_MS)

    def _hold_from_button(self) -> None:
        self.controller.press("hold", PERF.now())
        self.hold_ended = self.controller.held
        self.wake()

    def on_spin_up(self, _evt: Any) -> None:
        window.clearTimeout(self.hold_timer)
        if self.controller.held:
            self.controller.press("release", PERF.now())

    def on_tap(self, evt: Any) -> None:
        dpr = pixel_ratio()
        x = float(getattr(evt, "offsetX", 0) or 0) * dpr
        y = float(getattr(evt, "offsetY", 0) or 0) * dpr
        self.controller.now = float(PERF.now())
        self.controller.tap(x, y, self.layout)

    # -- dialogs -----------------------------------------------------------------------------
    def open_dialog(self, kind: str) -> None:
        c = self.controller
        s = self.session
        if kind == "exit":
            if self.embed:
                # Embedded, the page that holds the game decides where Exit goes.
                self.page.post("exit", {"balance": s.balance})
            else:
                window.location.href = "index.html"
            return
        dlg = document.getElementById(f"dlg-{kind}")
        if nil(dlg):
            return
        body = dlg.querySelector(".dlg-body")
        if nil(body):
            body = None
        html = pages.page_html(kind, c.screen, pages.page_context(s, c.desc, self.info, self.assets, c.fmt))
        if html is not None and body is not None:
            body.innerHTML = html
        if kind == "buy":
            self.buy_error("")
            confirm = document.getElementById("buy-confirm")
            if not nil(confirm):
                confirm.disabled = c.buy_blocked() is not None
                confirm.textContent = tr("buy.confirm", price=c.fmt(c.buy_price()))
        elif kind == "settings":
            document.getElementById("set-reduced").checked = c.reduced_motion
            document.getElementById("set-turbo").checked = c.turbo
        if not dlg.open:
            dlg.showModal()

    def buy_error(self, text: str) -> None:
        box = document.getElementById("buy-error")
        if not nil(box):
            box.textContent = text
            box.hidden = text == ""

    def on_buy_confirm(self, evt: Any) -> None:
        evt.preventDefault()
        error = self.controller.confirm_buy()
        if error is not None:
            self.buy_error(error)
            return
        document.getElementById("dlg-buy").close()

    def on_autoplay_start(self, evt: Any) -> None:
        evt.preventDefault()
        s = self.session
        try:
            rounds = int(str(document.getElementById("ap-rounds").value))
            loss = _money(str(document.getElementById("ap-loss").value), s)
            single = _money(str(document.getElementById("ap-single").value), s)
            limits = AutoplayLimits(rounds, loss, single, bool(document.getElementById("ap-feature").checked))
        except (ValueError, EngineError) as exc:
            STUDIO.notice(str(exc))
            return
        why = self.controller.start_autoplay(limits)
        if why:
            STUDIO.notice(why)  # the dialog stays open to correct it
            return
        document.getElementById("dlg-autoplay").close()

    def on_setting(self, _evt: Any) -> None:
        c = self.controller
        c.reduced_motion = bool(document.getElementById("set-reduced").checked)
        c.turbo = bool(document.getElementById("set-turbo").checked)
        c.dirty = True
        self.save_prefs()

    def on_reset(self, _evt: Any) -> None:
        STUDIO.notice(self.controller.reset_balance())

    # -- the loop ------------------------------------------------------------------------------
    def on_frame(self, ts: float) -> None:
        t0 = PERF.now()
        try:
            if self.controller.tick(ts):
                self.draw(ts)
        except Exception as exc:
            self.fail(exc)
            return
        t1 = PERF.now()
        spent = t1 - t0
        if self.press_at and self.controller.view.reels.moving:
            # Spin pressed -> the first frame drawn with the reels in motion.
            self.stats.spinLatencyMs = round(t1 - self.press_at, 2)
            self.press_at = 0.0
        napping = self._asleep
        self._asleep = False
        if not napping:  # the frame rate is that of the frames the screen asked for
            self.frame_ms.append(spent)
            self.frame_times.append(ts)
            if len(self.frame_times) % 30 == 0:
                self.publish_stats()
        if self.picking or board(self.controller) is not None:
            # The board on screen, every frame while there is one (a few cells: cheap).
            found = self._pick_stats()
            self.stats.pick = found
            self.picking = found is not None
        self._feature_stats()
        if self.controller.resting:
            self._resting_frames += 1
        elif self._resting_frames:
            self._woken("game")
            self._resting_frames = 0
        if self._resting_frames > REST_AFTER_FRAMES:
            # The game rests: look again a few times a second (for what no input brings: a
            # picture loaded later, another tab's save), and at once on the next input.
            if not napping:
                self.publish_stats()
                self.stats.resting = True
            self._rest_timer = window.setTimeout(self._nap, REST_TICK_MS)
            return
        if self._resting_frames == 0:  # not every frame: a call into JavaScript costs
            self.stats.resting = False
        window.requestAnimationFrame(self._frame)

    def draw(self, ts: float) -> None:
        """Draw a frame; with ``debug=1`` also read its words (`slotui.textboxes`): the frame's
        texts and boxes as ``slotStats.texts``, and every problem seen since the page opened
        as ``slotStats.textProblems`` (each with the canvas size it was seen at)."""
        draw(self.canvas, self.layout, self.controller.view, ts)
        if not isinstance(self.canvas, CheckedCanvas):
            return
        texts, problems = self.canvas.check(self.controller.view, self.layout)
        size = f"{self.canvas.width}x{self.canvas.height}"
        fresh = [f"{size} {self.controller.context()}: {p}" for p in problems]
        for p in fresh:
            if len(self.text_problems) < TEXT_PROBLEMS_KEPT:  # (a fault that moves is new each frame)
                self.text_problems[p] = None
        self.stats.texts = to_js([[t.text, list(t.box)] for t in texts])
        self.text_frames += 1
        self.stats.textFrames = self.text_frames
        self.stats.textSize = size
        self.stats.textWidthRatio = round(self.canvas.widest, 4)
        self.stats.context = self.controller.context()
        if fresh or self.text_frames == 1:
            self.stats.textProblems = to_js(list(self.text_problems))

    def _nap_over(self) -> None:
        self._rest_timer = 0
        self._asleep = True
        window.requestAnimationFrame(self._frame)

    def _woken(self, cause: str) -> None:
        """The rest ended (``cause``: an input, or the game had something to show): counted
        in ``slotStats.wakes`` by cause, so that a test can tell the frames a wake-up costs
        (a half-second of frames before the loop sleeps again) from a loop that never sleeps."""
        self.wakes[cause] = self.wakes.get(cause, 0) + 1
        self.stats.wakes = js_obj(dict(self.wakes))
        # Awake from now on: the half-second of frames before the loop sleeps again is not a
        # rest (`slotStats.resting` said true through it until the first frame of a rest).
        self.stats.resting = False

    def wake(self) -> None:
        """Back to a frame per screen refresh at once, if the loop sleeps (after an input)."""
        if self._resting_frames:
            self._woken("input")
        self._resting_frames = 0
        if self._rest_timer:
            window.clearTimeout(self._rest_timer)
            self._rest_timer = 0
            self._asleep = True  # this frame ends the nap; the frames after it count
            window.requestAnimationFrame(self._frame)

    def _feature_stats(self) -> None:
        """The feature on screen, for tests and embedding pages, when it changes: whether a
        feature plays, the free-spin counter, and what each piece on screen says of itself
        (its ``feature_stats(stage)``, e.g. a cascade's multiplier in force)."""
        c = self.controller
        m = c.meters
        found: dict[str, Any] = {"on": m.in_feature, "freeSpin": list(m.free_spin)}
        for piece in c.view.pieces():
            said = getattr(piece, "feature_stats", None)
            if said is not None:
                found.update(said(c))
        shown = tuple((k, tuple(v) if isinstance(v, list) else v) for k, v in found.items())
        if shown != self.feature_shown:
            self.feature_shown = shown
            self.stats.feature = js_obj(found)

    def publish_stats(self) -> None:
        times = list(self.frame_times)
        fps = 0.0
        if len(times) > 1 and times[-1] > times[0]:
            fps = (len(times) - 1) * 1000.0 / (times[-1] - times[0])
        ms = sorted(self.frame_ms)
        p95 = ms[min(int(len(ms) * 0.95), len(ms) - 1)] if ms else 0.0
        self.stats.fps = round(fps, 1)
        self.stats.frameMsP95 = round(p95, 3)
        self.stats.readyMs = round(self.ready_ms, 1)
        if self.overlay is not None:
            self.overlay.hidden = False
            self.overlay.textContent = f"{fps:.0f} fps · p95 {p95:.2f} ms/frame · ready {self.ready_ms:.0f} ms"

    def _pick_stats(self) -> Any:
        """The pick board on screen as it says of itself (`pick.PickOverlay.stats`), in CSS
        pixels of the canvas (None when no board is shown)."""
        overlay = board(self.controller)
        return None if overlay is None else js_obj(overlay.stats(self.layout, pixel_ratio()))

    def stop(self, key: str) -> None:
        """Play nothing more and save nothing more here (another tab plays the game); say so
        (the catalogue's ``key``) and offer to play here instead."""
        text = tr(key)
        self.controller.lock(text)
        STUDIO.notice(text, js_obj({"label": tr(TAKE_OVER_LABEL), "run": self._take_over}))

    def on_lost(self) -> None:
        """Another tab took the game's save over (`slotStudio.claim`): stop at once."""
        if not self.controller.locked:
            self.stop(LOST_TEXT)

    def on_storage(self, evt: Any) -> None:
        """Another tab of this game saved it. With Web Locks that cannot happen while this tab
        holds the save; without them (plain http from another host) this is the guard: the
        other tab is in charge now, and this one stops rather than overwrite its rounds."""
        if str(evt.key) != self.key or self.controller.locked:
            return
        self.stop(LOST_TEXT)

    def fail(self, exc: BaseException) -> None:
        STUDIO.fail(tr("error.stopped", error=exc))

    async def start(self) -> None:
        mark("py:controller")
        first, later = self.picture_urls()
        if self.session.in_round:  # a round resumed mid-feature may draw any of them at once
            first, later = {**first, **later}, {}
        STUDIO.pictures = js_obj({"first": len(first), "later": len(later), "done": not later})
        await self.load_images(first)
        mark("py:images")
        self.resize()
        mark("py:rasterized")
        STUDIO.rasters = js_obj(RASTERS)
        STUDIO.codeCache = js_obj(codecache.STATS)
        self.listen(window, "resize", self.resize)
        self.listen(window, "storage", self.on_storage)
        def resized(*args: Any) -> None:
            self.resize(*args)
            self.wake()

        observer = window.ResizeObserver.new(create_proxy(resized))
        observer.observe(self.stage)
        for el in document.querySelectorAll("[data-action]"):
            self.listen(el, "click", self.on_button)
        self.listen(document, "keydown", self.on_key)
        self.listen(document, "keyup", self.on_key_up)
        spin = document.querySelector('[data-action="spin"]')
        if not nil(spin):
            self.listen(spin, "pointerdown", self.on_spin_down)
            for name in ("pointerup", "pointercancel", "pointerleave"):
                self.listen(spin, name, self.on_spin_up)
        self.listen(self.canvas.el, "pointerdown", self.on_tap)
        start = document.getElementById("ap-start")
        if not nil(start):
            self.listen(start, "click", self.on_autoplay_start)
        confirm = document.getElementById("buy-confirm")
        if not nil(confirm):
            self.listen(confirm, "click", self.on_buy_confirm)
        for eid, words in (
            ("ap-feature-label", self.controller.screen.stop_label),
            ("ap-more-label", self.controller.screen.more_autoplay_label),
        ):
            label = document.getElementById(eid)
            if not nil(label):
                label.textContent = words
        for sid in ("set-reduced", "set-turbo"):
            el = document.getElementById(sid)
            if not nil(el):
                self.listen(el, "change", self.on_setting)
        reset = document.getElementById("set-reset")
        if not nil(reset):
            self.listen(reset, "click", self.on_reset)
        self._proxies.append(self.page.share_from_history(tr("share.title", game=self.controller.desc["name"])))
        document.getElementById("title").textContent = self.controller.desc["name"]
        jssound.restore(self)  # the saved mute and volume, shown from the first frame
        self.controller.resume()
        if self.replay is not None:  # a replay is heard from its first spin: sound.js first
            self._heard = await jssound.attach_app(self)
            self._start_replay(self.replay)
        self.controller.tick(PERF.now())
        mark("py:resumed")
        self.draw(PERF.now())
        mark("py:drawn")
        document.body.classList.add("ready")
        self.ready_ms = float(PERF.now())
        self.publish_stats()
        self.page.post("ready", {"balance": self.session.balance, "bet": self.session.bet.total})
        self._embed = jsembed.attach(self)  # the embedding page's commands (slotui.embedapi)
        window.requestAnimationFrame(self._frame)
        self._blur_later = create_proxy(self.rasterize_blur)
        window.setTimeout(self._blur_later, 0)
        if later:
            self._later = asyncio.ensure_future(self.load_later(later))
        self._watch = asyncio.ensure_future(watch.load(self.info, self.game_id))
        if self.replay is None:  # sound.js after ready: not on the first load
            self._sound = asyncio.ensure_future(jssound.attach_app(self))


    def _start_replay(self, link: replaymode.RoundLink) -> None:
        """Play the link's round back; the bar says what it staked and won, and offers it again
        (the page reloaded) or the game itself (its address without the link)."""
        events = replaymode.replay_round(self.session, link)
        replaymode.start_replay(self.controller, events)
        bar = document.getElementById("replay-bar")
        bar.querySelector(".replay-text").textContent = replaymode.summary(events, self.controller.fmt)
        bar.hidden = False
        query = window.URLSearchParams.new(window.location.search)
        query.delete("replay")
        own = f"./play.html?{query.toString()}"
        self.listen(bar.querySelector('[data-replay="again"]'), "click", lambda *_: window.location.reload())
        self.listen(bar.querySelector('[data-replay="play"]'), "click", lambda *_: window.location.assign(own))
        if self.debug:
            self.stats.replay = to_js(replaymode.canonical_log(events))
            self._proxies.append(replaymode.expose_replay_log(self.stats))


_AMOUNT = re.compile(r"[+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d{1,2})?")
"""A decimal amount as a player types it (or a number field gives it): 5, 2.50, .5, 1e3. The
exponent has two digits at most: ``1e999999999`` in an address would be a number of a
billion digits to compute before it could be refused."""


def _money(text: str, session: Session) -> int | None:
    """A decimal amount typed by the player, in minor units (None when empty)."""
    text = text.strip()
    if not text:
        return None
    if _AMOUNT.fullmatch(text) is None:
        raise ValueError(f"{text!r} is not an amount")
    minor = Fraction(text) * session.game.bets.minor_per_major
    if minor.denominator != 1 or minor <= 0:
        raise ValueError(f"{text} is not a positive amount in {session.game.bets.currency}")
    return int(minor)


def _parse_bet(text: str, session: Session) -> Bet | None:
    """The offered bet whose total is ``text`` (most lines first)."""
    try:
        total = _money(text, session)
    except ValueError:
        return None
    bets = session.game.bets
    for lines in sorted(bets.lines, reverse=True):
        for level in bets.levels:
            if lines * level == total:
                return Bet(lines, level)
    return None


async def load_screen(game_id: str) -> None:
    """Make the game's screen package importable: it travels with the game's art
    (games.json ``client``, ``static/games/<id>/client.zip``), so a page downloads only its
    own game's screen. Its archive goes on the ``__path__`` of the package that holds the
    plug-in's screen (``slotui.games`` for ``slotui.games.<id>``) as it is: zipimport reads
    the modules and their bytecode in place. From the memory snapshot (a repeat visit) it is
    already imported."""
    games = json.loads(window.JSON.stringify(STUDIO.games))
    url = next((g.get("client") for g in games["games"] if g["id"] == game_id), None)
    if not url:
        return
    screen = plugin(game_id).screen
    if screen in sys.modules or importlib.util.find_spec(screen) is not None:
        return
    parent = importlib.import_module(screen.rpartition(".")[0])
    res = await js.fetch(url)
    if not res.ok:
        raise RuntimeError(f"{url}: HTTP {res.status}")
    path = os.path.abspath(f"{game_id}-screen.zip")
    with open(path, "wb") as fh:
        fh.write(bytes((await res.arrayBuffer()).to_py()))
    parent.__path__.append(path)
    importlib.invalidate_caches()


async def main() -> None:
    """Start the game on the page (``web/main.py`` awaits this)."""
    _bind_page()
    try:
        await load_screen(str(STUDIO.params.game))
        _keep = await jswords.load(str(STUDIO.params.game), debug=bool(STUDIO.params.debug))  # the page's language
        mark("py:screen")
        if STUDIO.params.attract:  # the showcase's rounds in a loop, read only (slotui.attract)
            await attract.run(lambda link: App(replay=link), str(STUDIO.params.game))
            return
        token = STUDIO.params.replay
        if not nil(token):  # a round link: played back read only, the save not even claimed
            try:
                link = replaymode.read_link(str(token), str(STUDIO.params.game))
                replaymode.replay_round(replaymode.link_session(link, wall_clock), link)  # it replays
            except replaymode.LinkError as exc:
                STUDIO.refuseReplay(str(exc))
                return
            await App(replay=link).start()
            return
        # Only the tab that holds the game's save plays it: claimed before the save is read.
        apps: list[App] = []
        lost = create_proxy(lambda: apps[0].on_lost() if apps else None)
        held = bool(await STUDIO.claim(save_key(STUDIO.params), lost))
        app = App(held=held)
        apps.append(app)
        await app.start()
    except Exception as exc:
        STUDIO.post("error", js_obj({"message": str(exc)}))
        STUDIO.fail(tr("error.start", error=exc))
        raise

