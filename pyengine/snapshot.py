"""A session's saved forms: its round records, the snapshot text, and the checks on a save.

This module holds `RoundRecord` (a finished round, and its JSON), the snapshot format and
its limits (`SNAPSHOT_FORMAT`, `MAX_SNAPSHOT_CHARS`, `MAX_JSON_DEPTH`, `PENDING_DAYS`),
`write_snapshot` and `read_snapshot` (the text `Session.snapshot` writes and
`Session.restore` reads), and the checks of every saved value: `saved_game`,
`saved_wallet`, `saved_history`, `saved_round`, and the small checks they share (with those
of the session's own constructor input, `_settings` and `_is_game`). A save is JSON
``{"format", "state", "checksum"}``. Its checksum is no secret, so every field of its state
is checked here as strictly as the engine's own input; `pyengine.session` then replays its
history and its round in play, so a session is restored only if it saves again as it was
saved.

Nothing here imports `pyengine.session`, not even for types: the session imports this.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from .errors import EngineError, OldVersionError, SnapshotError, shown
from .events import Event, events_from_json
from .features.jackpot import TimeJackpot
from .games import Game, get_game
from .model import MAX_AMOUNT, MAX_BALANCE, MAX_SETTING, MAX_TIME_MS, Bet, BetConfig
from .rng import MASK64
from .values import json_depth, record

__all__ = [
    "MAX_JSON_DEPTH",
    "MAX_SNAPSHOT_CHARS",
    "PENDING_DAYS",
    "SNAPSHOT_FORMAT",
    "RoundRecord",
    "SavedRound",
    "read_snapshot",
    "saved_game",
    "saved_history",
    "saved_round",
    "saved_wallet",
    "write_snapshot",
]

PENDING_DAYS = 90
"""A round left waiting longer than this is settled on restore (auto-collect)."""
MAX_SNAPSHOT_CHARS = 1_000_000
"""The longest `Session.snapshot` text `Session.restore` reads; a longer one is refused before any work.

A save is the session's state, the round in play (its seed and choices) and the last
`HISTORY_SIZE` rounds with their events; the longest round record measured over 800,000
rounds of the five shipped games is 72,814 characters (a cascading round of 681 events), so
eleven such rounds fill four fifths of this. `write_snapshot` never writes more: should the
history be longer, it leaves out its oldest rounds and says how many (``left_out``). Reading
a text of this length takes about a tenth of a second in CPython, whatever it holds."""
MAX_JSON_DEPTH = 32
"""A snapshot nests about 7 levels deep; anything much deeper is refused unread."""
SNAPSHOT_FORMAT = "pyengine.session/2"
"""Version 2 renamed the hold-and-respin events' prize-symbol counts to ``count`` and moved
game-specific events into their games; a version 1 save is refused (`read_snapshot`)."""


@record
class RoundRecord:
    """A finished round: enough to show it in the history and to replay it exactly.

    ``stake`` is what the round cost (the Feature Buy price in mode ``buy``); ``win`` is
    everything credited, the ``jackpot`` part included.
    """

    index: int
    seed: int
    bet: Bet
    autoplay: bool
    choices: tuple[str, ...]
    events: tuple[Event, ...]
    stake: int
    win: int
    balance_before: int
    balance_after: int
    time_ms: int
    features: tuple[str, ...]
    mode: str = "base"
    jackpot: int = 0

    @property
    def game_win(self) -> int:
        """The game's own win (the jackpot is separate: the max win does not cover it)."""
        return self.win - self.jackpot

    def to_json(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "seed": self.seed,
            "bet": _bet_json(self.bet),
            "autoplay": self.autoplay,
            "choices": list(self.choices),
            "events": [e.to_json() for e in self.events],
            "stake": self.stake,
            "win": self.win,
            "balance_before": self.balance_before,
            "balance_after": self.balance_after,
            "time_ms": self.time_ms,
            "features": list(self.features),
            "mode": self.mode,
            "jackpot": self.jackpot,
        }


_ROUND_KEYS = frozenset({"index", "seed", "bet", "autoplay", "choices", "balance_before", "time_ms"})
_RECORD_KEYS = _ROUND_KEYS | {"events", "stake", "win", "balance_after", "features"}
_STATE_KEYS = frozenset({"game", "version", "balance", "bet", "settings", "rng", "rounds_played", "round", "history"})


