"""A round as a link: one finished round in a short, URL-safe token that any copy of the
engine replays byte-identically, with no server.

A round is a pure function of its record (`pyengine.replay`): the game, the bet, the mode,
the round's seed, the choices made, the time jackpot it won (the pot's draw depends on the
session's clock, so a record keeps the outcome), the operator settings, whether autoplay
played it and the balance before it (the round's first event shows it). The token carries
that record and the game's data version, so a token made before the game's strips or pays
changed is refused rather than replayed into another round.

Format (``TOKEN_FORMAT`` "1"): ``"1"`` then base64url, without padding, of the
raw-deflated compact JSON array of the record followed by the first 4 bytes of its SHA-256
(a mistyped or truncated token fails the check; the token is not a secret and not signed).
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import json
import zlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .errors import EngineError
from .events import Event
from .games import game_ids, get_game
from .model import MAX_BALANCE, Bet
from .replay import replay
from .session import Session
from .snapshot import RoundRecord

__all__ = [
    "MAX_TOKEN", "TOKEN_FORMAT", "LinkError", "RoundLink", "decode", "encode", "first_round", "link_of", "play_link",
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


def encode(link: RoundLink) -> str:
    """The token of ``link``."""
    b = link.bet
    record = [
        link.game, link.version, link.seed, [b.lines, b.bet_per_line, b.coins], link.mode, list(link.choices),
        link.jackpot, dict(link.settings), int(link.autoplay), link.balance,
    ]
    raw = json.dumps(record, separators=(",", ":"), ensure_ascii=True).encode()
    packer = zlib.compressobj(9, zlib.DEFLATED, -15)
    body = packer.compress(raw) + packer.flush()
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
        unpacker = zlib.decompressobj(-15)
        raw = unpacker.decompress(body, MAX_TOKEN * 64)
        if unpacker.unconsumed_tail or not unpacker.eof:
            raise ValueError("not one whole record")
        record = json.loads(raw)
        return _record(record)
    except LinkError:
        raise
    except (zlib.error, ValueError, TypeError, KeyError, IndexError):
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
    if not isinstance(mode, str) or not isinstance(choices, list) or not all(isinstance(c, str) for c in choices):
        raise ValueError("not a mode and choices")
    if not isinstance(settings, dict) or autoplay not in (0, 1):
        raise ValueError("not settings")
    return RoundLink(game, version, seed, Bet(*bet), mode, tuple(choices), jackpot, settings, bool(autoplay), balance)


def play_link(link: RoundLink) -> list[Event]:
    """Replay the round of ``link`` and return its whole event log (a `LinkError` when the
    record does not replay: a bet, mode or setting the game does not offer, choices that
    do not finish the round)."""
    g = get_game(link.game)
    try:
        bet = g.bets.validate(link.bet)
        return replay(
            link.game,
            seed=link.seed,
            lines=bet.lines,
            bet_per_line=bet.bet_per_line,
            coins=bet.coins,
            choices=link.choices,
            settings=dict(link.settings),
            balance=link.balance,
            autoplay=link.autoplay,
            mode=link.mode,
            jackpot=link.jackpot,
        )
    except LinkError:
        raise
    except EngineError as exc:
        raise LinkError(f"this round link does not replay: {exc}") from None


def first_round(
    game: str, seed: int, *, bet: Bet | None = None, mode: str = "base", choices: Sequence[str] | None = None,
    settings: Mapping[str, int] | None = None,
) -> tuple[RoundRecord, list[Event]]:
    """The first round of a session of ``game`` started with ``seed`` (as `python3 -m
    pyengine play` plays it), at ``bet`` (the default bet) in ``mode``, answering each
    decision with the next of ``choices`` (None: the first choice offered each time)."""
    g = get_game(game)
    stake_bet = g.bets.validate(bet) if bet is not None else g.bets.default
    balance = min(max(g.price(stake_bet, mode) if mode in g.modes else stake_bet.total, 100_000), MAX_BALANCE)
    session = Session(game, balance=balance, seed=seed, settings=dict(settings or {}), bet=stake_bet)
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
