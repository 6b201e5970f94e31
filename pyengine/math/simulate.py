"""Monte Carlo through the real play path: `Session.spin` and `Session.choose`.

The simulator plays N rounds of a session exactly as the browser does, answers every
decision by a policy (``first``: autoplay's choice, collect instead of gambling;
``random``: any allowed choice, gamble included, drawn from the round's own stream
``Rng(round seed ^ PICK_STREAM)``) and reports the RTP with its 95% confidence half-width
1.96 * sigma / sqrt(N). Mode ``buy`` buys the feature every round.

The session's clock is simulated (`SIM_START` plus `SECONDS_PER_ROUND` a round), so a
game's time jackpot drops at reproducible times; its payouts count in the RTP (and in sigma)
but not in the hit rate, the buckets or the max win, which are the game's own; the pot
still open at the end is reported as ``jackpot_pot``.

**One session, any partition.** The run is one session of ``rounds`` rounds from ``seed``,
and its result does not depend on how the rounds are split (`CHUNK` rounds a piece, over
``workers`` local processes or a Dask cluster's workers): every piece starts at its own
position of the session's seed stream (SplitMix64's state after ``k`` draws is ``seed +
k * gamma``: an O(1) jump), and pieces merge exact integers (stakes, wins, Σwin², hits, feature
counts, the max win). A round's outcome depends on its seed alone; the only state a
session carries from round to round is the time jackpot's pot, and its draw is a stream
of its own (``round seed ^ JACKPOT_STREAM``) that depends on the clock and the stake, not
on the game's outcome. So the pot is played first, alone, over every round (`jackpot_plan`:
one draw a round, cheap), and each piece starts with the pot as that pass had it at the
piece's first round: every piece plays exactly the rounds the single session plays.
"""

from __future__ import annotations

import copy
from bisect import bisect_right
import math
import time
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from ..errors import EngineError
from ..features.jackpot import TimeJackpot
from ..games import get_game
from ..model import Bet
from ..rng import _GAMMA, MASK64, Rng
from ..session import JACKPOT_STREAM, Session

__all__ = [
    "CHUNK", "POLICIES", "Piece", "SimulationResult", "Tally", "jackpot_plan", "pieces", "play_piece", "simulate",
]

POLICIES = ("first", "random")
SIM_START = 1_767_225_600.0
"""2026-01-01 00:00 UTC: where the simulated clock starts."""
SECONDS_PER_ROUND = 3.0
CHUNK = 20_000
"""Rounds a piece of a run: the unit of work a process or a cluster worker plays."""
BUCKET_EDGES_X = (1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000)
"""A round's win falls in one of these buckets, in multiples of the total bet: 0, (0, 1),
[1, 2), [2, 5), ..., [5000, 10000) and >= 10000 (the par sheet's distribution)."""
Z = {"90": 1.6448536269514722, "95": 1.959963984540054}
"""The two-sided normal quantiles of the volatility index and of the RTP's spread."""
SPREAD_ROUNDS = (10**2, 10**3, 10**4, 10**5, 10**6, 10**7)
"""The session lengths the RTP's spread is given for."""
PICK_STREAM = 0x5EED5EED
"""The ``random`` policy's choices in a round come from ``Rng(round seed ^ PICK_STREAM)``."""


def spread_table(rtp: float, sigma: float) -> list[dict[str, Any]]:
    """The band a player's RTP falls in after N rounds, at 90% and 95%: RTP +- z sigma / sqrt(N)."""
    return [
        {
            "rounds": n,
            **{f"low_{k}": rtp - z * sigma / math.sqrt(n) for k, z in Z.items()},
            **{f"high_{k}": rtp + z * sigma / math.sqrt(n) for k, z in Z.items()},
        }
        for n in SPREAD_ROUNDS
    ]


