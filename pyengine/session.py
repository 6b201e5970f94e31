"""The player's session: wallet, bet, the round in play, history, snapshot and restore.

One `Session` serves every game, the CLI, the simulator and the browser. Money is integer
minor units. A round starts with `spin`; if it waits on the player, `pending` says which
decision and which choices are allowed, and `choose` answers it. Every error is a
`ValueError` subclass raised before anything changes.

>>> s = Session("book_of_spells", balance=10_000, seed=7)
>>> events = s.spin()
>>> events[0].type, s.balance + s.bet.total <= 10_000 + sum(getattr(e, "win", 0) for e in events[-1:])
('round_start', True)
"""

from __future__ import annotations

import hashlib
import json
import time
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from .errors import (
    BetError,
    EngineError,
    ChoiceError,
    InsufficientFundsError,
    NoDecisionPendingError,
    RoundInProgressError,
    SnapshotError,
)
from .events import ChoiceMade, Event, JackpotWin, RoundEnd, RoundStart, events_from_json
from .features.jackpot import TimeJackpot
from .games import Game, get_game
from .model import Bet
from .rng import Rng, new_seed
from .round import Decision, RoundContext, RoundProcess
from .values import record

__all__ = ["DEFAULT_BALANCE", "HISTORY_SIZE", "SNAPSHOT_FORMAT", "RoundRecord", "Session"]

DEFAULT_BALANCE = 100_000
HISTORY_SIZE = 10
SEED_BLOCK = 16
"""Round seeds are drawn this many at a time (`Rng.next64s`), the same values as one by one."""
PENDING_DAYS = 90
"""A round left waiting longer than this is settled on restore (auto-collect)."""
SNAPSHOT_FORMAT = "pyengine.session/2"
"""Version 2 renamed the hold-and-respin events' prize-symbol counts to ``count`` and moved
game-specific events into their games; a version 1 save is refused (`restore`)."""
JACKPOT_STREAM = 0x4A41434B504F5421
"""The jackpot's draw uses its own stream, ``Rng(round seed ^ JACKPOT_STREAM)``, so the
game's outcome for a seed does not depend on the jackpot."""


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


class _Round(RoundContext):
    """The round in play: the game's context plus what the session needs to save it."""

    __slots__ = (
        "balance_before",
        "index",
        "jackpot",
        "pending",
        "process",
        "seed",
        "stake",
        "time_ms",
    )

    def __init__(
        self,
        rng: Rng,
        bet: Bet,
        settings: Mapping[str, int],
        autoplay: bool,  # noqa: FBT001
        index: int,
        seed: int,
        balance_before: int,
        time_ms: int,
        mode: str,
        stake: int,
        jackpot: int,
    ) -> None:
        # ``rng`` is already set to ``seed``.
        RoundContext.__init__(self, rng, bet, settings, autoplay, mode)
        self.stake = stake
        self.jackpot = jackpot
        self.index = index
        self.seed = seed
        self.balance_before = balance_before
        self.time_ms = time_ms
        self.pending: Decision | None = None
        self.process: RoundProcess | None = None

    @property
    def choices(self) -> tuple[str, ...]:
        """The choices made so far, read from the round's events (only the history and
        snapshots need them)."""
        return tuple(e.choice for e in self.events if isinstance(e, ChoiceMade))

    @property
    def balance_after(self) -> int:
        """The balance once the round has finished (nothing else moves it during a round)."""
        return self.balance_before - self.stake + self.win

    def record(self) -> RoundRecord:
        return RoundRecord(
            self.index,
            self.seed,
            self.bet,
            self.autoplay,
            self.choices,
            tuple(self.events),
            self.stake,
            self.win,
            self.balance_before,
            self.balance_after,
            self.time_ms,
            tuple(self.features),
            self.mode,
            self.jackpot,
        )


