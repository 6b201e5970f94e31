"""The commands the embedding page sends (docs/embedding.md, "Commands"), and the messages
of the game's state that answer them: ``spin``, ``stopAutoplay``, ``pause``, ``resume``,
``mute``, ``unmute``, ``openPaytable``, ``openRules``, ``close`` and ``getState``.

`web/embed.js` checks each message's origin and envelope and hands the command here
(`Commands.run`); the result it answers with is ``{"ok": True, "state": ...}`` or
``{"ok": False, "reason": ..., "state": ...}``. A command the game cannot do now (a spin
during a round, a spin the balance cannot pay) is refused with why, and nothing is done.
A spin the balance cannot pay also posts ``noFunds``. While the host has paused the
game, its clock stands still (nothing moves, autoplay waits) and the player's input is
refused until ``resume``. The balance the meters show is posted as ``balance`` whenever it
changes. The page's own logic never depends on these: they are the host's remote control.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .words import current, tr

__all__ = ["COMMANDS", "PAUSED_TEXT", "Commands"]

COMMANDS = (
    "spin", "stopAutoplay", "pause", "resume", "mute", "unmute", "openPaytable", "openRules", "close", "getState",
)
PAUSED_TEXT = "embed.paused"
"""The catalogue key of what a paused game says when the player presses a key or a button."""
DIALOGS = {"openPaytable": "paytable", "openRules": "help"}
"""The dialog each command opens (the page's own Paytable and Rules buttons)."""


class Commands:
    """The host's commands for one page's game. ``host`` is the page (``post``,
    ``open_dialog``, ``close_dialogs``); ``controller`` the game's `Controller`;
    ``clock`` the page's time in ms."""

    def __init__(self, controller: Any, host: Any, clock: Callable[[], float]) -> None:
        self.c = controller
        self.host = host
        self.clock = clock
        self.paused = False
        self.closed = False
        self.offset = 0.0
        self.paused_at = 0.0
        self.last_balance: int | None = None
        self._tick = controller.tick
        self._press = controller.press
        controller.tick = self.tick
        controller.press = self.press

    # -- the game's clock and input, held while paused ---------------------------------------
    def tick(self, now: float) -> bool:
        """The controller's frame at ``now`` less the time spent paused; nothing moves while
        paused. After each frame, a change of the balance shown is posted."""
        if self.paused:
            return False
        dirty = bool(self._tick(now - self.offset))
        shown = self.shown_balance()
        if shown != self.last_balance:
            self.last_balance = shown
            self.host.post("balance", {"balance": shown})
        return dirty

    def press(self, action: str, now: float | None = None) -> None:
        if self.paused or self.closed:
            self.host.announce(tr(PAUSED_TEXT if self.paused else "embed.closed"))
            return
        self._press(action, None if now is None else now - self.offset)

    def shown_balance(self) -> int:
        return int(self.c.meters.balance)

    # -- commands ------------------------------------------------------------------------------
    def state(self) -> dict[str, Any]:
        """What ``getState`` answers: where the game stands and what it shows."""
        c = self.c
        s = c.session
        sound = getattr(c, "sound", None)
        return {
            "state": "paused" if self.paused else ("closed" if self.closed else c.data_state()),
            "paused": self.paused,
            "balance": self.shown_balance(),
            "bet": s.bet.total,
            "currency": c.currency or s.game.bets.currency,
            "lang": current(),
            "inRound": bool(s.in_round),
            "autoplay": c.autoplay is not None,
            "pending": c.pending_kind,
            "muted": bool(sound.muted) if sound is not None else True,
            "canSpin": self.why_not_spin() is None,
        }

    def why_not_spin(self) -> str | None:
        """Why a spin cannot start now, or None."""
        c = self.c
        if self.closed:
            return "the game was closed"
        if self.paused:
            return "the game is paused: send resume first"
        if c.locked:
            return str(c.locked)
        if c.autoplay is not None:
            return "autoplay is running: send stopAutoplay first"
        if c.presenting or c.view.reels.moving:
            return "a round is being played"
        kind = c.pending_kind
        if kind not in (None, "collect_or_gamble"):
            return f"the round waits for the player's decision ({kind.replace('_', ' ')})"
        return self.no_funds()

    def no_funds(self) -> str | None:
        """Why the balance cannot pay the next spin (a win waiting at Collect counts), or None."""
        c = self.c
        s = c.session
        if s.pending is not None or s.balance >= s.bet.total:
            return None
        return f"the balance of {c.fmt(s.balance)} is too small for the bet of {c.fmt(s.bet.total)}"

    def run(self, name: str, payload: Any = None) -> dict[str, Any]:
        """Do command ``name`` now, or refuse it with why; the answer carries the state after."""
        handler = getattr(self, f"_cmd_{name}", None)
        if name not in COMMANDS or handler is None:
            return self.refuse(f"“{name}” is not a command; the commands are {', '.join(COMMANDS)}")
        why = handler()
        self.c.dirty = True
        return self.refuse(why) if why else {"ok": True, "state": self.state()}

    def refuse(self, reason: str) -> dict[str, Any]:
        return {"ok": False, "reason": reason, "state": self.state()}

    def _cmd_getState(self) -> str | None:
        return None

    def _cmd_spin(self) -> str | None:
        why = self.why_not_spin()
        c = self.c
        s = c.session
        if why is not None and why == self.no_funds():
            self.host.post("noFunds", {"balance": s.balance, "bet": s.bet.total})
        if why is not None:
            return why
        if not c._spin_now():
            return c.message or "the spin did not start"
        return None

    def _cmd_stopAutoplay(self) -> str | None:
        if self.c.autoplay is None:
            return "no autoplay is running"
        self.c.autoplay.stop()
        return None

    def _cmd_pause(self) -> str | None:
        if self.closed:
            return "the game was closed"
        if self.paused:
            return "the game is already paused"
        self.paused = True
        self.paused_at = self.clock()
        sound = getattr(self.c, "sound", None)
        if sound is not None and hasattr(sound, "pause"):
            sound.pause()
        return None

    def _cmd_resume(self) -> str | None:
        if not self.paused:
            return "the game is not paused"
        self.paused = False
        self.offset += self.clock() - self.paused_at
        sound = getattr(self.c, "sound", None)
        if sound is not None and hasattr(sound, "resume"):
            sound.resume()
        return None

    def _mute(self, *, muted: bool) -> str | None:
        sound = getattr(self.c, "sound", None)
        if sound is None:
            return "this page has no sound"
        if bool(sound.muted) == muted:
            return f"the sound is already {'off' if muted else 'on'}"
        sound.set_muted(muted=muted)
        return None

    def _cmd_mute(self) -> str | None:
        return self._mute(muted=True)

    def _cmd_unmute(self) -> str | None:
        return self._mute(muted=False)

    def _open(self, kind: str) -> str | None:
        if self.closed:
            return "the game was closed"
        self.host.open_dialog(kind)
        return None

    def _cmd_openPaytable(self) -> str | None:
        return self._open(DIALOGS["openPaytable"])

    def _cmd_openRules(self) -> str | None:
        return self._open(DIALOGS["openRules"])

    def _cmd_close(self) -> str | None:
        """The host closes the game: autoplay stopped, the session saved, input refused; the
        page answers and posts ``exit`` (the host removes the frame)."""
        if self.closed:
            return "the game is already closed"
        c = self.c
        if c.autoplay is not None:
            c.autoplay.stop()
            c.autoplay = None
        self.closed = True
        self.host.close_dialogs()
        self.host.save(c.session.snapshot())
        self.host.post("exit", {"balance": c.session.balance, "closed": True})
        return None
