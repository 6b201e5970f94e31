"""The showcase: for every feature of a game and for the win tiers, a round that plays it,
as a round link (`pyengine.link`) with the exact odds of the event beside it.

The search is deterministic: it plays the first round of sessions seeded 1, 2, 3, … (as
``python3 -m pyengine play GAME --seed S`` plays it, on the simulated clock), at the
game's default bet, each decision answered by its first choice (collect, never gamble), in
each of the game's modes (a bought feature in mode ``buy``).

- **Features.** Each mode's report lists the features a round can show with their exact
  probabilities (``report["features"]``: id, title, probability, exact fraction, method);
  the game's plug-in names which of them a round's events show (`Plugin.showcase`). The
  first seed that shows a feature is its entry; a feature not shown in the first ``limit``
  seeds is listed in ``missing``. Modes other than base are searched first, and a feature
  they found that is too rare for the base game's search (`RARE`) is shown by theirs only.
- **Win tiers.** In mode base, the first seed whose win is at least 10, 50, 100, 500 and
  1,000 times the total bet, and the largest win of the first ``rounds`` seeds. Their odds
  are the share of those ``rounds`` seeds that reached the tier, marked as simulated (the
  exact win distribution is not part of every report).
- **The time jackpot.** Its drop depends on the session's clock and pot, not on one seed:
  a session seeded 1 on the simulated clock plays until the pot drops, and that round's
  link (which carries the jackpot it won) is the entry.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from .errors import EngineError
from .events import Event
from .games import get_game, plugin
from .link import encode, first_round, link_of
from .math.rtp import odds_text, rtp_report
from .math.simulate import SECONDS_PER_ROUND, SIM_START
from .model import MAX_BALANCE
from .session import Session
from .snapshot import RoundRecord

__all__ = ["LIMIT", "ROUNDS", "TIERS", "Entry", "Shown", "showcase"]

Shown = Callable[[Sequence[Event]], set[str]]
"""A game's feature finder: the ids of its report's ``features`` that a round's events show."""

TIERS = (10, 50, 100, 500, 1000)
"""The win tiers, in total bets."""
ROUNDS = 100_000
"""The seeds searched for the win tiers (and the largest win)."""
LIMIT = 1_000_000
"""The most seeds searched, per mode, for a rare feature."""
RARE = 3.0
"""A feature expected fewer times than this in a mode's ``limit`` seeds is not searched in
that mode when another mode's search already found it (e.g. a full screen, which a bought
feature shows far more often than a paid spin)."""
JACKPOT_ROUNDS = 200_000
"""The most rounds the jackpot's session plays before its pot drops (a pot must drop by
its daily deadline: 28,800 rounds of the simulated clock)."""


@dataclass(frozen=True, slots=True)
class Entry:
    """One showcase entry: what it shows, the round that shows it and the event's odds."""

    id: str
    kind: str
    """``feature``, ``tier`` or ``jackpot``."""
    title: str
    mode: str
    seed: int | None
    """The session seed whose first round this is (None for the jackpot's round)."""
    token: str
    stake: int
    """What the round cost: the total bet, or a bought feature's price."""
    win: int
    odds: dict[str, Any]
    round: int = 1
    """The round of the session (the jackpot's round; 1 for a first round)."""
    bet: int = 1
    """The round's total bet: ``win_x`` is the win in total bets (a bought round's too)."""

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id, "kind": self.kind, "title": self.title, "mode": self.mode, "seed": self.seed,
            "round": self.round, "token": self.token, "stake": self.stake, "win": self.win,
            "win_x": round(self.win / self.bet, 2), "odds": self.odds,
        }


def _clock() -> float:
    return SIM_START


def _odds(probability: float | None, method: str, exact: str | None = None) -> dict[str, Any]:
    return {
        "probability": probability,
        "exact": exact,
        "every": round(1 / probability, 2) if probability else None,
        "text": odds_text(probability),
        "method": method,
    }


def _entry(game: str, kind: str, ident: str, title: str, mode: str, seed: int | None, record: RoundRecord,
           odds: dict[str, Any], round_no: int = 1, settings: Mapping[str, int] | None = None) -> Entry:
    token = encode(link_of(game, record, settings))
    return Entry(ident, kind, title, mode, seed, token, record.stake, record.win, odds, round_no, record.bet.total)


def _features(report: Mapping[str, Any], game: str) -> list[dict[str, Any]]:
    listed = report.get("features", [])
    if not isinstance(listed, list):
        raise EngineError(f"the report of {game} gives its features as {type(listed).__name__}, not a list")
    seen: set[str] = set()
    for f in listed:
        if f["id"] in seen:
            raise EngineError(f"the report of {game} lists feature {f['id']!r} twice")
        seen.add(f["id"])
    return listed


def _tier_title(x: int) -> str:
    return f"A win of {x:,}× the bet or more"


