"""Layer 4: committed golden replays regenerate byte for byte (``tests/make_golden.py``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pyengine.replay import check_golden, replay
from tests.golden_cases import golden_files

GOLDEN = golden_files()


def test_golden_files_exist() -> None:
    names = {p.stem.split("__")[1] for p in GOLDEN}
    assert {"loss", "win_collect", "free_spins", "retrigger", "win_cap", "gamble_limit"} <= names


@pytest.mark.parametrize("path", GOLDEN, ids=[p.stem for p in GOLDEN])
def test_golden_replay_is_identical(path: Path) -> None:
    assert check_golden(path.read_text()) is None


def test_changed_choice_is_detected() -> None:
    path = next(p for p in GOLDEN if p.stem.endswith("__gamble_lost"))
    header, _, body = path.read_text().partition("\n")
    record = json.loads(header)
    record["choices"] = ["gamble", "black" if record["choices"][1] == "red" else "red", "collect"]
    problem = check_golden(json.dumps(record, sort_keys=True, separators=(",", ":")) + "\n" + body)
    assert problem is not None
    assert "differs" in problem


def test_replay_refuses_an_unfinished_record() -> None:
    path = next(p for p in GOLDEN if p.stem.endswith("__free_spins"))
    record = json.loads(path.read_text().partition("\n")[0])
    with pytest.raises(ValueError, match="waits on"):
        replay(
            record["game"],
            seed=record["seed"],
            lines=record["lines"],
            bet_per_line=record["bet_per_line"],
            choices=record["choices"][:3],
        )
