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
from dataclasses import dataclass, field
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


@dataclass(frozen=True)
class Case:
    """One golden round: its game and name, the bet, the operator settings, the answers
    to give to gamble decisions (any other decision takes its first choice), the bet mode,
    the jackpot the record says it won, the seed stream searched, and what the round
    must show. Every game's cases have this one shape."""

    game: str
    name: str
    check: Check
    stream: int
    lines: int
    bet_per_line: int
    coins: int = 1
    settings: dict[str, int] = field(default_factory=dict)
    answers: tuple[str, ...] = ()
    mode: str = "base"
    jackpot: int = 0


def _book(name: str, stream: int, lines: int, bpl: int, answers: tuple[str, ...], check: Check, **kw: Any) -> Case:
    return Case("book_of_spells", name, check, stream, lines, bpl, answers=answers, **kw)


def _moon(name: str, stream: int, bpl: int, mode: str, check: Check, **kw: Any) -> Case:
    return Case("moon_spell", name, check, stream, 20, bpl, mode=mode, **kw)


def _shine(name: str, stream: int, lines: int, bpl: int, coins: int, check: Check) -> Case:
    return Case("moonshine", name, check, stream, lines, bpl, coins=coins)


def _has(kind: str, **fields: Any) -> Check:
    """Some event of type ``kind`` has all of ``fields``."""
    return lambda evs: any(e.type == kind and all(getattr(e, k) == v for k, v in fields.items()) for e in evs)


def _shown(evs: list[Event], symbol: str) -> int:
    """How many ``symbol`` the round's first spin shows."""
    spin = next(e for e in evs if e.type == "spin")
    return sum(col.count(symbol) for col in getattr(spin, "window", ()))


def _multiplied_free_win(evs: list[Event]) -> bool:
    """The bonus reached 2x or more and a free spin paid at it."""
    types = _types(evs)
    raised = [i for i, e in enumerate(evs) if e.type == "win_multiplier" and getattr(e, "multiplier", 1) >= 2]
    return bool(raised) and "line_win" in types[raised[0] :]
def _fmf(name: str, stream: int, check: Check) -> Case:
    return Case("full_moon_fever", name, check, stream, 25, 2)


def _deep_winfalls(evs: list[Event]) -> bool:
    return any(e.type == "cascade" and getattr(e, "number", 0) >= 3 for e in evs)


def _bonus_without_ladder(evs: list[Event]) -> bool:
    return "hold_and_respin_end" in _types(evs) and "ladder_prize" not in _types(evs)


def _lucky(name: str, stream: int, check: Check, **kw: Any) -> Case:
    return Case("lucky_halloween", name, check, stream, 20, 5, **kw)


def _rider(feature: str) -> Check:
    return lambda evs: any(e.type == "rider" and getattr(e, "feature", "") == feature for e in evs)


def _shortcut(evs: list[Event]) -> bool:
    return any(e.type == "ladder_climb" and getattr(e, "landed", 0) != getattr(e, "position", 0) for e in evs)


MOON_JACKPOT = 1234
"""The jackpot a golden record says its round won (a record keeps the pot's outcome)."""

