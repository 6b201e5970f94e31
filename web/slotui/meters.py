"""The meters a round's presentation moves: the balance and the win under the reels, the
feature's counter and its win on the status line, the time jackpot's flash.

The controller owns one `Meters` and draws from it (`controller.Controller.controls`);
beats change it only through its intent methods (a round starts, a win counts up, the
feature is credited, a cap is reached), so that what a meter may do is said in one place:
the win meter never counts past a win limit, the feature's win is the round's win less
what the base game paid before it.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["NO_LIMIT", "Meters"]

NO_LIMIT = 1 << 62
"""The win limit of a round that reaches no cap."""


@dataclass(slots=True)
class Meters:
    balance: int = 0
    win: int = 0
    """The win meter: the round's win as far as it has been shown."""
    limit: int = NO_LIMIT
    """The most the win meter may show in this round (a win limit ahead)."""
    base_win: int = 0
    """The round's win before its feature began."""
    feature_win: int = 0
    """The feature's win so far (the status line's total)."""
    in_feature: bool = False
    free_spin: tuple[int, int] = (0, 0)
    """The free-spin counter: this spin's number and the total."""
    jackpot_won_at: float = -1e9
    """When the time jackpot was last won (the jackpot meter flashes for a while)."""

    # -- the round -------------------------------------------------------------------------
    def start_round(self, balance: int) -> None:
        """A round starts: its stake is off the balance, nothing won yet, no limit."""
        self.balance = balance
        self.win = 0
        self.limit = NO_LIMIT
        self.feature_win = 0

    def end_round(self, balance: int, win: int) -> None:
        """The round is over: the balance with its win credited, the win it paid."""
        self.balance = balance
        self.win = win
        self.limit = NO_LIMIT
        self.in_feature = False

    def restore(self, balance: int, win: int) -> None:
        """A reload: the session's balance, and the win of the round in play or the last one."""
        self.balance = balance
        self.win = win

    # -- the win meter ---------------------------------------------------------------------
    def show_win(self, win: int) -> None:
        """The round's win as the engine gives it (a gamble's card, a cap, a bonus paid)."""
        self.win = win

    def count_to(self, win: int) -> None:
        """A count-up's step: ``win``, or the limit where a cap lies ahead."""
        self.win = min(win, self.limit)

    def add_win(self, amount: int) -> None:
        """A prize counted onto the win meter, never past the limit."""
        self.count_to(self.win + amount)

    def add_jackpot(self, amount: int, now: float) -> None:
        """The time jackpot joins the round's win (the jackpot is paid on top of any cap)."""
        self.win += amount
        self.jackpot_won_at = now

    def cap(self, limit: int) -> None:
        """A win limit lies ahead in this round: the meter stops at ``limit``."""
        self.limit = limit

    # -- the feature -----------------------------------------------------------------------
    def start_feature(self, free_spins: int | None = None) -> None:
        """The feature starts on top of what the base game won; free spins reset the
        counter to ``0 of free_spins`` and the feature's win to nothing."""
        self.in_feature = True
        self.base_win = self.win
        if free_spins is not None:
            self.free_spin = (0, free_spins)
            self.feature_win = 0

    def free_spin_of(self, number: int, total: int) -> None:
        """Free spin ``number`` of ``total`` starts."""
        self.free_spin = (number, total)
        self.in_feature = True

    def more_free_spins(self, total: int) -> None:
        """A retrigger: the counter's total grows."""
        self.free_spin = (self.free_spin[0], total)

    def add_feature_win(self, amount: int) -> None:
        """A win during the feature joins its total (never past the limit)."""
        self.feature_win = min(self.feature_win + amount, self.limit - self.base_win)

    def credit_feature(self, win: int) -> None:
        """The feature's win as the engine gives it, and the win meter with it on top of
        the base game's."""
        self.feature_win = win
        self.win = self.base_win + win

    def show_feature_win(self, win: int) -> None:
        """The feature's total on the status line, the win meter left as it is (a reload)."""
        self.feature_win = win

    def resume_feature(self, number: int, total: int, *, base_win: int, feature_win: int) -> None:
        """A reload in free spins: the counter and the totals of the round in play."""
        self.in_feature = True
        self.free_spin = (number, total)
        self.base_win = base_win
        self.feature_win = feature_win

    def end_feature(self) -> None:
        self.in_feature = False
