"""pyengine.cli: ``python -m pyengine games | rtp | simulate | play`` through `main`."""

from __future__ import annotations

import json
import time
from fractions import Fraction
from typing import Any

import pytest

from pyengine.cli import main
from pyengine.games import GAME_IDS, get_game
from pyengine.games.book_of_spells import BookOfSpells
from pyengine.games.book_of_spells.report import book_math
from pyengine.math.simulate import simulate


def run_ok(capsys: pytest.CaptureFixture[str], argv: list[str]) -> str:
    assert main(argv) == 0
    out, err = capsys.readouterr()
    assert err == ""
    return out


def test_games(capsys: pytest.CaptureFixture[str]) -> None:
    """The shipped games first, then any registered (here the tests' fixture game)."""
    out = run_ok(capsys, ["games"])
    assert out.splitlines() == [*GAME_IDS, "pick_fixture"]
    assert "book_of_spells" in out.splitlines()


def test_rtp_json(capsys: pytest.CaptureFixture[str]) -> None:
    report = json.loads(run_ok(capsys, ["rtp", "book_of_spells", "--json"]))
    assert {"game", "rtp", "target_rtp", "method", "breakdown", "max_win_x"} <= set(report)
    assert report["game"] == "book_of_spells"
    assert report["target_rtp"] == 0.9613
    assert abs(report["rtp"] - 0.9613) < 0.0002
    assert isinstance(report["method"], str)
    assert report["method"].startswith("exact")
    assert sum(report["breakdown"].values()) == pytest.approx(report["rtp"], abs=1e-12)
    assert report["max_win_x"] == pytest.approx(5000 + 6940 / 9)
    # The exact figure itself is pinned in tests/test_math.py.
    game = get_game("book_of_spells")
    assert isinstance(game, BookOfSpells)
    assert Fraction(report["rtp_uncapped_exact"]) == book_math(game).rtp_uncapped


SIM_KEYS = {"game", "rounds", "rtp", "ci95", "hit_rate", "stdev", "max_win_x", "features", "rounds_per_second"}


@pytest.mark.parametrize("choices", ["first", "random"])
def test_simulate_json(capsys: pytest.CaptureFixture[str], choices: str) -> None:
    argv = ["simulate", "book_of_spells", "--rounds", "2000", "--seed", "3", "--choices", choices, "--json"]
    out = run_ok(capsys, argv)
    result = json.loads(out)
    assert set(result) >= SIM_KEYS
    assert result["game"] == "book_of_spells"
    assert result["rounds"] == 2000
    assert result["choices"] == choices
    assert result["rounds_per_second"] > 0
    assert isinstance(result["features"], dict)
    # The command is the library's simulate with the same arguments.
    same = simulate("book_of_spells", 2000, seed=3, choices=choices)
    assert result["total_win"] == same.total_win
    assert result["rtp"] == same.rtp
    assert result["ci95"] == same.ci95
    assert result["hit_rate"] == same.hit_rate


def test_simulate_text(capsys: pytest.CaptureFixture[str]) -> None:
    out = run_ok(capsys, ["simulate", "book_of_spells", "--rounds", "300", "--seed", "0x10"])
    assert out.startswith("book_of_spells (base): 300 rounds, RTP ")
    assert "rounds/s" in out
    assert len(out.splitlines()) == 1


def _play(capsys: pytest.CaptureFixture[str], *args: str) -> list[dict[str, Any]]:
    out = run_ok(capsys, ["play", "book_of_spells", *args, "--jsonl"])
    return [json.loads(line) for line in out.splitlines()]


@pytest.mark.parametrize("choices", ["first", "random"])
def test_play_jsonl(capsys: pytest.CaptureFixture[str], choices: str) -> None:
    rounds = _play(capsys, "--seed", "5", "--rounds", "40", "--choices", choices)
    assert len(rounds) == 40
    previous = None
    for r in rounds:
        assert set(r) == {"seed", "bet", "win", "balance_before", "balance_after", "events"}
        assert r["bet"] == {"lines": 9, "bet_per_line": 10, "coins": 1, "total": 90}
        assert r["balance_after"] == r["balance_before"] - r["bet"]["total"] + r["win"]
        if previous is not None:
            assert r["balance_before"] == previous["balance_after"]
        previous = r
        events = r["events"]
        assert events[0]["type"] == "round_start"
        assert events[0]["seed"] == r["seed"]
        assert events[0]["balance"] == r["balance_before"] - 90
        assert events[-1] == {"type": "round_end", "win": r["win"], "balance": r["balance_after"]}
        if choices == "first":
            assert all(e["choice"] in ("collect", "start", "spin") for e in events if e["type"] == "choice_made")
    assert rounds[0]["balance_before"] == 100_000
    assert _play(capsys, "--seed", "5", "--rounds", "40", "--choices", choices) == rounds


def test_play_default_one_round(capsys: pytest.CaptureFixture[str]) -> None:
    rounds = _play(capsys, "--seed", "7")
    assert len(rounds) == 1
    assert rounds[0]["events"][-1]["type"] == "round_end"


