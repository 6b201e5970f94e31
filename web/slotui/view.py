"""What the renderer draws: the reels plus whatever the presentation shows on top."""

from __future__ import annotations

from dataclasses import dataclass, field

from .reels import ReelBank

__all__ = ["Banner", "GambleView", "IntroView", "View"]


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
    intro: IntroView | None = None
    gamble: GambleView | None = None
    dim: float = 0.0
    phase: str = "base"
