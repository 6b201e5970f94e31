"""Layer 4: committed golden replays regenerate byte for byte (``tests/make_golden.py``)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from pyengine.games import GAME_IDS, game_ids
from pyengine.replay import check_golden, replay
from tests.games import kit
from tests.golden_cases import golden_files, golden_path

GOLDEN = golden_files()
COLOURS = ("red", "black")
"""The gamble's answers (`pyengine.features.gamble`)."""


def record(path: Path) -> dict[str, Any]:
    """The record a golden file starts with."""
    header: dict[str, Any] = json.loads(path.read_text().partition("\n")[0])
    return header


def test_golden_files_exist() -> None:
    """Every golden round of every registered game's kit has its file and every file is one of
    them; every shipped game has golden rounds."""
    cases = {golden_path(game, case.name) for game in game_ids() for case in kit(game).GOLDEN}
    assert cases == set(GOLDEN)
    assert all(kit(game).GOLDEN for game in GAME_IDS)


@pytest.mark.parametrize("path", GOLDEN, ids=[p.stem for p in GOLDEN])
def test_golden_replay_is_identical(path: Path) -> None:
    assert check_golden(path.read_text()) is None


def lost_at_once(path: Path) -> bool:
    """Whether the golden round gambled once and lost that card."""
    events = [json.loads(line) for line in path.read_text().splitlines()[1:]]
    ends = [e for e in events if e["type"] == "gamble_end"]
    return record(path)["choices"] in (["gamble", c] for c in COLOURS) and [e["reason"] for e in ends] == ["lost"]


def test_changed_choice_is_detected() -> None:
    # A round whose one gamble card lost: guessed the other colour, it wins and is collected.
    path = next(p for p in GOLDEN if lost_at_once(p))
    header, _, body = path.read_text().partition("\n")
    rec = json.loads(header)
    rec["choices"] = ["gamble", "black" if rec["choices"][1] == "red" else "red", "collect"]
    problem = check_golden(json.dumps(rec, sort_keys=True, separators=(",", ":")) + "\n" + body)
    assert problem is not None
    assert "differs" in problem


def test_replay_refuses_an_unfinished_record() -> None:
    # A round of more than three decisions, replayed with its first three answers only.
    path = next(p for p in GOLDEN if len(record(p)["choices"]) > 3)
    rec = record(path)
    with pytest.raises(ValueError, match="waits on"):
        replay(
            rec["game"],
            seed=rec["seed"],
            lines=rec["lines"],
            bet_per_line=rec["bet_per_line"],
            choices=rec["choices"][:3],
        )
