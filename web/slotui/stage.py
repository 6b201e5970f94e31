"""The stage: the narrow interface between the shared client and a game's screen.

`Stage` is all that a beat (and a game's screen) may use of the controller, the way
`canvas.Canvas` is all that drawing code may use of a canvas: what is on screen, the
meters, the page's announcements and messages, a look at the events still queued, the
game's description and screen, money formatting, timing, and the few fields a feature
keeps during a round. `controller.Controller` satisfies it structurally.

`Beat` is one animation step; `GameScreen` is what a game adds to the shared client (its
beats, recovery, words, pictures and pages). Each game's client module registers its
screen with `register_screen` when imported.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol

from pyengine import events as ev
from pyengine.model import Bet
from pyengine.session import RoundRecord

from . import words
from .layout import BACKGROUND, FRAME, LOGO, Picture
from .meters import Meters
from .pages import PageFn
from .sound import Sound
from .timing import Timing
from .view import View

__all__ = [
    "Announcer",
    "Beat",
    "EventHandler",
    "GameScreen",
    "RoundView",
    "Stage",
    "register_screen",
    "screen_for",
]


class Announcer(Protocol):
    """What beats need of the page: a screen-reader announcement and a message to the embedder."""

    def announce(self, text: str) -> None: ...

    def post(self, kind: str, detail: dict[str, Any]) -> None: ...


class RoundView(Protocol):
    """What beats read of the session (never an engine call): the bet, the balance, the round."""

    @property
    def bet(self) -> Bet: ...

    @property
    def balance(self) -> int: ...

    @property
    def in_round(self) -> bool: ...

    @property
    def round_win(self) -> int: ...

    @property
    def round_events(self) -> tuple[ev.Event, ...]: ...

    @property
    def last_round(self) -> RoundRecord | None: ...


class Stage(Protocol):
    """What a beat sees while it plays an event back."""

    # -- what is on screen -------------------------------------------------------------
    @property
    def view(self) -> View: ...

    @property
    def strips(self) -> Mapping[str, list[tuple[str, ...]]]:
        """The reel strips by phase (``base``, ``free``, ...)."""
        ...

    # -- the meters ---------------------------------------------------------------------
    @property
    def meters(self) -> Meters:
        """The balance, the win, the feature's counter and win (changed through its intent methods)."""
        ...

    def show_jackpot(self, amount: int | None) -> None: ...

    # -- the page and the game -----------------------------------------------------------
    @property
    def host(self) -> Announcer: ...

    @property
    def desc(self) -> Mapping[str, Any]:
        """The game's description (`Game.describe`)."""
        ...

    @property
    def screen(self) -> GameScreen: ...

    @property
    def session(self) -> RoundView: ...

    @property
    def queue(self) -> deque[ev.Event]:
        """The events still to play (beats look ahead; grouping wins takes them)."""
        ...

    @property
    def presenting(self) -> bool:
        """The round's events are still being played back."""
        ...

    @property
    def pending_kind(self) -> str | None:
        """The kind of the decision the round waits for, or None."""
        ...

    def fmt(self, minor: int) -> str: ...

    def amount(self, minor: int) -> str:
        """An amount as the labels on the canvas write it: money, or "80 COINS" while a
        coin game's meters count coins (`controller.Controller.amount`)."""
        ...

    @property
    def sound(self) -> Sound:
        """The cues (`sound.Sound`, silent until `cues.Sound` takes over): beats schedule what they animate."""
        ...

    # -- time -----------------------------------------------------------------------------
    @property
    def now(self) -> float: ...

    @property
    def timing(self) -> Timing: ...

    @property
    def turbo(self) -> bool: ...

    @property
    def reduced_motion(self) -> bool: ...

    @property
    def autoplay(self) -> object | None:
        """Autoplay while it runs (beats only ask whether it does)."""
        ...

    def next_round_in(self, ms: float) -> None:
        """Autoplay's next round starts no sooner than ``ms`` from now (nothing without autoplay)."""
        ...

    @property
    def start_requested(self) -> bool:
        """The player pressed Start during a feature's intro."""
        ...

    # -- the round in play ------------------------------------------------------------
    @property
    def scratch(self) -> dict[str, Any]:
        """What a game's beats remember during one round (cleared when a round starts)."""
        ...

    def refresh_status(self) -> None:
        """Show the screen's status line again (`GameScreen.status`)."""
        ...


class Beat:
    """An animation step. ``update`` returns True when it is finished."""

    t0: float

    def start(self, c: Stage, now: float) -> None:
        self.t0 = now

    def update(self, c: Stage, now: float) -> bool:
        return True

    def hurry(self, c: Stage) -> None:
        """Quick stop: finish as soon as possible."""


EventHandler = Callable[[Any, Stage], "Beat | None"]