class Session:
    """A player's session with one game."""

    def __init__(
        self,
        game: str | Game,
        *,
        balance: int = DEFAULT_BALANCE,
        seed: int | None = None,
        settings: Mapping[str, Any] | None = None,
        bet: Bet | None = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.game: Game = get_game(game) if isinstance(game, str) else game
        if not isinstance(balance, int) or isinstance(balance, bool) or balance < 0:
            raise InsufficientFundsError(f"balance must be a non-negative integer of minor units, not {balance!r}")
        self.balance = balance
        self.settings = self.game.validate_settings(settings or {})
        self.bet = self.game.bets.validate(bet) if bet is not None else self.game.bets.default
        self._rng = Rng(new_seed() if seed is None else seed)
        self._seeds: list[int] = []  # the next round seeds, already drawn from _rng; next one last
        # Every round draws from this one generator, set to the round's seed as it starts
        # (a round depends on its seed alone; reusing the object saves building one a round).
        self._round_rng = Rng.from_state(0)
        self._clock = clock
        rules = self.game.jackpot
        self.jackpot: TimeJackpot | None = None if rules is None else TimeJackpot(rules, self.now_ms())
        self.rounds_played = 0
        self._history: deque[_Round | RoundRecord] = deque(maxlen=HISTORY_SIZE)
        self._round: _Round | None = None

    # -- state ------------------------------------------------------------------
    def now_ms(self) -> int:
        """The session clock's time, in milliseconds since the epoch."""
        return int(self._clock() * 1000)

    @property
    def modes(self) -> tuple[str, ...]:
        """The bet modes the game offers (``base``, and ``buy`` where the feature can be bought)."""
        return self.game.modes

    def price(self, mode: str = "base") -> int:
        """What a round in ``mode`` costs at the current bet."""
        return self.game.price(self.bet, mode)

    @property
    def pending(self) -> Decision | None:
        """The decision the round in play waits on, or None."""
        return self._round.pending if self._round else None

    @property
    def history(self) -> tuple[RoundRecord, ...]:
        """The last `HISTORY_SIZE` finished rounds, oldest first."""
        return tuple(r if isinstance(r, RoundRecord) else r.record() for r in self._history)

    @property
    def last_round(self) -> RoundRecord | None:
        """The most recent finished round, or None."""
        if not self._history:
            return None
        r = self._history[-1]
        return r if isinstance(r, RoundRecord) else r.record()

    @property
    def in_round(self) -> bool:
        return self._round is not None

    @property
    def round_events(self) -> tuple[Event, ...]:
        """Every event of the round in play so far (empty when idle)."""
        return tuple(self._round.events) if self._round else ()

    @property
    def round_win(self) -> int:
        """The win of the round in play so far."""
        return self._round.win if self._round else 0

    # -- bet ----------------------------------------------------------------------
    def _idle(self, action: str) -> None:
        if self._round is not None:
            kind = self._round.pending.kind if self._round.pending else "?"
            raise RoundInProgressError(f"cannot {action} while a round waits on '{kind}'; answer it first")

    def set_bet(self, bet: Bet) -> Bet:
        """Change the bet (only between rounds)."""
        self._idle("change the bet")
        if not isinstance(bet, Bet):
            raise BetError(f"a bet must be a Bet, not {bet!r}")
        self.bet = self.game.bets.validate(bet)
        return self.bet

    def lines_up(self) -> Bet:
        """One more line; past the maximum it wraps to 1."""
        return self.set_bet(self.game.bets.next_lines(self.bet))

    def lines_down(self) -> Bet:
        return self.set_bet(self.game.bets.prev_lines(self.bet))

    def bet_up(self) -> Bet:
        return self.set_bet(self.game.bets.step_level(self.bet, 1))

    def bet_down(self) -> Bet:
        return self.set_bet(self.game.bets.step_level(self.bet, -1))

    def coins_up(self) -> Bet:
        """One coin per line more (a coin game), held at the most."""
        return self.set_bet(self.game.bets.step_coins(self.bet, 1))

    def coins_down(self) -> Bet:
        return self.set_bet(self.game.bets.step_coins(self.bet, -1))

    def bet_max(self) -> Bet:
        """The most lines and coins and the highest bet per line (a coin game keeps its
        coin size)."""
        return self.set_bet(self.game.bets.bet_max(self.bet))

    # -- rounds -------------------------------------------------------------------
    def spin(self, *, autoplay: bool = False, seed: int | None = None, mode: str = "base") -> list[Event]:
        """Start a round at the current bet; return its events up to a decision or the end.

        ``mode`` ``buy`` buys the feature at `price` (only where the game offers it, never
        in autoplay). ``seed`` replaces the session's own next round seed (for replays and
        tests).
        """
        return self._start(autoplay, seed, mode, None)

    def replay(
        self,
        *,
        seed: int,
        choices: Sequence[str] = (),
        autoplay: bool = False,
        mode: str = "base",
        jackpot: int = 0,
    ) -> list[Event]:
        """Play one round from its record at the current bet and return its whole event log:
        its ``seed``, the ``choices`` made, and the time ``jackpot`` it won (the pot's draw
        depends on the clock and the pot, so a record keeps the outcome rather than
        redrawing it). The round must finish: a record that leaves it waiting raises
        `EngineError` (and the round stays in play)."""
        events = self._start(autoplay, seed, mode, jackpot)
        for choice in choices:
            events += self.choose(choice)
        if self._round is not None:
            pending = self._round.pending
            raise EngineError(f"the record ends while the round waits on {pending.kind if pending else '?'!r}")
        return events

    def buy(self, *, seed: int | None = None) -> list[Event]:
        """Buy the feature at the current bet (the price is `price("buy")`); return its events."""
        return self._start(False, seed, "buy", None)  # noqa: FBT003

    def _start(self, autoplay: bool, seed: int | None, mode: str, jackpot: int | None) -> list[Event]:  # noqa: FBT001
        """Start a round; ``jackpot`` given (a replay) replaces the pot's draw with that amount."""
        if self._round is not None:
            self._idle("start a round")
        bet = self.bet
        if mode == "base":
            stake = bet.lines * bet.bet_per_line * bet.coins
        else:
            if mode not in self.game.modes:
                raise EngineError(
                    f"{self.game.name} has no mode {mode!r}; its modes are {', '.join(self.game.modes)}"
                )
            if autoplay:
                raise EngineError("autoplay never buys a feature")
            stake = self.game.price(bet, mode)
        before = self.balance
        if stake > before:
            what = "the stake" if mode == "base" else "the feature price"
            raise InsufficientFundsError(
                f"{what} {self.game.bets.format(stake)} is more than the balance "
                f"{self.game.bets.format(before)}; lower the bet"
            )
        if seed is None:
            if not self._seeds:
                self._seeds = self._rng.next64s(SEED_BLOCK)[::-1]
            round_seed = self._seeds.pop()
        elif type(seed) is int and 0 <= seed < 1 << 64:
            round_seed = seed
        else:
            raise EngineError(f"a round seed must be an integer from 0 to 2**64-1, not {seed!r}")
        now = int(self._clock() * 1000)
        self.balance = before - stake
        rng = self._round_rng
        if jackpot is None:
            jackpot = 0
            if self.jackpot is not None and mode == "base":
                rng.state = round_seed ^ JACKPOT_STREAM
                jackpot = self.jackpot.play(stake, now, rng)
        rng.state = round_seed
        rnd = _Round(
            rng, bet, self.settings, autoplay, self.rounds_played, round_seed, before, now, mode, stake, jackpot
        )
        self._begin(rnd)
        return rnd.events[:]

    def _begin(self, rnd: _Round) -> None:
        """Log the round's start and play it up to its first decision, or to its end."""
        bet = rnd.bet
        start = RoundStart(self.game.id, rnd.seed, bet.lines, bet.bet_per_line, bet.coins, rnd.stake, self.balance)
        rnd.events.append(start)
        rnd.process = process = self.game.play(rnd)
        self._round = rnd
        # Most rounds end without a decision: next() with a default ends them without
        # raising StopIteration.
        decision = next(process, None)
        if decision is None:
            self._finish(rnd)
        else:
            rnd.pending = decision
            rnd.events.append(decision.pending_event)

    def choose(self, choice: str) -> list[Event]:
        """Answer the pending decision; return the events that follow."""
        rnd = self._round
        decision = None if rnd is None else rnd.pending
        if rnd is None or decision is None:
            raise NoDecisionPendingError(f"no decision is pending; choice {choice!r} is not expected")
        try:
            made = decision.choice_events[choice]
        except (KeyError, TypeError):  # TypeError: an unhashable choice is no choice either
            raise ChoiceError(
                f"{choice!r} is not a choice for '{decision.kind}'; choose one of {', '.join(decision.choices)}"
            ) from None
        events = rnd.events
        start = len(events)
        events.append(made)
        assert rnd.process is not None
        try:
            decision = rnd.process.send(choice)
        except StopIteration:
            self._finish(rnd)
            return events[start:]
        rnd.pending = decision
        events.append(decision.pending_event)
        return events[start:]

    def _finish(self, rnd: _Round) -> None:
        win = rnd.win
        if rnd.jackpot:
            rnd.events.append(JackpotWin(rnd.jackpot))
            rnd.win = win = win + rnd.jackpot
        self.balance = balance = self.balance + win
        rnd.events.append(RoundEnd(win, balance))
        rnd.process = None
        # Kept as the finished _Round; `history` builds the records when asked.
        rnd.pending = None
        self._history.append(rnd)
        self.rounds_played += 1
        self._round = None

    def add_funds(self, amount: int) -> int:
        """Top up the free-play balance (between rounds)."""
        self._idle("top up")
        if not isinstance(amount, int) or isinstance(amount, bool) or amount <= 0:
            raise InsufficientFundsError(f"a top-up must be a positive integer of minor units, not {amount!r}")
        self.balance += amount
        return self.balance

    # -- snapshot -----------------------------------------------------------------
    def snapshot(self) -> str:
        """The whole session as JSON, with a checksum, for `restore`."""
        rnd = self._round
        state: dict[str, Any] = {
            "game": self.game.id,
            "version": self.game.version,
            "balance": self.balance,
            "bet": _bet_json(self.bet),
            "settings": dict(self.settings),
            "rng": self._rng.state_back(len(self._seeds)),  # as if the seeds were drawn one by one
            "rounds_played": self.rounds_played,
            "jackpot": None if self.jackpot is None else self.jackpot.to_json(),
            "round": None
            if rnd is None
            else {
                "index": rnd.index,
                "seed": rnd.seed,
                "bet": _bet_json(rnd.bet),
                "autoplay": rnd.autoplay,
                "choices": list(rnd.choices),
                "balance_before": rnd.balance_before,
                "time_ms": rnd.time_ms,
                "mode": rnd.mode,
                "jackpot": rnd.jackpot,
            },
            "history": [r.to_json() for r in self.history],
        }
        return json.dumps(
            {"format": SNAPSHOT_FORMAT, "state": state, "checksum": _checksum(state)},
            sort_keys=True,
            separators=(",", ":"),
        )

    @classmethod
    def restore(
        cls,
        text: str,
        *,
        game: str | None = None,
        clock: Callable[[], float] = time.time,
    ) -> Session:
        """Rebuild a session from `snapshot` text, replaying the round in play.

        Raises `SnapshotError` for anything corrupt, tampered with, or (with ``game``)
        saved by another game.
        """
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
        if not isinstance(state, dict) or obj.get("checksum") != _checksum(state):
            raise SnapshotError("the saved session fails its checksum: it is corrupt or was edited")
        try:
            return cls._from_state(state, game, clock)
        except SnapshotError:
            raise
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            raise SnapshotError(f"the saved session is inconsistent: {exc}") from None

    @classmethod
    def _from_state(cls, state: dict[str, Any], game: str | None, clock: Callable[[], float]) -> Session:
        gid = state["game"]
        if game is not None and gid != game:
            raise SnapshotError(f"the saved session belongs to {gid!r}, not {game!r}")
        g = get_game(gid)
        if state["version"] != g.version:
            raise SnapshotError(f"the saved session is for version {state['version']} of {gid}, not {g.version}")
        s = cls(g, balance=_int(state["balance"]), settings=state["settings"], bet=_bet(state["bet"]), clock=clock)
        s._rng.state = _int(state["rng"])
        s.rounds_played = _int(state["rounds_played"])
        saved_jackpot = state.get("jackpot")
        if (saved_jackpot is None) != (g.jackpot is None):
            raise SnapshotError("the saved jackpot does not fit the game")
        if g.jackpot is not None:
            s.jackpot = TimeJackpot.from_json(g.jackpot, saved_jackpot)
        for r in state["history"]:
            record = RoundRecord(
                    index=_int(r["index"]),
                    seed=_int(r["seed"]),
                    bet=_bet(r["bet"]),
                    autoplay=bool(r["autoplay"]),
                    choices=tuple(str(c) for c in r["choices"]),
                    events=tuple(events_from_json(r["events"])),
                    stake=_int(r["stake"]),
                    win=_int(r["win"]),
                    balance_before=_int(r["balance_before"]),
                    balance_after=_int(r["balance_after"]),
                    time_ms=_int(r["time_ms"]),
                    features=tuple(str(f) for f in r["features"]),
                    mode=_mode(g, r.get("mode", "base")),
                    jackpot=_amount(r.get("jackpot", 0)),
                )
            s._verify(record)
            s._history.append(record)
        rd = state["round"]
        if rd is not None:
            s._replay(rd)
            if clock() * 1000 - _int(rd["time_ms"]) > PENDING_DAYS * 86_400_000:
                s.settle()
            elif s.pending is not None and s.pending.on_restore is not None:
                s.choose(s.pending.on_restore)
        return s

    def _verify(self, record: RoundRecord) -> None:
        """A history record must replay to exactly its events (no edited wins)."""
        probe = Session(self.game, balance=record.balance_before, seed=0, settings=self.settings, bet=record.bet)
        events = probe._start(autoplay=record.autoplay, seed=record.seed, mode=record.mode, jackpot=record.jackpot)
        try:
            for choice in record.choices:
                events += probe.choose(choice)
        except (ChoiceError, NoDecisionPendingError):
            raise SnapshotError(f"round {record.index} of the history does not replay") from None
        last = probe.last_round
        if (
            tuple(events) != record.events
            or probe.balance != record.balance_after
            or last is None
            or (last.win, last.stake, last.features, last.jackpot)
            != (record.win, record.stake, record.features, record.jackpot)
        ):
            raise SnapshotError(f"round {record.index} of the history does not match its replay")

    def settle(self) -> list[Event]:
        """Finish the round in play as autoplay would (collect, start, spin); return its events.

        Used for rounds left pending longer than `PENDING_DAYS`: their winnings are
        collected automatically and the round is set as finished.
        """
        events: list[Event] = []
        while (d := self.pending) is not None:
            events += self.choose(d.choices[0])
        return events

    def _replay(self, rd: dict[str, Any]) -> None:
        bet = _bet(rd["bet"])
        mode = _mode(self.game, rd.get("mode", "base"))
        stake = self.game.price(bet, mode)
        before = _int(rd["balance_before"])
        if before - stake != self.balance:
            raise SnapshotError("the saved balance does not match the round in play")
        seed = _int(rd["seed"])
        rng = self._round_rng
        rng.state = seed
        rnd = _Round(
            rng,
            bet,
            self.settings,
            bool(rd["autoplay"]),
            _int(rd["index"]),
            seed,
            before,
            _int(rd["time_ms"]),
            mode,
            stake,
            _amount(rd.get("jackpot", 0)),
        )
        self._begin(rnd)
        for choice in rd["choices"]:
            if self._round is None or rnd.pending is None or choice not in rnd.pending.choices:
                self._round = None
                raise SnapshotError("the saved choices do not replay: the round in play is corrupt")
            self.choose(choice)
        if self._round is None:
            raise SnapshotError("the saved round in play had already finished")


def _checksum(state: dict[str, Any]) -> str:
    canon = json.dumps(state, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(canon.encode()).hexdigest()


def _int(v: Any) -> int:
    if not isinstance(v, int) or isinstance(v, bool) or v < 0:
        raise SnapshotError(f"expected a non-negative integer, found {v!r}")
    return v


def _amount(v: Any) -> int:
    return _int(v)


def _mode(game: Game, v: Any) -> str:
    if v not in game.modes:
        raise SnapshotError(f"the saved mode {v!r} is not one of {', '.join(game.modes)}")
    return str(v)


def _bet(v: Any) -> Bet:
    return Bet(_int(v["lines"]), _int(v["bet_per_line"]), _int(v["coins"]))


def _bet_json(bet: Bet) -> dict[str, int]:
    return {"lines": bet.lines, "bet_per_line": bet.bet_per_line, "coins": bet.coins}
