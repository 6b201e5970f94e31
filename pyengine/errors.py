"""Error types raised by the engine.

Every error is a `ValueError` subclass whose message says what was wrong and what is
allowed. An operation that raises changes nothing.
"""

from __future__ import annotations

__all__ = [
    "BetError",
    "ChoiceError",
    "EngineError",
    "GameDataError",
    "InsufficientFundsError",
    "NoDecisionPendingError",
    "OldVersionError",
    "RoundInProgressError",
    "SnapshotError",
    "UnknownGameError",
    "shown",
]


class EngineError(ValueError):
    """Base class of every error the engine raises on bad input."""


class GameDataError(EngineError):
    """A game data file is malformed; the message names the file and the field."""

    def __init__(self, source: str, field: str, problem: str) -> None:
        self.source = source
        self.field = field
        self.problem = problem
        super().__init__(f"{source}: field {field!r}: {problem}")


class UnknownGameError(EngineError):
    """A game id that the engine does not have."""


class BetError(EngineError):
    """A bet (lines, bet per line) that the game does not offer."""


class InsufficientFundsError(EngineError):
    """The balance is smaller than the stake."""


class RoundInProgressError(EngineError):
    """An action that needs an idle session was asked for while a round waits."""


class NoDecisionPendingError(EngineError):
    """A player choice was given while no decision is pending."""


class ChoiceError(EngineError):
    """A choice that the pending decision does not allow."""


class SnapshotError(EngineError):
    """A saved session that is corrupt, tampered with, or from another game."""


class OldVersionError(SnapshotError):
    """A saved session of another version of its game: its rounds cannot be replayed under
    these rules, but what it held is known. ``balance`` is the saved balance with the stake
    of a round it left in play given back (``refund``); a new session can start with it."""

    def __init__(self, message: str, *, balance: int, refund: int) -> None:
        super().__init__(message)
        self.balance = balance
        self.refund = refund


def shown(value: object) -> str:
    """``value`` for an error message: short, and an absurdly long integer is not written
    out (Python refuses to turn one of more than 4,300 digits into text)."""
    if isinstance(value, int) and not -(10**30) < value < 10**30:
        return f"an integer of {value.bit_length()} bits"
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."
