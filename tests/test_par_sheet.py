"""The par sheet (`pyengine.math.parsheet`) of every game: its buckets add up to 1 and to
the RTP, its figures follow from each other, each says where it comes from, and a game's
exact distribution agrees with the real session played round by round."""

from __future__ import annotations

import json
import math
import subprocess
import sys
from fractions import Fraction
from functools import cache
from typing import Any

import pytest

from pyengine.games import GAME_IDS, get_game, plugin
from pyengine.math.parsheet import (
    GUIDELINES,
    WinDistribution,
    guideline_checks,
    length_table,
    par_sheet,
    retrigger_lengths,
)
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
    assert shares == pytest.approx(dist["rtp_of_distribution"], abs=1e-12)
    # What the game pays apart from a round's win is a component of its RTP (a time jackpot).
    assert set(dist["apart"]) <= set(r["breakdown"])
    if dist["source"]["kind"] == "exact":
        # The exact distribution and what is paid apart return exactly the exact RTP.
        assert dist["apart"] == {k: pytest.approx(r["breakdown"][k], abs=1e-15) for k in dist["apart"]}
        assert shares + sum(dist["apart"].values()) == pytest.approx(r["rtp"], abs=1e-9)
    else:
        # A simulation's shares add up to its RTP, which falls within its interval of the exact one.
        src = dist["source"]
        assert src["rounds"] == ROUNDS
        assert src["seed"] == 7
        assert shares + sum(dist["apart"].values()) == pytest.approx(src["rtp"], abs=1e-12)
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
        assert (row["high_95"] + row["low_95"]) / 2 == pytest.approx(r["rtp"], abs=1e-12)  # the exact RTP
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


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_the_guideline_checks_follow_from_the_sheet(game_id: str) -> None:
    """Each approval figure is the sheet's own: the hit rate's rounds per win, the max win's
    rounds per event (not known for a max win that is only a bound), met or not by its limit."""
    ps = sheet(game_id)["par_sheet"]
    checks = {c["id"]: c for c in ps["checks"]}
    assert list(checks) == list(GUIDELINES)
    hit = checks["hit_rate"]
    assert hit["every"] == pytest.approx(1 / ps["hit_rate"]["value"])
    assert hit["met"] is (hit["every"] <= GUIDELINES["hit_rate"][1])
    assert hit["source"] == ps["hit_rate"]["source"]
    top = checks["max_win"]
    if ps["max_win"]["bound"] or ps["max_win"]["probability"] is None:
        assert top["every"] is None
        assert top["met"] is None
    else:
        assert top["every"] == pytest.approx(1 / ps["max_win"]["probability"])
        assert top["met"] is (top["every"] <= GUIDELINES["max_win"][1])
    for c in checks.values():
        assert c["asks"] == GUIDELINES[c["id"]][0]


def test_a_guideline_not_met_says_so() -> None:
    """The limits cut where they say: a figure just inside is met, just outside is not, and
    a max win that is only a bound is not known."""
    base = {
        "hit_rate": {"value": 1 / 20, "source": {"kind": "exact"}},
        "max_win": {"probability": 1 / 10_000_001, "bound": False, "source": {"kind": "exact"}},
    }
    got = {c["id"]: c["met"] for c in guideline_checks(base)}
    assert got == {"hit_rate": True, "max_win": False}
    worse = {**base, "hit_rate": {"value": 1 / 21, "source": {"kind": "exact"}}}
    assert guideline_checks(worse)[0]["met"] is False
    bound = {**base, "max_win": {"probability": None, "bound": True, "source": {"kind": "exact"}}}
    assert guideline_checks(bound)[1]["met"] is None


@pytest.mark.parametrize("game_id", [g for g in GAME_IDS if plugin(g).distribution])
def test_the_exact_distribution_agrees_with_the_real_session(game_id: str) -> None:
    """Each bucket's simulated frequency falls within five standard errors of its exact
    probability, and so does its share of the RTP. (Not sigma: one run's sigma swings with
    the few top wins it happens to see.)"""
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
        # A round's share is at most the bucket's top (or the max win) times its indicator.
        top = exact["high_x"] if exact["high_x"] is not None else r["max_win_x"]
        share_error = top * math.sqrt(p / rounds)
        assert abs(got["rtp_share"] - exact["rtp_share"]) <= 5 * share_error + 1e-9, (exact, got)


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


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_every_game_gives_its_feature_lengths(game_id: str) -> None:
    """Each game gives at least one feature's length distribution: lengths ascending, their
    probabilities and the tail adding up to 1, the mean the lengths' mean, exact."""
    tables = sheet(game_id)["par_sheet"]["feature_lengths"]
    assert tables
    for t in tables:
        lengths = [row["length"] for row in t["lengths"]]
        probs = [row["probability"] for row in t["lengths"]]
        assert lengths == sorted(set(lengths))
        assert all(p > 0 for p in probs)
        assert t["tail"] < 1e-9
        assert sum(probs) + t["tail"] == pytest.approx(1.0, abs=1e-12)
        mean = sum(n * p for n, p in zip(lengths, probs, strict=True)) / sum(probs)
        assert t["mean"] == pytest.approx(mean, rel=1e-12)
        assert t["source"]["kind"] == "exact"
        assert t["measure"]
        assert t["source"]["method"]


def test_the_retrigger_series_is_the_walk_of_spins_left() -> None:
    """`retrigger_lengths` (the hitting-time theorem) equals the walk played out exactly: the
    spins left go down by one a spin and up by the award on a retrigger."""
    award, p = 3, Fraction(1, 7)
    got = retrigger_lengths(award, p, tail=1e-9)
    # P(spins left = j after t spins, not yet ended), exactly.
    walk: dict[int, Fraction] = {award: Fraction(1)}
    ended: dict[int, Fraction] = {}
    for t in range(1, max(got) + 1):
        nxt: dict[int, Fraction] = {}
        for j, q in walk.items():
            for step, w in ((-1, 1 - p), (award - 1, p)):
                k = j + step
                if k == 0:
                    ended[t] = ended.get(t, Fraction(0)) + q * w
                else:
                    nxt[k] = nxt.get(k, Fraction(0)) + q * w
        walk = nxt
    assert got == {n: q for n, q in ended.items() if n in got}
    assert set(ended) - set(got) <= {n for n in ended if n > max(got)}
    assert 1 - sum(got.values()) < 1e-9
    # The mean tends to the series award / (1 - award x p).
    many = retrigger_lengths(award, p, tail=1e-30)
    assert float(sum(n * q for n, q in many.items())) == pytest.approx(float(Fraction(award) / (1 - award * p)))
    with pytest.raises(ValueError, match="finite expected length"):
        retrigger_lengths(3, Fraction(1, 3))
    with pytest.raises(ValueError, match="probabilities"):
        length_table("x", "spins", {3: Fraction(2, 3), 4: Fraction(2, 3)}, "m")