@dataclass(slots=True)
class GameScreen:
    """What a game adds to the shared client: beats for its own events, how its wins are
    presented, recovery of its feature after a reload, its words, pictures and pages."""

    words: Any = None
    """The game's own catalogue (``words.of(__package__)`` in its screen package): its
    symbols' names (``symbol.<ID>``), its feature's name (``feature``: "Autoplay stopped:
    <feature> won!"), the Start button (``start_label``), the autoplay dialog's stop
    condition (``stop_label``) and expander (``more_autoplay_label``), the history's
    feature names (``feature_name.<id>``), and whatever its beats and pages say. A key the
    game does not have is the shared client's own (None: all of them): a game's catalogue
    overrides what the shared catalogue says."""
    handlers: dict[str, EventHandler] = field(default_factory=dict)
    wins_beat: Callable[[list[ev.Event], Stage], Beat] | None = None
    rebuild: Callable[[Stage, list[ev.Event]], None] | None = None
    """Recovery: show the feature of ``events`` (the round in play, or the last one)."""
    status: Callable[[Stage], str] | None = None
    """The line above the reels (e.g. the free-spin counter)."""
    spin_started: Callable[[Stage, ev.Spin], None] | None = None
    win_label: Callable[[ev.Event, Stage], str] | None = None
    """The words under the reels for one of the game's own win events (its symbols framed)."""
    extra_symbols: tuple[str, ...] = ()
    """Pictures in the game's symbols folder that are not reel symbols (e.g. an empty cell)."""
    big_symbols: tuple[str, ...] = ()
    """Symbols also drawn large (intros): rasterized at the reel window's height."""
    pictures: tuple[Picture, ...] = (BACKGROUND, FRAME, LOGO)
    """The game's other pictures the screen draws, each with the size it is rasterized at."""
    paytable: PageFn | None = None
    """The paytable page (None: the generic one from the description)."""
    rules: PageFn | None = None
    """The rules page (None: the generic one); `pages.shared_rules` gives the shared paragraphs."""
    buy: PageFn | None = None
    """The Feature Buy offer, for a game that sells its feature."""
    history_board: Callable[[Any, Callable[[int], str], str, Mapping[str, str]], str] | None = None
    """A round's own final board in the history (see `pages.BoardFn`), e.g. a bonus's prizes."""
    pick_look: Any = None
    """The words and pictures of the game's picks (a `pick.PickLook`; None: the defaults)."""
    voice: Any = None
    """The game's sounds: the name of its module whose ``VOICE`` is a `cues.Voice` (made by
    `cues.voice` from its character), imported once the sound code has arrived after ready
    (`slotui.jssound`; `cues.voice_of`); None: a plain one."""


    def word(self, key: str, /, **args: Any) -> str:
        """The game's words for ``key``, or the shared client's where the game has none."""
        return words.either(self.words, key, **args)

    @property
    def feature(self) -> str:
        return self.word("feature")

    @property
    def start_label(self) -> str:
        return self.word("start_label")

    @property
    def stop_label(self) -> str:
        return self.word("stop_label")

    @property
    def more_autoplay_label(self) -> str:
        return self.word("more_autoplay_label")

    @property
    def feature_names(self) -> Mapping[str, str]:
        """A feature id of the round history (``hold_and_respin``) as the player reads it."""
        return _FeatureNames(self)

    def symbol(self, sid: str, default: str = "") -> str:
        """A symbol's name as the game's catalogue gives it (``symbol.<ID>``); ``default``
        (the engine's name) where it gives none, which no screen should show."""
        if self.words is not None and self.words.has(f"symbol.{sid}"):
            return str(self.words(f"symbol.{sid}"))
        return default or sid


class _FeatureNames(Mapping[str, str]):
    """A screen's feature names: its own ``feature_name.<id>``, else the shared one."""

    def __init__(self, screen: GameScreen) -> None:
        self.screen = screen

    def _ids(self) -> list[str]:
        keys = set(words.catalogue(words.SHARED))
        if self.screen.words is not None:
            keys |= set(words.catalogue(self.screen.words.package))
        return sorted(k.removeprefix("feature_name.") for k in keys if k.startswith("feature_name."))

    def __getitem__(self, fid: str) -> str:
        if fid not in self._ids():
            raise KeyError(fid)
        return self.screen.word(f"feature_name.{fid}")

    def __iter__(self) -> Iterator[str]:
        return iter(self._ids())

    def __len__(self) -> int:
        return len(self._ids())


_SCREENS: dict[str, GameScreen] = {}


def register_screen(game_id: str, screen: GameScreen) -> None:
    """A game's client module registers its screen when imported."""
    _SCREENS[game_id] = screen


def screen_for(game_id: str) -> GameScreen:
    """The screen ``game_id`` registered, or a plain one (shared beats and generic pages)."""
    return _SCREENS.get(game_id) or GameScreen()
