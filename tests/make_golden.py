"""Write the golden replay files: ``python tests/make_golden.py``.

Each case is a round played through `Session` with a scripted way of answering decisions
(and, for Moon Spell, a bet mode: ``buy`` for a bought feature); the case's seed is the
first one (from a fixed search stream) whose round shows what the case is about. The
record (with the choices made) and its event log are written to
``tests/golden/<game>__<case>.jsonl``. Run it only when a change of the event log is
intended, and review the diff.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pyengine.events import Event  # noqa: E402
from pyengine.model import Bet  # noqa: E402
from pyengine.replay import golden_text, replay  # noqa: E402
from pyengine.rng import Rng  # noqa: E402
from pyengine.session import Session  # noqa: E402

GOLDEN = ROOT / "tests" / "golden"

Check = Callable[[list[Event]], bool]


def _types(events: list[Event]) -> list[str]:
    return [e.type for e in events]


def _gamble_ends(reason: str) -> Check:
    return lambda evs: any(e.type == "gamble_end" and getattr(e, "reason", "") == reason for e in evs)


CASES: list[tuple[str, int, int, dict[str, int], list[str], Check]] = [
    # (case, lines, bet per line, settings, answers to gamble decisions, what the round must show)
    ("loss", 9, 10, {}, [], lambda evs: evs[-1].win == 0),  # type: ignore[attr-defined]
    ("win_collect", 9, 10, {}, ["collect"], lambda evs: "line_win" in _types(evs) and len(evs) < 9),
    ("gamble_lost", 9, 10, {}, ["gamble", "red"], _gamble_ends("lost")),
    (
        "gamble_won_then_lost",
        9,
        10,
        {},
        ["gamble", "red", "black", "red", "black"],
        lambda evs: _types(evs).count("gamble_card") >= 2 and _gamble_ends("lost")(evs),
    ),
    ("gamble_collect", 9, 10, {}, ["gamble", "black", "collect"], _gamble_ends("collect")),
    ("gamble_limit", 3, 5, {"gamble_limit_x": 2}, ["gamble"] + ["red"] * 8, _gamble_ends("limit")),
    (
        "free_spins",
        9,
        10,
        {},
        ["collect"],
        lambda evs: _types(evs).count("free_spins_awarded") == 1 and "expanded_win" in _types(evs),
    ),
    ("retrigger", 5, 2, {}, ["collect"], lambda evs: _types(evs).count("free_spins_awarded") >= 2),
    ("win_cap", 9, 10, {"free_spin_cap_x": 3}, [], lambda evs: "win_cap_reached" in _types(evs)),
    ("one_line", 1, 100, {}, ["collect"], lambda evs: "line_win" in _types(evs)),
]


# Moon Spell: (case, bet per line, mode, what the round must show); 20 lines, no settings.
MOON_CASES: list[tuple[str, int, str, Check]] = [
    ("loss", 5, "base", lambda evs: evs[-1].win == 0 and "moon_prizes" in _types(evs)),  # type: ignore[attr-defined]
    ("line_win", 5, "base", lambda evs: "line_win" in _types(evs) and "moon_prizes" not in _types(evs)),
    ("moon_cash", 5, "base", lambda evs: "moon_cash_win" in _types(evs)),
    ("hold_and_respin", 5, "base", lambda evs: "hold_and_respin_end" in _types(evs)),
    ("buy", 10, "buy", lambda evs: "hold_and_respin_end" in _types(evs) and "ladder_prize" not in _types(evs)),
    ("buy_ladder", 5, "buy", lambda evs: "ladder_prize" in _types(evs)),
]
MOON_JACKPOT = 1234
"""The jackpot a golden record says its round won (a record keeps the pot's outcome)."""


def record_for(
    game: str,
    seed: int,
    lines: int,
    bpl: int,
    settings: dict[str, int],
    answers: list[str],
    mode: str = "base",
    jackpot: int = 0,
) -> dict[str, Any]:
    """Play a round, answering gamble decisions from ``answers`` (else the first choice)."""
    s = Session(game, balance=100_000, seed=0, settings=settings, bet=Bet(lines, bpl))
    s._start(seed=seed, autoplay=False, mode=mode, jackpot=jackpot)
    queue = list(answers)
    choices: list[str] = []
    while (d := s.pending) is not None:
        choice = d.choices[0]
        if d.kind in ("collect_or_gamble", "gamble") and queue:
            wanted = queue.pop(0)
            if wanted in d.choices:
                choice = wanted
        choices.append(choice)
        s.choose(choice)
    record = {
        "game": game,
        "seed": seed,
        "lines": lines,
        "bet_per_line": bpl,
        "settings": settings,
        "balance": 100_000,
        "choices": choices,
    }
    if mode != "base" or jackpot:
        record |= {"mode": mode, "jackpot": jackpot}
    return record


def find(
    game: str,
    index: int,
    lines: int,
    bpl: int,
    settings: dict[str, int],
    answers: list[str],
    check: Check,
    mode: str = "base",
    jackpot: int = 0,
) -> dict[str, Any]:
    search = Rng(1000 + index)
    for _ in range(200_000):
        record = record_for(game, search.next64(), lines, bpl, settings, answers, mode, jackpot)
        events = replay(
            game,
            seed=record["seed"],
            lines=lines,
            bet_per_line=bpl,
            choices=record["choices"],
            settings=settings,
            mode=mode,
            jackpot=jackpot,
        )
        if check(events):
            return record
    raise SystemExit(f"no seed found for case {index}")


def main() -> None:
    GOLDEN.mkdir(parents=True, exist_ok=True)
    game = "book_of_spells"
    for index, (case, lines, bpl, settings, answers, check) in enumerate(CASES):
        path = GOLDEN / f"{game}__{case}.jsonl"
        path.write_text(golden_text(find(game, index, lines, bpl, settings, answers, check)))
        print(f"wrote {path.relative_to(ROOT)}")
    game = "moon_spell"
    for index, (case, bpl, mode, check) in enumerate(MOON_CASES, start=100):
        path = GOLDEN / f"{game}__{case}.jsonl"
        path.write_text(golden_text(find(game, index, 20, bpl, {}, [], check, mode)))
        print(f"wrote {path.relative_to(ROOT)}")
    path = GOLDEN / f"{game}__jackpot.jsonl"
    record = find(game, 200, 20, 5, {}, [], lambda evs: "jackpot_win" in _types(evs), "base", MOON_JACKPOT)
    path.write_text(golden_text(record))
    print(f"wrote {path.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
