"""Moon Spell through ``python -m pyengine play`` (from the shared ``tests/test_cli.py``): on the
simulated clock its time jackpot drops in the same round on every run."""

from __future__ import annotations

import json

import pytest

from pyengine.cli import main


def run_ok(capsys: pytest.CaptureFixture[str], argv: list[str]) -> str:
    assert main(argv) == 0
    out, err = capsys.readouterr()
    assert err == ""
    return out


def test_play_gives_the_same_output_on_every_run(capsys: pytest.CaptureFixture[str]) -> None:
    # On the simulated clock (simulate's: 3 s a round from 2026-01-01), Moon Spell's time jackpot
    # drops in the same round on every run, whatever the time: seed 199 wins it in its third round.
    argv = ["play", "moon_spell", "--seed", "199", "--rounds", "3", "--jsonl"]
    rounds = [json.loads(line) for line in run_ok(capsys, argv).splitlines()]
    assert [r.get("jackpot", 0) for r in rounds] == [0, 0, 3]
    assert rounds[2]["win"] >= 3
    assert any(e["type"] == "jackpot_win" for e in rounds[2]["events"])
    assert run_ok(capsys, argv) == run_ok(capsys, argv)
