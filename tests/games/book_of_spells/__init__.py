"""Book of Spells's test kit (`tests.games`): the event types its rounds bring and its golden rounds."""

from __future__ import annotations

from typing import Any

from tests.games import SHARED_EVENT_TYPES
from tests.golden_cases import Case, Check, gamble_ends, loss, types

GAME = "book_of_spells"

EVENT_TYPES = frozenset(
    (
        *SHARED_EVENT_TYPES,
        "scatter_win",
        "free_spins_awarded",
        "expanding_symbol_chosen",
        "free_spin_start",
        "expanded_win",
        "free_spins_end",
        "gamble_card",
        "gamble_end",
    )
)


def _book(name: str, stream: int, lines: int, bpl: int, answers: tuple[str, ...], check: Check, **kw: Any) -> Case:
    return Case(GAME, name, check, stream, lines, bpl, answers=answers, **kw)


GOLDEN = [
    _book("loss", 0, 9, 10, (), loss),
    _book("win_collect", 1, 9, 10, ("collect",), lambda evs: "line_win" in types(evs) and len(evs) < 9),
    _book("gamble_lost", 2, 9, 10, ("gamble", "red"), gamble_ends("lost")),
    _book(
        "gamble_won_then_lost",
        3,
        9,
        10,
        ("gamble", "red", "black", "red", "black"),
        lambda evs: types(evs).count("gamble_card") >= 2 and gamble_ends("lost")(evs),
    ),
    _book("gamble_collect", 4, 9, 10, ("gamble", "black", "collect"), gamble_ends("collect")),
    _book("gamble_limit", 5, 3, 5, ("gamble", *["red"] * 8), gamble_ends("limit"), settings={"gamble_limit_x": 2}),
    _book(
        "free_spins",
        6,
        9,
        10,
        ("collect",),
        lambda evs: types(evs).count("free_spins_awarded") == 1 and "expanded_win" in types(evs),
    ),
    _book("retrigger", 7, 5, 2, ("collect",), lambda evs: types(evs).count("free_spins_awarded") >= 2),
    _book("win_cap", 8, 9, 10, (), lambda evs: "win_cap_reached" in types(evs), settings={"free_spin_cap_x": 3}),
    _book("one_line", 9, 1, 100, ("collect",), lambda evs: "line_win" in types(evs)),
]