CASES: list[Case] = [
    _book("loss", 0, 9, 10, (), lambda evs: evs[-1].win == 0),  # type: ignore[attr-defined]
    _book("win_collect", 1, 9, 10, ("collect",), lambda evs: "line_win" in _types(evs) and len(evs) < 9),
    _book("gamble_lost", 2, 9, 10, ("gamble", "red"), _gamble_ends("lost")),
    _book(
        "gamble_won_then_lost",
        3,
        9,
        10,
        ("gamble", "red", "black", "red", "black"),
        lambda evs: _types(evs).count("gamble_card") >= 2 and _gamble_ends("lost")(evs),
    ),
    _book("gamble_collect", 4, 9, 10, ("gamble", "black", "collect"), _gamble_ends("collect")),
    _book("gamble_limit", 5, 3, 5, ("gamble", *["red"] * 8), _gamble_ends("limit"), settings={"gamble_limit_x": 2}),
    _book(
        "free_spins",
        6,
        9,
        10,
        ("collect",),
        lambda evs: _types(evs).count("free_spins_awarded") == 1 and "expanded_win" in _types(evs),
    ),
    _book("retrigger", 7, 5, 2, ("collect",), lambda evs: _types(evs).count("free_spins_awarded") >= 2),
    _book("win_cap", 8, 9, 10, (), lambda evs: "win_cap_reached" in _types(evs), settings={"free_spin_cap_x": 3}),
    _book("one_line", 9, 1, 100, ("collect",), lambda evs: "line_win" in _types(evs)),
    _moon("loss", 100, 5, "base", lambda evs: evs[-1].win == 0 and "moon_prizes" in _types(evs)),  # type: ignore[attr-defined]
    _moon("line_win", 101, 5, "base", lambda evs: "line_win" in _types(evs) and "moon_prizes" not in _types(evs)),
    _moon("moon_cash", 102, 5, "base", lambda evs: "moon_cash_win" in _types(evs)),
    _moon("hold_and_respin", 103, 5, "base", lambda evs: "hold_and_respin_end" in _types(evs)),
    _moon("buy", 104, 10, "buy", _bonus_without_ladder),
    _moon("buy_ladder", 105, 5, "buy", lambda evs: "ladder_prize" in _types(evs)),
    _moon("jackpot", 200, 5, "base", lambda evs: "jackpot_win" in _types(evs), jackpot=MOON_JACKPOT),
    _shine("loss", 300, 25, 2, 1, lambda evs: evs[-1].win == 0),  # type: ignore[attr-defined]
    _shine("grandma", 301, 25, 2, 1, _has("line_win", symbol="GRANDMA")),
    _shine("sheriff", 302, 25, 5, 2, lambda evs: _has("scatter_win")(evs) and "pick_start" not in _types(evs)),
    _shine("coins", 303, 9, 20, 5, _has("line_win", count=4)),
    _shine("bonus", 304, 25, 1, 3, _multiplied_free_win),
    _shine("bonus_four", 305, 25, 2, 1, lambda evs: "pick_start" in _types(evs) and _shown(evs, "BONUS") == 4),
    _fmf("loss", 300, lambda evs: evs[-1].win == 0),  # type: ignore[attr-defined]
    _fmf("line_win", 301, lambda evs: "line_win" in _types(evs) and "scatter_win" not in _types(evs)),
    _fmf("winfalls", 303, _deep_winfalls),
    _lucky("loss", 300, lambda evs: evs[-1].win == 0),  # type: ignore[attr-defined]
    _lucky("line_win", 301, lambda evs: "line_win" in _types(evs) and "rider" not in _types(evs)),
    _lucky("special_reels", 302, _rider("special_reels")),
    _lucky("pumpkin_tree", 303, lambda evs: _rider("pumpkin_tree")(evs) and "line_win" in _types(evs)),
    _lucky("random_wilds", 304, _rider("random_wilds")),
    _lucky("mega_wild", 305, _rider("mega_wild")),
    _lucky("rider_free_spins", 306, _rider("free_spins")),
    _lucky("rider_full_moon_bonus", 307, _rider("full_moon_bonus")),
    _lucky("free_spins", 308, lambda evs: "free_spins_end" in _types(evs) and "rider" not in _types(evs)),
    _lucky("bonus_spins", 309, _rider("bonus_spins")),
    _lucky("ladder_shortcut", 310, _shortcut),
    _lucky("jackpot", 311, lambda evs: "jackpot_win" in _types(evs), jackpot=MOON_JACKPOT),
]


def record_for(case: Case, seed: int) -> dict[str, Any]:
    """Play the case's round from ``seed``, answering gamble decisions from its answers."""
    bet = Bet(case.lines, case.bet_per_line, case.coins)
    s = Session(case.game, balance=100_000, seed=0, settings=case.settings, bet=bet)
    s._start(seed=seed, autoplay=False, mode=case.mode, jackpot=case.jackpot)
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
    GOLDEN.mkdir(parents=True, exist_ok=True)
    for case in CASES:
        path = GOLDEN / f"{case.game}__{case.name}.jsonl"
        path.write_text(golden_text(find(case)))
        print(f"wrote {path.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
