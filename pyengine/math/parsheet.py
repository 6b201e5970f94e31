"""The par sheet: what a game-math designer reads beside the RTP, each figure marked with
where it comes from.

`par_sheet` adds to a game's exact RTP report (`pyengine.math.rtp.rtp_report`):

- the distribution of a round's win in the buckets of `BUCKET_EDGES_X` (0; (0, 1);
  [1, 2); ... ; >= 10000 x the total bet), each bucket's probability and RTP share. The
  win is the game's own: a time jackpot drops by the clock, not by the round, so its RTP is
  given apart (``apart``: by component), and the shares and ``apart`` add up to the RTP;
- the hit rate (P(a round wins anything)), sigma (the standard deviation of a round's win
  over the total bet), the volatility index at 90% and 95% (z x sigma) and the RTP's
  spread after 10^2 ... 10^7 rounds (the RTP +- z x sigma / sqrt(N): the band a player's
  RTP falls in, always around the exact RTP);
- the game's feature frequencies (its report's ``features``) and the max win with its odds;
- the length of each feature (its report's ``feature_lengths``, each made by `length_table`:
  how many free spins a feature plays, or what its board holds at the end);
- ``checks``: the sheet against two figures a game platform asks for before it takes a
  game (`GUIDELINES`): a hit rate of at least 1 in 20, and a max win more frequent than
  1 in 10 million rounds. Each says its value, whether it is met (None where the figure is
  not known: a max win that is only a bound) and where the value comes from.

Exact where the method allows: a game whose plug-in names a ``distribution`` function
gives the exact distribution of one round's win (a `WinDistribution`), and every figure
above follows from it and the exact RTP. A game without one (its rounds too rich to
enumerate yet) gets the distribution, sigma and hit rate of a seeded simulation through
the real session (`pyengine.math.simulate`), said so with its rounds, seed and 95%
interval. Each figure carries ``source``: ``{"kind": "exact", "method": ...}`` or
``{"kind": "simulated", "rounds": N, "seed": s, "rtp": ..., "ci95": ...}``.

The decisions a round asks for are answered as autoplay answers them (the gamble declined):
a fair gamble does not move the RTP, only the spread of the win.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from ..games import get_game, plugin
from .rtp import odds_text, rtp_report
from .simulate import BUCKET_EDGES_X, Z, simulate, spread_table

__all__ = [
    "DEFAULT_ROUNDS",
    "GUIDELINES",
    "WinDistribution",
    "bucket_table",
    "guideline_checks",
    "length_table",
    "par_sheet",
    "retrigger_lengths",
    "spread_table",
]

DEFAULT_ROUNDS = 1_000_000
"""Rounds simulated for the figures a game does not give exactly."""

GUIDELINES = {
    "hit_rate": ("A win at least 1 in 20 rounds", 20),
    "max_win": ("The max win more often than 1 in 10,000,000", 10_000_000),
}
"""A platform's approval figures: (what it asks, at most how many rounds per event)."""


@dataclass(frozen=True, slots=True)
class WinDistribution:
    """The exact distribution of one round's win: ``probs[k]`` is P(win = k x ``unit`` total
    bets), k = 0 .. len(probs) - 1 (a sequence of floats, or a numpy array); ``method`` says
    how it was computed. A round that costs more than the total bet (a Feature Buy: ``price``
    total bets) keeps its buckets in total bets and returns its RTP per unit of the price."""

    unit: Fraction
    probs: Sequence[float] | Any
    method: str
    apart: Mapping[str, float] = field(default_factory=dict)
    """RTP the game pays apart from a round's win, by its report's component (a jackpot that
    drops by the clock): the buckets' RTP shares and these add up to the RTP."""
    price: Fraction = Fraction(1)
    """What the round costs, in total bets."""

    def moments(self) -> tuple[float, float, float]:
        """(total probability, E[X], E[X^2]) with X the win over the round's price."""
        u = float(self.unit / self.price)
        total = mean = square = 0.0
        for k, p in enumerate(self.probs):
            if p:
                x = k * u
                total += p
                mean += p * x
                square += p * x * x
        return total, mean, square

    def buckets(self) -> list[tuple[float, float]]:
        """(probability, RTP share) of each bucket of `BUCKET_EDGES_X` (the first: no win)."""
        out = [[0.0, 0.0] for _ in range(len(BUCKET_EDGES_X) + 2)]
        probs = self.probs
        n = len(probs)
        # The wins k >= 1 with bisect_right(edges in units, k) = j are the integers from the
        # ceiling of edge j - 1 up to that of edge j: bucket b holds bounds[b] <= k < bounds[b + 1].
        cuts = [min(max(math.ceil(Fraction(e) / self.unit), 1), n) for e in BUCKET_EDGES_X]
        bounds = [0, min(1, n), *cuts, n]
        u = float(self.unit / self.price)  # a share is of the price
        for b in range(len(out)):
            row = out[b]
            for k in range(bounds[b], bounds[b + 1]):
                p = probs[k]
                if p:
                    row[0] += p
                    row[1] += p * k * u
        return [(p, s) for p, s in out]