# -- writing ----------------------------------------------------------------------
def write_snapshot(state: dict[str, Any], history: list[dict[str, Any]], history_size: int) -> str:
    """The snapshot text of a session's ``state`` (all but its history) and the records of its
    last rounds (at most ``history_size``): at most `MAX_SNAPSHOT_CHARS` characters, for the
    oldest of the ``history`` are left out of a save that would be longer (and counted)."""
    history = list(history)
    while True:
        text = _text(state, history, history_size)
        if len(text) <= MAX_SNAPSHOT_CHARS or not history:
            return text
        del history[0]


def _text(state: dict[str, Any], history: list[dict[str, Any]], history_size: int) -> str:
    saved = {**state, "history": history}
    left_out = min(state["rounds_played"], history_size) - len(history)
    if left_out:
        saved["left_out"] = left_out
    return json.dumps(
        {"format": SNAPSHOT_FORMAT, "state": saved, "checksum": _checksum(saved)},
        sort_keys=True,
        separators=(",", ":"),
    )


# -- reading ----------------------------------------------------------------------
def read_snapshot(text: object) -> dict[str, Any]:
    """The saved state in snapshot ``text``, once its length, nesting, format and checksum
    are checked (a text longer than `MAX_SNAPSHOT_CHARS` is refused unread)."""
    if not isinstance(text, str):
        raise SnapshotError(f"a saved session is JSON text, not {shown(text)}")
    if len(text) > MAX_SNAPSHOT_CHARS:
        raise SnapshotError(
            f"the saved session is {len(text):,} characters long, more than a session ever saves "
            f"({MAX_SNAPSHOT_CHARS:,}): it is corrupt"
        )
    if json_depth(text) > MAX_JSON_DEPTH:
        raise SnapshotError(f"the saved session nests deeper than {MAX_JSON_DEPTH} levels: it is corrupt")
    try:
        obj = json.loads(text)
    except (TypeError, ValueError, RecursionError):
        raise SnapshotError("the saved session is not valid JSON") from None
    fmt = obj.get("format") if isinstance(obj, dict) else None
    if isinstance(fmt, str) and fmt.startswith("pyengine.session/") and fmt != SNAPSHOT_FORMAT:
        raise SnapshotError(
            f"the saved session was written by another version of the game engine (format {fmt}; "
            f"this version reads {SNAPSHOT_FORMAT}) and cannot be restored"
        )
    if not isinstance(obj, dict) or obj.get("format") != SNAPSHOT_FORMAT:
        raise SnapshotError(f"the saved session is not a {SNAPSHOT_FORMAT} snapshot")
    state = obj.get("state")
    try:
        valid = isinstance(state, dict) and obj.get("checksum") == _checksum(state)
    except (TypeError, ValueError, RecursionError):
        valid = False
    if not valid:
        raise SnapshotError("the saved session fails its checksum: it is corrupt or was edited")
    assert isinstance(state, dict)
    return state


def saved_game(state: dict[str, Any], game: str | None) -> tuple[Game, dict[str, int], Bet]:
    """The game of the saved ``state`` (which must be ``game`` where that is given), its
    settings as saved and its bet: the game and its version must be this engine's (a save of
    another version raises `OldVersionError` where its balance is readable)."""
    _fields(state, "session", _STATE_KEYS, ("jackpot", "left_out"))
    gid = state["game"]
    if game is not None and gid != game:
        raise SnapshotError(f"the saved session belongs to {shown(gid)}, not {shown(game)}")
    if not isinstance(gid, str):
        raise SnapshotError(f"the saved game is not a game id: {shown(gid)}")
    g = get_game(gid)
    version = state["version"]
    if version != g.version:
        seen = version if isinstance(version, str) and len(version) <= 40 else shown(version)
        raise _old_version(state, f"the saved session is for version {seen} of {gid}, not {g.version}")
    settings = state["settings"]
    if not isinstance(settings, dict) or any(type(v) is not int for v in settings.values()):
        raise SnapshotError("the saved settings are not whole numbers by name")
    return g, settings, _bet(g, state["bet"])


