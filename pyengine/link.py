"""A round as a link: one finished round in a short, URL-safe token that any copy of the
engine replays byte-identically, with no server.

A round is a pure function of its record (`pyengine.replay`): the game, the bet, the mode,
the round's seed, the choices made, the time jackpot it won (the pot's draw depends on the
session's clock, so a record keeps the outcome), the operator settings, whether autoplay
played it and the balance before it (the round's first event shows it). The token carries
that record and the game's data version, so a token made before the game's strips or pays
changed is refused rather than replayed into another round.

Format (``TOKEN_FORMAT`` "1"): ``"1"`` then base64url, without padding, of the compact
JSON array of the record (a run of one choice is ``[choice, times]``: a feature's many
"spin" answers stay short) followed by the first 4 bytes of its SHA-256 (a mistyped or
truncated token fails the check; the token is not a secret and not signed). Nothing in it
depends on the platform (no compression library's version), so CPython and the page's
Pyodide make the same token for the same round.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .errors import EngineError
from .events import Event
from .games import game_ids, get_game
from .model import MAX_BALANCE, Bet
from .session import Session
from .snapshot import RoundRecord

__all__ = [
    "MAX_TOKEN", "TOKEN_FORMAT", "LinkError", "RoundLink", "decode", "encode", "first_round", "link_of",
    "link_of_record", "link_session", "play_link", "replay_round", "watch_url",
]

TOKEN_FORMAT = "1"
MAX_TOKEN = 4000
"""The longest token read (characters): far above a real round's (a long feature's few
hundred), far below what a URL may carry."""
_CHECK = 4
"""Bytes of SHA-256 kept as the checksum."""


class LinkError(EngineError):
    """A token that is not a round of this engine: malformed, mistyped, for a game or data
    version this engine does not have, or a record that does not replay."""


@dataclass(frozen=True, slots=True)
class RoundLink:
    """The record of one round, as a token carries it."""

    game: str
    version: str
    """The game's data version (`Game.version`) the round was played on."""
    seed: int
    bet: Bet
    mode: str = "base"
    choices: tuple[str, ...] = ()
    jackpot: int = 0
    settings: Mapping[str, int] = field(default_factory=dict)
    """The operator settings that differ from the game's defaults."""
    autoplay: bool = False
    balance: int = 100_000
    """The balance before the round (its `RoundStart` shows it; it changes nothing else)."""


def watch_url(game: str, token: str) -> str:
    """The page that plays ``token`` back, relative to the site's root."""
    return f"play.html?game={game}&replay={token}"


def link_of(game: str, record: RoundRecord, settings: Mapping[str, int] | None = None) -> RoundLink:
    """The link of a finished round of ``game`` (its `RoundRecord`, from `Session.history` or
    `Session.last_round`) under the session's ``settings``."""
    g = get_game(game)
    chosen = g.validate_settings(dict(settings or {}))
    defaults = g.default_settings()
    changed = {k: v for k, v in sorted(chosen.items()) if defaults.get(k) != v}
    return RoundLink(
        game=game,
        version=g.version,
        seed=record.seed,
        bet=record.bet,
        mode=record.mode,
        choices=tuple(record.choices),
        jackpot=record.jackpot,
        settings=changed,
        autoplay=record.autoplay,
        balance=record.balance_before,
    )


def link_of_record(record: Mapping[str, Any]) -> RoundLink:
    """The link of a replay record (`pyengine.replay.replay`'s arguments, as a golden
    file's first line holds them), on the game's current data version."""
    game = record["game"]
    return RoundLink(
        game=game,
        version=get_game(game).version,
        seed=record["seed"],
        bet=Bet(record["lines"], record["bet_per_line"], record.get("coins", 1)),
        mode=record.get("mode", "base"),
        choices=tuple(record.get("choices", ())),
        jackpot=record.get("jackpot", 0),
        settings=dict(record.get("settings") or {}),
        autoplay=bool(record.get("autoplay", False)),
        balance=record.get("balance", 100_000),
    )


def encode(link: RoundLink) -> str:
    """The token of ``link``."""
    b = link.bet
    record = [
        link.game, link.version, link.seed, [b.lines, b.bet_per_line, b.coins], link.mode, _runs(link.choices),
        link.jackpot, dict(link.settings), int(link.autoplay), link.balance,
    ]
    body = json.dumps(record, separators=(",", ":"), ensure_ascii=True).encode()
    data = body + hashlib.sha256(body).digest()[:_CHECK]
    return TOKEN_FORMAT + base64.urlsafe_b64encode(data).decode().rstrip("=")