def test_play_gives_the_same_output_on_every_run(capsys: pytest.CaptureFixture[str]) -> None:
    # On the simulated clock (simulate's: 3 s a round from 2026-01-01), Moon Spell's time jackpot
    # drops in the same round on every run, whatever the time: seed 199 wins it in its third round.
    argv = ["play", "moon_spell", "--seed", "199", "--rounds", "3", "--jsonl"]
    rounds = [json.loads(line) for line in run_ok(capsys, argv).splitlines()]
    assert [r.get("jackpot", 0) for r in rounds] == [0, 0, 3]
    assert rounds[2]["win"] >= 3
    assert any(e["type"] == "jackpot_win" for e in rounds[2]["events"])
    assert run_ok(capsys, argv) == run_ok(capsys, argv)


def test_play_on_the_real_clock(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    # --real-clock reads the computer's clock: two days after the session starts, the jackpot's
    # deadline has passed, so the first spin surely wins the pot (1% of its 1.00 stake).
    readings = iter([1_767_225_600.0] + [1_767_225_600.0 + 2 * 86_400] * 10)
    monkeypatch.setattr(time, "time", lambda: next(readings))
    argv = ["play", "moon_spell", "--seed", "5", "--jsonl"]
    (real,) = [json.loads(line) for line in run_ok(capsys, [*argv, "--real-clock"]).splitlines()]
    assert real["jackpot"] == 1
    (simulated,) = [json.loads(line) for line in run_ok(capsys, argv).splitlines()]
    assert "jackpot" not in simulated
    assert simulated["events"][:3] == real["events"][:3]  # the same round otherwise


def _bad(capsys: pytest.CaptureFixture[str], argv: list[str]) -> str:
    with pytest.raises(SystemExit) as info:
        main(argv)
    assert info.value.code == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert "Traceback" not in err
    assert err.endswith("\n")
    assert len(err.splitlines()) == 1
    assert err.startswith("pyengine: ")
    return err


@pytest.mark.parametrize(
    ("argv", "fragment"),
    [
        (["rtp", "no_such_game"], "invalid choice: 'no_such_game'"),
        (["simulate", "no_such_game", "--rounds", "5"], "invalid choice"),
        (["play", "no_such_game", "--jsonl"], "invalid choice"),
        (["simulate", "book_of_spells", "--rounds", "0"], "'0' must be at least 1"),
        (["simulate", "book_of_spells", "--rounds", "-3"], "must be at least 1"),
        (["simulate", "book_of_spells", "--rounds", "many"], "'many' is not a whole number"),
        (["simulate", "book_of_spells"], "--rounds"),
        (["simulate", "book_of_spells", "--rounds", "5", "--seed", "abc"], "seed 'abc' is not a whole number"),
        (["play", "book_of_spells", "--seed", "abc", "--jsonl"], "seed 'abc' is not a whole number"),
        (["play", "book_of_spells", "--seed", str(2**64), "--jsonl"], "must be between 0 and 2**64-1"),
        (["play", "book_of_spells", "--seed", "5"], "--jsonl"),
        (["play", "book_of_spells", "--rounds", "0", "--jsonl"], "must be at least 1"),
        (["simulate", "book_of_spells", "--rounds", "5", "--choices", "best"], "invalid choice: 'best'"),
        ([], "command"),
        (["jackpot"], "invalid choice"),
    ],
)
def test_bad_arguments_exit_2(capsys: pytest.CaptureFixture[str], argv: list[str], fragment: str) -> None:
    assert fragment in _bad(capsys, argv)


@pytest.mark.parametrize(
    "argv",
    [
        ["rtp", "book_of_spells", "--mode", "buy"],
        ["rtp", "book_of_spells", "--mode", "buy", "--json"],
        ["simulate", "book_of_spells", "--rounds", "5", "--mode", "buy"],
    ],
)
def test_unknown_mode_exits_2(capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    # An engine error (not argparse): main returns 2 after printing one line.
    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err == "pyengine: book_of_spells has no mode 'buy'; its modes are base\n"


# -- operator settings -----------------------------------------------------------------------------------------
def test_rtp_with_a_lower_cap(capsys: pytest.CaptureFixture[str]) -> None:
    # A designer's question: what does a free-spin limit of 1000x do? The exact part is unchanged; the
    # limit's term grows, and the max win is the base spin's best plus the new limit.
    report = json.loads(run_ok(capsys, ["rtp", "book_of_spells", "--json", "--setting", "free_spin_cap_x=1000"]))
    assert report["settings"] == {"free_spin_cap_x": 1000, "gamble_limit_x": 250, "gamble": 1}
    assert report["free_spin_cap"]["cap_x"] == 1000
    assert report["max_win_x"] == pytest.approx(1000 + 6940 / 9)
    reduction = report["free_spin_cap"]["reduction"]
    assert 0.003 < reduction < 0.005  # 0.3748 points, against 0.0060 at the default 5000x
    assert report["rtp"] == pytest.approx(float(Fraction(report["rtp_uncapped_exact"])) - reduction, abs=1e-15)
    text = run_ok(capsys, ["rtp", "book_of_spells", "--setting", "free_spin_cap_x=1000", "--setting", "gamble=false"])
    assert "at 9 lines, operator settings: free_spin_cap_x=1000, gamble_limit_x=250, gamble=0" in text
    assert "free-spin cap 1000x: ends 1 feature in 297," in text


def test_play_with_the_gamble_off(capsys: pytest.CaptureFixture[str]) -> None:
    rounds = _play(capsys, "--seed", "5", "--rounds", "40", "--choices", "random", "--setting", "gamble=false")
    assert any(r["win"] for r in rounds)
    events = [e for r in rounds for e in r["events"]]
    assert not [e for e in events if e["type"] == "decision_pending" and e["kind"] == "collect_or_gamble"]
    assert not [e for e in events if e["type"] == "gamble_card"]
    # The same rounds with the gamble on: the random policy gambles some of those wins.
    on = _play(capsys, "--seed", "5", "--rounds", "40", "--choices", "random")
    assert [r["seed"] for r in on] == [r["seed"] for r in rounds]
    assert any(e["type"] == "gamble_card" for r in on for e in r["events"])


@pytest.mark.parametrize(
    ("argv", "fragment"),
    [
        (["rtp", "book_of_spells", "--setting", "cap"], "'cap' is not NAME=VALUE"),
        (["rtp", "book_of_spells", "--setting", "=5"], "is not NAME=VALUE"),
        (["play", "book_of_spells", "--jsonl", "--setting", "gamble=maybe"], "'maybe' is not a whole number"),
    ],
)
def test_bad_setting_syntax_exits_2(capsys: pytest.CaptureFixture[str], argv: list[str], fragment: str) -> None:
    assert fragment in _bad(capsys, argv)


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["rtp", "book_of_spells", "--setting", "free_spin_cap_x=0"], "must be an integer of at least 1, not 0"),
        (["rtp", "book_of_spells", "--setting", "jackpot=1"], "unknown setting 'jackpot'"),
        (["rtp", "moon_spell", "--setting", "free_spin_cap_x=1"], "Moon Spell has no operator settings"),
        (["play", "book_of_spells", "--jsonl", "--setting", "gamble_limit_x=-1"], "at least 0, not -1"),
        (["simulate", "book_of_spells", "--rounds", "5", "--setting", "gamble=2"], "must be 0, 1, true or false"),
    ],
)
def test_refused_setting_exits_2(capsys: pytest.CaptureFixture[str], argv: list[str], message: str) -> None:
    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith("pyengine: ")
    assert message in err
    assert len(err.splitlines()) == 1