@dataclass(frozen=True, slots=True)
class SimulationResult:
    """What a simulation measured; money totals are exact integers."""

    game: str
    mode: str
    rounds: int
    seed: int
    choices: str
    total_stake: int
    total_win: int
    sum_sq_x: float
    """Σ (win / stake)² over the rounds (from the exact integer ``sum_sq_win``)."""
    hits: int
    max_win_x: float
    """The largest game win (the jackpot apart) in multiples of the total stake (not the buy price)."""
    features: dict[str, int]
    seconds: float
    jackpot_paid: int = 0
    jackpot_drops: int = 0
    jackpot_contributed: float = 0.0
    jackpot_pot: float = 0.0
    settings: dict[str, int] = field(default_factory=dict)
    """The operator settings the session played with."""
    lines: int = 0
    """The active lines."""
    sum_sq_win: int = 0
    """Σ win² in minor units², exactly."""
    sum_sq_game_win: int = 0
    """Σ (the game's win, the jackpot apart)² in minor units², exactly."""
    bucket_rounds: tuple[int, ...] = ()
    """Rounds whose win fell in each bucket of `BUCKET_EDGES_X` (the first: no win)."""
    bucket_win: tuple[int, ...] = ()
    """What the rounds of each bucket won, in minor units."""
    bet_total: int = 0
    """The total bet the buckets are measured in (minor units)."""
    max_win: int = 0
    """The largest game win in minor units."""

    @property
    def rtp(self) -> float:
        return self.total_win / self.total_stake

    @property
    def stdev(self) -> float:
        """Standard deviation of one round's return (win / stake)."""
        mean = self.rtp
        return math.sqrt(max(self.sum_sq_x / self.rounds - mean * mean, 0.0))

    @property
    def game_stdev(self) -> float:
        """Standard deviation of the game's return (its win, the time jackpot apart, / stake):
        the spread of the buckets of `distribution`."""
        stake = self.total_stake / self.rounds
        mean = sum(self.bucket_win) / self.total_stake
        return math.sqrt(max(self.sum_sq_game_win / (stake * stake) / self.rounds - mean * mean, 0.0))

    @property
    def ci95(self) -> float:
        return 1.96 * self.stdev / math.sqrt(self.rounds)

    @property
    def hit_rate(self) -> float:
        return self.hits / self.rounds

    def distribution(self) -> list[dict[str, Any]]:
        """The distribution of the game's win (the time jackpot apart: it drops by the clock,
        not by the round): each bucket's bounds (× the total bet), rounds, probability and
        share of the RTP (simulated: the probabilities add up to 1, the shares and the
        jackpot's ``jackpot_paid`` to ``rtp``)."""
        if not self.bucket_rounds:
            return []
        lows = (0, 0, *BUCKET_EDGES_X)
        highs = (0, *BUCKET_EDGES_X, None)
        return [
            {
                "low_x": lo, "high_x": hi, "rounds": n, "win": w,
                "probability": n / self.rounds, "rtp_share": w / self.total_stake,
            }
            for lo, hi, n, w in zip(lows, highs, self.bucket_rounds, self.bucket_win, strict=True)
        ]

    def spread(self) -> list[dict[str, Any]]:
        """The band a player's RTP falls in after N rounds, from this run's RTP and sigma (simulated)."""
        return spread_table(self.rtp, self.stdev)

    def to_json(self) -> dict[str, Any]:
        return {
            "game": self.game,
            "mode": self.mode,
            "rounds": self.rounds,
            "seed": self.seed,
            "choices": self.choices,
            "rtp": self.rtp,
            "ci95": self.ci95,
            "hit_rate": self.hit_rate,
            "stdev": self.stdev,
            "game_stdev": self.game_stdev,
            "max_win_x": self.max_win_x,
            "features": dict(self.features),
            "distribution": self.distribution(),
            "volatility_index": {k: z * self.stdev for k, z in Z.items()},
            "spread": self.spread(),
            "jackpot": {
                "paid": self.jackpot_paid,
                "drops": self.jackpot_drops,
                "contributed": self.jackpot_contributed,
                "pot": self.jackpot_pot,
            },
            "settings": dict(self.settings),
            "lines": self.lines,
            "total_stake": self.total_stake,
            "total_win": self.total_win,
            "sum_sq_win": self.sum_sq_win,
            "sum_sq_game_win": self.sum_sq_game_win,
            "hits": self.hits,
            "max_win": self.max_win,
            "seconds": self.seconds,
            "rounds_per_second": self.rounds / self.seconds if self.seconds > 0 else None,
        }


@dataclass(slots=True)
class Tally:
    """What a piece of a run measured, in exact integers: pieces add up in any order."""

    rounds: int = 0
    total_win: int = 0
    sum_sq_win: int = 0
    sum_sq_game_win: int = 0
    hits: int = 0
    max_win: int = 0
    features: Counter[str] = field(default_factory=Counter)
    bucket_rounds: list[int] = field(default_factory=lambda: [0] * (len(BUCKET_EDGES_X) + 2))
    bucket_win: list[int] = field(default_factory=lambda: [0] * (len(BUCKET_EDGES_X) + 2))

    def add(self, other: Tally) -> Tally:
        self.rounds += other.rounds
        self.total_win += other.total_win
        self.sum_sq_win += other.sum_sq_win
        self.sum_sq_game_win += other.sum_sq_game_win
        self.hits += other.hits
        self.max_win = max(self.max_win, other.max_win)
        self.features.update(other.features)
        for i, (n, w) in enumerate(zip(other.bucket_rounds, other.bucket_win, strict=True)):
            self.bucket_rounds[i] += n
            self.bucket_win[i] += w
        return self


