"""Write the golden replay files: ``python tests/make_golden.py``.

Each game's cases are in its test kit (``tests/games/<id>/__init__.py``, ``GOLDEN``). A case is a
round played through `Session` with a scripted way of answering decisions (and a bet mode:
``buy`` for a bought feature); the case's seed is the first one (from a fixed search
stream) whose round shows what the case is about. The
record (with the choices made) and its event log are written to
``tests/games/<game>/golden/<game>__<case>.jsonl``. Run it only when a change of the event log is
intended, and review the diff.
"""

from __future__ import annotations

import contextlib
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from pyengine.errors import EngineError  # noqa: E402
from pyengine.games import game_ids  # noqa: E402
from pyengine.model import Bet  # noqa: E402
from pyengine.replay import golden_text, replay  # noqa: E402
from pyengine.rng import Rng  # noqa: E402
from pyengine.session import Session  # noqa: E402
from tests.games import kit  # noqa: E402
from tests.golden_cases import Case, golden_path  # noqa: E402



def cases() -> list[Case]:
    """Every registered game's golden rounds, asked of its test kit (``tests/games/<id>/__init__.py``)."""
    return [case for game in game_ids() for case in kit(game).GOLDEN]


def record_for(case: Case, seed: int) -> dict[str, Any]:
    """Play the case's round from ``seed``, answering gamble decisions from its answers."""
    bet = Bet(case.lines, case.bet_per_line, case.coins)
    s = Session(case.game, balance=100_000, seed=0, settings=case.settings, bet=bet)
    # The public replay entry, with no choices yet, starts the round from its record; if it
    # waits on a decision it raises and stays in play, and the decisions are answered below.
    with contextlib.suppress(EngineError):
        s.replay(seed=seed, mode=case.mode, jackpot=case.jackpot)
    queue = list(case.answers)
    choices: list[str] = []
    while (d := s.pending) is not None:
        choice = d.choices[0]
        if d.kind in ("collect_or_gamble", "gamble") and queue:
            wanted = queue.pop(0)
            if wanted in d.choices:
                choice = wanted
        choices.append(choice)
        s.choose(choice)
    record: dict[str, Any] = {
        "game": case.game,
        "seed": seed,
        "lines": case.lines,
        "bet_per_line": case.bet_per_line,
        "settings": case.settings,
        "balance": 100_000,
        "choices": choices,
    }
    if case.coins != 1:
        record["coins"] = case.coins
    if case.mode != "base" or case.jackpot:
        record |= {"mode": case.mode, "jackpot": case.jackpot}
    return record


def find(case: Case) -> dict[str, Any]:
    """The first record from the case's seed stream whose replay passes its check."""
    search = Rng(1000 + case.stream)
    for _ in range(200_000):
        record = record_for(case, search.next64())
        events = replay(
            case.game,
            seed=record["seed"],
            lines=case.lines,
            bet_per_line=case.bet_per_line,
            coins=case.coins,
            choices=record["choices"],
            settings=case.settings,
            mode=case.mode,
            jackpot=case.jackpot,
        )
        if case.check(events):
            return record
    raise SystemExit(f"no seed found for {case.game} case {case.name!r}")


def main() -> None:
    for case in cases():
        path = golden_path(case.game, case.name)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(golden_text(find(case)))
        print(f"wrote {path.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
