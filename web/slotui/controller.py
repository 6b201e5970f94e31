"""The client's state machine: it turns player actions into engine calls and plays the
engine's events back as animation beats.

It never decides an outcome: every result comes from `pyengine.session.Session`. After
each engine call the session is saved through the host, so a reload resumes the round
exactly where it stood (`Controller.resume` rebuilds the screen from the round's events).
"""

from __future__ import annotations

import importlib
from collections import deque
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from pyengine.autoplay import Autoplay, StopReason
from pyengine.errors import EngineError, InsufficientFundsError
from pyengine.events import Event
from pyengine.games import plugin
from pyengine.link import encode, link_of, watch_url
from pyengine.session import Session

from .beats import Beat, beat_for, screen_for
from .betting import BetControls
from .controls import BUTTONS, Button, Controls
from .dialogs import Dialogs
from .layout import Layout
from .meters import Meters
from .pick import PICK, PickCell, PickOverlay, board, look_of, waiting_on_pick
from .reels import ReelBank
from .sound import Sound
from .table import Host
from .timing import NORMAL, REDUCED, TURBO, Timing
from .view import View
from .words import decimal, number, tr

__all__ = ["STOP_REASONS", "Controller", "Host", "stop_reason"]

KNOWN_DECISIONS = frozenset({"collect_or_gamble", "gamble", "feature_start", "free_spin", PICK})
"""The decisions with their own controls; any other is answered on a board of its choices."""

STOP_REASONS = {
    StopReason.ROUNDS: "autoplay.stop.rounds",
    StopReason.LOSS_LIMIT: "autoplay.stop.loss_limit",
    StopReason.BALANCE: "autoplay.stop.balance",
    StopReason.SINGLE_WIN: "autoplay.stop.single_win",
    StopReason.FEATURE: "autoplay.stop.feature",
    StopReason.PLAYER: "autoplay.stop.player",
}
"""The catalogue key of why autoplay stopped; ``{feature}`` is the game's feature (`stop_reason`)."""


def stop_reason(reason: StopReason, game_id: str) -> str:
    """The message for ``reason`` in game ``game_id`` (its feature named as the game names it)."""
    importlib.import_module(plugin(game_id).screen)
    return tr(STOP_REASONS[reason], feature=screen_for(game_id).feature)


def clock_text(seconds: int) -> str:
    """Seconds as H:MM:SS (hours may pass 24)."""
    h, rest = divmod(max(seconds, 0), 3600)
    m, sec = divmod(rest, 60)
    return f"{h:02d}:{m:02d}:{sec:02d}"


MENU_LABELS = {"help": "button.rules"}
"""The menu's buttons' catalogue keys where they are not ``button.<action>`` (``help`` opens the RULES)."""


