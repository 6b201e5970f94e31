"""pyengine.cli: ``python -m pyengine games | rtp | simulate | play`` through `main`.

Each command is asked of a registered game with what it needs (a gamble, a jackpot, operator
settings); a game's own figures through the commands are checked in its folder
(``tests/games/<id>/test_shared_cli.py``).
"""

from __future__ import annotations

import json
import math
import time
from typing import Any

import pytest

from pyengine.cli import main
from pyengine.games import GAME_IDS, Game, game_ids, get_game
from pyengine.math.simulate import simulate
from tests.games import a_game, all_of, decides, has_jackpot, has_mode, has_setting, has_settings, lacks

GAME = a_game()
"""The game most commands play (any game)."""
BET = get_game(GAME).bets.default
"""Its default bet: what the commands play."""
NO_LINES = max(get_game(GAME).bets.lines) + 1
"""A number of lines it does not offer."""
GAMBLER = a_game(all_of(decides("collect_or_gamble"), has_setting("gamble")), "a gamble that a setting turns off")
"""A game whose wins are offered to gamble, with the operator setting ``gamble``."""
NO_BUY = a_game(lacks(has_mode("buy")), "no feature buy")
"""A game without a ``buy`` mode."""
SET = a_game(has_settings, "operator settings")
"""A game with operator settings ..."""
SETTING = next(iter(get_game(SET).default_settings()))
"""... and one of them."""
UNKNOWN_SETTING = "no_such_setting"
"""A setting no game has."""
UNSET = a_game(lacks(has_settings), "no operator settings")
"""A game without operator settings."""
JACKPOT = a_game(has_jackpot, "a time jackpot")
"""A game with a time jackpot."""


def _lines_down_to_one(game: Game) -> bool:
    return 1 in game.bets.lines and len(game.bets.lines) > 1


def _fixed_lines(game: Game) -> bool:
    return len(game.bets.lines) == 1


ONE_LINE = a_game(_lines_down_to_one, "a choice of lines down to one")
"""A game that may be played on one line."""
FIXED = a_game(_fixed_lines, "a fixed number of lines")
"""A game that plays one number of lines only."""


def run_ok(capsys: pytest.CaptureFixture[str], argv: list[str]) -> str:
    assert main(argv) == 0
    out, err = capsys.readouterr()
    assert err == ""
    return out


def test_games(capsys: pytest.CaptureFixture[str]) -> None:
    """The shipped games first, then any registered (here the tests' fixture game)."""
    out = run_ok(capsys, ["games"]).splitlines()
    assert out == list(game_ids())
    assert tuple(out[: len(GAME_IDS)]) == GAME_IDS
    assert len(out) > len(GAME_IDS)  # the fixture game, registered by the tests' conftest


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_rtp_json(capsys: pytest.CaptureFixture[str], game_id: str) -> None:
    # Each shipped game's exact figures are pinned in its folder (tests/games/<id>/).
    report = json.loads(run_ok(capsys, ["rtp", game_id, "--json", "--rounds", "20000"]))
    assert {"game", "rtp", "target_rtp", "method", "breakdown", "max_win_x"} <= set(report)
    assert report["game"] == game_id
    assert report["target_rtp"] == float(get_game(game_id).target_rtp)
    assert abs(report["rtp"] - report["target_rtp"]) < 0.0002
    assert isinstance(report["method"], str)
    assert report["method"].startswith("exact")
    assert sum(report["breakdown"].values()) == pytest.approx(report["rtp"], abs=1e-12)


SIM_KEYS = {"game", "rounds", "rtp", "ci95", "hit_rate", "stdev", "max_win_x", "features", "rounds_per_second"}


@pytest.mark.parametrize("choices", ["first", "random"])
def test_simulate_json(capsys: pytest.CaptureFixture[str], choices: str) -> None:
    argv = ["simulate", GAME, "--rounds", "2000", "--seed", "3", "--choices", choices, "--json"]
    out = run_ok(capsys, argv)
    result = json.loads(out)
    assert set(result) >= SIM_KEYS
    assert result["game"] == GAME
    assert result["rounds"] == 2000
    assert result["choices"] == choices
    assert result["rounds_per_second"] > 0
    assert isinstance(result["features"], dict)
    # The command is the library's simulate with the same arguments.
    same = simulate(GAME, 2000, seed=3, choices=choices)
    assert result["total_win"] == same.total_win
    assert result["rtp"] == same.rtp
    assert result["ci95"] == same.ci95
    assert result["hit_rate"] == same.hit_rate


def test_simulate_text(capsys: pytest.CaptureFixture[str]) -> None:
    out = run_ok(capsys, ["simulate", GAME, "--rounds", "300", "--seed", "0x10"])
    assert out.startswith(f"{GAME} (base): 300 rounds, RTP ")
    assert "rounds/s" in out
    assert len(out.splitlines()) == 1


