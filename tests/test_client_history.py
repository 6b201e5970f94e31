"""The round history of every registered game against the rounds' own events.

For each game, the first round of each kind of feature it plays (searched in a fixed seed
stream) is drawn in the history as its screen draws it, and compared with the round's
events: the board shown is the one that was judged (the window of the last event that has
one: a spin, a cascade's refill, symbols a feature placed), the base game's and the last
free spin's where there were free spins; every feature the round had is named; the win of
every feature that ends with one (free spins, hold and respin) is shown; and a round with a
feature says what it did (the game's own lines).
"""

from __future__ import annotations

import importlib
import re
from html import unescape
from typing import Any

import pytest

from pyengine import events as ev
from pyengine.games import game_ids, get_game, plugin
from pyengine.session import RoundRecord, Session
from slotui.pages import feature_notes, history_html
from slotui.stage import screen_for

ROUNDS = 6000
SHARED = frozenset(t for t, cls in ev.EVENT_TYPES.items() if cls.__module__ == ev.__name__)
IMG = re.compile(r'<img class="sym" src="a/symbols/([^"]+)\.svg"')


def rounds_of_each_kind(game: str) -> dict[tuple[str, ...], RoundRecord]:
    """The first round of each set of features (and of each game event type) in a fixed stream."""
    s = Session(game, seed=2024, balance=10**12, clock=lambda: 1.7e9)
    found: dict[tuple[str, ...], RoundRecord] = {}
    for _ in range(ROUNDS):
        s.spin()
        while s.pending is not None:
            s.choose(s.pending.choices[0])
        r = s.last_round
        assert r is not None
        own = tuple(sorted({e.type for e in r.events} - SHARED))
        found.setdefault((*sorted(set(r.features)), *own), r)
    return found


def judged(events: tuple[ev.Event, ...]) -> list[tuple[tuple[str, ...], ...]]:
    """The boards a player must see: the last window before the first free spin, and the last
    window of all when there were free spins."""
    windows = [(e, getattr(e, "window", None)) for e in events]
    first_free = next((i for i, e in enumerate(events) if isinstance(e, ev.Spin) and e.phase != "base"), None)
    base = [w for e, w in windows[:first_free] if w]
    out = [base[-1]] if base else []
    if first_free is not None:
        out.append(next(w for _e, w in reversed(windows) if w))
    return out


def cells(window: tuple[tuple[str, ...], ...]) -> list[str]:
    return [window[reel][row] for row in range(len(window[0])) for reel in range(len(window))]


@pytest.mark.parametrize("game", game_ids())
def test_the_history_shows_what_each_round_played(game: str) -> None:
    importlib.import_module(plugin(game).screen)
    screen = screen_for(game)
    g = get_game(game)
    names = {s["id"]: s["name"] for s in g.describe()["symbols"]}
    kinds = rounds_of_each_kind(game)
    assert kinds
    for kind, r in kinds.items():
        html = history_html((r,), g.bets.format, "a", names, features=screen.feature_names,
                            board=screen.history_board)
        text = unescape(re.sub(r"<[^>]+>", " ", html))
        shown = IMG.findall(html)
        expected = [c for w in judged(r.events) for c in cells(w)]
        assert shown[: len(expected)] == expected, f"{game} {kind}: the board shown is not the one judged"
        assert f"Win {g.bets.format(r.win)}" in text
        for feature in r.features:
            said = screen.feature_names.get(feature, feature.replace("_", " "))
            assert said in text, f"{game} {kind}: the feature {feature} is not named"
        for e in r.events:
            if isinstance(e, ev.FreeSpinsEnd | ev.HoldAndRespinEnd):
                assert g.bets.format(e.win) in text, f"{game} {kind}: the {e.type} win is not shown"
        if r.features:  # what the feature did: the game's own lines, or the shared ones
            own = screen.history_board(r, g.bets.format, "a", names) if screen.history_board else ""
            assert own or feature_notes(r.events, g.bets.format, names), f"{game} {kind}: nothing said of it"


def test_a_judged_board_is_the_last_window_of_its_phase() -> None:
    """The rule itself, on events made by hand: a placed symbol and a refill each replace the board."""
    spin = ev.Spin(phase="base", stops=(0, 0, 0), window=(("A",), ("B",), ("C",)))
    refill = ev.Cascade(number=1, removed=((1, 0),), stops=(0, 1, 0), window=(("A",), ("D",), ("C",)))
    free = ev.Spin(phase="free", stops=(1, 1, 1), window=(("E",), ("E",), ("E",)))
    assert judged((spin,)) == [spin.window]
    assert judged((spin, refill)) == [refill.window]
    assert judged((spin, refill, free)) == [refill.window, free.window]
    record: Any = RoundRecord(
        index=0, seed=1, bet=get_game(game_ids()[0]).bets.default, autoplay=False, choices=(),
        events=(spin, refill, free), stake=1, win=0, balance_before=1, balance_after=0, time_ms=0,
        features=(), mode="base", jackpot=0,
    )
    html = history_html((record,), str, "a", {})
    assert IMG.findall(html) == ["A", "D", "C", "E", "E", "E"]
    assert "Base game" in html
    assert "Last free spin" in html