class Controller(BetControls, Dialogs):
    """Drives one game screen."""

    def __init__(
        self,
        session: Session,
        host: Host,
        *,
        turbo: bool = False,
        reduced_motion: bool = False,
        money_meters: bool = False,
    ) -> None:
        self.session = session
        self.host = host
        self.desc = session.game.describe()
        # The game's own screen (its plug-in names the module) registers its beats on import.
        importlib.import_module(plugin(session.game.id).screen)
        self.screen = screen_for(session.game.id)
        self.turbo = turbo
        self.reduced_motion = reduced_motion
        self.money_meters = money_meters
        self.money: Callable[[int], str] | None = None
        """How money is written when the page shows another currency than the game's demo
        money (``currency=EUR``: the page's ``Intl.NumberFormat``, symbol included); None
        for the game's own format."""
        self.currency: str | None = None
        """The currency the page shows (None: the game's own, FUN)."""
        """A coin game's meters in money (the player's toggle); else they count coins."""
        reels = self.desc["reels"]
        strips = [tuple(s) for s in reels["base"]]
        self.strips: dict[str, list[tuple[str, ...]]] = {k: [tuple(s) for s in v] for k, v in reels.items()}
        self.view = View(ReelBank(strips, self.desc["rows"], [0] * len(strips)))
        self.queue: deque[Event] = deque()
        self.beat: Beat | None = None
        self.autoplay: Autoplay | None = None
        self.next_auto_at = 0.0
        self.held = False  # Space or the Spin button held down: TURBO SPIN, round after round
        self.meters = Meters(balance=session.balance)
        self.message = ""
        self.decision_wait_until = 0.0
        self.start_requested = False
        self.queued_pick: int | None = None  # a cell picked while the last reveal still played
        self.locked = ""
        """Why this page no longer plays (the game is played in another tab), or ""."""
        self.hurry_next = False
        self.scratch: dict[str, Any] = {}
        """What a game's beats remember during one round (cleared when a round starts)."""
        jackpot = session.jackpot
        self.jackpot_shown = jackpot.amount if jackpot is not None else 0
        self._last_controls: Controls | None = None
        self._last_state = ""
        self.now = 0.0
        self.dirty = True
        self.sound = Sound(self.screen.voice, clock=lambda: self.now, fast=lambda: self.turbo or self.held)
        """The game's cues, scheduled by the beats (`sound.Sound`; the page gives it its output)."""

    # -- settings -----------------------------------------------------------------
    @property
    def timing(self) -> Timing:
        if self.reduced_motion:
            return REDUCED
        return TURBO if self.turbo or self.held else NORMAL

    def refresh_status(self) -> None:
        """The line above the reels during a feature."""
        status = self.screen.status
        self.view.status = status(self) if status is not None else ""

    def fmt(self, minor: int) -> str:
        """Money as the page writes it: the currency's ``Intl`` format, or the game's demo
        money in the language's signs."""
        if self.money is not None:
            return self.money(minor)
        return decimal(minor, self.session.game.bets.minor_per_major)

    @property
    def coin_meters(self) -> bool:
        """The meters count coins: a coin game, unless the player asked to see money."""
        return self.session.game.bets.coin_game and not self.money_meters

    def meter(self, minor: int) -> str:
        """An amount as the meters show it: coins of the current coin size (a part coin of a
        balance left from another coin size is not shown), or money."""
        if self.coin_meters:
            return number(minor // self.session.bet.coin)
        return self.fmt(minor)

    def amount(self, minor: int) -> str:
        """An amount as the game's own labels write it: "80 COINS" while the meters count
        coins, else money."""
        if self.coin_meters:
            return tr.count("amount.coins", minor // self.session.bet.coin)
        return self.fmt(minor)

    def show_jackpot(self, amount: int | None) -> None:
        """Show ``amount`` as the jackpot pot (the pot a round is about to pay), or the pot now."""
        jackpot = self.session.jackpot
        if jackpot is not None:
            self.jackpot_shown = amount if amount is not None else jackpot.amount
            self.dirty = True

    def next_round_in(self, ms: float) -> None:
        """Autoplay's next round no sooner than ``ms`` from now (the last round's win read)."""
        if self.autoplay is not None:
            self.next_auto_at = self.now + ms

    # -- the engine -------------------------------------------------------------
    def _engine(self, call: Callable[[], list[Event]]) -> bool:
        if self.locked:
            return False
        try:
            events = call()
        except EngineError as exc:
            self.message = str(exc)
            if isinstance(exc, InsufficientFundsError):
                # In the page's language, and in coins while the meters count coins.
                s = self.session
                cost = s.price("buy") if call == s.buy else s.bet.total
                self.message = tr(
                    "refusal.price_over_balance" if call == s.buy else "refusal.bet_over_balance",
                    cost=self.amount(cost), balance=self.amount(s.balance),
                )
            if isinstance(exc, InsufficientFundsError) and not self.session.can_afford_a_bet:
                # No bet is left to lower to: say what can be done, and offer it.
                self.message = tr("refusal.below_smallest_bet", balance=self.fmt(self.session.balance))
                self.host.open_dialog("settings")
            self.host.announce(self.message)
            return False
        self.queue.extend(events)
        self.host.save(self.session.snapshot())
        self.message = ""
        return True

    @property
    def pending_kind(self) -> str | None:
        d = self.session.pending
        return d.kind if d else None

    @property
    def presenting(self) -> bool:
        return self.beat is not None or bool(self.queue)

    @property
    def resting(self) -> bool:
        """Nothing to present, nothing moving and nothing due at a time (no autoplay, no
        decision, no held button): only the player's next input changes the screen, so the
        page's loop may sleep until it comes (see `browser.App.on_frame`)."""
        return (
            not self.presenting
            and self.autoplay is None
            and not self.held
            and self.pending_kind is None
            and not self.view.reels.moving
            and self.view.banner is None
            and self.view.intro is None
        )

    # -- player actions -----------------------------------------------------------
    def press(self, action: str, now: float | None = None) -> None:
        """A button, key or tap asked for ``action``."""
        if now is not None:
            self.now = now
        self.dirty = True
        if self.locked:
            if action in ("paytable", "help", "history"):
                self.host.open_dialog(action)
            elif action == "share":
                self._do_share()
            elif action == "sound":
                self._do_sound()
            else:
                self.host.announce(self.locked)
            return
        if action.startswith("pick:"):
            index = action[5:]
            if index.isdigit():
                self._pick(int(index))
            return
        handler = getattr(self, f"_do_{action}", None)
        if handler is None:
            if action in ("paytable", "help", "history", "settings", "exit"):
                self.host.open_dialog(action)
            return
        handler()

    def _do_spin(self) -> None:
        if self.autoplay is not None:
            if self.presenting:
                self._do_stop()
            return
        if self.presenting:
            self._do_stop()
            return
        self._spin_now()

    def _spin_now(self) -> bool:
        """Collect a win waiting at Collect, then start a round; False when nothing started."""
        kind = self.pending_kind
        if kind == "collect_or_gamble":
            if not self._engine(lambda: self.session.choose("collect")):
                return False
        elif kind is not None:
            return False
        return self._engine(self.session.spin)

    def _do_hold(self) -> None:
        """TURBO SPIN: while Space or the Spin button is held, rounds follow each other at turbo pace."""
        if self.autoplay is not None or self.held:
            return
        self.held = True
        if self.presenting:
            self._do_stop()
        elif not self._spin_now():
            self.held = False

    def _do_release(self) -> None:
        self.held = False

    def _do_stop(self) -> None:
        if self.beat is not None:
            self.beat.hurry(self)
            self.sound.hush()  # a skip skips its sounds too
        elif self.queue:
            self.hurry_next = True  # pressed before the spin's first frame
        elif self.pending_kind == "free_spin" and self.autoplay is None:
            # The rules' feature keys start the next free spin at once (no pause to wait out).
            self.decision_wait_until = 0.0
            self._engine(lambda: self.session.choose("spin"))

    def _choose(self, kind: str, choice: str) -> None:
        if self.presenting or self.pending_kind != kind:
            return
        self._engine(lambda: self.session.choose(choice))

    def _do_collect(self) -> None:
        kind = self.pending_kind
        if kind in ("collect_or_gamble", "gamble"):
            self._choose(kind, "collect")

    def _do_gamble(self) -> None:
        self._choose("collect_or_gamble", "gamble")

    def _do_red(self) -> None:
        self._choose("gamble", "red")

    def _do_black(self) -> None:
        self._choose("gamble", "black")

    def _do_start_feature(self) -> None:
        if self.pending_kind != "feature_start":
            return
        if self.presenting:
            # Pressed during the intro: finish it at once and start.
            self.start_requested = True
            if self.beat is not None:
                self.beat.hurry(self)
            return
        self._choose("feature_start", "start")

    def lock(self, reason: str) -> None:
        """Stop playing in this page (another tab of the same game took over): no engine
        call and no save from here on, autoplay stopped, every play control disabled."""
        self.locked = reason
        self.held = False
        if self.autoplay is not None:
            self.autoplay.stop()
            self.autoplay = None
        self.message = reason
        self.host.announce(reason)
        self.dirty = True
        self._publish()  # at once: a tab in the background may draw no frame for a while

    # -- picks -------------------------------------------------------------------------------
    def _pick(self, cell: int) -> None:
        """Open ``cell`` of the board (a pick), or take the choice it shows (any other
        decision without controls of its own)."""
        overlay = board(self)
        d = self.session.pending
        if overlay is None or d is None or not 0 <= cell < len(overlay.cells) or overlay.cells[cell].prize is not None:
            return
        if self.presenting:
            # The last reveal is still turning: hurry it and open this cell next.
            self.queued_pick = cell
            self._do_stop()
            return
        overlay.focus = cell
        if d.kind == PICK:
            choice = str(cell)
        elif cell < len(d.choices):
            choice = d.choices[cell]
        else:
            return
        if choice in d.choices:
            self._engine(lambda: self.session.choose(choice))

    def _move_pick(self, dx: int, dy: int) -> None:
        overlay = board(self)
        if overlay is not None and self.context() == "pick":
            overlay.move_focus(dx, dy)

    def _do_pick_left(self) -> None:
        self._move_pick(-1, 0)

    def _do_pick_right(self) -> None:
        self._move_pick(1, 0)

    def _do_pick_up(self) -> None:
        self._move_pick(0, -1)

    def _do_pick_down(self) -> None:
        self._move_pick(0, 1)

    def _do_pick_enter(self) -> None:
        overlay = board(self)
        if overlay is not None:
            self._pick(overlay.focus)

    def tap(self, x: float, y: float, layout: Layout | None) -> None:
        """A click or tap on the canvas at (x, y) in canvas pixels: open the cell under it
        during a pick, else stop the reels or start the feature."""
        overlay = board(self)
        action = overlay.action_at(layout, x, y) if overlay is not None and layout is not None else None
        if action is not None:
            self.press(action, self.now)  # the board's own button (e.g. its paytable)
            return
        if overlay is not None and layout is not None and self.context() in ("pick", "spinning", "free_spins"):
            cell = overlay.cell_at(layout, x, y)
            if cell is not None and self.session.pending is not None:
                self.press(f"pick:{cell}", self.now)
                return
        if self.presenting:
            self.press("stop", self.now)
        elif self.pending_kind == "feature_start":
            self.press("start_feature", self.now)

    def _choice_board(self) -> None:
        """A decision the controller has no controls for: its choices on a board."""
        d = self.session.pending
        if d is None or board(self) is not None:
            return
        columns = min(len(d.choices), 5)
        cells = [PickCell(face=ch) for ch in d.choices]
        overlay = PickOverlay(d.kind, columns, cells, look_of(self), started=self.now)
        self.view.overlays.append(overlay)
        waiting_on_pick(self)

    @property
    def shareable(self) -> bool:
        """A round has finished and its presentation is over: "Share this round" gives its link."""
        return self.session.last_round is not None and not self.session.in_round and not self.presenting

    def share_url(self, record: Any | None = None) -> str:
        """The address (relative to the site) that replays ``record``, a round of the
        session's history (default: the last round)."""
        s = self.session
        record = record if record is not None else s.last_round
        if record is None:
            raise EngineError("no round has finished yet: there is nothing to share")
        return watch_url(s.game.id, encode(link_of(s.game.id, record, s.settings)))

    def _do_share(self) -> None:
        if not self.shareable:
            return
        self.host.share(self.share_url(), tr("share.title", game=self.desc["name"]))

    def _do_sound(self) -> None:
        """The speaker button (and M): sound on or off."""
        self.sound.toggle()

    def _do_turbo(self) -> None:
        self.turbo = not self.turbo

    def _autoplay_step(self) -> None:
        ap = self.autoplay
        assert ap is not None
        if self.locked:
            return
        before = len(self.queue)
        try:
            events = ap.step()
        except EngineError as exc:
            ap.stop()
            self.message = str(exc)
            events = []
        self.queue.extend(events)
        self.host.save(self.session.snapshot())
        if ap.reason is not None and len(self.queue) == before:
            self._autoplay_ended()

    def _autoplay_ended(self) -> None:
        ap = self.autoplay
        if ap is None or ap.reason is None:
            return
        self.message = tr(STOP_REASONS[ap.reason], feature=self.screen.feature)
        self.host.announce(self.message)
        self.autoplay = None

    # -- the loop -------------------------------------------------------------
    def tick(self, now: float) -> bool:
        """Advance to ``now`` (ms); return True when the canvas needs a redraw."""
        self.now = now
        while True:
            if self.beat is not None:
                if not self.beat.update(self, now):
                    break
                self.beat = None
                self.dirty = True
                continue
            if self.queue:
                event = self.queue.popleft()
                self.beat = beat_for(event, self)
                self.dirty = True
                if self.beat is not None:
                    self.beat.start(self, now)
                    if self.hurry_next:
                        self.hurry_next = False
                        self.beat.hurry(self)
                continue
            self._idle(now)
            break
        if self.view.reels.moving:
            self.view.reels.update(now)
            self.dirty = True
        self._publish()
        intro = self.view.intro
        animating = (
            self.beat is not None
            or self.view.reels.moving
            or self.view.banner is not None
            or (intro is not None and not intro.waiting)
        )
        dirty = self.dirty or animating
        self.dirty = False
        return dirty

    def _idle(self, now: float) -> None:
        """Nothing to present: continue automatic steps (free spins, autoplay)."""
        self.hurry_next = False
        if self.autoplay is not None and self.autoplay.reason is not None:
            self._autoplay_ended()
        kind = self.pending_kind
        if kind == "feature_start" and self.start_requested:
            self.start_requested = False
            self._choose("feature_start", "start")
            return
        if kind is not None and kind not in KNOWN_DECISIONS:
            self._choice_board()
        if kind == PICK or (kind is not None and kind not in KNOWN_DECISIONS):
            waiting_on_pick(self)
            queued, self.queued_pick = self.queued_pick, None
            if queued is not None and self.autoplay is None:
                self._pick(queued)
            return
        if kind == "free_spin":
            if self.decision_wait_until == 0.0:
                self.decision_wait_until = now + self.timing.pause
            elif now >= self.decision_wait_until:
                self.decision_wait_until = 0.0
                self._engine(lambda: self.session.choose("spin"))
            return
        if kind is None and self.autoplay is None:
            self._fit_bet()
        if self.autoplay is not None and kind is None and now >= self.next_auto_at:
            self._autoplay_step()
        elif self.held and self.autoplay is None and kind in (None, "collect_or_gamble") and not self._spin_now():
            self.held = False  # nothing could start (e.g. the balance is too low): the hold ends

    # -- what the page shows -------------------------------------------------------
    def context(self) -> str:
        """The keyboard context (see `keys.action_for_key`)."""
        if self.autoplay is not None:
            return "autoplay"
        kind = self.pending_kind
        if self.presenting:
            if self.view.intro is not None and kind == "feature_start" and self.beat is None:
                return "feature_start"
            return "free_spins" if self.meters.in_feature else "spinning"
        if kind in ("collect_or_gamble", "gamble", "feature_start"):
            return kind
        if kind == "free_spin":
            return "free_spins"
        if kind is not None:
            return "pick"  # a pick, or any other decision answered on its board
        return "idle"

    def data_state(self) -> str:
        if self.meters.in_feature or self.view.gamble is not None:
            return "feature"
        if self.presenting or self.autoplay is not None:
            # What the engine already knows (a feature, a gamble) shows only when presented.
            return "spinning"
        if self.pending_kind not in (None, "collect_or_gamble"):
            return "feature"
        return "ready"

    def controls(self) -> Controls:
        s = self.session
        bets = s.game.bets
        ctx = self.context()
        idle = ctx == "idle" or ctx == "collect_or_gamble"
        can_bet = idle and self.autoplay is None
        b: dict[str, Button] = {name: Button(visible=False, enabled=False) for name in BUTTONS}
        spin_label = tr("button.stop") if ctx in ("spinning", "free_spins", "autoplay") else tr("button.spin")
        stoppable = ctx in ("spinning", "free_spins") or (ctx == "autoplay" and self.presenting)
        b["spin"] = Button(visible=True, enabled=ctx in ("idle", "collect_or_gamble") or stoppable, label=spin_label)
        b["bet_down"] = Button(visible=True, enabled=can_bet and s.bet.bet_per_line > bets.levels[0], label="−")
        b["bet_up"] = Button(visible=True, enabled=can_bet and s.bet.bet_per_line < bets.levels[-1], label="+")
        multi = len(bets.lines) > 1
        b["lines_down"] = Button(visible=multi, enabled=can_bet and multi, label="−")
        b["lines_up"] = Button(visible=multi, enabled=can_bet and multi, label="+")
        coin_game = bets.coin_game
        b["coins_down"] = Button(visible=coin_game, enabled=can_bet and s.bet.coins > bets.coins[0], label="−")
        b["coins_up"] = Button(visible=coin_game, enabled=can_bet and s.bet.coins < bets.coins[-1], label="+")
        coins = self.coin_meters
        b["units"] = Button(
            visible=coin_game, enabled=coin_game, label=tr("button.coins") if coins else bets.currency,
            pressed=not coins,
        )
        gamble_ok = ctx == "collect_or_gamble"
        max_ok = gamble_ok or self._max_bet_covered()
        max_label = tr("button.gamble") if gamble_ok else tr("button.bet_max")
        b["bet_max"] = Button(visible=True, enabled=can_bet and max_ok, label=max_label)
        deciding = ctx in ("collect_or_gamble", "gamble")
        b["collect"] = Button(visible=deciding, enabled=deciding, label=tr("button.collect"))
        b["gamble"] = Button(visible=gamble_ok, enabled=gamble_ok, label=tr("button.gamble"))
        b["red"] = Button(visible=ctx == "gamble", enabled=ctx == "gamble", label=tr("button.red"))
        b["black"] = Button(visible=ctx == "gamble", enabled=ctx == "gamble", label=tr("button.black"))
        starting = ctx == "feature_start"
        b["start_feature"] = Button(visible=starting, enabled=starting, label=self.screen.start_label)
        can_buy = self.buy_offered and ctx == "idle" and not s.in_round and self.autoplay is None
        b["buy"] = Button(
            visible=self.buy_offered, enabled=can_buy and self.buy_price() <= s.balance, label=tr("button.buy")
        )
        b["autoplay"] = Button(
            visible=True,
            enabled=ctx in ("idle", "autoplay"),
            label=tr("button.stop_auto") if self.autoplay else tr("button.auto"),
            pressed=self.autoplay is not None,
        )
        for name in ("paytable", "help", "history", "settings"):
            b[name] = Button(visible=True, enabled=True, label=tr(MENU_LABELS.get(name, f"button.{name}")))
        b["turbo"] = Button(visible=True, enabled=True, label=tr("button.turbo"), pressed=self.turbo)
        b["share"] = Button(visible=True, enabled=self.shareable, label=tr("button.share"))
        muted = self.sound.muted
        sound_label = tr("button.muted") if muted else tr("button.sound")
        b["sound"] = Button(visible=True, enabled=True, label=sound_label, pressed=not muted)
        if self.locked:
            # Played in another tab (or a replay): only the information pages, the meters'
            # units and sharing the last round stay open.
            still = ("paytable", "help", "history", "units", "share", "sound")
            b = {k: v if k in still else replace(v, enabled=False) for k, v in b.items()}
        jackpot = s.jackpot
        return Controls(
            balance=self.meter(self.meters.balance),
            total_bet=self.meter(s.bet.total),
            bet_per_line=self.fmt(s.bet.bet_per_line),
            lines=str(s.bet.lines),
            win=self.meter(self.meters.win),
            currency=tr("button.coins") if coins else ("" if self.money is not None else bets.currency),
            message=self.message,
            buttons=b,
            coins=str(s.bet.coins) if coin_game else "",
            bet_label=tr("meter.coin_size") if coin_game else tr("meter.bet"),
            jackpot=self.fmt(self.jackpot_shown) if jackpot is not None else "",
            jackpot_time=clock_text(jackpot.seconds_left(s.now_ms())) if jackpot is not None else "",
            jackpot_won=self.now - self.meters.jackpot_won_at < 6000.0,
        )

    def _publish(self) -> None:
        state = self.data_state()
        if state != self._last_state:
            self._last_state = state
            self.host.set_state(state)
        controls = self.controls()
        if controls != self._last_controls:
            self._last_controls = controls
            self.host.set_controls(controls)

    # -- recovery -------------------------------------------------------------------
    def resume(self) -> None:
        """Show the session as it stands: the last reels, and the round in play if any."""
        from .beats import rebuild

        rebuild(self)
        self.dirty = True
