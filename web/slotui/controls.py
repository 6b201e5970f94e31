"""The page's controls and meters as plain values, recomputed from the controller's state.

In a coin game the meters count coins (``currency`` then reads ``COINS``) unless the
player's ``units`` toggle shows them in money.

The browser adapter applies a `Controls` value to real buttons; it only touches the DOM
for what changed since the last one.
"""

from __future__ import annotations

from dataclasses import dataclass, field

__all__ = ["BUTTONS", "Button", "Controls"]

BUTTONS = (
    "spin",
    "bet_down",
    "bet_up",
    "lines_down",
    "lines_up",
    "coins_down",
    "coins_up",
    "units",
    "bet_max",
    "autoplay",
    "collect",
    "gamble",
    "red",
    "black",
    "start_feature",
    "buy",
    "paytable",
    "help",
    "history",
    "settings",
    "share",
    "turbo",
    "sound",
)


@dataclass(frozen=True, slots=True)
class Button:
    visible: bool = True
    enabled: bool = True
    label: str = ""
    pressed: bool = False


@dataclass(frozen=True, slots=True)
class Controls:
    """Meters (already formatted) and every button's state."""

    balance: str
    total_bet: str
    bet_per_line: str
    lines: str
    win: str
    currency: str
    message: str = ""
    buttons: dict[str, Button] = field(default_factory=dict)
    coins: str = ""
    """Coins per line ("" for a game without coins)."""
    bet_label: str = "Bet"
    """What the bet-per-line stepper sets: the bet per line, or a coin game's coin size."""
    jackpot: str = ""
    """The time jackpot's pot ("" for a game without a jackpot)."""
    jackpot_time: str = ""
    """Time left to the pot's deadline, H:MM:SS."""
    jackpot_won: bool = False
    """True for a few seconds after the jackpot dropped."""