def _play(capsys: pytest.CaptureFixture[str], game_id: str, *args: str) -> list[dict[str, Any]]:
    out = run_ok(capsys, ["play", game_id, *args, "--jsonl"])
    return [json.loads(line) for line in out.splitlines()]


@pytest.mark.parametrize("choices", ["first", "random"])
def test_play_jsonl(capsys: pytest.CaptureFixture[str], choices: str) -> None:
    rounds = _play(capsys, GAME, "--seed", "5", "--rounds", "40", "--choices", choices)
    assert len(rounds) == 40
    previous = None
    for r in rounds:
        assert set(r) == {"seed", "bet", "win", "balance_before", "balance_after", "events"}
        assert set(r["bet"]) == {"lines", "bet_per_line", "coins", "total"}
        assert r["bet"] == BET.to_json()
        assert r["balance_after"] == r["balance_before"] - r["bet"]["total"] + r["win"]
        if previous is not None:
            assert r["balance_before"] == previous["balance_after"]
        previous = r
        events = r["events"]
        assert events[0]["type"] == "round_start"
        assert events[0]["seed"] == r["seed"]
        assert events[0]["balance"] == r["balance_before"] - BET.total
        assert events[-1] == {"type": "round_end", "win": r["win"], "balance": r["balance_after"]}
        if choices == "first":
            # Autoplay's answer: the first choice offered (collect, never gamble).
            pending = [e for e in events if e["type"] == "decision_pending"]
            made = [e for e in events if e["type"] == "choice_made"]
            assert [(e["kind"], e["choice"]) for e in made] == [(e["kind"], e["choices"][0]) for e in pending]
            assert all(e["choice"] != "gamble" for e in made)
    assert rounds[0]["balance_before"] == 100_000
    assert _play(capsys, GAME, "--seed", "5", "--rounds", "40", "--choices", choices) == rounds


def test_play_default_one_round(capsys: pytest.CaptureFixture[str]) -> None:
    rounds = _play(capsys, GAME, "--seed", "7")
    assert len(rounds) == 1
    assert rounds[0]["events"][-1]["type"] == "round_end"


def test_play_gives_the_same_output_whatever_the_time(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # On the simulated clock (simulate's: 3 s a round from 2026-01-01) a game with a time jackpot
    # plays the same rounds whatever the computer's clock says (a game's own folder may pin a round
    # whose jackpot drops in the same place on every run).
    argv = ["play", JACKPOT, "--seed", "11", "--rounds", "3", "--jsonl"]
    monkeypatch.setattr(time, "time", lambda: 1_767_225_600.0)
    first = run_ok(capsys, argv)
    monkeypatch.setattr(time, "time", lambda: 1_767_225_600.0 + 100 * 86_400 + 12_345.6)
    assert run_ok(capsys, argv) == first
    assert len(first.splitlines()) == 3


def test_play_on_the_real_clock(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    # --real-clock reads the computer's clock: two days (and the pot's shortest run) after the session
    # starts, the jackpot's deadline has passed, so the first spin surely wins the pot: its share of
    # that spin's stake, in whole minor units.
    game = get_game(JACKPOT)
    rules = game.jackpot
    assert rules is not None
    pot = math.floor(rules.contribution * game.price(game.bets.default, "base"))
    assert pot >= 1
    later = 1_767_225_600.0 + 2 * 86_400 + rules.min_minutes * 60
    readings = iter([1_767_225_600.0] + [later] * 10)
    monkeypatch.setattr(time, "time", lambda: next(readings))
    argv = ["play", JACKPOT, "--seed", "5", "--jsonl"]
    (real,) = [json.loads(line) for line in run_ok(capsys, [*argv, "--real-clock"]).splitlines()]
    assert real["jackpot"] == pot
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
        (["simulate", GAME, "--rounds", "0"], "'0' must be at least 1"),
        (["simulate", GAME, "--rounds", "-3"], "must be at least 1"),
        (["simulate", GAME, "--rounds", "many"], "'many' is not a whole number"),
        (["simulate", GAME], "--rounds"),
        (["simulate", GAME, "--rounds", "5", "--seed", "abc"], "seed 'abc' is not a whole number"),
        (["play", GAME, "--seed", "abc", "--jsonl"], "seed 'abc' is not a whole number"),
        (["play", GAME, "--seed", str(2**64), "--jsonl"], "must be between 0 and 2**64-1"),
        (["play", GAME, "--seed", "5"], "--jsonl"),
        (["play", GAME, "--rounds", "0", "--jsonl"], "must be at least 1"),
        (["simulate", GAME, "--rounds", "5", "--choices", "best"], "invalid choice: 'best'"),
        ([], "command"),
        (["jackpot"], "invalid choice"),
    ],
)
def test_bad_arguments_exit_2(capsys: pytest.CaptureFixture[str], argv: list[str], fragment: str) -> None:
    assert fragment in _bad(capsys, argv)


