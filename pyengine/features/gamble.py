"""Red/black gamble on a face-down card.

After a win the player may collect or gamble. A right colour doubles the win, a wrong one
loses it. Gambling is not offered above the operator's limit, ends once the win passes it,
and is never offered in autoplay. The card is drawn from a full 52-card deck (red and black
equally likely), so the gamble is fair and its expected value equals the win it risks.
"""

from __future__ import annotations

from collections.abc import Generator

from ..events import GambleCard, GambleEnd
from ..round import Decision, RoundContext

__all__ = ["COLLECT_OR_GAMBLE", "GAMBLE_CHOICE", "RANKS", "SUITS", "gamble", "gamble_offered", "play_gamble"]

RANKS = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
SUITS = ("H", "D", "C", "S")
_RED = frozenset({"H", "D"})

# A page closed while Collect is offered: the win is credited when the player returns.
COLLECT_OR_GAMBLE = Decision("collect_or_gamble", ("collect", "gamble"), on_restore="collect")
GAMBLE_CHOICE = Decision("gamble", ("collect", "red", "black"))


def gamble_offered(ctx: RoundContext, win: int, limit: int) -> bool:
    """Whether the gamble is offered on ``win``: never in autoplay, for a win up to ``limit``."""
    if ctx.autoplay and 0 < win <= limit:
        ctx.gamble_skipped = True
        return False
    return 0 < win <= limit


def gamble(ctx: RoundContext, win: int, limit: int) -> Generator[Decision, str, int]:
    """Offer the gamble on ``win``; return the win to collect."""
    if not gamble_offered(ctx, win, limit):
        return win
    if (yield COLLECT_OR_GAMBLE) == "collect":
        return win
    return (yield from play_gamble(ctx, win, limit))


def play_gamble(ctx: RoundContext, win: int, limit: int) -> Generator[Decision, str, int]:
    """The cards, once the player took the gamble `COLLECT_OR_GAMBLE` offered on ``win``;
    return the win to collect."""
    while True:
        guess = yield GAMBLE_CHOICE
        if guess == "collect":
            ctx.emit(GambleEnd("collect", win))
            return win
        n = ctx.rng.below(52)
        rank, suit = RANKS[n % 13], SUITS[n // 13]
        color = "red" if suit in _RED else "black"
        won = color == guess
        win = win * 2 if won else 0
        ctx.win = win
        ctx.emit(GambleCard(guess, rank + suit, color, won, win))
        if not won:
            ctx.emit(GambleEnd("lost", 0))
            return 0
        if win > limit:
            ctx.emit(GambleEnd("limit", win))
            return win
