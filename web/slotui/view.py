"""What the renderer draws: the reels plus whatever the presentation shows on top."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TypeVar

from .gamble import GambleOverlay
from .overlay import Board, IntroCard, Overlay, ReelOverlay
from .reels import ReelBank

__all__ = ["Banner", "View"]

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
class View:
    """Everything on the canvas besides the static art.

    Features draw through overlays (`overlay.Overlay`), by where they go, in drawing order:
    ``band`` (the band above the reels, in place of the status line and the logo),
    ``board`` (in place of the reels), ``on_reels`` (over the settled symbols, under the win
    lines), ``on_frame`` (beside the reels, over the frame, under the win label and the
    banner) and ``overlays`` (over everything). A spin clears the first four; what is in
    ``overlays`` belongs to its feature until the feature takes it off.
    """

    reels: ReelBank
    highlights: list[tuple[int, int]] = field(default_factory=list)
    line_rows: tuple[int, ...] | None = None
    line_count: int = 0
    line_label: str = ""
    """The message under the reels (the ticker) while wins are shown."""
    line_amount: str = ""
    """The win of the line shown, written at the end of the line (on its last symbol)."""
    line_color: str = "#ffd24a"
    banner: Banner | None = None
    status: str = ""
    dim: float = 0.0
    phase: str = "base"
    cell_values: dict[Position, str] = field(default_factory=dict)
    """Values written on symbols of the settled reels (e.g. cash prizes), by (reel, row)."""
    forms: dict[str, str] = field(default_factory=dict)
    """The picture drawn for a symbol id while a feature shows symbols in another form
    (id -> picture key); a symbol not in it is drawn as itself."""
    band: Overlay | None = None
    board: Board | None = None
    on_reels: list[ReelOverlay] = field(default_factory=list)
    on_frame: list[Overlay] = field(default_factory=list)
    overlays: list[Overlay] = field(default_factory=list)
    """What features draw over everything else, in order (see `overlay.Overlay`)."""

    def form(self, symbol: str) -> str:
        """The picture key of ``symbol`` as shown now (see ``forms``)."""
        return self.forms.get(symbol, symbol)

    def pieces(self) -> tuple[object, ...]:
        """Everything a feature put on screen, wherever it is drawn, in drawing order."""
        return (self.band, self.board, *self.on_reels, *self.on_frame, *self.overlays)

    def overlay(self, kind: type[OverlayT]) -> OverlayT | None:
        """The first overlay of type ``kind`` on screen (wherever it is drawn), or None."""
        for o in self.pieces():
            if isinstance(o, kind):
                return o
        return None

    def remove(self, kind: type[object]) -> None:
        """Take every overlay of type ``kind`` off the screen."""
        if isinstance(self.band, kind):
            self.band = None
        if isinstance(self.board, kind):
            self.board = None
        self.on_reels[:] = [o for o in self.on_reels if not isinstance(o, kind)]
        self.on_frame[:] = [o for o in self.on_frame if not isinstance(o, kind)]
        self.overlays[:] = [o for o in self.overlays if not isinstance(o, kind)]

    def clear_reels(self) -> None:
        """A new spin: nothing stays on or beside the reels (``overlays`` stay)."""
        self.band = None
        self.board = None
        self.on_reels.clear()
        self.on_frame.clear()

    def writes_band(self) -> bool:
        """Whether something on screen writes its own words in the band above the reels (a
        card's or a board's title): then neither the logo nor the status line is drawn there."""
        shown = (self.board, *self.on_reels, *self.on_frame, *self.overlays)
        return any(getattr(o, "writes_band", False) for o in shown)

    def band_side(self, layout: object) -> float:
        """How much of the band's right side is taken (what sits there, as a badge, says how
        wide it is with ``band_side(layout)``): the status line keeps to the left of it."""
        side = 0.0
        for o in (self.band, *self.on_frame, *self.overlays):
            reserve = getattr(o, "band_side", None)
            if reserve is not None:
                side = max(side, float(reserve(layout)))
        return side

    @property
    def intro(self) -> IntroCard | None:
        """The feature's intro card on screen (`overlay.IntroCard`), or None."""
        return next((o for o in self.overlays if isinstance(o, IntroCard)), None)

    @property
    def gamble(self) -> GambleOverlay | None:
        """The gamble screen while it is up, or None."""
        return next((o for o in self.overlays if isinstance(o, GambleOverlay)), None)
