"""The controller's dialogs: the Feature Buy offer and its confirmation, autoplay's
settings and its stop, the demo balance's reset.

A button asks the page to open the dialog (`slotui.table.Host.open_dialog`); the page calls
back the method that acts on its answer (`confirm_buy`, `start_autoplay`, `reset_balance`),
which checks again, since the game may have moved on while the dialog was open. Mixed into
`slotui.controller.Controller`; the methods see the controller as a `slotui.table.Table`.
"""

from __future__ import annotations

from pyengine.autoplay import Autoplay, AutoplayLimits
from pyengine.errors import EngineError
from pyengine.session import DEFAULT_BALANCE

from .table import Table
from .words import tr

__all__ = ["Dialogs"]


class Dialogs:
    """The dialogs of the controller."""

    autoplay: Autoplay | None

    # -- feature buy ------------------------------------------------------------------
    @property
    def buy_offered(self: Table) -> bool:
        return "buy" in self.session.modes

    def buy_price(self: Table) -> int:
        """The Feature Buy price at the current bet."""
        return self.session.price("buy")

    def buy_blocked(self: Table) -> str | None:
        """Why the feature cannot be bought now (None when it can)."""
        s = self.session
        if not self.buy_offered:
            return tr("refusal.no_buy")
        if self.autoplay is not None:
            return tr("refusal.buy_in_autoplay")
        if self.presenting or s.in_round:
            return tr("refusal.buy_in_round")
        price = self.buy_price()
        if price > s.balance:
            return tr("refusal.buy_over_balance", price=self.fmt(price), balance=self.fmt(s.balance))
        return None

    def _do_buy(self: Table) -> None:
        why = self.buy_blocked()
        if why is not None:
            self.message = why
            self.host.announce(why)
            return
        self.host.open_dialog("buy")

    def confirm_buy(self: Table) -> str | None:
        """Buy the feature (the dialog's Confirm); return the error shown, or None."""
        self.dirty = True
        why = self.buy_blocked()
        if why is None:
            # The engine's own refusal (if any) is shown and announced by `_engine`.
            return None if self._engine(self.session.buy) else self.message
        self.message = why
        self.host.announce(why)
        return why

    def _do_autoplay_stop(self: Table) -> None:
        if self.autoplay is not None:
            self.autoplay.stop()

    def _do_autoplay(self: Table) -> None:
        if self.autoplay is not None:
            self.autoplay.stop()
            return
        self.host.open_dialog("autoplay")

    def start_autoplay(self: Table, limits: AutoplayLimits) -> str | None:
        """Begin autoplay (from the autoplay dialog); return why not when it is refused at once."""
        if self.autoplay is not None or self.presenting:
            return None
        stake = self.session.bet.total
        if limits.loss_limit is not None and limits.loss_limit <= stake:
            # The rules: the loss limit should be higher than the stake.
            self.message = tr("refusal.loss_limit", stake=self.fmt(stake))
            return self.message
        if self.pending_kind == "collect_or_gamble" and not self._engine(lambda: self.session.choose("collect")):
            return self.message
        if self.session.in_round:
            self.message = tr("refusal.finish_round")
            return self.message
        try:
            self.autoplay = Autoplay(self.session, limits)
        except EngineError as exc:
            self.message = str(exc)
            return self.message
        self.next_auto_at = self.now
        self.dirty = True
        return None

    def reset_balance(self: Table) -> str:
        """Settings' Reset demo balance: top the balance up to the starting balance (between
        rounds); return the notice to show."""
        s = self.session
        self.dirty = True
        if self.locked:
            return self.locked
        if s.in_round or self.presenting or self.autoplay is not None:
            return tr("refusal.finish_round")
        if s.balance >= DEFAULT_BALANCE:
            return tr("notice.balance_already", balance=self.fmt(s.balance))
        s.add_funds(DEFAULT_BALANCE - s.balance)
        self.meters.balance = s.balance
        self.host.save(s.snapshot())
        self.message = ""
        return tr("notice.balance_reset", balance=self.fmt(s.balance))
