"""pyengine.autoplay: every stop reason, no gamble in autoplay, limits validation."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pyengine.autoplay import Autoplay, AutoplayLimits, StopReason
from pyengine.errors import EngineError, NoDecisionPendingError, RoundInProgressError
from pyengine.events import DecisionPending, Event, FreeSpinsAwarded, RoundEnd
from pyengine.games import game_ids, get_game
from pyengine.model import Bet
from pyengine.session import Session
from tests.games import a_game, all_of, decides

GAME = a_game(all_of(decides("collect_or_gamble"), decides("free_spin")), "a gamble and free spins")
"""The game these tests autoplay: its wins are offered to gamble (never in autoplay), its feature is free spins."""
BETS = get_game(GAME).bets
STAKE = BETS.default.total
"""The stake of a round at the game's default bet."""


def new(balance: int = 100_000, seed: int = 1, bet: Bet | None = None) -> Session:
    return Session(GAME, balance=balance, seed=seed, bet=bet, clock=lambda: 1_750_000_000.0)


def decisions(events: list[Event]) -> list[str]:
    return [e.kind for e in events if isinstance(e, DecisionPending)]


def test_rounds() -> None:
    s = new()
    a = Autoplay(s, AutoplayLimits(rounds=25, stop_on_feature=False))
    assert a.running
    assert a.run() == StopReason.ROUNDS
    assert not a.running
    assert a.played == 25
    assert s.rounds_played == 25
    assert not s.in_round
    assert all(r.autoplay for r in s.history)
    assert a.step() == []  # stopped: nothing more happens
    assert s.rounds_played == 25


def test_rounds_reason_set_on_the_last_step() -> None:
    s = new()
    a = Autoplay(s, AutoplayLimits(rounds=2, stop_on_feature=False))
    assert a.step() != []
    assert a.reason is None
    last = a.step()
    assert isinstance(last[-1], RoundEnd)
    assert a.reason == StopReason.ROUNDS


@given(seed=st.integers(0, 2**32), limit_stakes=st.integers(1, 12), extra=st.integers(0, STAKE - 1))
@settings(max_examples=25, deadline=None)
def test_loss_limit_stops_before_the_round_that_would_pass_it(seed: int, limit_stakes: int, extra: int) -> None:
    s = new(seed=seed)
    stake = s.bet.total
    limit = limit_stakes * stake + extra
    a = Autoplay(s, AutoplayLimits(rounds=3000, loss_limit=limit, stop_on_feature=False))
    while a.running:
        a.step()
        assert a.net_loss <= limit  # never passes the limit, even by one round
    assert a.net_loss == a.start_balance - s.balance
    if a.reason == StopReason.ROUNDS:
        # A big early win can keep the net loss under the limit for every round asked for.
        assert a.played == 3000
        return
    assert a.reason == StopReason.LOSS_LIMIT
    assert a.net_loss + stake > limit


@pytest.mark.parametrize("seed", [3, 4, 5])
def test_loss_limit_exactly_reachable(seed: int) -> None:
    # A round whose stake would take the net loss exactly to the limit is still played.
    s = new(seed=seed)
    stake = s.bet.total
    limit = stake  # the first round takes the net loss exactly to the limit
    a = Autoplay(s, AutoplayLimits(rounds=5000, loss_limit=limit, stop_on_feature=False))
    exact = 0
    while a.running:
        pre, played = a.net_loss, a.played
        a.step()
        if pre + stake <= limit:
            assert a.played == played + 1
            exact += pre + stake == limit
        else:
            assert a.played == played
            assert a.reason == StopReason.LOSS_LIMIT
    assert exact >= 1
    assert a.reason == StopReason.LOSS_LIMIT


def test_loss_limit_below_one_stake_plays_nothing() -> None:
    s = new()
    a = Autoplay(s, AutoplayLimits(rounds=10, loss_limit=STAKE - 1))
    assert a.step() == []
    assert a.reason == StopReason.LOSS_LIMIT
    assert a.played == 0
    assert s.rounds_played == 0
    assert s.balance == 100_000


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_balance(seed: int) -> None:
    s = new(balance=400, seed=seed)
    a = Autoplay(s, AutoplayLimits(rounds=10_000, stop_on_feature=False))
    assert a.run() == StopReason.BALANCE
    assert s.balance < s.bet.total
    assert not s.in_round
    assert a.played == s.rounds_played < 10_000


def test_balance_too_low_from_the_start() -> None:
    s = new(balance=STAKE - 1)
    a = Autoplay(s, AutoplayLimits(rounds=5))
    assert a.run() == StopReason.BALANCE
    assert a.played == 0


