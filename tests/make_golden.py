"""Write the golden replay files: ``python tests/make_golden.py``.

Each case is a seeded round played through `Session` with a scripted way of answering
decisions; the record (with the choices that were made) and its event log are written
to ``tests/golden/<game>__<case>.jsonl``. Run it only when a change of the event log is
intended, and review the diff.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pyengine.model import Bet  # noqa: E402
from pyengine.replay import golden_text  # noqa: E402
from pyengine.session import Session  # noqa: E402

GOLDEN = ROOT / "tests" / "golden"

# (game, case, seed, lines, bet per line, settings, answers for gamble decisions)
CASES: list[tuple[str, str, int, int, int, dict[str, int], list[str]]] = [
    ("book_of_spells", "loss", 11487996472437173461, 9, 10, {}, []),
    ("book_of_spells", "win_collect", 5507758030568793471, 9, 10, {}, ["collect"]),
    ("book_of_spells", "gamble_lost", 5507758030568793471, 9, 10, {}, ["gamble", "red"]),
    (
        "book_of_spells",
        "gamble_won_then_lost",
        9103081651828072020,
        9,
        10,
        {},
        ["gamble", "red", "black", "red", "collect"],
    ),
    ("book_of_spells", "gamble_collect", 8159428425992391467, 9, 10, {}, ["gamble", "black", "collect"]),
    ("book_of_spells", "free_spins", 4388065962391315442, 9, 10, {}, ["collect"]),
    ("book_of_spells", "retrigger", 2784177986246318878, 5, 2, {}, ["collect"]),
    ("book_of_spells", "win_cap", 4388065962391315442, 9, 10, {"free_spin_cap_x": 3}, []),
    ("book_of_spells", "gamble_limit", 13338674169308679533, 3, 5, {"gamble_limit_x": 2}, ["gamble"] + ["red"] * 8),
    ("book_of_spells", "one_line", 2401942638352229823, 1, 100, {}, ["collect"]),
]


def record_for(
    game: str, seed: int, lines: int, bpl: int, settings: dict[str, int], answers: list[str]
) -> dict[str, Any]:
    s = Session(game, balance=100_000, seed=0, settings=settings, bet=Bet(lines, bpl))
    s.spin(seed=seed)
    queue = list(answers)
    choices: list[str] = []
    while (d := s.pending) is not None:
        if d.kind in ("collect_or_gamble", "gamble") and queue:
            choice = queue.pop(0)
            if choice not in d.choices:
                choice = d.choices[0]
        else:
            choice = d.choices[0]
        choices.append(choice)
        s.choose(choice)
    return {
        "game": game,
        "seed": seed,
        "lines": lines,
        "bet_per_line": bpl,
        "settings": settings,
        "balance": 100_000,
        "choices": choices,
    }


def main() -> None:
    GOLDEN.mkdir(parents=True, exist_ok=True)
    for game, case, seed, lines, bpl, settings, answers in CASES:
        path = GOLDEN / f"{game}__{case}.jsonl"
        path.write_text(golden_text(record_for(game, seed, lines, bpl, settings, answers)))
        print(f"wrote {path.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
