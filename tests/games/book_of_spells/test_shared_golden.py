"""Book of Spells' golden rounds (from the shared ``tests/test_golden.py``): they reach its
features, the gamble's limit and the win cap."""

from __future__ import annotations

from tests.golden_cases import golden_files

GAME_ID = "book_of_spells"


def test_golden_files_exist() -> None:
    names = {p.stem.split("__")[1] for p in golden_files() if p.stem.split("__")[0] == GAME_ID}
    assert {"loss", "win_collect", "free_spins", "retrigger", "win_cap", "gamble_limit"} <= names