@dataclass(frozen=True, slots=True)
class Piece:
    """Rounds ``start`` to ``start + count`` of the session of ``seed``: all a worker needs
    (plain data, so it pickles for a process pool or a Dask cluster)."""

    game: str
    seed: int
    start: int
    count: int
    choices: str
    mode: str
    settings: tuple[tuple[str, Any], ...]
    bet: Bet
    jackpot: TimeJackpot | None
    """The pot as the whole session has it before round ``start`` (None: the game has none)."""


def _clock_at(i: int) -> float:
    return SIM_START + i * SECONDS_PER_ROUND


def jackpot_plan(
    game_id: str, rounds: int, seed: int, mode: str, bet: Bet, starts: Sequence[int]
) -> tuple[list[TimeJackpot | None], TimeJackpot | None]:
    """The time jackpot alone over the session's rounds: its state before each round of
    ``starts`` (ascending) and at the end. It plays the draw `Session.spin` makes, at the
    same simulated times, from the same round seeds; a game without a jackpot, or a mode
    that does not feed it, gives the session's pot untouched (None without one)."""
    game = get_game(game_id)
    rules = game.jackpot
    if rules is None:
        return [None] * len(starts), None
    pot = TimeJackpot(rules, int(_clock_at(0) * 1000))
    if mode != "base":
        return [copy.copy(pot) for _ in starts], pot
    stake = game.price(bet, mode)
    seeds = Rng(seed)
    draw = Rng.from_state(0)
    states: list[TimeJackpot | None] = []
    wanted = iter(starts)
    nxt = next(wanted, None)
    i = 0
    block = 4096
    while i < rounds:
        for round_seed in seeds.next64s(min(block, rounds - i)):
            while nxt == i:
                states.append(copy.copy(pot))
                nxt = next(wanted, None)
            draw.state = round_seed ^ JACKPOT_STREAM
            pot.play(stake, int(_clock_at(i) * 1000), draw)
            i += 1
    while nxt is not None:
        states.append(copy.copy(pot))
        nxt = next(wanted, None)
    return states, pot


def pieces(
    game_id: str, rounds: int, seed: int, *, choices: str, mode: str, settings: Mapping[str, Any], bet: Bet,
    chunk: int = CHUNK,
) -> tuple[list[Piece], TimeJackpot | None]:
    """The run cut into pieces of ``chunk`` rounds, each with the pot it starts with, and the
    pot at the end of the run."""
    starts = list(range(0, rounds, chunk))
    states, end = jackpot_plan(game_id, rounds, seed, mode, bet, starts)
    frozen = tuple(sorted(settings.items()))
    out = [
        Piece(game_id, seed, s, min(chunk, rounds - s), choices, mode, frozen, bet, state)
        for s, state in zip(starts, states, strict=True)
    ]
    return out, end


def play_piece(piece: Piece) -> Tally:
    """Play one piece: a session at the piece's place in the seed stream, its round count
    and its pot set to the whole session's there."""
    game = get_game(piece.game)
    stake = game.price(piece.bet, piece.mode)
    tick = [_clock_at(piece.start)]

    def clock() -> float:
        return tick[0]

    session = Session(
        game, balance=stake * piece.count, seed=piece.seed, clock=clock, settings=dict(piece.settings), bet=piece.bet
    )
    session._rng.state = (piece.seed + piece.start * _GAMMA) & MASK64  # the stream after `start` rounds
    session.rounds_played = piece.start
    session.jackpot = copy.copy(piece.jackpot)
    pick_random = piece.choices == "random"
    spin = session.buy if piece.mode == "buy" else session.spin
    choose = session.choose
    t = Tally(rounds=piece.count)
    features = t.features
    edges = [x * piece.bet.total for x in BUCKET_EDGES_X]
    bucket_rounds, bucket_win = t.bucket_rounds, t.bucket_win
    for i in range(piece.start, piece.start + piece.count):
        tick[0] = _clock_at(i)
        spin()
        picker: Rng | None = None
        while (d := session.pending) is not None:
            if pick_random:
                if picker is None:
                    rnd = session._round
                    assert rnd is not None
                    picker = Rng(rnd.seed ^ PICK_STREAM)
                choose(d.choices[picker.below(len(d.choices))])
            else:
                choose(d.choices[0])
        last = session._history[-1]  # the finished round, without building its record
        win = last.win
        if win:
            t.total_win += win
            t.sum_sq_win += win * win
            game_win = win - last.jackpot  # the hit rate and the buckets: the game's win
            if game_win:
                t.hits += 1
                t.sum_sq_game_win += game_win * game_win
                b = 1 + bisect_right(edges, game_win)
                bucket_rounds[b] += 1
                bucket_win[b] += game_win
                if game_win > t.max_win:
                    t.max_win = game_win
        if last.features:
            features.update(set(last.features))
    bucket_rounds[0] = piece.count - t.hits
    return t