def saved_wallet(state: dict[str, Any], game: Game) -> tuple[int, int, int, TimeJackpot | None]:
    """The saved balance, seed stream state, count of rounds played and jackpot (None for a
    game without one) of ``game`` (`saved_game`)."""
    balance = _int(state["balance"], "balance")
    rng = _int(state["rng"], "seed stream", MASK64)
    played = _int(state["rounds_played"], "count of rounds")
    saved_jackpot = state.get("jackpot")
    if (saved_jackpot is None) != (game.jackpot is None):
        raise SnapshotError("the saved jackpot does not fit the game")
    jp = None
    if game.jackpot is not None:
        jp = TimeJackpot.from_json(game.jackpot, saved_jackpot)
        if jp.drops > played + (state["round"] is not None):
            raise SnapshotError("the saved jackpot dropped more often than rounds were played")
    return balance, rng, played, jp


def saved_history(state: dict[str, Any], game: Game, played: int, history_size: int) -> Iterator[RoundRecord]:
    """The saved history of ``game`` (`saved_game`) after ``played`` rounds (`saved_wallet`),
    oldest first, each record checked as it is reached: the caller checks each one's replay
    before the next is read."""
    history = state["history"]
    # The last min(played, history_size) rounds, but for the oldest ones that `write_snapshot`
    # left out of a save that would have been too long (it says how many).
    left_out = _int(state.get("left_out", 0), "count of rounds left out of the history", history_size)
    whole = min(played, history_size)
    if not isinstance(history, list) or len(history) + left_out != whole:
        raise SnapshotError(f"the saved history must hold the last {whole - left_out} rounds")
    for i, r in enumerate(history):
        saved = _record(game, r)
        if saved.index != played - len(history) + i:
            raise SnapshotError(f"round {saved.index} of the history is out of order")
        yield saved


@dataclass(frozen=True, slots=True)
class SavedRound:
    """The round in play as saved, each field checked; `Session._replay` plays it again."""

    index: int
    seed: int
    bet: Bet
    autoplay: bool
    mode: str
    choices: tuple[str, ...]
    balance_before: int
    time_ms: int
    stake: int
    jackpot: int


def saved_round(game: Game, rd: Any, *, rounds_played: int, balance: int, jackpot: TimeJackpot | None) -> SavedRound:
    """The saved round in play ``rd``, checked as strictly as `Session.spin` checks a new
    round, against the restored session's count of rounds, ``balance`` and ``jackpot``."""
    _fields(rd, "round in play", _ROUND_KEYS, ("mode", "jackpot"))
    bet = _bet(game, rd["bet"])
    mode = _mode(game, rd.get("mode", "base"))
    autoplay = _bool(rd["autoplay"], "autoplay")
    index = _int(rd["index"], "round number")
    if index != rounds_played:
        raise SnapshotError(f"the round in play is round {index}, but {rounds_played} were played before it")
    seed = _int(rd["seed"], "round seed", MASK64)
    time_ms = _int(rd["time_ms"], "time", MAX_TIME_MS)
    won = _int(rd.get("jackpot", 0), "jackpot")
    choices = _strings(rd["choices"], "choices")
    before = _int(rd["balance_before"], "balance")
    stake = game.price(bet, mode)
    # ``balance`` is what remained once the stake was taken, and the jackpot if the round
    # already paid it.
    if balance not in (before - stake, before - stake + won):
        raise SnapshotError("the saved balance does not match the round in play")
    if autoplay and mode != "base":
        raise SnapshotError("the round in play was bought in autoplay, which never buys a feature")
    if won and (jackpot is None or mode != "base" or jackpot.paid < won):
        raise SnapshotError("the round in play won a jackpot that the saved jackpot did not pay")
    return SavedRound(index, seed, bet, autoplay, mode, choices, before, time_ms, stake, won)


# -- checks -----------------------------------------------------------------------
def _old_version(state: dict[str, Any], message: str) -> SnapshotError:
    """What a save of another version of its game held: its balance, and the stake of a
    round it left in play (which these rules cannot replay) given back; a plain
    `SnapshotError` where even that is unreadable."""
    try:
        balance = _int(state["balance"], "balance")
        rd = state["round"]
        # What the round in play took from the balance when it started (its stake).
        refund = 0 if rd is None else max(_int(rd["balance_before"], "balance") - balance, 0)
    except (KeyError, TypeError, SnapshotError):
        return SnapshotError(message)
    if balance + refund > MAX_BALANCE:
        return SnapshotError(message)
    return OldVersionError(message, balance=balance + refund, refund=refund)


