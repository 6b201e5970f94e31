"""The bet controls: the bet, the lines, the coin size and Max Bet, changed between
rounds only (a win waiting at Collect is collected first), and the meters' units.

Mixed into `slotui.controller.Controller` (the player's actions ``bet_up``, ``lines_down``,
``bet_max``... find their ``_do_`` methods here); the methods see the controller as a
`slotui.table.Table`.
"""

from __future__ import annotations

from collections.abc import Callable

from pyengine.errors import EngineError

from .table import Table
from .words import tr

__all__ = ["BetControls"]


class BetControls:
    """The bet's controls of the controller."""

    def _bet_action(self: Table, change: Callable[[], object]) -> None:
        if self.autoplay is not None or self.presenting:
            return
        if self.pending_kind == "collect_or_gamble" and not self._engine(lambda: self.session.choose("collect")):
            return
        if self.session.in_round:
            return
        try:
            change()
        except EngineError as exc:
            self.message = str(exc)
        else:
            self.message = ""  # the bet changed: a refusal of the last one no longer holds
        self.host.save(self.session.snapshot())
        self.view.highlights = []
        self.view.line_rows = None

    def _do_bet_up(self: Table) -> None:
        self._bet_action(self.session.bet_up)

    def _do_bet_down(self: Table) -> None:
        self._bet_action(self.session.bet_down)

    def _do_lines_up(self: Table) -> None:
        self._bet_action(self.session.lines_up)

    def _do_lines_down(self: Table) -> None:
        self._bet_action(self.session.lines_down)

    def _do_coins_up(self: Table) -> None:
        self._bet_action(self.session.coins_up)

    def _do_coins_down(self: Table) -> None:
        self._bet_action(self.session.coins_down)

    def _do_units(self: Table) -> None:
        """The meters' toggle: coins or money (a coin game; any time, nothing is played)."""
        if self.session.game.bets.coin_game:
            self.money_meters = not self.money_meters

    def _do_bet_max(self: Table) -> None:
        if self.pending_kind == "collect_or_gamble":
            self._do_gamble()
            return
        s = self.session
        if not self._max_bet_covered():
            self.message = tr("refusal.max_bet", balance=self.fmt(s.game.bets.max_bet.total))
            self.host.announce(self.message)
            return
        if s.bet == s.game.bets.bet_max(s.bet, s.balance) and not self.presenting and not s.in_round:
            # Pressing Bet Max again spins at the maximum bet.
            self._do_spin()
            return
        self._bet_action(self.session.bet_max)

    def _max_bet_covered(self: Table) -> bool:
        """Whether Max Bet is offered: always, unless the game's bets fit the balance
        (`BetConfig.fit_to_balance`) and the balance cannot cover the maximum bet."""
        bets = self.session.game.bets
        return not bets.fit_to_balance or bets.max_bet.total <= self.session.balance

    def _fit_bet(self: Table) -> None:
        """Between rounds, in a game whose bets fit the balance: a bet the balance no longer
        covers steps down to the highest the balance covers (`BetConfig.fit`)."""
        s = self.session
        bets = s.game.bets
        if self.locked or not bets.fit_to_balance or s.bet.total <= s.balance or s.in_round or not s.can_afford_a_bet:
            return
        bet = s.set_bet(bets.fit(s.bet, s.balance))
        self.host.save(s.snapshot())
        self.message = tr("notice.bet_lowered", bet=self.fmt(bet.total))
        self.host.announce(self.message)
