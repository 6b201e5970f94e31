"""A tour of every screen of a game, asked of the engine: the rounds whose events, together,
bring every kind of event the game's rounds bring in a fixed stretch of seeds.

A round is a session seed and a way of answering its decisions (`WAYS`): the first choice
of every decision (start, the first cell, spin, collect), a gamble on red at every win the
game offers to gamble, or the feature bought. An event's kind is its type and the names it
carries (a feature's name, a decision's kind, a pick's name), so that every feature, every
pick and every decision has a round in the tour. The CPython walk (``test_text_layout``) and
the browser's (``test_text_layout_browser``) both play it; neither names a game.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from pyengine import events as ev
from pyengine.session import Session
from tests.client_support import wall_clock

__all__ = ["SEEDS", "WAYS", "Round", "tour", "waiting_rounds"]

SEEDS = 2500
"""The stretch of seeds the tour looks through, from 0."""
WAYS = ("first", "gamble", "buy")


@dataclass(frozen=True, slots=True)
class Round:
    seed: int
    way: str
    """How the decisions are answered (`WAYS`)."""
    kinds: frozenset[tuple[str, ...]]
    """The kinds of event it brings that no round before it in the tour brought."""


def kind(e: ev.Event) -> tuple[str, ...]:
    names = (getattr(e, a, None) for a in ("feature", "kind", "name"))
    return (e.type, *(n for n in names if isinstance(n, str)))


def answer(way: str, pending_kind: str, choices: tuple[str, ...]) -> str:
    """The choice ``way`` makes at a decision."""
    if way == "gamble" and pending_kind == "collect_or_gamble" and "gamble" in choices:
        return "gamble"
    if way == "gamble" and pending_kind == "gamble" and "red" in choices:
        return "red"
    return choices[0]


def play(game: str, seed: int, way: str) -> list[ev.Event] | None:
    """The round's events played ``way`` (None when the way does not apply to it)."""
    s = Session(game, seed=seed, clock=wall_clock)
    if way == "buy":
        if "buy" not in s.modes:
            return None
        events = s.buy()
    else:
        events = s.spin()
    gambled = False
    while s.pending is not None:
        choice = answer(way, s.pending.kind, s.pending.choices)
        gambled |= choice == "gamble"
        events += s.choose(choice)
    if way == "gamble" and not gambled:
        return None
    return events


@functools.cache
def tour(game: str, seeds: int = SEEDS) -> tuple[Round, ...]:
    """The rounds of the tour, first found first: each brings a kind of event none before it did."""
    seen: set[tuple[str, ...]] = set()
    rounds: list[Round] = []
    for way in WAYS:
        for seed in range(seeds):
            events = play(game, seed, way)
            if events is None:
                if way == "buy":
                    break  # the game sells no feature
                continue
            new = frozenset(kind(e) for e in events) - seen
            if new:
                seen |= new
                rounds.append(Round(seed, way, new))
    return tuple(rounds)


WAITING = ("decision_pending", "pick_start")
"""The kinds of event that bring a screen waiting on the player: a decision, a pick's board."""


def waiting_rounds(game: str) -> tuple[Round, ...]:
    """The fewest rounds of the tour answered with first choices, most first, that bring
    every decision and every pick board of the game: each screen that waits on the player."""
    rounds = [r for r in tour(game) if r.way == "first"]
    want = {k for r in rounds for k in r.kinds if k[0] in WAITING}
    kinds = {r: {kind(e) for e in play(game, r.seed, r.way) or ()} & want for r in rounds}
    chosen: list[Round] = []
    while want:
        best = max(rounds, key=lambda r: len(kinds[r] & want))
        chosen.append(best)
        want -= kinds[best]
    return tuple(chosen)