@pytest.mark.parametrize("limit", [1, STAKE, 500])
def test_single_win(limit: int) -> None:
    s = new(seed=9)
    a = Autoplay(s, AutoplayLimits(rounds=100_000, single_win_limit=limit, stop_on_feature=False))
    assert a.run() == StopReason.SINGLE_WIN
    wins = [r.win for r in s.history]
    assert wins[-1] > limit
    assert all(w <= limit for w in wins[:-1][-9:])
    assert not s.in_round


def _first_win(seed: int) -> tuple[int, int]:
    """The number of the first winning round of ``new(seed=seed)`` (from 1), and its win."""
    s = new(seed=seed)
    a = Autoplay(s, AutoplayLimits(rounds=1000, stop_on_feature=False))
    while a.running:
        a.step()
        last = s.last_round
        assert last is not None
        if last.win:
            return a.played, last.win
    raise AssertionError("no win")


@pytest.mark.parametrize("seed", [9, 10, 11])
def test_single_win_stops_when_a_win_exceeds_the_limit(seed: int) -> None:
    # The rules: "Stop if single win exceeds certain amount". A win of exactly the limit plays on.
    n, win = _first_win(seed)
    at = Autoplay(new(seed=seed), AutoplayLimits(rounds=n, single_win_limit=win, stop_on_feature=False))
    assert at.run() == StopReason.ROUNDS
    assert at.played == n
    below = Autoplay(new(seed=seed), AutoplayLimits(rounds=n + 5, single_win_limit=win - 1, stop_on_feature=False))
    assert below.run() == StopReason.SINGLE_WIN
    assert below.played == n


def test_rounds_checked_before_single_win_on_the_same_round() -> None:
    # single_win is checked after the round; if the last allowed round also hits it, single_win wins.
    s = new(seed=9)
    a = Autoplay(s, AutoplayLimits(rounds=1, single_win_limit=1, stop_on_feature=False))
    a.run()
    last = s.last_round
    assert last is not None
    assert a.reason == (StopReason.SINGLE_WIN if last.win > 1 else StopReason.ROUNDS)


def _run_to_feature(seed: int) -> tuple[Session, Autoplay, list[Event]]:
    s = new(seed=seed)
    a = Autoplay(s, AutoplayLimits(rounds=5000, stop_on_feature=True))
    events: list[Event] = []
    while a.running:
        events = a.step()
    return s, a, events


def test_feature_stop_leaves_the_round_at_feature_start() -> None:
    s, a, events = _run_to_feature(1)
    assert a.reason == StopReason.FEATURE
    assert s.in_round
    assert s.pending is not None
    assert s.pending.kind == "feature_start"
    assert s.pending.feature
    assert events[-1] == DecisionPending("feature_start", ("start",))
    assert any(isinstance(e, FreeSpinsAwarded) for e in events)
    assert a.played == s.rounds_played + 1
    balance = s.balance
    # Autoplay is over: stepping does nothing, and the player starts the feature.
    assert a.step() == []
    assert s.balance == balance
    more: list[Event] = []
    kinds = []
    while s.pending is not None:
        kinds.append(s.pending.kind)
        more += s.choose(s.pending.choices[0])
    assert isinstance(more[-1], RoundEnd)
    # The player played the feature by hand: the gamble is offered at its end, as after any
    # feature, and the round is recorded as played by hand.
    assert kinds[-1] == "collect_or_gamble"
    last = s.last_round
    assert last is not None
    assert not last.autoplay
    assert "free_spins" in last.features


def test_features_are_played_through_without_stop_on_feature() -> None:
    s = new(seed=1)
    a = Autoplay(s, AutoplayLimits(rounds=3000, stop_on_feature=False))
    features = 0
    while a.running:
        events = a.step()
        features += sum(1 for e in events if isinstance(e, FreeSpinsAwarded) and not e.retrigger)
        assert not s.in_round
    assert a.reason == StopReason.ROUNDS
    assert a.played == 3000
    assert features >= 3  # ~13 expected in 3000 rounds


def test_autoplay_cannot_start_during_a_round() -> None:
    s, _, _ = _run_to_feature(1)
    before = s.snapshot()
    with pytest.raises(EngineError, match="cannot start while a round waits"):
        Autoplay(s, AutoplayLimits(rounds=5))
    assert s.snapshot() == before


def test_player_stop() -> None:
    s = new()
    a = Autoplay(s, AutoplayLimits(rounds=50, stop_on_feature=False))
    for _ in range(3):
        a.step()
    a.stop()
    assert a.reason == StopReason.PLAYER
    assert a.step() == []
    assert a.run() == StopReason.PLAYER
    assert a.played == 3 == s.rounds_played
    a.stop()
    assert a.reason == StopReason.PLAYER


def test_player_stop_before_any_round() -> None:
    s = new()
    a = Autoplay(s, AutoplayLimits(rounds=5))
    a.stop()
    assert a.run() == StopReason.PLAYER
    assert s.rounds_played == 0


