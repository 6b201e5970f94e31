"""The page around the game: the controller's `Host` (data-state, controls, meters,
announcements, messages, storage) and the key of the game's save."""

from __future__ import annotations

from typing import Any, Protocol

from pyodide.ffi import create_proxy  # type: ignore[import-not-found]

from slotui import jspage
from slotui.controller import Controller
from slotui.controls import Controls
from slotui.jspage import js_obj, nil
from slotui.words import tr



class Dialogs(Protocol):
    """What opens the page's dialogs (the app: a dialog needs the session and the page)."""

    def open_dialog(self, kind: str) -> None: ...


# -- the page -------------------------------------------------------------------------------
class Page:
    """The controller's `Host`: data-state, controls, announcements, messages, storage."""

    def __init__(self, game_id: str, key: str) -> None:
        self.game_id = game_id
        self.key = key
        self.buttons = {b.dataset.action: b for b in jspage.document.querySelectorAll("[data-action]")}
        names = ("balance", "bet", "lines", "bpl", "win", "coins")
        found = {name: jspage.document.getElementById(f"meter-{name}") for name in names}
        self.meters = {k: v for k, v in found.items() if not nil(v)}
        currency = jspage.document.getElementById("currency")
        self.currency = None if nil(currency) else currency
        live = jspage.document.getElementById("live")
        self.live = None if nil(live) else live
        self.jackpot = self._find("jackpot")
        self.jackpot_amount = self._find("jackpot-amount")
        self.jackpot_time = self._find("jackpot-time")
        lines = jspage.document.querySelector(".stepper.lines")
        self.lines_group = None if nil(lines) else lines
        coins = jspage.document.querySelector(".stepper.coins")
        self.coins_group = None if nil(coins) else coins
        self.bet_label = self._find("lbl-bet")
        self.last: Controls | None = None
        self.controller: Controller | None = None
        self.app: Dialogs | None = None

    @staticmethod
    def _find(element_id: str) -> Any:
        el = jspage.document.getElementById(element_id)
        return None if nil(el) else el

    def set_state(self, state: str) -> None:
        jspage.STUDIO.setState(state)

    def _set_jackpot(self, c: Controls) -> None:
        last = self.last
        box = self.jackpot
        if box is None:
            return
        if last is None or (last.jackpot == "") != (c.jackpot == ""):
            box.hidden = c.jackpot == ""
        if self.jackpot_amount is not None and (last is None or last.jackpot != c.jackpot):
            self.jackpot_amount.textContent = c.jackpot
        if self.jackpot_time is not None and (last is None or last.jackpot_time != c.jackpot_time):
            self.jackpot_time.textContent = c.jackpot_time
        if last is None or last.jackpot_won != c.jackpot_won:
            box.classList.toggle("won", c.jackpot_won)

    def set_controls(self, c: Controls) -> None:
        last = self.last
        for name, value in (
            ("balance", c.balance),
            ("bet", c.total_bet),
            ("lines", c.lines),
            ("bpl", c.bet_per_line),
            ("win", c.win),
            ("coins", c.coins),
        ):
            el = self.meters.get(name)
            if el is not None and (last is None or getattr(last, _METER_FIELD[name]) != value):
                el.textContent = value
        if self.currency is not None and (last is None or last.currency != c.currency):
            self.currency.textContent = c.currency
        self._set_jackpot(c)
        lines = c.buttons.get("lines_up")
        # A game with one line count has nothing to change: no lines control at all.
        if (
            self.lines_group is not None
            and lines is not None
            and (last is None or last.buttons.get("lines_up", lines).visible != lines.visible)
        ):
            self.lines_group.hidden = not lines.visible
        coins = c.buttons.get("coins_up")
        # Coins per line only in a coin game; its bet stepper sets the coin size.
        if self.coins_group is not None and coins is not None and (last is None or last.coins != c.coins):
            self.coins_group.hidden = not coins.visible
        if self.bet_label is not None and (last is None or last.bet_label != c.bet_label):
            self.bet_label.textContent = c.bet_label
        for name, b in c.buttons.items():
            el = self.buttons.get(name)
            if el is None or (last is not None and last.buttons.get(name) == b):
                continue
            el.hidden = not b.visible
            el.disabled = not b.enabled
            if b.label and getattr(el.dataset, "label", None) != b.label:
                el.dataset.label = b.label
                label = el.querySelector(".label")
                (el if nil(label) else label).textContent = b.label
                el.dataset.chars = str(min(len(b.label), 9))  # (a long word is set smaller: site.css)
            if name in ("turbo", "autoplay", "units", "sound"):
                el.setAttribute("aria-pressed", "true" if b.pressed else "false")
        if last is None or last.message != c.message:
            if c.message:
                jspage.STUDIO.notice(c.message)
            elif last is not None and self._notice_text() == last.message:
                jspage.STUDIO.notice("")  # its cause is gone (a round played, the bet changed)
        self.last = c

    @staticmethod
    def _notice_text() -> str:
        box = jspage.document.querySelector("#notice")
        if nil(box) or box.hidden:
            return ""
        return str(box.querySelector(".notice-text").textContent)

    def announce(self, text: str) -> None:
        if self.live is not None:
            self.live.textContent = text

    def post(self, kind: str, detail: dict[str, Any]) -> None:
        jspage.STUDIO.post(kind, js_obj(detail))

    def save(self, snapshot: str) -> None:
        if self.controller is not None and self.controller.locked:
            return  # another tab is in charge of this game's save
        try:
            jspage.window.localStorage.setItem(self.key, snapshot)
        except Exception as exc:
            jspage.STUDIO.notice(tr("save.failed", error=exc))

    def open_dialog(self, kind: str) -> None:
        if self.app is not None:
            self.app.open_dialog(kind)

    def share(self, url: str, title: str) -> None:
        """A round's link: a phone's share sheet, else the clipboard (`slotStudio.share`)."""
        jspage.STUDIO.share(url, title)

    def share_from_history(self, title: str) -> Any:
        """Make each round's "Share this round" in the history dialog share its link (its
        ``data-share``); returns the listener (kept alive by the caller)."""
        def clicked(evt: Any) -> None:
            target = evt.target.closest("[data-share]") if hasattr(evt.target, "closest") else None
            if target is not None and not nil(target):
                self.share(str(target.dataset.share), title)

        proxy = create_proxy(clicked)
        body = jspage.document.querySelector("#dlg-history .dlg-body")
        if not nil(body):
            body.addEventListener("click", proxy)
        return proxy


_METER_FIELD = {
    "balance": "balance",
    "bet": "total_bet",
    "lines": "lines",
    "bpl": "bet_per_line",
    "win": "win",
    "coins": "coins",
}
