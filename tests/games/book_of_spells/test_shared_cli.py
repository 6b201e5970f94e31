"""Book of Spells through ``python -m pyengine`` (from the shared ``tests/test_cli.py``): its exact
RTP report, at a lower free-spin limit and on one line, and its operator settings and lines not
offered refused word for word."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest

from pyengine.cli import main
from pyengine.games import get_game
from pyengine.games.book_of_spells import BookOfSpells
from pyengine.games.book_of_spells.report import book_math

GAME_ID = "book_of_spells"


def run_ok(capsys: pytest.CaptureFixture[str], argv: list[str]) -> str:
    assert main(argv) == 0
    out, err = capsys.readouterr()
    assert err == ""
    return out


def test_rtp_json(capsys: pytest.CaptureFixture[str]) -> None:
    report = json.loads(run_ok(capsys, ["rtp", GAME_ID, "--json"]))
    assert {"game", "rtp", "target_rtp", "method", "breakdown", "max_win_x"} <= set(report)
    assert report["game"] == GAME_ID
    assert report["target_rtp"] == 0.9613
    assert abs(report["rtp"] - 0.9613) < 0.0002
    assert isinstance(report["method"], str)
    assert report["method"].startswith("exact")
    assert sum(report["breakdown"].values()) == pytest.approx(report["rtp"], abs=1e-12)
    assert report["max_win_x"] == pytest.approx(5000 + 6940 / 9)
    # The exact figure itself is pinned in test_shared_math.py beside this file.
    game = get_game(GAME_ID)
    assert isinstance(game, BookOfSpells)
    assert Fraction(report["rtp_uncapped_exact"]) == book_math(game).rtp_uncapped


# -- operator settings -----------------------------------------------------------------------------------------
def test_rtp_with_a_lower_cap(capsys: pytest.CaptureFixture[str]) -> None:
    # A designer's question: what does a free-spin limit of 1000x do? The exact part is unchanged; the
    # limit's term grows, and the max win is the base spin's best plus the new limit.
    report = json.loads(run_ok(capsys, ["rtp", GAME_ID, "--json", "--setting", "free_spin_cap_x=1000"]))
    assert report["settings"] == {"free_spin_cap_x": 1000, "gamble_limit_x": 250, "gamble": 1}
    assert report["free_spin_cap"]["cap_x"] == 1000
    assert report["max_win_x"] == pytest.approx(1000 + 6940 / 9)
    reduction = report["free_spin_cap"]["reduction"]
    assert 0.003 < reduction < 0.005  # 0.3748 points, against 0.0060 at the default 5000x
    assert report["rtp"] == pytest.approx(float(Fraction(report["rtp_uncapped_exact"])) - reduction, abs=1e-15)
    text = run_ok(capsys, ["rtp", GAME_ID, "--setting", "free_spin_cap_x=1000", "--setting", "gamble=false"])
    assert "at 9 lines, operator settings: free_spin_cap_x=1000, gamble_limit_x=250, gamble=0" in text
    assert "free-spin cap 1000x: ends 1 feature in 297," in text


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["rtp", GAME_ID, "--setting", "free_spin_cap_x=0"], "must be an integer of at least 1, not 0"),
        (["rtp", GAME_ID, "--setting", "jackpot=1"], "unknown setting 'jackpot'"),
        (["play", GAME_ID, "--jsonl", "--setting", "gamble_limit_x=-1"], "at least 0, not -1"),
        (["simulate", GAME_ID, "--rounds", "5", "--setting", "gamble=2"], "must be 0, 1, true or false"),
    ],
)
def test_refused_setting_exits_2(capsys: pytest.CaptureFixture[str], argv: list[str], message: str) -> None:
    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith("pyengine: ")
    assert message in err
    assert len(err.splitlines()) == 1


# -- lines ------------------------------------------------------------------------------------------------------
def test_rtp_on_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    # Everything but the free-spin limit is the same on any number of lines; the limit is 5000x the
    # total bet, so on 1 line it is 5000x the bet per line.
    one = json.loads(run_ok(capsys, ["rtp", GAME_ID, "--json", "--lines", "1"]))
    assert one["lines"] == 1
    assert one["free_spin_cap"]["lines"] == 1
    assert one["rtp_uncapped_exact"] == "287002804869439/298546063843248"
    assert 0 < one["free_spin_cap"]["reduction"] < 0.001
    assert one["rtp"] == pytest.approx(float(Fraction(one["rtp_uncapped_exact"])) - one["free_spin_cap"]["reduction"])
    # One line's best base spin: five Books on line 1 (5000) and their scatter (200 x 1 line).
    assert one["max_win_x"] == pytest.approx(5000 + 5200)


@pytest.mark.parametrize(
    "argv",
    [
        ["rtp", GAME_ID, "--lines", "10"],
        ["simulate", GAME_ID, "--rounds", "5", "--lines", "12"],
    ],
)
def test_lines_not_offered_exit_2(capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert "lines is not offered; choose one of 1, 2, 3, 4, 5, 6, 7, 8, 9" in err
    assert len(err.splitlines()) == 1