Distribution = Callable[[Any, str, Mapping[str, int], int], WinDistribution | None]
"""A game's exact win distribution: ``distribution(game, mode, settings, lines)`` (the
settings checked), or None for a mode it does not give."""


def _exact_distribution(
    game_id: str, mode: str, settings: Mapping[str, int], lines: int, game: Any = None
) -> WinDistribution | None:
    """The game's exact distribution, where its plug-in names one."""
    fn = plugin(game_id).distribution_function()
    return None if fn is None else fn(get_game(game_id) if game is None else game, mode, settings, lines)


def bucket_table(rows: Sequence[tuple[float, float]], counts: Sequence[int] | None = None) -> list[dict[str, Any]]:
    """The buckets as the par sheet gives them: bounds in total bets, probability, RTP share
    and "1 in N"; with ``counts`` (a simulation's), the rounds that fell in each."""
    lows = (0, 0, *BUCKET_EDGES_X)
    highs = (0, *BUCKET_EDGES_X, None)
    out = [
        {"low_x": lo, "high_x": hi, "probability": float(p), "rtp_share": float(s), "odds": odds_text(float(p))}
        for lo, hi, (p, s) in zip(lows, highs, rows, strict=True)
    ]
    if counts is not None:
        for row, n in zip(out, counts, strict=True):
            row["rounds"] = n
    return out


def par_sheet(
    game_id: str,
    mode: str = "base",
    settings: Mapping[str, Any] | None = None,
    lines: int | None = None,
    *,
    rounds: int = DEFAULT_ROUNDS,
    seed: int = 1,
    workers: int = 1,
    scheduler: str | None = None,
    progress: Callable[[int], None] | None = None,
    report: dict[str, Any] | None = None,
    game: Any = None,
) -> dict[str, Any]:
    """The game's RTP report with its ``par_sheet`` (see the module's docstring).

    ``rounds``, ``seed``, ``workers`` and ``scheduler`` drive the simulation a game without an
    exact distribution needs (`pyengine.math.simulate.simulate`); ``report`` is the game's
    RTP report when already computed. ``game`` is an edited copy of the game
    (`pyengine.math.whatif`): it has no session to simulate, so its par sheet needs the
    game's exact distribution of ``mode``; without one the report comes back as it is.
    """
    if report is None:
        report = rtp_report(game_id, mode, settings, lines, game=game)
    chosen, lines = report["settings"], report["lines"]
    rtp = float(report["rtp"])
    exact = _exact_distribution(game_id, mode, chosen, lines, game)
    if exact is None and game is not None:
        return report  # no par sheet: an edited game has no session to simulate
    source: dict[str, Any]
    if exact is not None:
        total, mean, square = exact.moments()
        apart = dict(exact.apart)
        sigma = math.sqrt(max(square - mean * mean, 0.0))
        rows = exact.buckets()
        hit = 1.0 - float(rows[0][0])
        counts = None
        source = {"kind": "exact", "method": exact.method}
        # The spread around the exact RTP, from the exact sigma.
        centre = rtp
        check = {"probability_total": total, "rtp_of_distribution": mean, "apart": apart}
    else:
        sim = simulate(
            game_id, rounds, seed=seed, mode=mode, settings=chosen, lines=lines,
            workers=workers, scheduler=scheduler, progress=progress,
        )
        sigma = sim.game_stdev  # of the buckets' win, as the exact sheets give it
        rows = [(b["probability"], b["rtp_share"]) for b in sim.distribution()]
        hit = sim.hit_rate
        counts = list(sim.bucket_rounds)
        source = {
            "kind": "simulated",
            "rounds": rounds,
            "seed": seed,
            "choices": "first",
            "rtp": sim.rtp,
            "ci95": sim.ci95,
            "method": "the real session played round by round (pyengine.math.simulate), "
            "the decisions answered as autoplay answers them",
        }
        centre = rtp  # the band around the exact RTP, its width from the simulated sigma
        apart = {"jackpot_contribution": sim.jackpot_paid / sim.total_stake} if sim.jackpot_paid else {}
        check = {
            "probability_total": sum(p for p, _ in rows),
            "rtp_of_distribution": sim.rtp - sum(apart.values()),
            "apart": apart,
        }
    sheet = {
        "distribution": {"buckets": bucket_table(rows, counts), "source": source, **check},
        "hit_rate": {"value": hit, "every": 1 / hit if hit else None, "source": source},
        "sigma": {"value": float(sigma), "source": source},
        "volatility_index": {"value": {k: z * sigma for k, z in Z.items()}, "source": source},
        "spread": {"value": spread_table(centre, sigma), "source": source},
        "features": [
            {
                **f,
                "every": 1 / f["probability"] if f["probability"] else None,
                "source": {"kind": "exact" if f.get("exact") else "computed", "method": f["method"]},
            }
            for f in report.get("features", ())
        ],
        "feature_lengths": list(report.get("feature_lengths", ())),
        "max_win": {
            "x": report["max_win_x"],
            "bound": report["max_win_bound"],
            "probability": report["max_win_probability"],
            "odds": report["max_win_odds"],
            "source": {"kind": "exact", "method": report["method"]},
        },
    }
    sheet["checks"] = guideline_checks(sheet)
    return report | {"par_sheet": sheet}


