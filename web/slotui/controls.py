"""The page's controls and meters as plain values, recomputed from the controller's state.

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
    "turbo",
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
    jackpot: str = ""
    """The time jackpot's pot ("" for a game without a jackpot)."""
    jackpot_time: str = ""
    """Time left to the pot's deadline, H:MM:SS."""
    jackpot_won: bool = False
    """True for a few seconds after the jackpot dropped."""