def showcase(
    game: str,
    *,
    rounds: int = ROUNDS,
    limit: int = LIMIT,
    reports: Mapping[str, Mapping[str, Any]] | None = None,
    progress: Callable[[int], None] | None = None,
) -> dict[str, Any]:
    """The showcase of ``game`` (see the module's docstring), JSON-ready. ``reports``: the
    game's report per mode when already computed; ``progress`` is told of each 10,000 seeds played."""
    if rounds < 1 or limit < rounds:
        raise EngineError(f"the search needs 1 <= rounds <= limit, not {rounds} and {limit}")
    g = get_game(game)
    finder: Shown | None = plugin(game).showcase_function()
    by_mode: dict[str, list[Entry]] = {m: [] for m in g.modes}
    missing: list[str] = []
    searched: dict[str, int] = {}
    found_in: dict[str, str] = {}  # feature id -> the mode whose search found it
    for mode in sorted(g.modes, key=lambda m: m == "base"):  # a bought feature's first
        report = reports[mode] if reports is not None and mode in reports else rtp_report(game, mode)
        listed = _features(report, game) if finder is not None else []
        listed_ids = {f["id"] for f in listed}
        # A feature too rare for this mode's search that another mode's round already shows
        # (a bought feature's) is not searched again (nor missing).
        wanted = {
            f["id"]: f for f in listed if f["id"] not in found_in or float(f["probability"]) * limit >= RARE
        }
        found: dict[str, tuple[int, RoundRecord]] = {}
        tiers = mode == "base"
        reached = dict.fromkeys(TIERS, 0)
        first_tier: dict[int, tuple[int, RoundRecord]] = {}
        best: tuple[int, int, RoundRecord] | None = None  # (win, seed, record)
        seed = 0
        while seed < limit and (len(found) < len(wanted) or (tiers and seed < rounds)):
            seed += 1
            record, events = first_round(game, seed, mode=mode, clock=_clock)
            if progress is not None and seed % 10_000 == 0:
                progress(10_000)
            if finder is not None:
                for ident in finder(events):
                    if ident not in wanted:
                        if ident in listed_ids:
                            continue
                        raise EngineError(f"{game}'s showcase finder names {ident!r}, which its report does not list")
                    found.setdefault(ident, (seed, record))
            if tiers and seed <= rounds:
                stake = record.stake
                for x in TIERS:
                    if record.win >= x * stake:
                        reached[x] += 1
                        first_tier.setdefault(x, (seed, record))
                if record.win > 0 and (best is None or record.win * best[2].stake > best[0] * stake):
                    best = (record.win, seed, record)
        for ident in found:
            found_in.setdefault(ident, mode)
        searched[mode] = seed
        entries = by_mode[mode]
        for ident, f in wanted.items():
            if ident not in found:
                missing.append(ident)
                continue
            s, rec = found[ident]
            odds = _odds(float(f["probability"]), str(f["method"]), f.get("exact"))
            entries.append(_entry(game, "feature", ident, str(f["title"]), mode, s, rec, odds))
        if tiers:
            for x in TIERS:
                if x not in first_tier:
                    continue
                s, rec = first_tier[x]
                share = Fraction(reached[x], rounds)
                odds = _odds(float(share), f"simulated: {reached[x]:,} of the first {rounds:,} seeds", str(share))
                entries.append(_entry(game, "tier", f"win_{x}x", _tier_title(x), mode, s, rec, odds))
            if best is not None:
                win, s, rec = best
                x_best = win / rec.stake
                odds = _odds(None, f"the largest win of the first {rounds:,} seeds")
                entries.append(_entry(game, "tier", "win_best", f"The biggest win found: {x_best:,.2f}× the bet",
                                      mode, s, rec, odds))
    entries = [e for m in g.modes for e in by_mode[m]]  # the base game's first
    if g.jackpot is not None:
        entries.append(_jackpot_entry(game))
    bet = g.bets.default
    return {
        "game": game,
        "version": g.version,
        "bet": bet.to_json(),
        "stream": "the first round of sessions seeded 1, 2, 3, … (play GAME --seed S), first choices, simulated clock",
        "rounds": rounds,
        "limit": limit,
        "searched": searched,
        "missing": missing,
        "entries": [e.to_json() for e in entries],
    }


def _jackpot_entry(game: str) -> Entry:
    """The first round of a session seeded 1 on the simulated clock that wins the time jackpot."""
    now = [SIM_START]

    def clock() -> float:
        return now[0]

    session = Session(game, seed=1, balance=MAX_BALANCE // 2, clock=clock)
    for n in range(1, JACKPOT_ROUNDS + 1):
        session.spin()
        while (d := session.pending) is not None:
            session.choose(d.choices[0])
        record = session.last_round
        assert record is not None
        if record.jackpot:
            odds = _odds(None, "the time jackpot drops once a pot, by the pot's daily deadline")
            return _entry(game, "jackpot", "jackpot", "The time jackpot drops", "base", None, record, odds, n)
        now[0] += SECONDS_PER_ROUND
    raise EngineError(f"{game}'s time jackpot did not drop in {JACKPOT_ROUNDS:,} rounds")