def guideline_checks(sheet: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The par sheet against `GUIDELINES`: one row each, with "every" (rounds per event, None
    when not known) and ``met`` (None when not known)."""
    top = sheet["max_win"]
    figures = {
        "hit_rate": (sheet["hit_rate"]["value"], sheet["hit_rate"]["source"]),
        # A max win that is a bound is not a win some round pays: its odds are not known.
        "max_win": (None if top["bound"] else top["probability"], top["source"]),
    }
    out = []
    for key, (asks, most) in GUIDELINES.items():
        p, source = figures[key]
        every = 1 / p if p else None
        out.append({
            "id": key,
            "asks": asks,
            "every": every,
            "met": None if p is None else bool(every is not None and every <= most),
            "source": source,
        })
    return out


def length_table(
    feature: str, measure: str, lengths: Mapping[int, Fraction | float], method: str, *, exact: bool = True
) -> dict[str, Any]:
    """One feature's length distribution as a report gives it (``feature_lengths``): for each
    length (free spins played, symbols held at the end: ``measure`` says which) its
    probability once the feature has started. ``tail`` is the probability of the lengths not
    listed (a distribution without an end is listed until its tail is negligible)."""
    if not lengths or any(n < 0 or p < 0 for n, p in lengths.items()):
        raise ValueError(f"{feature}: a length distribution needs lengths >= 0 with probabilities >= 0")
    total = sum(lengths.values())
    if total > 1 + 1e-12:
        raise ValueError(f"{feature}: the length probabilities add up to {float(total)}, more than 1")
    rows = [{"length": n, "probability": float(p)} for n, p in sorted(lengths.items()) if p]
    return {
        "feature": feature,
        "measure": measure,
        "lengths": rows,
        "mean": float(sum(n * p for n, p in lengths.items()) / total),
        "tail": max(float(1 - total), 0.0),
        "source": {"kind": "exact" if exact else "computed", "method": method},
    }


def retrigger_lengths(award: int, p: Fraction, *, tail: float = 1e-13, most: int = 200) -> dict[int, Fraction]:
    """The number of spins a feature of ``award`` spins plays when each spin adds ``award``
    more with probability ``p`` (a retrigger), without end: {spins: probability}.

    With r retriggers the feature plays n = award x (r + 1) spins. The count left is a walk
    that goes down by one a spin and up by ``award - 1`` on a retrigger, so it reaches 0 first
    at spin n with probability (award / n) x P(r retriggers in n spins) (the hitting-time
    theorem): (award / n) x C(n, r) p^r (1 - p)^(n - r), exact. Listed until the rest is below
    ``tail`` (or ``most`` retriggers)."""
    if award < 1 or not 0 <= p < 1 or award * p >= 1:
        raise ValueError("a retrigger series needs award >= 1 and 0 <= p < 1/award (a finite expected length)")
    out: dict[int, Fraction] = {}
    left = Fraction(1)
    for r in range(most + 1):
        n = award * (r + 1)
        q = Fraction(award, n) * math.comb(n, r) * p**r * (1 - p) ** (n - r)
        out[n] = q
        left -= q
        if left < tail or p == 0:
            break
    return out
