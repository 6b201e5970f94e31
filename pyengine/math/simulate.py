"""Monte Carlo through the real play path: `Session.spin` and `Session.choose`.

The simulator plays N rounds of a session exactly as the browser does, answers every
decision by a policy (``first``: autoplay's choice, collect instead of gambling;
``random``: any allowed choice, gamble included) and reports the RTP with its 95%
confidence half-width 1.96 * sigma / sqrt(N). Mode ``buy`` buys the feature every round.

The session's clock is simulated (`SIM_START` plus `SECONDS_PER_ROUND` a round), so a
game's time jackpot drops at reproducible times; its payouts count in the RTP, and the
pot still open at the end is reported as ``jackpot_pot``.
"""

from __future__ import annotations

import math
import time
from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from ..errors import EngineError
from ..games import get_game
from ..model import Bet
from ..rng import Rng
from ..session import Session

__all__ = ["POLICIES", "SimulationResult", "simulate"]

POLICIES = ("first", "random")
SIM_START = 1_767_225_600.0
"""2026-01-01 00:00 UTC: where the simulated clock starts."""
SECONDS_PER_ROUND = 3.0


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

    @property
    def rtp(self) -> float:
        return self.total_win / self.total_stake

    @property
    def stdev(self) -> float:
        """Standard deviation of one round's return (win / stake)."""
        mean = self.rtp
        return math.sqrt(max(self.sum_sq_x / self.rounds - mean * mean, 0.0))

    @property
    def ci95(self) -> float:
        return 1.96 * self.stdev / math.sqrt(self.rounds)

    @property
    def hit_rate(self) -> float:
        return self.hits / self.rounds

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
            "max_win_x": self.max_win_x,
            "features": dict(self.features),
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
            "seconds": self.seconds,
            "rounds_per_second": self.rounds / self.seconds if self.seconds > 0 else None,
        }


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
) -> SimulationResult:
    """Play ``rounds`` rounds at the game's default bet and measure them.

    ``settings`` are operator settings for the session (the game's defaults otherwise);
    ``lines`` plays that many lines at the default bet per line.
    """
    game = get_game(game_id)
    if not isinstance(rounds, int) or rounds < 1:
        raise EngineError(f"rounds must be a positive integer, not {rounds!r}")
    if choices not in POLICIES:
        raise EngineError(f"choices {choices!r} is not a policy; choose one of {', '.join(POLICIES)}")
    modes = getattr(game, "modes", ("base",))
    if mode not in modes:
        raise EngineError(f"{game_id} has no mode {mode!r}; its modes are {', '.join(modes)}")
    bet = game.bets.default if lines is None else game.bets.validate(Bet(lines, game.bets.default.bet_per_line))
    stake = game.price(bet, mode)
    tick = [SIM_START]

    def clock() -> float:
        return tick[0]

    session = Session(game, balance=stake * rounds, seed=seed, clock=clock, settings=settings, bet=bet)
    picker = Rng(seed ^ 0x5EED5EED)
    pick_random = choices == "random"
    total_win = 0
    sum_sq = 0
    hits = 0
    max_win = 0
    features: Counter[str] = Counter()
    step = max(rounds // 100, 1)
    start = time.perf_counter()
    spin = session.buy if mode == "buy" else session.spin
    choose = session.choose
    for i in range(rounds):
        tick[0] = SIM_START + i * SECONDS_PER_ROUND
        spin()
        while (d := session.pending) is not None:
            choose(d.choices[picker.below(len(d.choices))] if pick_random else d.choices[0])
        last = session._history[-1]  # the finished round, without building its record
        win = last.win
        if win:
            total_win += win
            sum_sq += win * win
            hits += 1
            if win - last.jackpot > max_win:
                max_win = win - last.jackpot
        if last.features:
            features.update(set(last.features))
        if progress is not None and (i + 1) % step == 0:
            progress(step)
    seconds = time.perf_counter() - start
    if progress is not None and rounds % step:
        progress(rounds % step)
    jp = session.jackpot
    return SimulationResult(
        game=game_id,
        mode=mode,
        rounds=rounds,
        seed=seed,
        choices=choices,
        total_stake=stake * rounds,
        total_win=total_win,
        sum_sq_x=sum_sq / (stake * stake),
        hits=hits,
        max_win_x=max_win / bet.total,
        features=dict(features),
        seconds=seconds,
        settings=dict(session.settings),
        lines=bet.lines,
        jackpot_paid=jp.paid if jp else 0,
        jackpot_drops=jp.drops if jp else 0,
        jackpot_contributed=float(jp.contributed) if jp else 0.0,
        jackpot_pot=float(jp.pot) if jp else 0.0,
    )
