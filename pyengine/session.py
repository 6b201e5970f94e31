"""The player's session: wallet, bet, the round in play, history, snapshot and restore.

One `Session` serves every game, the CLI, the simulator and the browser. Money is integer
minor units. A round starts with `spin`; if it waits on the player, `pending` says which
decision and which choices are allowed, and `choose` answers it. Every error is a
`ValueError` subclass raised before anything changes.

>>> from pyengine.games import GAME_IDS
>>> s = Session(GAME_IDS[0], balance=10_000, seed=7)  # any registered game
>>> events = s.spin()
>>> events[0].type, s.balance + s.bet.total <= 10_000 + sum(getattr(e, "win", 0) for e in events[-1:])
('round_start', True)
"""

from __future__ import annotations

import time
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from .errors import (
    BetError,
    ChoiceError,
    EngineError,
    InsufficientFundsError,
    NoDecisionPendingError,
    RoundInProgressError,
    SnapshotError,
    UnknownGameError,
    shown,
)
from .events import ChoiceMade, Event, JackpotWin, RoundEnd, RoundStart
from .features.jackpot import TimeJackpot
from .games import GAME_IDS, Game, get_game
from .model import MAX_AMOUNT, MAX_BALANCE, MAX_SETTING, MAX_TIME_MS, Bet
from .rng import MASK64, Rng, new_seed
from .round import Decision, RoundContext, RoundProcess
from .snapshot import (
    MAX_JSON_DEPTH as MAX_JSON_DEPTH,
    MAX_SNAPSHOT_CHARS,
    PENDING_DAYS as PENDING_DAYS,
    SNAPSHOT_FORMAT,
    RoundRecord,
    _bet_json,
    _is_game,
    _settings,
    read_snapshot,
    saved_game,
    saved_history,
    saved_round,
    saved_wallet,
    write_snapshot,
)
from .snapshot import _checksum as _checksum  # a game's tests still sign edited saves with it from here

__all__ = [
    "DEFAULT_BALANCE",
    "HISTORY_SIZE",
    "MAX_AMOUNT",
    "MAX_BALANCE",
    "MAX_SETTING",
    "MAX_SNAPSHOT_CHARS",
    "MAX_TIME_MS",
    "SNAPSHOT_FORMAT",
    "RoundRecord",
    "Session",
]

DEFAULT_BALANCE = 100_000
HISTORY_SIZE = 10
SEED_BLOCK = 16
"""Round seeds are drawn this many at a time (`Rng.next64s`), the same values as one by one."""
JACKPOT_STREAM = 0x4A41434B504F5421
"""The jackpot's draw uses its own stream, ``Rng(round seed ^ JACKPOT_STREAM)``, so the
game's outcome for a seed does not depend on the jackpot."""


