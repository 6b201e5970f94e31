"""What-if: a game with its reel strips' symbol counts or its pays changed, and its exact RTP.

A designer tunes a game by changing what its data file says and asking the exact RTP
again. `edited_game` builds the game from its own data file (``<id>.json`` in its folder,
`pyengine.data.read_data_file`) with `Edit`s applied, through the loader its plug-in names
(`Plugin.build`), so every check of the data applies to the edited game too; `what_if`
returns its exact RTP report. The command line's ``rtp GAME
--edit ...`` and the browser's math page (``math.html``) use the same edits.

An edit, as text:

- ``strip:SET:REEL:SYMBOL:+N`` adds N copies of SYMBOL to reel REEL (1 = the leftmost) of
  the strip set SET (``base``, ``free`` ..., as the data file names them); the copies go at
  the end of the strip, one after another;
- ``strip:SET:REEL:SYMBOL:-N`` removes the last N copies of SYMBOL from that reel;
- ``pay:SYMBOL:COUNT:VALUE`` sets what COUNT of SYMBOL on a line pays (the paytable's unit).

Where the copies go is a choice (symbol counts alone decide the line wins; their places also
decide what a window shows together, e.g. stacks): at the end, so that an edit never moves
the symbols already there.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..data import Field, read_data_file
from ..errors import EngineError
from ..games import Game, plugin
from .rtp import rtp_report

__all__ = ["Edit", "edited_game", "parse_edit", "what_if"]


@dataclass(frozen=True, slots=True)
class Edit:
    """One change to a game's data: ``kind`` "strip" (``set``, ``reel`` from 1, ``symbol``,
    ``delta`` copies to add or, negative, to remove) or "pay" (``symbol``, ``count``, ``value``)."""

    kind: str
    symbol: str
    set: str = ""
    reel: int = 0
    delta: int = 0
    count: int = 0
    value: int = 0

    def text(self) -> str:
        """The edit as `parse_edit` reads it."""
        if self.kind == "strip":
            return f"strip:{self.set}:{self.reel}:{self.symbol}:{self.delta:+d}"
        return f"pay:{self.symbol}:{self.count}:{self.value}"


def _whole(text: str, what: str, edit: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise EngineError(f"edit {edit!r}: {what} {text!r} is not a whole number") from None


def parse_edit(text: str) -> Edit:
    """Read an edit (see the module's docstring); a malformed one is refused with what is wrong."""
    parts = text.split(":") if isinstance(text, str) else []
    if len(parts) == 5 and parts[0] == "strip":
        _, set_, reel, symbol, delta = parts
        if delta[:1] not in ("+", "-"):
            raise EngineError(f"edit {text!r}: the change {delta!r} must be +N or -N")
        d = _whole(delta, "the change", text)
        if d == 0:
            raise EngineError(f"edit {text!r}: the change must add or remove at least one symbol")
        return Edit("strip", symbol, set=set_, reel=_whole(reel, "reel", text), delta=d)
    if len(parts) == 4 and parts[0] == "pay":
        _, symbol, count, value = parts
        return Edit("pay", symbol, count=_whole(count, "count", text), value=_whole(value, "value", text))
    raise EngineError(
        f"edit {text!r} is not strip:SET:REEL:SYMBOL:+N, strip:SET:REEL:SYMBOL:-N or pay:SYMBOL:COUNT:VALUE"
    )


def _apply(data: dict[str, Any], edit: Edit, game_id: str) -> None:
    """Change ``data`` (the game's parsed data file) by ``edit``, or refuse it."""
    if edit.kind == "strip":
        sets = data.get("reels")
        if not isinstance(sets, dict) or edit.set not in sets:
            names = ", ".join(sets) if isinstance(sets, dict) else "none"
            raise EngineError(f"{game_id} has no strip set {edit.set!r}; its sets are {names}")
        reels = sets[edit.set]
        if not 1 <= edit.reel <= len(reels):
            raise EngineError(f"{game_id}'s {edit.set} strips have reels 1 to {len(reels)}, not {edit.reel}")
        strip = reels[edit.reel - 1]
        if edit.delta > 0:
            strip.extend([edit.symbol] * edit.delta)
            return
        have = strip.count(edit.symbol)
        if have < -edit.delta:
            raise EngineError(
                f"reel {edit.reel} of {game_id}'s {edit.set} strips has {have} {edit.symbol}, "
                f"so {-edit.delta} cannot be removed"
            )
        for _ in range(-edit.delta):
            last = len(strip) - 1 - strip[::-1].index(edit.symbol)
            del strip[last]
        return
    pays = data.get("paytable")
    if not isinstance(pays, dict) or edit.symbol not in pays:
        raise EngineError(f"{game_id}'s paytable has no symbol {edit.symbol!r}")
    if edit.value < 0:
        raise EngineError(f"a pay must not be negative, not {edit.value}")
    pays[edit.symbol][str(edit.count)] = edit.value


def edited_game(game_id: str, edits: Sequence[Edit]) -> Game:
    """``game_id`` built from its data file with ``edits`` applied (checked as the data file is)."""
    build = plugin(game_id).build
    if build is None:
        raise EngineError(f"{game_id} cannot be edited: its plug-in names no builder from data")
    data = copy.deepcopy(read_data_file(f"{game_id}.json").value)
    for edit in edits:
        _apply(data, edit, game_id)
    return build(Field(f"{game_id}.json (edited)", "", data))


def what_if(
    game_id: str,
    edits: Sequence[Edit],
    mode: str = "base",
    settings: Mapping[str, Any] | None = None,
    lines: int | None = None,
) -> dict[str, Any]:
    """The exact RTP report of ``game_id`` with ``edits`` (`pyengine.math.rtp.rtp_report`),
    with the ``edits`` as text."""
    game = edited_game(game_id, edits)
    report = rtp_report(game_id, mode, settings, lines, game=game)
    return report | {"edits": [e.text() for e in edits]}
