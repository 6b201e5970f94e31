"""What the renderer draws: the reels plus whatever the presentation shows on top."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TypeVar

from .holdrespin import HoldGrid, LadderView, RespinCounter
from .overlay import Overlay
from .reels import ReelBank

__all__ = ["Banner", "FeatureIntro", "GambleView", "IntroView", "View"]

Position = tuple[int, int]
OverlayT = TypeVar("OverlayT")


@dataclass(slots=True)
class Banner:
    """A big message over the reels (win tiers, feature awards, feature end)."""

    title: str
    subtitle: str = ""
    started: float = 0.0
    tier: int = 0


@dataclass(slots=True)
class IntroView:
    """The free-spins intro: the Book flips through symbols and lands on the chosen one."""

    spins: int
    symbol: str | None
    candidates: tuple[str, ...]
    started: float
    settle_ms: float
    waiting: bool = False


@dataclass(slots=True)
class FeatureIntro:
    """A feature's title card over the reels: a title, its symbol, a few lines and, once
    the round waits on the player, the prompt to start."""

    title: str
    lines: tuple[str, ...]
    symbol: str | None
    started: float
    waiting: bool = False
    prompt: str = "PRESS START"


@dataclass(slots=True)
class GambleView:
    """The gamble screen: the card, the stakes and the card history."""

    win: str
    potential: str
    card: str | None = None  # e.g. "QH" while shown face up
    flipped_at: float = 0.0
    history: list[str] = field(default_factory=list)
    result: str = ""


@dataclass(slots=True)
class View:
    """Everything on the canvas besides the static art."""

    reels: ReelBank
    highlights: list[tuple[int, int]] = field(default_factory=list)
    line_rows: tuple[int, ...] | None = None
    line_count: int = 0
    line_label: str = ""
    line_color: str = "#ffd24a"
    banner: Banner | None = None
    status: str = ""
    expanding: str | None = None
    expanded: dict[int, float] = field(default_factory=dict)
    intro: IntroView | FeatureIntro | None = None
    gamble: GambleView | None = None
    dim: float = 0.0
    phase: str = "base"
    cell_values: dict[Position, str] = field(default_factory=dict)
    """Cash values written on symbols of the settled reels (Moon prizes), by (reel, row)."""
    grid: HoldGrid | None = None
    """Hold and Respin: the board of held and spinning cells drawn instead of the reels."""
    ladder: LadderView | None = None
    counter: RespinCounter | None = None
    overlays: list[Overlay] = field(default_factory=list)
    """What features draw over everything else, in order (see `overlay.Overlay`)."""

    def overlay(self, kind: type[OverlayT]) -> OverlayT | None:
        """The first overlay of type ``kind`` on screen, or None."""
        return next((o for o in self.overlays if isinstance(o, kind)), None)

    def remove(self, kind: type[object]) -> None:
        """Take every overlay of type ``kind`` off the screen."""
        self.overlays[:] = [o for o in self.overlays if not isinstance(o, kind)]