class _Round(RoundContext):
    """The round in play: the game's context plus what the session needs to save it."""

    __slots__ = (
        "balance_before",
        "index",
        "jackpot",
        "jackpot_paid",
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
        self.jackpot_paid = False  # credited at the round's first decision (the jackpot never waits)
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

    def to_json(self) -> dict[str, Any]:
        """The round in play as a snapshot saves it (`Session._replay` plays it again)."""
        return {
            "index": self.index,
            "seed": self.seed,
            "bet": _bet_json(self.bet),
            "autoplay": self.autoplay,
            "choices": list(self.choices),
            "balance_before": self.balance_before,
            "time_ms": self.time_ms,
            "mode": self.mode,
            "jackpot": self.jackpot,
        }


class Session:
    """A player's session with one game.

    ``game`` is a game id (`pyengine.games.GAME_IDS`) or a `Game`. The starting
    ``balance`` and every top-up are bounded by `MAX_BALANCE`; operator ``settings`` are
    integers from 0 to `MAX_SETTING`; ``clock`` returns seconds since the epoch.
    """

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
        if isinstance(game, str):
            self.game: Game = get_game(game)
        elif _is_game(game):
            self.game = game
        else:
            raise UnknownGameError(f"a game must be a game id ({', '.join(GAME_IDS)}) or a Game, not {shown(game)}")
        if type(balance) is not int or not 0 <= balance <= MAX_BALANCE:
            raise InsufficientFundsError(
                f"balance must be an integer of minor units from 0 to {MAX_BALANCE:_}, not {shown(balance)}"
            )
        if seed is not None and (type(seed) is not int or not 0 <= seed <= MASK64):
            raise EngineError(f"a session seed must be an integer from 0 to 2**64-1, not {shown(seed)}")
        if bet is not None and not isinstance(bet, Bet):
            raise BetError(f"a bet must be a Bet(lines, bet_per_line), not {shown(bet)}")
        if not callable(clock):
            raise EngineError(f"the clock must be a function returning seconds since the epoch, not {shown(clock)}")
        self.balance = balance
        self.settings = _settings(self.game, settings)
        self.bet = self.game.bets.validate(bet) if bet is not None else self.game.bets.default
        self._rng = Rng(new_seed() if seed is None else seed)
        self._seeds: list[int] = []  # the next round seeds, already drawn from _rng; next one last
        # Every round draws from this one generator, set to the round's seed as it starts
        # (a round depends on its seed alone; reusing the object saves building one a round).
        self._round_rng = Rng.from_state(0)
        self._clock = clock
        rules = self.game.jackpot
        self.jackpot: TimeJackpot | None = None
        if rules is not None:
            now = clock()
            if not isinstance(now, int | float) or isinstance(now, bool) or not 0 <= now * 1000 <= MAX_TIME_MS:
                raise EngineError(f"the clock must give seconds since the epoch (to the year 9999), not {shown(now)}")
            self.jackpot = TimeJackpot(rules, int(now * 1000))
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
        if not isinstance(mode, str) or mode not in self.game.modes:
            raise EngineError(f"{self.game.name} has no mode {shown(mode)}; its modes are {', '.join(self.game.modes)}")
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
            raise BetError(f"a bet must be a Bet, not {shown(bet)}")
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
        """The most lines and coins and the highest bet per line that the balance covers (a
        coin game keeps its coin size); the smallest bet when the balance covers none."""
        return self.set_bet(self.game.bets.bet_max(self.bet, self.balance))

    @property
    def can_afford_a_bet(self) -> bool:
        """Whether the balance covers the smallest bet on offer."""
        return self.game.bets.min_bet.total <= self.balance

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
        if isinstance(choices, str | bytes) or not isinstance(choices, Sequence):
            raise EngineError(f"choices must be a list of the round's choices, not {shown(choices)}")
        if any(not isinstance(c, str) for c in choices):
            raise EngineError(f"every choice must be a string: {shown(list(choices))}")
        events = self._start_recorded(autoplay=autoplay, seed=seed, mode=mode, jackpot=jackpot)
        for choice in choices:
            events += self.choose(choice)
        if self._round is not None:
            pending = self._round.pending
            raise EngineError(f"the record ends while the round waits on {pending.kind if pending else '?'!r}")
        return events

    def take_over(self) -> None:
        """Hand the round in play, which autoplay started, to the player at the feature it
        waits on (autoplay stopped there): from here it is played by hand, and its gamble is
        offered at its end as after any feature. A round played by autoplay differs from one
        played by hand only in the gamble it leaves out, and this one has left none out, so
        its record is that of a round played by hand (``autoplay`` false) and replays so."""
        rnd = self._round
        if rnd is None or not rnd.autoplay or rnd.pending is None or not rnd.pending.feature:
            raise NoDecisionPendingError("only a round autoplay started and stopped at a feature can be taken over")
        if rnd.gamble_skipped:
            raise RoundInProgressError("autoplay already left out a gamble in this round: it stays autoplay's")
        rnd.autoplay = False

    def buy(self, *, seed: int | None = None) -> list[Event]:
        """Buy the feature at the current bet (the price is `price("buy")`); return its events."""
        return self._start(False, seed, "buy", None)  # noqa: FBT003

    def _start_recorded(self, *, autoplay: bool, seed: int, mode: str, jackpot: int) -> list[Event]:
        """Start the round of a record (a replay): ``seed`` given, and ``jackpot`` the amount
        it won instead of the pot's draw."""
        if type(jackpot) is not int or not 0 <= jackpot <= MAX_AMOUNT:
            raise EngineError(f"a round's jackpot must be an integer from 0 to {MAX_AMOUNT:_}, not {shown(jackpot)}")
        if jackpot and (self.jackpot is None or mode != "base"):
            where = f"{self.game.name} has no jackpot" if self.jackpot is None else f"mode {shown(mode)} has none"
            raise EngineError(f"a round cannot win a jackpot of {jackpot}: {where}")
        if seed is None:
            raise EngineError("a recorded round needs its seed")
        return self._start(autoplay, seed, mode, jackpot)

    def _start(self, autoplay: bool, seed: int | None, mode: str, jackpot: int | None) -> list[Event]:  # noqa: FBT001
        """Start a round; ``jackpot`` given (a replay) replaces the pot's draw with that amount."""
        if autoplay is not False and autoplay is not True:
            raise EngineError(f"autoplay must be True or False, not {shown(autoplay)}")
        if self._round is not None:
            self._idle("start a round")
        bet = self.bet
        if mode == "base":
            stake = bet.lines * bet.bet_per_line * bet.coins
        else:
            if mode not in self.game.modes:
                raise EngineError(
                    f"{self.game.name} has no mode {shown(mode)}; its modes are {', '.join(self.game.modes)}"
                )
            if autoplay:
                raise EngineError("autoplay never buys a feature")
            stake = self.game.price(bet, mode)
        before = self.balance
        if stake > before:
            what = "the stake" if mode == "base" else "the feature price"
            smallest = self.game.bets.min_bet.total
            advice = (
                "lower the bet"
                if smallest <= before
                else f"the balance is below the smallest bet of {self.game.bets.format(smallest)}: top it up"
            )
            raise InsufficientFundsError(
                f"{what} {self.game.bets.format(stake)} is more than the balance "
                f"{self.game.bets.format(before)}; {advice}"
            )
        if seed is None:
            if not self._seeds:
                self._seeds = self._rng.next64s(SEED_BLOCK)[::-1]
            round_seed = self._seeds.pop()
        elif type(seed) is int and 0 <= seed < 1 << 64:
            round_seed = seed
        else:
            raise EngineError(f"a round seed must be an integer from 0 to 2**64-1, not {shown(seed)}")
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
            return
        if rnd.jackpot:
            # The jackpot goes to the balance at once, even when the round goes on into a
            # feature: before the decision, not after the feature.
            rnd.events.append(JackpotWin(rnd.jackpot))
            self.balance += rnd.jackpot
            rnd.jackpot_paid = True
        rnd.pending = decision
        rnd.events.append(decision.pending_event)

    def choose(self, choice: str) -> list[Event]:
        """Answer the pending decision; return the events that follow."""
        rnd = self._round
        decision = None if rnd is None else rnd.pending
        if rnd is None or decision is None:
            raise NoDecisionPendingError(f"no decision is pending; choice {shown(choice)} is not expected")
        try:
            made = decision.choice_events[choice]
        except (KeyError, TypeError):  # TypeError: an unhashable choice is no choice either
            raise ChoiceError(
                f"{shown(choice)} is not a choice for '{decision.kind}'; choose one of {', '.join(decision.choices)}"
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
        win = rnd.win  # the game's own win
        jackpot = rnd.jackpot
        if jackpot and not rnd.jackpot_paid:
            rnd.events.append(JackpotWin(jackpot))
            self.balance += jackpot
            rnd.jackpot_paid = True
        self.balance = balance = self.balance + win
        if jackpot:
            rnd.win = win = win + jackpot  # everything the round credited
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
        if type(amount) is not int or amount <= 0:
            raise InsufficientFundsError(f"a top-up must be a positive integer of minor units, not {shown(amount)}")
        if amount > MAX_BALANCE - self.balance:
            room = max(MAX_BALANCE - self.balance, 0)
            raise InsufficientFundsError(
                f"a top-up of {shown(amount)} would take the balance past {MAX_BALANCE:_} minor units, "
                f"the most it may hold; top up at most {room:_}"
            )
        self.balance += amount
        return self.balance

    # -- snapshot -----------------------------------------------------------------
    def snapshot(self) -> str:
        """The whole session as JSON, with a checksum, for `restore`: at most
        `MAX_SNAPSHOT_CHARS` characters (the oldest rounds of the history are left out of a
        save that would be longer)."""
        state: dict[str, Any] = {
            "game": self.game.id,
            "version": self.game.version,
            "balance": self.balance,
            "bet": _bet_json(self.bet),
            "settings": dict(self.settings),
            "rng": self._rng.state_back(len(self._seeds)),  # as if the seeds were drawn one by one
            "rounds_played": self.rounds_played,
            "jackpot": None if self.jackpot is None else self.jackpot.to_json(),
            "round": None if self._round is None else self._round.to_json(),
        }
        return write_snapshot(state, [r.to_json() for r in self.history], HISTORY_SIZE)

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
        saved by another game. The checksum is not a secret, so a save can be edited and
        signed again: every saved value is checked as strictly as the engine's own input
        (offered bets, seeds below 2**64, the bounds in `pyengine.model`), and the history
        and the round in play are replayed, so a session is restored only if it saves
        again as it was saved. A text longer than `MAX_SNAPSHOT_CHARS` is refused unread, and
        the work done on any text grows linearly with its length.
        """
        state = read_snapshot(text)
        try:
            return cls._from_state(state, game, clock)
        except SnapshotError:
            raise
        except (KeyError, TypeError, ValueError, AttributeError, IndexError, OverflowError, RecursionError) as exc:
            raise SnapshotError(f"the saved session is inconsistent: {str(exc)[:300]}") from None

    @classmethod
    def _from_state(cls, state: dict[str, Any], game: str | None, clock: Callable[[], float]) -> Session:
        """The session saved as ``state``: each field checked (`pyengine.snapshot`), each round replayed."""
        g, settings, bet = saved_game(state, game)
        s = cls(g, balance=0, settings=settings, bet=bet, clock=clock)
        if s.settings != settings:
            raise SnapshotError(f"the saved settings are not complete: the game's settings are {s.settings}")
        s.balance, s._rng.state, s.rounds_played, s.jackpot = saved_wallet(state, g)
        for record in saved_history(state, g, s.rounds_played, HISTORY_SIZE):
            s._verify(record)
            s._history.append(record)
        rd = state["round"]
        if rd is not None:
            s._replay(rd)
            assert s._round is not None  # `_replay` refuses a round that has finished
            if clock() * 1000 - s._round.time_ms > PENDING_DAYS * 86_400_000:
                s.settle()
            elif s.pending is not None and s.pending.on_restore is not None:
                s.choose(s.pending.on_restore)
        return s

    def _verify(self, record: RoundRecord) -> None:
        """A history record must replay to exactly its events (no edited wins)."""
        probe = Session(self.game, balance=0, seed=0, settings=self.settings, bet=record.bet)
        probe.balance = record.balance_before
        events = probe._start_recorded(
            autoplay=record.autoplay, seed=record.seed, mode=record.mode, jackpot=record.jackpot
        )
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

    def _replay(self, rd: Any) -> None:
        """Replay the saved round in play, checked as strictly as `spin` checks a new round."""
        saved = self.balance  # the stake taken, and the jackpot if the round already paid it
        r = saved_round(self.game, rd, rounds_played=self.rounds_played, balance=saved, jackpot=self.jackpot)
        rng = self._round_rng
        rng.state = r.seed
        rnd = _Round(
            rng,
            r.bet,
            self.settings,
            r.autoplay,
            r.index,
            r.seed,
            r.balance_before,
            r.time_ms,
            r.mode,
            r.stake,
            r.jackpot,
        )
        self.balance = r.balance_before - r.stake
        self._begin(rnd)
        for choice in r.choices:
            if self._round is None or rnd.pending is None or choice not in rnd.pending.choices:
                self._round = None
                raise SnapshotError("the saved choices do not replay: the round in play is corrupt")
            self.choose(choice)
        if self._round is None:
            raise SnapshotError("the saved round in play had already finished")
        if self.balance != saved:
            self._round = None
            raise SnapshotError("the saved balance does not match the round in play")
