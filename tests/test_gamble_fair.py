"""The gamble is fair: whatever the player does, its expected value is the win it risks.

Every test drives the real `pyengine.features.gamble.gamble` generator; the cards come from a
scripted source, and a card the script does not hold is an exact branch over all 52 cards.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pyengine.events import Event, GambleCard, GambleEnd
from pyengine.features.gamble import COLLECT_OR_GAMBLE, GAMBLE_CHOICE, RANKS, SUITS, gamble
from pyengine.model import Bet
from pyengine.rng import ScriptedRng
from pyengine.round import Decision, RoundContext

DECK = range(52)


class NeedCard(Exception):
    """The gamble asked for a card beyond the scripted ones."""


class Deck(ScriptedRng):
    """Scripted cards; asking for one more is an error (no silent SplitMix64 fallback)."""

    __slots__ = ()

    def below(self, n: int) -> int:
        assert n == 52, "the gamble draws from a full 52-card deck every time"
        if not self.script:
            raise NeedCard
        return super().below(n)


# A policy answers a decision from what the player has seen so far (the events).
Policy = Callable[[Decision, list[Event]], str]


def always(color: str) -> Policy:
    def policy(d: Decision, events: list[Event]) -> str:
        return "gamble" if d is COLLECT_OR_GAMBLE else color

    return policy


def alternate(d: Decision, events: list[Event]) -> str:
    if d is COLLECT_OR_GAMBLE:
        return "gamble"
    return ("red", "black")[len(events) % 2]


def follow_last_card(d: Decision, events: list[Event]) -> str:
    """Guess the colour of the previous card (a 'streak' superstition)."""
    if d is COLLECT_OR_GAMBLE:
        return "gamble"
    cards = [e for e in events if isinstance(e, GambleCard)]
    return cards[-1].color if cards else "black"


def collect_at(target: int) -> Policy:
    def policy(d: Decision, events: list[Event]) -> str:
        if d is COLLECT_OR_GAMBLE:
            return "gamble"
        cards = [e for e in events if isinstance(e, GambleCard)]
        return "collect" if cards and cards[-1].win >= target else "red"

    return policy


def never(d: Decision, events: list[Event]) -> str:
    return "collect"


def run(win: int, limit: int, cards: Sequence[int], policy: Policy) -> tuple[int, RoundContext]:
    """Play the gamble with these cards; raise NeedCard if it wants another one."""
    rng = Deck(cards)
    ctx = RoundContext(rng, Bet(1, 1), {}, autoplay=False)
    process = gamble(ctx, win, limit)
    try:
        decision = next(process)
        while True:
            assert decision in (COLLECT_OR_GAMBLE, GAMBLE_CHOICE)
            choice = policy(decision, ctx.events)
            assert choice in decision.choices
            decision = process.send(choice)
    except StopIteration as stop:
        assert rng.script == [], "cards were scripted that the gamble never drew"
        result: int = stop.value
        return result, ctx


def expected_exhaustive(win: int, limit: int, policy: Policy, prefix: tuple[int, ...] = ()) -> Fraction:
    """E[final win], enumerating every card of every step (no shortcut at all)."""
    try:
        value, _ = run(win, limit, prefix, policy)
    except NeedCard:
        return sum((expected_exhaustive(win, limit, policy, (*prefix, c)) for c in DECK), Fraction(0)) / 52
    return Fraction(value)


def expected_by_colour(win: int, limit: int, policy: Policy) -> Fraction:
    """E[final win] over all card sequences, every level checked over all 52 cards.

    At each level all 52 cards are played; the continuation below a card is computed once per
    colour sequence, after checking that the cards of one colour lead to the same events
    apart from the card's name (so the 26 continuations are the same game).
    """
    memo: dict[tuple[str, ...], Fraction] = {}

    def shape(events: list[Event]) -> list[tuple[object, ...]]:
        return [(e.type, e.color, e.won, e.win) if isinstance(e, GambleCard) else (e.type, e) for e in events]

    def value(prefix: tuple[int, ...]) -> Fraction:
        try:
            v, _ = run(win, limit, prefix, policy)
        except NeedCard:
            pass
        else:
            return Fraction(v)
        total = Fraction(0)
        shapes: dict[str, list[tuple[object, ...]]] = {}
        for c in DECK:
            nxt = (*prefix, c)
            try:
                v, ctx = run(win, limit, nxt, policy)
                outcome = Fraction(v)
                events = ctx.events
            except NeedCard:
                colours = tuple("red" if SUITS[x // 13] in "HD" else "black" for x in nxt)
                if colours not in memo:
                    memo[colours] = value(nxt)
                outcome = memo[colours]
                events = []
            colour = "red" if SUITS[c // 13] in "HD" else "black"
            if events:
                s = shape(events)
                assert shapes.setdefault(colour, s) == s, "two cards of one colour played differently"
            total += outcome
        return total / 52

    return value(())


# -- one step ---------------------------------------------------------------------------------------
@pytest.mark.parametrize("guess", ["red", "black"])
@pytest.mark.parametrize("win", [1, 7, 50, 12_345])
def test_one_step_is_fair_over_the_52_cards(guess: str, win: int) -> None:
    limit = 10**9
    outcomes = []
    for card in DECK:

        def policy(d: Decision, events: list[Event]) -> str:
            if d is COLLECT_OR_GAMBLE:
                return "gamble"
            return "collect" if any(isinstance(e, GambleCard) for e in events) else guess

        value, ctx = run(win, limit, [card], policy)
        outcomes.append(value)
        drawn = next(e for e in ctx.events if isinstance(e, GambleCard))
        assert drawn.card == RANKS[card % 13] + SUITS[card // 13]
        assert drawn.won == (drawn.color == guess)
        assert value == (2 * win if drawn.won else 0)
        assert ctx.events[-1] == GambleEnd("collect" if drawn.won else "lost", value)
    assert sorted(set(outcomes)) == [0, 2 * win]
    assert outcomes.count(2 * win) == 26  # 26 red and 26 black cards
    assert Fraction(sum(outcomes), 52) == win


def test_the_deck_has_every_card_once() -> None:
    names = {RANKS[n % 13] + SUITS[n // 13] for n in DECK}
    assert len(names) == 52
    assert sum(1 for n in DECK if SUITS[n // 13] in ("H", "D")) == 26


# -- the whole process, exhaustively ----------------------------------------------------------------
POLICIES: dict[str, Policy] = {
    "red": always("red"),
    "black": always("black"),
    "alternate": alternate,
    "follow": follow_last_card,
    "collect_at_4": collect_at(4),
    "never": never,
}


@pytest.mark.parametrize("name", list(POLICIES))
@pytest.mark.parametrize(("win", "limit"), [(1, 2), (3, 7), (5, 5), (2, 3)])
def test_whole_gamble_exhaustive(name: str, win: int, limit: int) -> None:
    """Every sequence of cards (52 * 26 + 52 for 1 -> 2 -> 4 past the limit 2)."""
    assert expected_exhaustive(win, limit, POLICIES[name]) == win


@pytest.mark.parametrize(("name", "win", "limit"), [("follow", 1, 4), ("red", 3, 12)])
def test_whole_gamble_exhaustive_three_cards_deep(name: str, win: int, limit: int) -> None:
    """1 -> 2 -> 4 -> 8: 52 * 26 * 26 leaves, every one played through the generator."""
    assert expected_exhaustive(win, limit, POLICIES[name]) == win


def test_exhaustive_depth_is_what_the_limit_allows() -> None:
    # 1 -> 2 -> 4 (still <= 4, offered again) -> 8 (> 4): the gamble ends at "limit".
    value, ctx = run(1, 4, [0, 13, 1], always("red"))
    assert value == 8
    assert [e.win for e in ctx.events if isinstance(e, GambleCard)] == [2, 4, 8]
    assert ctx.events[-1] == GambleEnd("limit", 8)


@given(win=st.integers(1, 10**6), ratio=st.integers(0, 600), name=st.sampled_from(list(POLICIES)))
@settings(max_examples=60, deadline=None)
def test_whole_gamble_is_fair_for_any_win_and_limit(win: int, ratio: int, name: str) -> None:
    limit = win * ratio // 3  # from below the win (not offered) to ~200x the win
    assert expected_by_colour(win, limit, POLICIES[name]) == win


@given(win=st.integers(1, 1000), limit=st.integers(0, 20_000))
@settings(max_examples=60, deadline=None)
def test_always_gamble_value_distribution(win: int, limit: int) -> None:
    """Always red: the only outcomes are 0 and the first doubling past the limit."""
    if win > limit:
        value, ctx = run(win, limit, [], always("red"))
        assert value == win
        assert ctx.events == []
        return
    top = win
    while top <= limit:
        top *= 2
    steps = (top // win).bit_length() - 1
    value, _ = run(win, limit, [0] * steps, always("red"))
    assert value == top
    # P(reach top) = 2**-steps, and top * 2**-steps == win: the martingale argument, exactly.
    assert Fraction(top, 2**steps) == win
    assert expected_by_colour(win, limit, always("red")) == win


def test_not_offered_in_autoplay_or_above_the_limit_or_without_a_win() -> None:
    for win, limit, autoplay in [(10, 100, True), (101, 100, False), (0, 100, False)]:
        ctx = RoundContext(Deck([]), Bet(1, 1), {}, autoplay=autoplay)
        process = gamble(ctx, win, limit)
        with pytest.raises(StopIteration) as stop:
            next(process)
        assert stop.value.value == win
        assert ctx.events == []