def _is_game(game: object) -> bool:
    """Whether ``game`` has what the session uses of the `Game` protocol."""
    return (
        isinstance(getattr(game, "id", None), str)
        and isinstance(getattr(game, "bets", None), BetConfig)
        and all(callable(getattr(game, name, None)) for name in ("play", "price", "validate_settings"))
    )


def _settings(game: Game, settings: Any) -> dict[str, int]:
    """The game's operator settings completed and checked: integers from 0 to `MAX_SETTING`."""
    if settings is None:
        settings = {}
    if not isinstance(settings, Mapping):
        raise EngineError(f"settings must be a mapping of setting names to values, not {shown(settings)}")
    for key, value in settings.items():
        if not isinstance(key, str):
            raise EngineError(f"a setting's name must be a string, not {shown(key)}")
        if isinstance(value, int) and not -MAX_SETTING <= value <= MAX_SETTING:
            raise EngineError(f"setting {shown(key)} must be at most {MAX_SETTING:_}, not {shown(value)}")
    out = game.validate_settings(settings)
    for key, value in out.items():
        if type(value) is not int or not 0 <= value <= MAX_SETTING:
            raise EngineError(f"setting {shown(key)} must be an integer from 0 to {MAX_SETTING:_}, not {shown(value)}")
    return out


def _checksum(state: dict[str, Any]) -> str:
    canon = json.dumps(state, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canon.encode()).hexdigest()


def _fields(obj: Any, what: str, required: frozenset[str], optional: tuple[str, ...] = ()) -> None:
    """``obj`` must be a JSON object with the ``required`` keys, and no keys but the ``optional``
    ones besides (fields that saves made before the Feature Buy and the jackpot lack)."""
    if not isinstance(obj, dict):
        raise SnapshotError(f"the saved {what} is not an object: {shown(obj)}")
    missing = sorted(required - obj.keys())
    unknown = sorted(k for k in obj if k not in required and k not in optional)
    if missing or unknown:
        problem = f"the {what} lacks {missing} or has unknown fields {unknown}"[:300]
        raise SnapshotError(f"the saved session is inconsistent: {problem}")


def _int(v: Any, what: str = "amount", top: int = MAX_AMOUNT) -> int:
    if type(v) is not int or not 0 <= v <= top:
        raise SnapshotError(f"the saved {what} must be a non-negative integer of at most {top:_}, not {shown(v)}")
    return v


def _bool(v: Any, what: str) -> bool:
    if v is not True and v is not False:
        raise SnapshotError(f"the saved {what} must be true or false, not {shown(v)}")
    return v


def _strings(v: Any, what: str) -> tuple[str, ...]:
    if not isinstance(v, list) or any(not isinstance(x, str) for x in v):
        raise SnapshotError(f"the saved {what} must be a list of strings, not {shown(v)}")
    return tuple(v)


def _mode(game: Game, v: Any) -> str:
    if not isinstance(v, str) or v not in game.modes:
        raise SnapshotError(f"the saved mode {shown(v)} is not one of {', '.join(game.modes)}")
    return v


def _bet(game: Game, v: Any) -> Bet:
    """A saved bet: one the game offers."""
    _fields(v, "bet", frozenset({"lines", "bet_per_line", "coins"}))
    return game.bets.validate(Bet(v["lines"], v["bet_per_line"], v["coins"]))


def _record(game: Game, r: Any) -> RoundRecord:
    """A history record as saved, each field checked (its replay is checked by `Session._verify`)."""
    _fields(r, "history record", _RECORD_KEYS, ("mode", "jackpot"))
    return RoundRecord(
        index=_int(r["index"], "round number"),
        seed=_int(r["seed"], "round seed", MASK64),
        bet=_bet(game, r["bet"]),
        autoplay=_bool(r["autoplay"], "autoplay"),
        choices=_strings(r["choices"], "choices"),
        events=tuple(events_from_json(r["events"])),
        stake=_int(r["stake"], "stake"),
        win=_int(r["win"], "win"),
        balance_before=_int(r["balance_before"], "balance"),
        balance_after=_int(r["balance_after"], "balance"),
        time_ms=_int(r["time_ms"], "time", MAX_TIME_MS),
        features=_strings(r["features"], "features"),
        mode=_mode(game, r.get("mode", "base")),
        jackpot=_int(r.get("jackpot", 0), "jackpot"),
    )


def _bet_json(bet: Bet) -> dict[str, int]:
    return {"lines": bet.lines, "bet_per_line": bet.bet_per_line, "coins": bet.coins}