@pytest.mark.parametrize(
    "argv",
    [
        ["rtp", NO_BUY, "--mode", "buy"],
        ["rtp", NO_BUY, "--mode", "buy", "--json"],
        ["simulate", NO_BUY, "--rounds", "5", "--mode", "buy"],
    ],
)
def test_unknown_mode_exits_2(capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    # An engine error (not argparse): main returns 2 after printing one line.
    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err == f"pyengine: {NO_BUY} has no mode 'buy'; its modes are {', '.join(get_game(NO_BUY).modes)}\n"


# -- operator settings -----------------------------------------------------------------------------------------
def test_play_with_the_gamble_off(capsys: pytest.CaptureFixture[str]) -> None:
    rounds = _play(capsys, GAMBLER, "--seed", "5", "--rounds", "40", "--choices", "random", "--setting", "gamble=false")
    assert any(r["win"] for r in rounds)
    events = [e for r in rounds for e in r["events"]]
    assert not [e for e in events if e["type"] == "decision_pending" and e["kind"] == "collect_or_gamble"]
    assert not [e for e in events if e["type"] == "gamble_card"]
    # The same rounds with the gamble on: the random policy gambles some of those wins.
    on = _play(capsys, GAMBLER, "--seed", "5", "--rounds", "40", "--choices", "random")
    assert [r["seed"] for r in on] == [r["seed"] for r in rounds]
    assert any(e["type"] == "gamble_card" for r in on for e in r["events"])


@pytest.mark.parametrize(
    ("argv", "fragment"),
    [
        (["rtp", SET, "--setting", "cap"], "'cap' is not NAME=VALUE"),
        (["rtp", SET, "--setting", "=5"], "is not NAME=VALUE"),
        (["play", SET, "--jsonl", "--setting", f"{SETTING}=maybe"], "'maybe' is not a whole number"),
    ],
)
def test_bad_setting_syntax_exits_2(capsys: pytest.CaptureFixture[str], argv: list[str], fragment: str) -> None:
    assert fragment in _bad(capsys, argv)


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["rtp", SET, "--setting", f"{SETTING}=-1"], f"setting {SETTING!r} must be "),
        (["rtp", SET, "--setting", f"{UNKNOWN_SETTING}=1"], f"unknown setting {UNKNOWN_SETTING!r}; the settings are "),
        (["rtp", UNSET, "--setting", f"{SETTING}=1"], f"{get_game(UNSET).name} has no operator settings"),
        (["play", SET, "--jsonl", "--setting", f"{SETTING}=-1"], f"setting {SETTING!r} must be "),
        (["simulate", SET, "--rounds", "5", "--setting", f"{SETTING}=-1"], f"setting {SETTING!r} must be "),
    ],
)
def test_refused_setting_exits_2(capsys: pytest.CaptureFixture[str], argv: list[str], message: str) -> None:
    # Each game's own refusals, word for word, are checked in its folder.
    assert UNKNOWN_SETTING not in get_game(SET).default_settings()
    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert err.startswith("pyengine: ")
    assert message in err
    assert len(err.splitlines()) == 1


def test_simulate_with_settings(capsys: pytest.CaptureFixture[str]) -> None:
    base = ["simulate", GAMBLER, "--rounds", "3000", "--seed", "4", "--json"]
    argv = [*base, "--choices", "random"]
    off = json.loads(run_ok(capsys, [*argv, "--setting", "gamble=false"]))
    assert off["settings"] == {**get_game(GAMBLER).default_settings(), "gamble": 0}
    on = json.loads(run_ok(capsys, argv))
    assert on["settings"]["gamble"] == 1
    # Same rounds; with the gamble off the random policy has nothing to gamble, so it wins as often
    # as the policy that always collects.
    first = json.loads(run_ok(capsys, base))
    assert off["hit_rate"] == first["hit_rate"]
    assert on["hit_rate"] < first["hit_rate"]


# -- lines ------------------------------------------------------------------------------------------------------
def test_simulate_on_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    out = json.loads(run_ok(capsys, ["simulate", ONE_LINE, "--rounds", "500", "--lines", "1", "--json"]))
    assert out["lines"] == 1
    assert out["total_stake"] == 500 * get_game(ONE_LINE).bets.default.bet_per_line  # 1 line at the default


@pytest.mark.parametrize(
    "argv",
    [
        ["rtp", GAME, "--lines", str(NO_LINES)],
        ["simulate", GAME, "--rounds", "5", "--lines", str(NO_LINES + 2)],
        ["rtp", FIXED, "--lines", str(get_game(FIXED).bets.lines[0] - 1)],
    ],
)
def test_lines_not_offered_exit_2(capsys: pytest.CaptureFixture[str], argv: list[str]) -> None:
    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert out == ""
    assert "lines is not offered; choose one of" in err
    assert len(err.splitlines()) == 1