def _played(
    work: list[Piece], workers: int, scheduler: str | None, progress: Callable[[int], None] | None
) -> Iterator[Tally]:
    """Each piece's tally, in any order: here, over ``workers`` processes, or on a cluster."""
    if scheduler is not None:
        from .cluster import run_on_cluster

        yield from run_on_cluster(work, scheduler, play_piece, lambda piece: piece.count, progress)
        return
    if workers <= 1 or len(work) <= 1:
        for piece in work:
            tally = play_piece(piece)
            if progress is not None:
                progress(piece.count)
            yield tally
        return
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor, as_completed

    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("forkserver" if "forkserver" in methods else "spawn")
    with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
        futures = {pool.submit(play_piece, piece): piece for piece in work}
        for done in as_completed(futures):
            tally = done.result()
            if progress is not None:
                progress(futures[done].count)
            yield tally


def simulate(
    game_id: str,
    rounds: int,
    *,
    seed: int = 1,
    choices: str = "first",
    mode: str = "base",
    settings: Mapping[str, Any] | None = None,
    lines: int | None = None,
    progress: Callable[[int], None] | None = None,
    workers: int = 1,
    scheduler: str | None = None,
    chunk: int = CHUNK,
) -> SimulationResult:
    """Play ``rounds`` rounds of one session at the game's default bet and measure them.

    ``settings`` are operator settings for the session (the game's defaults otherwise);
    ``lines`` plays that many lines at the default bet per line. ``workers`` local processes
    (or the Dask cluster at ``scheduler``, ``"local"`` for one started here) play the
    session's pieces of ``chunk`` rounds; the result is the same for every split (the module
    docstring says why) but for ``seconds`` and ``workers``.
    """
    game = get_game(game_id)
    if not isinstance(rounds, int) or rounds < 1:
        raise EngineError(f"rounds must be a positive integer, not {rounds!r}")
    if choices not in POLICIES:
        raise EngineError(f"choices {choices!r} is not a policy; choose one of {', '.join(POLICIES)}")
    if not isinstance(workers, int) or workers < 1:
        raise EngineError(f"workers must be a positive integer, not {workers!r}")
    if not isinstance(chunk, int) or chunk < 1:
        raise EngineError(f"chunk must be a positive integer, not {chunk!r}")
    modes = getattr(game, "modes", ("base",))
    if mode not in modes:
        raise EngineError(f"{game_id} has no mode {mode!r}; its modes are {', '.join(modes)}")
    bet = game.bets.default if lines is None else game.bets.validate(Bet(lines, game.bets.default.bet_per_line))
    stake = game.price(bet, mode)
    # The session's settings as it reads them (its defaults filled in, bad ones refused here).
    own = Session(game, balance=stake, seed=seed, clock=lambda: SIM_START, settings=settings, bet=bet).settings
    start = time.perf_counter()
    work, pot = pieces(game_id, rounds, seed, choices=choices, mode=mode, settings=own, bet=bet, chunk=chunk)
    total = Tally()
    for tally in _played(work, workers, scheduler, progress):
        total.add(tally)
    seconds = time.perf_counter() - start
    if total.rounds != rounds:
        raise EngineError(f"the pieces played {total.rounds} rounds of {rounds}")
    return SimulationResult(
        game=game_id,
        mode=mode,
        rounds=rounds,
        seed=seed,
        choices=choices,
        total_stake=stake * rounds,
        total_win=total.total_win,
        sum_sq_x=total.sum_sq_win / (stake * stake),
        hits=total.hits,
        max_win_x=total.max_win / bet.total,
        features=dict(sorted(total.features.items())),
        bucket_rounds=tuple(total.bucket_rounds),
        bucket_win=tuple(total.bucket_win),
        bet_total=bet.total,
        seconds=seconds,
        settings=dict(own),
        lines=bet.lines,
        jackpot_paid=pot.paid if pot else 0,
        jackpot_drops=pot.drops if pot else 0,
        jackpot_contributed=float(pot.contributed) if pot else 0.0,
        jackpot_pot=float(pot.pot) if pot else 0.0,
        sum_sq_win=total.sum_sq_win,
        sum_sq_game_win=total.sum_sq_game_win,
        max_win=total.max_win,
    )
