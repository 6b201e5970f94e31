"""Sound as the controller and the beats see it, silent until the cue code arrives.

The cues themselves (`slotui.cues`: the notes, every game's voice, the scheduler) and the
page's Web Audio side (`slotui.webaudio`) are not on the first load: the build packs them
in ``sound.zip``, which `slotui.jssound` fetches once the game is ready, and the page's
sound is then a `cues.Sound` in this one's place (`cues.Sound.taking_over`). Until then,
as before the first tap or key, this one schedules nothing: every cue is a no-op, and only
the player's settings (muted, the volume) and the embedding page's pause are kept, for the
real one to take over.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

__all__ = ["Sound"]


class Sound:
    """The silent stand-in: the same calls as `cues.Sound`, none of which schedules anything.

    ``game_voice``: the game's voice as its screen names it (`stage.GameScreen.voice`);
    ``clock``: the controller's time (ms); ``fast``: turbo is on."""

    def __init__(self, game_voice: Any = None, *, clock: Callable[[], float] = lambda: 0.0,
                 fast: Callable[[], bool] = lambda: False) -> None:
        self.voice: Any = game_voice
        self.clock = clock
        self.fast = fast
        self.muted = False
        self.paused = False
        self.volume = 0.8
        self.log: list[tuple[str, float]] = []
        """(cue, context time) of every cue scheduled: none here."""
        self.listeners: list[Callable[[str, float], None]] = []
        self.changed: list[Callable[[Any], None]] = []
        """Called when the player mutes or changes the volume (the page saves it)."""
        self.cut = 0

    # -- the player's controls ------------------------------------------------------------
    def set_muted(self, *, muted: bool) -> None:
        self.muted = muted
        self._level()

    def pause(self) -> None:
        """The game is paused (an embedding page's ``pause``): nothing scheduled until `resume`."""
        self.paused = True
        self.end()

    def resume(self) -> None:
        self.paused = False

    def toggle(self) -> None:
        self.set_muted(muted=not self.muted)

    def set_volume(self, volume: float) -> None:
        self.volume = min(max(float(volume), 0.0), 1.0)
        self._level()

    def _level(self, *, tell: bool = True) -> None:
        if tell:
            for fn in self.changed:
                fn(self)

    # -- scheduling: nothing here -------------------------------------------------------------
    @property
    def live(self) -> bool:
        """Cues are scheduled now: never, without the cue code."""
        return False

    def play(self, name: str, at_ms: float | None = None, *, step: int = 0) -> bool:
        return False

    def hush(self, *names: str) -> None:
        return None

    def end(self) -> None:
        return None

    # -- what the beats call -----------------------------------------------------------------
    def event(self, e: Any) -> None:
        return None

    def wins(self, wins: list[Any], stake: int) -> None:
        return None

    def reel_stops(self, times_ms: list[float]) -> None:
        return None

    def count_up(self, ms: float) -> None:
        return None

    def slam(self) -> None:
        return None
