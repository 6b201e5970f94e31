"""A simulation is one session, whatever the split: pieces of any size, any number of local
processes, a Dask cluster — every field of the result but its timing is the same, and equals
the plain loop of one session's rounds (the time jackpot included: its pot crosses pieces).
"""

from __future__ import annotations

import math

import json
from itertools import pairwise
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from pyengine.errors import EngineError
from pyengine.games import GAME_IDS, get_game
from pyengine.math.simulate import BUCKET_EDGES_X, SECONDS_PER_ROUND, SIM_START, jackpot_plan, simulate
from pyengine.session import Session

ROOT = Path(__file__).resolve().parents[1]
TIMING = ("seconds", "rounds_per_second")


def _untimed(result: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in result.items() if k not in TIMING}


def _one_session(game_id: str, rounds: int, seed: int) -> dict[str, Any]:
    """The reference: one session's rounds in a plain loop, as a player's autoplay plays them."""
    game = get_game(game_id)
    tick = [SIM_START]
    s = Session(game, balance=game.bets.default.total * rounds, seed=seed, clock=lambda: tick[0])
    wins: list[int] = []
    game_wins: list[int] = []  # the jackpot apart
    features: Counter[str] = Counter()
    top = 0
    for i in range(rounds):
        tick[0] = SIM_START + i * SECONDS_PER_ROUND
        s.spin()
        while (d := s.pending) is not None:
            s.choose(d.choices[0])
        last = s.last_round
        assert last is not None
        wins.append(last.win)
        game_wins.append(last.win - last.jackpot)
        top = max(top, last.win - last.jackpot)
        features.update(set(last.features))
    jp = s.jackpot
    bet = game.bets.default.total
    bounds = [(0, 0), (0, 1), *zip(BUCKET_EDGES_X, [*BUCKET_EDGES_X[1:], None], strict=True)]

    def inside(w: int, lo: int, hi: int | None) -> bool:
        if hi == 0:
            return w == 0
        return w > 0 and w >= lo * bet and (hi is None or w < hi * bet)

    buckets = [[w for w in game_wins if inside(w, lo, hi)] for lo, hi in bounds]
    stake = bet * rounds
    return {
        "distribution": [
            {"low_x": lo, "high_x": hi, "rounds": len(b), "win": sum(b), "probability": len(b) / rounds,
             "rtp_share": sum(b) / stake}
            for (lo, hi), b in zip(bounds, buckets, strict=True)
        ],
        "total_win": sum(wins), "sum_sq_win": sum(w * w for w in wins), "hits": sum(1 for w in game_wins if w),
        "sum_sq_game_win": sum(w * w for w in game_wins),
        "max_win": top, "features": dict(sorted(features.items())),
        "jackpot": {"paid": jp.paid, "drops": jp.drops, "contributed": float(jp.contributed), "pot": float(jp.pot)}
        if jp else {"paid": 0, "drops": 0, "contributed": 0.0, "pot": 0.0},
    }


@pytest.mark.parametrize("game", GAME_IDS)
def test_pieces_of_any_size_play_the_one_sessions_rounds(game: str) -> None:
    rounds = 1500
    reference = _one_session(game, rounds, 11)
    results = [_untimed(simulate(game, rounds, seed=11, chunk=c).to_json()) for c in (rounds, 400, 97)]
    assert results[0] == results[1] == results[2]
    assert {k: results[0][k] for k in reference} == reference


def test_the_jackpots_pass_is_the_sessions_pot_at_every_piece() -> None:
    games = [g for g in GAME_IDS if get_game(g).jackpot is not None]
    assert games, "no registered game has a time jackpot to check"
    for game in games:
        g = get_game(game)
        rounds = 40_000  # long enough for pots to drop (33 simulated hours)
        states, end = jackpot_plan(game, rounds, 5, "base", g.bets.default, [0, 12_345, rounds])
        now = [SIM_START]

        def clock(t: list[float] = now) -> float:
            return t[0]

        s = Session(g, balance=g.bets.default.total * rounds, seed=5, clock=clock)
        seen = {}
        for i in range(rounds):
            if i in (0, 12_345):
                assert s.jackpot is not None
                seen[i] = s.jackpot.to_json()
            now[0] = SIM_START + i * SECONDS_PER_ROUND
            s.spin()
            while (d := s.pending) is not None:
                s.choose(d.choices[0])
        assert s.jackpot is not None
        assert end is not None
        assert s.jackpot.drops > 0, "no pot dropped: the check would not cross a drop"
        assert [st.to_json() for st in states if st is not None] == [seen[0], seen[12_345], s.jackpot.to_json()]
        assert end.to_json() == s.jackpot.to_json()