def test_simulate_with_settings(capsys: pytest.CaptureFixture[str]) -> None:
    base = ["simulate", "book_of_spells", "--rounds", "3000", "--seed", "4", "--json"]
    argv = [*base, "--choices", "random"]
    off = json.loads(run_ok(capsys, [*argv, "--setting", "gamble=false"]))
    assert off["settings"] == {"free_spin_cap_x": 5000, "gamble_limit_x": 250, "gamble": 0}
    on = json.loads(run_ok(capsys, argv))
    assert on["settings"]["gamble"] == 1
    # Same rounds; with the gamble off the random policy has nothing to gamble, so it wins as often
    # as the policy that always collects.
    first = json.loads(run_ok(capsys, base))
    assert off["hit_rate"] == first["hit_rate"]
    assert on["hit_rate"] < first["hit_rate"]


# -- lines ------------------------------------------------------------------------------------------------------
def test_rtp_on_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    # Everything but the free-spin limit is the same on any number of lines; the limit is 5000x the
    # total bet, so on 1 line it is 5000x the bet per line.
    one = json.loads(run_ok(capsys, ["rtp", "book_of_spells", "--json", "--lines", "1"]))
    assert one["lines"] == 1
    assert one["free_spin_cap"]["lines"] == 1
    assert one["rtp_uncapped_exact"] == "287002804869439/298546063843248"
    assert 0 < one["free_spin_cap"]["reduction"] < 0.001
    assert one["rtp"] == pytest.approx(float(Fraction(one["rtp_uncapped_exact"])) - one["free_spin_cap"]["reduction"])
    # One line's best base spin: five Books on line 1 (5000) and their scatter (200 x 1 line).
    assert one["max_win_x"] == pytest.approx(5000 + 5200)


def test_simulate_on_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    out = json.loads(run_ok(capsys, ["simulate", "book_of_spells", "--rounds", "500", "--lines", "1", "--json"]))
    assert out["lines"] == 1
    assert out["total_stake"] == 500 * 10  # 1 line at the default 0.10


@pytest.mark.parametrize(
    "argv",
    [
        ["rtp", "book_of_spells", "--lines", "10"],
        ["simulate", "book_of_spells", "--rounds", "5", "--lines", "12"],
        ["rtp", "moon_spell", "--lines", "9"],
    ],
)
def test_lines_not_offered_exit_2(capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert "lines is not offered; choose one of" in err
    assert len(err.splitlines()) == 1