def test_stop_after_another_reason_keeps_it() -> None:
    s = new()
    a = Autoplay(s, AutoplayLimits(rounds=1, stop_on_feature=False))
    a.run()
    a.stop()
    assert a.reason == StopReason.ROUNDS


def test_autoplay_never_offers_gamble() -> None:
    s = new(seed=12)
    a = Autoplay(s, AutoplayLimits(rounds=800, stop_on_feature=False))
    kinds: set[str] = set()
    wins = 0
    while a.running:
        events = a.step()
        kinds.update(decisions(events))
        wins += sum(1 for e in events if isinstance(e, RoundEnd) and e.win > 0)
    assert a.reason == StopReason.ROUNDS
    assert wins > 100  # many wins, none offered the gamble
    gambles = {"collect_or_gamble", "gamble"}
    assert gambles & set(get_game(GAME).describe()["decisions"])  # the game has them, autoplay never asks
    assert kinds <= set(get_game(GAME).describe()["decisions"]) - gambles
    assert all(e.type not in ("gamble_card", "gamble_end") for r in s.history for e in r.events)


def test_autoplay_wallet() -> None:
    s = new(seed=4)
    a = Autoplay(s, AutoplayLimits(rounds=300, stop_on_feature=False))
    total_win = 0
    while a.running:
        events = a.step()
        total_win += sum(e.win for e in events if isinstance(e, RoundEnd))
    assert s.balance == 100_000 - 300 * STAKE + total_win
    assert a.net_loss == 300 * STAKE - total_win


def test_autoplay_uses_the_session_bet() -> None:
    bet = Bet(min(BETS.lines), max(BETS.levels))  # not the default bet
    assert bet != BETS.default
    s = new(bet=bet)
    Autoplay(s, AutoplayLimits(rounds=5, stop_on_feature=False)).run()
    assert {(r.bet, r.stake) for r in s.history} == {(bet, bet.lines * bet.bet_per_line)}


@pytest.mark.parametrize("rounds", [0, -1, True, 1.5, "5", None])
def test_rounds_validation(rounds: Any) -> None:
    with pytest.raises(EngineError, match="autoplay needs at least 1 round"):
        AutoplayLimits(rounds=rounds)


@pytest.mark.parametrize("name", ["loss_limit", "single_win_limit"])
@pytest.mark.parametrize("value", [0, -5, True, 2.5, "100"])
def test_limit_validation(name: str, value: Any) -> None:
    with pytest.raises(EngineError, match=f"autoplay {name} must be a positive amount of minor units"):
        AutoplayLimits(rounds=5, **{name: value})


def test_valid_limits() -> None:
    lim = AutoplayLimits(rounds=1, loss_limit=1, single_win_limit=1, stop_on_feature=False)
    assert (lim.rounds, lim.loss_limit, lim.single_win_limit, lim.stop_on_feature) == (1, 1, 1, False)
    assert AutoplayLimits(rounds=3).loss_limit is None


def _stopped_at_a_feature(game: str) -> tuple[Session, Autoplay]:
    for seed in range(2000):
        s = Session(game, seed=seed, balance=10**9)
        ap = Autoplay(s, AutoplayLimits(50))
        while ap.reason is None:
            ap.step()
        if ap.reason is StopReason.FEATURE:
            return s, ap
    raise AssertionError(f"autoplay never stopped at a feature of {game}")


@pytest.mark.parametrize("game", game_ids())
def test_a_feature_autoplay_stopped_at_is_played_by_hand_as_any_other(game: str) -> None:
    """Autoplay stops at a feature and hands the round to the player: played on by hand, it
    is exactly the round played by hand from its start (the gamble offered at its end where
    the game has one), and its record replays so."""
    s, _ap = _stopped_at_a_feature(game)
    assert s.pending is not None
    while s.pending is not None:
        s.choose(s.pending.choices[-1] if s.pending.kind == "collect_or_gamble" else s.pending.choices[0])
    r = s.last_round
    assert r is not None
    assert r.autoplay is False
    by_hand = Session(game, balance=r.balance_before, seed=0, bet=r.bet)
    assert tuple(by_hand.replay(seed=r.seed, choices=r.choices)) == r.events
    assert Session.restore(s.snapshot()).snapshot() == s.snapshot()


def test_only_a_round_autoplay_stopped_at_a_feature_is_taken_over() -> None:
    game = a_game(decides("feature_start"), "a feature")
    s = Session(game, seed=1)
    with pytest.raises(NoDecisionPendingError):
        s.take_over()  # no round in play
    s2, _ = _stopped_at_a_feature(game)
    rnd = s2._round
    assert rnd is not None
    rnd.autoplay = True
    rnd.gamble_skipped = True  # as if a gamble had been left out earlier in the round
    with pytest.raises(RoundInProgressError):
        s2.take_over()