def decode(token: object) -> RoundLink:
    """The round ``token`` carries, checked: a clear `LinkError` for anything else."""
    if not isinstance(token, str) or not token:
        raise LinkError("a round link's token must be a non-empty string")
    if len(token) > MAX_TOKEN:
        raise LinkError(f"this round link is too long ({len(token):,} characters; at most {MAX_TOKEN:,})")
    if token[0] != TOKEN_FORMAT:
        raise LinkError("this round link was not made by this version of the game (unknown format)")
    text = token[1:]
    try:
        data = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except (binascii.Error, ValueError):
        raise LinkError("this round link is damaged (it is not a token: check that it was copied whole)") from None
    body, check = data[:-_CHECK], data[-_CHECK:]
    if len(data) <= _CHECK or hashlib.sha256(body).digest()[:_CHECK] != check:
        raise LinkError("this round link is damaged (its checksum does not match: check that it was copied whole)")
    try:
        return _record(json.loads(body))
    except LinkError:
        raise
    except (ValueError, TypeError, KeyError, IndexError):
        raise LinkError("this round link is damaged (its record cannot be read)") from None


def _record(r: Any) -> RoundLink:
    game, version, seed, bet, mode, choices, jackpot, settings, autoplay, balance = r
    if not isinstance(game, str) or game not in game_ids():
        raise LinkError(f"this round link is for a game this site does not have ({game!r})")
    current = get_game(game).version
    if version != current:
        raise LinkError(
            f"this round link was played on version {version!r} of {get_game(game).name}; "
            f"this site has version {current!r}, which plays differently"
        )
    ints = (seed, jackpot, balance, *bet)
    if any(type(v) is not int for v in ints) or len(bet) != 3:
        raise ValueError("not whole numbers")
    choices = _unruns(choices)
    if not isinstance(mode, str):
        raise ValueError("not a mode")
    if not isinstance(settings, dict) or autoplay not in (0, 1):
        raise ValueError("not settings")
    return RoundLink(game, version, seed, Bet(*bet), mode, tuple(choices), jackpot, settings, bool(autoplay), balance)


def _runs(choices: Sequence[str]) -> list[Any]:
    """``choices`` with each run of one choice as ``[choice, times]``."""
    out: list[Any] = []
    for c in choices:
        last = out[-1] if out else None
        if isinstance(last, list) and last[0] == c:
            last[1] += 1
        elif last == c:
            out[-1] = [c, 2]
        else:
            out.append(c)
    return out


def _unruns(runs: Any) -> list[str]:
    if not isinstance(runs, list):
        raise ValueError("not a list of choices")
    out: list[str] = []
    for r in runs:
        if isinstance(r, str):
            out.append(r)
        elif isinstance(r, list) and len(r) == 2 and isinstance(r[0], str) and type(r[1]) is int and 2 <= r[1] <= 9999:
            out += [r[0]] * r[1]
        else:
            raise ValueError("not a choice")
    return out


def link_session(link: RoundLink, clock: Callable[[], float] = time.time) -> Session:
    """A session of the link's own, as its round found it: the balance the round started
    from, its bet and operator settings (``clock``: the session's, e.g. the page's). A
    `LinkError` for a bet or a setting the game does not offer."""
    try:
        return Session(link.game, seed=0, balance=link.balance, settings=dict(link.settings), bet=link.bet, clock=clock)
    except EngineError as exc:
        raise LinkError(f"this round link does not replay: {exc}") from None


def replay_round(session: Session, link: RoundLink) -> list[Event]:
    """The round of ``link`` played in ``session`` (`link_session`): its whole event log. A
    `LinkError` when the record does not replay (a mode the game does not have, choices
    that do not finish the round)."""
    try:
        return session.replay(
            seed=link.seed, choices=link.choices, autoplay=link.autoplay, mode=link.mode, jackpot=link.jackpot
        )
    except EngineError as exc:
        raise LinkError(f"this round link does not replay: {exc}") from None


def play_link(link: RoundLink) -> list[Event]:
    """Replay the round of ``link`` and return its whole event log (a `LinkError` when the
    record does not replay)."""
    return replay_round(link_session(link), link)


def first_round(
    game: str, seed: int, *, bet: Bet | None = None, mode: str = "base", choices: Sequence[str] | None = None,
    settings: Mapping[str, int] | None = None, clock: Callable[[], float] = time.time,
) -> tuple[RoundRecord, list[Event]]:
    """The first round of a session of ``game`` started with ``seed`` (as `python3 -m
    pyengine play` plays it), at ``bet`` (the default bet) in ``mode``, answering each
    decision with the next of ``choices`` (None: the first choice offered each time);
    ``clock`` is the session's (a fixed one makes a time jackpot's draw reproducible)."""
    g = get_game(game)
    stake_bet = g.bets.validate(bet) if bet is not None else g.bets.default
    balance = min(max(g.price(stake_bet, mode) if mode in g.modes else stake_bet.total, 100_000), MAX_BALANCE)
    session = Session(game, balance=balance, seed=seed, settings=dict(settings or {}), bet=stake_bet, clock=clock)
    events = session.spin(mode=mode)
    answers = list(choices) if choices is not None else None
    while (d := session.pending) is not None:
        if answers is None:
            events += session.choose(d.choices[0])
        elif not answers:
            raise EngineError(f"the round waits on {d.kind!r} after the choices given; offered: {', '.join(d.choices)}")
        else:
            events += session.choose(answers.pop(0))
    if answers:
        raise EngineError(f"the round ended before the choices {', '.join(answers)}")
    last = session.last_round
    assert last is not None
    return last, events
