"""What the controller's parts share: the page it talks to (`Host`) and what its bet
controls and dialogs (`slotui.betting`, `slotui.dialogs`) may touch of it (`Table`).

The parts are mixed into `slotui.controller.Controller`; each method of theirs declares
``self`` a `Table`, so that mypy holds it to these members and no more.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from pyengine.autoplay import Autoplay
from pyengine.events import Event
from pyengine.session import Session

from .controls import Controls
from .meters import Meters
from .view import View

__all__ = ["Host", "Table"]


class Host(Protocol):
    """What the controller needs from the page."""

    def set_state(self, state: str) -> None: ...

    def set_controls(self, controls: Controls) -> None: ...

    def announce(self, text: str) -> None: ...

    def post(self, kind: str, detail: dict[str, Any]) -> None: ...

    def save(self, snapshot: str) -> None: ...

    def open_dialog(self, kind: str) -> None: ...

    def share(self, url: str, title: str) -> None:
        """Share the round link ``url`` (relative to the site): a phone's share sheet or the clipboard."""
        ...


class Table(Protocol):
    """The controller as its bet controls and dialogs see it."""

    session: Session
    host: Host
    view: View
    meters: Meters
    message: str
    """The line under the controls (a refusal, why autoplay stopped)."""
    autoplay: Autoplay | None
    next_auto_at: float
    money_meters: bool
    dirty: bool
    now: float

    @property
    def locked(self) -> str: ...

    @property
    def presenting(self) -> bool: ...

    @property
    def pending_kind(self) -> str | None: ...

    @property
    def buy_offered(self) -> bool: ...

    def fmt(self, minor: int) -> str: ...

    def _engine(self, call: Callable[[], list[Event]]) -> bool:
        """Call the engine (its refusal shown and announced); False when it refused."""
        ...

    def buy_price(self) -> int: ...

    def buy_blocked(self) -> str | None: ...

    def _do_spin(self) -> None: ...

    def _do_gamble(self) -> None: ...

    def _bet_action(self, change: Callable[[], object]) -> None: ...

    def _max_bet_covered(self) -> bool: ...