def test_random_choices_do_not_depend_on_the_split() -> None:
    game = next(g for g in GAME_IDS if getattr(get_game(g), "decisions", ()))
    a = _untimed(simulate(game, 3000, seed=4, choices="random", chunk=3000).to_json())
    b = _untimed(simulate(game, 3000, seed=4, choices="random", chunk=250).to_json())
    assert a == b


def test_processes_give_the_same_result_as_one() -> None:
    game = GAME_IDS[0]
    one = _untimed(simulate(game, 6000, seed=3, chunk=1000).to_json())
    three = _untimed(simulate(game, 6000, seed=3, chunk=1000, workers=3).to_json())
    assert one == three


def test_bad_splits_are_refused() -> None:
    game = GAME_IDS[0]
    for kwargs in ({"workers": 0}, {"workers": 1.5}, {"chunk": 0}):
        with pytest.raises(EngineError):
            simulate(game, 10, **kwargs)
    with pytest.raises(EngineError, match="no Dask scheduler answered"):
        simulate(game, 10, scheduler="tcp://127.0.0.1:9")


def _cli(*args: str) -> dict[str, Any]:
    proc = subprocess.run(
        [sys.executable, "-m", "pyengine", "simulate", *args, "--json"],
        cwd=ROOT, capture_output=True, text=True, check=False, timeout=1800,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    return _untimed(json.loads(proc.stdout))


@pytest.mark.parametrize("game", GAME_IDS)
def test_the_cli_gives_one_result_for_one_process_three_and_a_local_cluster(game: str) -> None:
    base = (game, "--rounds", "200000", "--seed", "7")
    one = _cli(*base, "--workers", "1")
    assert one["rounds"] == 200_000
    assert one == _cli(*base, "--workers", "3")
    assert one == _cli(*base, "--scheduler", "local")


@pytest.mark.parametrize("game", GAME_IDS)
def test_the_win_distribution_covers_every_round_and_the_whole_rtp(game: str) -> None:
    r = simulate(game, 4000, seed=21).to_json()
    dist = r["distribution"]
    assert len(dist) == len(BUCKET_EDGES_X) + 2
    assert sum(b["rounds"] for b in dist) == r["rounds"]
    # The buckets hold the game's win; the time jackpot's drops are paid apart from it.
    assert sum(b["win"] for b in dist) == r["total_win"] - r["jackpot"]["paid"]
    assert sum(b["rounds"] for b in dist[1:]) == r["hits"]
    paid_apart = r["jackpot"]["paid"] / r["total_stake"]
    assert sum(b["rtp_share"] for b in dist) + paid_apart == pytest.approx(r["rtp"], abs=1e-12)
    assert dist[0]["win"] == 0


def test_a_jackpots_drops_are_paid_apart_from_the_buckets() -> None:
    """Over a run long enough for pots to drop, the buckets, the hit rate and the game's
    sigma leave the drops out, and the drops with the buckets make up the whole RTP."""
    games = [g for g in GAME_IDS if get_game(g).jackpot is not None]
    assert games, "no registered game has a time jackpot to check"
    for game in games:
        r = simulate(game, 40_000, seed=5).to_json()  # 33 simulated hours
        assert r["jackpot"]["drops"] > 0, "no pot dropped: the check would not cross a drop"
        dist = r["distribution"]
        assert sum(b["win"] for b in dist) == r["total_win"] - r["jackpot"]["paid"] < r["total_win"]
        assert r["sum_sq_game_win"] < r["sum_sq_win"]
        stake = r["total_stake"] / r["rounds"]
        game_mean = sum(b["win"] for b in dist) / r["total_stake"]
        want = math.sqrt(r["sum_sq_game_win"] / stake**2 / r["rounds"] - game_mean**2)
        assert r["game_stdev"] == pytest.approx(want, rel=1e-12)


def test_the_volatility_index_and_the_spread_follow_sigma() -> None:
    r = simulate(GAME_IDS[0], 3000, seed=2).to_json()
    assert r["volatility_index"]["95"] == pytest.approx(1.96 * r["stdev"], rel=1e-4)
    assert r["volatility_index"]["90"] == pytest.approx(1.645 * r["stdev"], rel=1e-3)
    rows = r["spread"]
    assert [row["rounds"] for row in rows] == [10**k for k in range(2, 8)]
    widths = [row["high_95"] - row["low_95"] for row in rows]
    assert all(a > b > 0 for a, b in pairwise(widths))
    for row in rows:
        assert row["low_95"] < row["low_90"] < r["rtp"] < row["high_90"] < row["high_95"]
        assert row["high_95"] - r["rtp"] == pytest.approx(1.96 * r["stdev"] / row["rounds"] ** 0.5, rel=1e-4)
