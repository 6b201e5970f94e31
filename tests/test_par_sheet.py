"""The par sheet (`pyengine.math.parsheet`) of every game: its buckets add up to 1 and to
the RTP, its figures follow from each other, each says where it comes from, and a game's
exact distribution agrees with the real session played round by round."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from functools import cache
from typing import Any

import pytest

from pyengine.games import GAME_IDS, get_game, plugin
from pyengine.math.parsheet import WinDistribution, par_sheet
from pyengine.math.simulate import BUCKET_EDGES_X, SPREAD_ROUNDS, Z, simulate

ROUNDS = 20_000
"""Rounds simulated for the figures a game does not give exactly (small: the checks here
hold for any run)."""


@cache
def sheet(game_id: str) -> dict[str, Any]:
    return par_sheet(game_id, rounds=ROUNDS, seed=7)


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_buckets_sum_to_one_and_to_the_rtp(game_id: str) -> None:
    r = sheet(game_id)
    dist = r["par_sheet"]["distribution"]
    buckets = dist["buckets"]
    assert len(buckets) == len(BUCKET_EDGES_X) + 2
    assert [b["low_x"] for b in buckets[2:]] == list(BUCKET_EDGES_X)
    assert buckets[0]["rtp_share"] == 0.0  # the bucket of no win
    assert sum(b["probability"] for b in buckets) == pytest.approx(1.0, abs=1e-9)
    shares = sum(b["rtp_share"] for b in buckets)
    if dist["source"]["kind"] == "exact":
        # The exact distribution returns exactly the exact RTP.
        assert shares == pytest.approx(r["rtp"], abs=1e-9)
    else:
        # A simulation's shares add up to its RTP, which falls within its interval of the exact one.
        src = dist["source"]
        assert src["rounds"] == ROUNDS
        assert src["seed"] == 7
        assert shares == pytest.approx(src["rtp"], abs=1e-12)
        assert sum(b["rounds"] for b in buckets) == ROUNDS
        assert abs(src["rtp"] - r["rtp"]) < 4 * src["ci95"]


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_figures_follow_from_sigma_and_say_where_they_come_from(game_id: str) -> None:
    r = sheet(game_id)
    ps = r["par_sheet"]
    sigma = ps["sigma"]["value"]
    assert sigma > 0
    assert ps["hit_rate"]["value"] == pytest.approx(1 - ps["distribution"]["buckets"][0]["probability"], abs=1e-12)
    for k, z in Z.items():
        assert ps["volatility_index"]["value"][k] == pytest.approx(z * sigma)
    spread = ps["spread"]["value"]
    assert [row["rounds"] for row in spread] == list(SPREAD_ROUNDS)
    for row in spread:
        half = Z["95"] * sigma / math.sqrt(row["rounds"])
        assert row["high_95"] - row["low_95"] == pytest.approx(2 * half)
        assert row["low_95"] < row["low_90"] < row["high_90"] < row["high_95"]
    for name in ("distribution", "hit_rate", "sigma", "volatility_index", "spread", "max_win"):
        kind = ps[name]["source"]["kind"]
        assert kind in ("exact", "simulated")
        assert ps[name]["source"]["method"]
    exact = bool(plugin(game_id).distribution)
    assert (ps["distribution"]["source"]["kind"] == "exact") is exact
    assert ps["max_win"]["x"] == r["max_win_x"]
    assert ps["max_win"]["odds"] == r["max_win_odds"]
    # Every feature of the game's report, with its odds as 1 in N.
    assert [f["id"] for f in ps["features"]] == [f["id"] for f in r["features"]]
    for f in ps["features"]:
        assert f["every"] == pytest.approx(1 / f["probability"])


@pytest.mark.parametrize("game_id", [g for g in GAME_IDS if plugin(g).distribution])
def test_the_exact_distribution_agrees_with_the_real_session(game_id: str) -> None:
    """Each bucket's simulated frequency falls within five standard errors of its exact
    probability, and the simulated sigma near the exact one."""
    game = get_game(game_id)
    fn = plugin(game_id).distribution_function()
    assert fn is not None
    r = sheet(game_id)
    dist = fn(game, "base", r["settings"], r["lines"])
    assert isinstance(dist, WinDistribution)
    rounds = 200_000
    sim = simulate(game_id, rounds, seed=11, settings=r["settings"], lines=r["lines"])
    for exact, got in zip(r["par_sheet"]["distribution"]["buckets"], sim.distribution(), strict=True):
        p = exact["probability"]
        error = math.sqrt(p * (1 - p) / rounds)
        assert abs(got["probability"] - p) <= 5 * error + 1e-9, (exact, got)
    assert sim.stdev == pytest.approx(r["par_sheet"]["sigma"]["value"], rel=0.25)


def test_rtp_json_carries_the_par_sheet() -> None:
    """The command line's ``rtp --json`` is the same par sheet (a game that simulates, so the
    options reach the simulation)."""
    game_id = next(g for g in GAME_IDS if not plugin(g).distribution) if not all(
        plugin(g).distribution for g in GAME_IDS
    ) else GAME_IDS[0]
    out = subprocess.run(
        [sys.executable, "-m", "pyengine", "rtp", game_id, "--json", "--rounds", str(ROUNDS), "--seed", "7"],
        capture_output=True, text=True, check=True,
    ).stdout
    got = json.loads(out)["par_sheet"]
    want = sheet(game_id)["par_sheet"]
    assert got["distribution"] == want["distribution"]
    assert got["sigma"] == want["sigma"]
