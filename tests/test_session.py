"""pyengine.session: wallet conservation, reproducible logs, bad input rejected with nothing
changed, history, snapshot/restore at every kind of pause, corrupt snapshots, event JSON."""

from __future__ import annotations

import itertools
import json
from collections.abc import Callable
from dataclasses import fields
from pathlib import Path
from functools import cache
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pyengine.errors import (
    BetError,
    ChoiceError,
    EngineError,
    InsufficientFundsError,
    NoDecisionPendingError,
    RoundInProgressError,
    SnapshotError,
)
from pyengine.events import (
    EVENT_TYPES,
    ChoiceMade,
    DecisionPending,
    Event,
    GambleCard,
    RoundEnd,
    RoundStart,
    dumps,
    event_from_json,
    events_from_json,
)
from pyengine.features.gamble import COLLECT_OR_GAMBLE
from pyengine.games import game_ids, get_game
from pyengine.model import Bet
from pyengine.replay import replay
from pyengine.rng import Rng
from pyengine.session import HISTORY_SIZE, PENDING_DAYS, SNAPSHOT_FORMAT, Session
from pyengine.snapshot import _checksum
from tests.games import a_game, all_of, decides, has_settings, kit
from tests.golden_cases import golden_path

GAME_ID = a_game(
    all_of(*map(decides, ("collect_or_gamble", "gamble", "feature_start", "free_spin")), has_settings),
    "a gamble, free spins and operator settings",
)
"""The game these tests play: its wins are offered to gamble, and its feature is free spins."""
BETS = get_game(GAME_ID).bets
DEFAULT = BETS.default
SETTING = next(iter(get_game(GAME_ID).default_settings()))
"""One of the game's operator settings."""
NO_LINES = max(BETS.lines) + 1
"""A number of lines the game does not offer."""
ROOT = Path(__file__).resolve().parents[1]
NOW = 1_750_000_000.0


def clock() -> float:
    return NOW


def new(balance: int = 100_000, seed: int = 1, **kw: Any) -> Session:
    return Session(GAME_ID, balance=balance, seed=seed, clock=clock, **kw)


def finish(s: Session, picker: Rng | None = None) -> list[Event]:
    """Answer every decision: at random with ``picker``, else the first choice."""
    events: list[Event] = []
    while (d := s.pending) is not None:
        events += s.choose(d.choices[picker.below(len(d.choices))] if picker else d.choices[0])
    return events


def play_round(s: Session, picker: Rng | None = None, **kw: Any) -> list[Event]:
    return s.spin(**kw) + finish(s, picker)


# -- seeds for each kind of pause, found by a deterministic scan ------------------------------------
def _scan(test: Callable[[Session], bool]) -> int:
    for seed in range(100_000):
        s = new()
        s.spin(seed=seed)
        if test(s):
            return seed
    raise AssertionError("no seed found")


@cache
def win_seed() -> int:
    """A round that wins in the base game only: it waits on collect_or_gamble."""
    return _scan(lambda s: s.pending is not None and s.pending.kind == "collect_or_gamble")


@cache
def feature_seed() -> int:
    """A round that triggers free spins."""
    return _scan(lambda s: s.pending is not None and s.pending.kind == "feature_start")


@cache
def gamble_win_seed() -> int:
    """A win whose first gamble card is red."""

    def test(s: Session) -> bool:
        if s.pending is None or s.pending.kind != "collect_or_gamble":
            return False
        s.choose("gamble")
        s.choose("red")
        return s.pending is not None and s.pending.kind == "gamble"

    return _scan(test)


# -- wallet ---------------------------------------------------------------------------------------------
@given(seed=st.integers(0, 2**64 - 1), picker_seed=st.integers(0, 2**32), lines=st.sampled_from(BETS.lines))
@settings(max_examples=25, deadline=None)
def test_wallet_conservation(seed: int, picker_seed: int, lines: int) -> None:
    s = new(balance=50_000, seed=seed, bet=Bet(lines, DEFAULT.bet_per_line))
    picker = Rng(picker_seed)
    start = s.balance
    staked = won = 0
    for _ in range(40):
        before = s.balance
        events = s.spin()
        stake = s.bet.total
        # The stake is taken at once; a round that needs no decision (e.g. a win above the
        # gamble limit) is already finished and credited.
        credited = 0 if s.in_round else events[-1].win  # type: ignore[attr-defined]
        assert s.balance == before - stake + credited
        first = events[0]
        assert isinstance(first, RoundStart)
        assert (first.stake, first.balance) == (stake, before - stake)
        events += finish(s, picker)
        last = s.last_round
        assert last is not None
        end = events[-1]
        assert isinstance(end, RoundEnd)
        assert s.balance == before - stake + last.win == end.balance
        assert end.win == last.win >= 0
        assert (last.balance_before, last.balance_after, last.stake) == (before, s.balance, stake)
        staked += stake
        won += last.win
    assert s.balance == start - staked + won


def test_wallet_conservation_long_session() -> None:
    s = new(balance=10**7, seed=2024)
    picker = Rng(7)
    wins = 0
    n = 2000
    for _ in range(n):
        play_round(s, picker)
        last = s.last_round
        assert last is not None
        wins += last.win
    assert s.balance == 10**7 - n * DEFAULT.total + wins
    assert s.rounds_played == n


def test_round_win_is_live() -> None:
    s = new()
    s.spin(seed=feature_seed())
    base = s.round_win
    seen = [base]
    while (d := s.pending) is not None and d.kind != "collect_or_gamble":
        s.choose(d.choices[0])
        seen.append(s.round_win)
    assert seen == sorted(seen)  # never goes down while the feature pays
    assert s.pending is not None
    win = s.round_win
    before = s.balance
    s.choose("collect")
    assert s.balance == before + win
    assert s.round_win == 0


# -- reproducibility --------------------------------------------------------------------------------
@given(seed=st.integers(0, 2**64 - 1), picker_seed=st.integers(0, 2**32))
@settings(max_examples=15, deadline=None)
def test_seed_and_choices_give_byte_identical_logs(seed: int, picker_seed: int) -> None:
    logs = []
    for _ in range(2):
        s = new(seed=seed)
        picker = Rng(picker_seed)
        logs.append(dumps([e for _ in range(30) for e in play_round(s, picker)]))
        logs.append(json.dumps([r.to_json() for r in s.history], sort_keys=True))
    assert logs[0] == logs[2]
    assert logs[1] == logs[3]


def test_different_seeds_differ() -> None:
    a, b = new(seed=1), new(seed=2)
    assert dumps([e for _ in range(5) for e in play_round(a)]) != dumps([e for _ in range(5) for e in play_round(b)])


def test_replaying_a_history_record() -> None:
    s = new(seed=11)
    picker = Rng(3)
    for _ in range(12):
        play_round(s, picker)
    for r in s.history:
        probe = new(balance=r.balance_before, seed=0, bet=r.bet)
        events = probe.spin(seed=r.seed, autoplay=r.autoplay)
        for c in r.choices:
            events += probe.choose(c)
        assert dumps(events) == dumps(r.events)
        assert probe.balance == r.balance_after


# -- bad input --------------------------------------------------------------------------------------
def pending_session() -> Session:
    s = new()
    s.spin(seed=win_seed())
    assert s.pending is not None
    return s


OFFERED_LINES = set(BETS.lines)
OFFERED_LEVELS = set(BETS.levels)


@given(lines=st.integers(-3, max(OFFERED_LINES) + 3), level=st.integers(-5, 3 * max(OFFERED_LEVELS)))
@settings(max_examples=150, deadline=None)
def test_bet_not_offered(lines: int, level: int) -> None:
    bet = Bet(lines, level)
    s = new()
    play_round(s)
    before = s.snapshot()
    if lines in OFFERED_LINES and level in OFFERED_LEVELS:
        assert s.set_bet(bet) == bet
        return
    with pytest.raises(BetError, match="is not offered; choose one of"):
        s.set_bet(bet)
    assert s.snapshot() == before
    with pytest.raises(BetError):
        new(bet=bet)


@pytest.mark.parametrize(
    "bet", [(DEFAULT.lines, DEFAULT.bet_per_line), f"{DEFAULT.lines}x{DEFAULT.bet_per_line}", None, DEFAULT.total]
)
def test_set_bet_needs_a_bet(bet: Any) -> None:
    s = new()
    before = s.snapshot()
    with pytest.raises(BetError, match="a bet must be a Bet"):
        s.set_bet(bet)
    assert s.snapshot() == before


def test_set_bet_rejects_a_float_bet() -> None:
    s = new()
    before = s.snapshot()
    with pytest.raises(BetError):
        s.set_bet(Bet(DEFAULT.lines, float(DEFAULT.bet_per_line)))  # type: ignore[arg-type]
    assert s.snapshot() == before


@given(lines=st.sampled_from(sorted(OFFERED_LINES)), level=st.sampled_from(sorted(OFFERED_LEVELS)), data=st.data())
@settings(max_examples=80, deadline=None)
def test_stake_above_balance(lines: int, level: int, data: st.DataObject) -> None:
    stake = lines * level
    balance = data.draw(st.integers(0, stake - 1))
    s = new(balance=balance, bet=Bet(lines, level))
    before = s.snapshot()
    with pytest.raises(InsufficientFundsError, match="is more than the balance"):
        s.spin()
    assert s.snapshot() == before
    assert not s.in_round
    s.add_funds(stake - balance)
    first = s.spin()[0]  # exactly the stake is enough
    assert isinstance(first, RoundStart)
    assert first.balance == 0


@given(choice=st.text(max_size=12))
@settings(max_examples=60, deadline=None)
def test_choose_without_a_pending_decision(choice: str) -> None:
    for s in (new(), new()):
        play_round(s)
        before = s.snapshot()
        with pytest.raises(NoDecisionPendingError, match="no decision is pending"):
            s.choose(choice)
        assert s.snapshot() == before


@given(choice=st.text(max_size=12))
@settings(max_examples=60, deadline=None)
def test_invalid_choice(choice: str) -> None:
    s = pending_session()
    assert s.pending is not None
    if choice in s.pending.choices:
        return
    before = s.snapshot()
    events = s.round_events
    offered = ", ".join(COLLECT_OR_GAMBLE.choices)
    with pytest.raises(ChoiceError, match=f"is not a choice for 'collect_or_gamble'; choose one of {offered}"):
        s.choose(choice)
    assert s.snapshot() == before
    assert s.round_events == events


@given(lines=st.sampled_from(sorted(OFFERED_LINES)), level=st.sampled_from(sorted(OFFERED_LEVELS)))
@settings(max_examples=30, deadline=None)
def test_no_bet_change_spin_or_top_up_during_a_round(lines: int, level: int) -> None:
    s = pending_session()
    before = s.snapshot()
    for action in (
        lambda: s.set_bet(Bet(lines, level)),
        s.spin,
        lambda: s.add_funds(100),
        s.lines_up,
        s.lines_down,
        s.bet_up,
        s.bet_down,
        s.bet_max,
    ):
        with pytest.raises(RoundInProgressError, match="while a round waits on 'collect_or_gamble'"):
            action()
        assert s.snapshot() == before


@pytest.mark.parametrize("amount", [0, -5, 1.5, True, "100"])
def test_bad_top_up(amount: Any) -> None:
    s = new()
    before = s.snapshot()
    with pytest.raises(InsufficientFundsError, match="a top-up must be a positive integer"):
        s.add_funds(amount)
    assert s.snapshot() == before


@pytest.mark.parametrize("balance", [-1, 1.5, True, "100"])
def test_bad_starting_balance(balance: Any) -> None:
    with pytest.raises(InsufficientFundsError):
        Session(GAME_ID, balance=balance)


@pytest.mark.parametrize("seed", [-1, "7"])
def test_bad_round_seed_changes_nothing(seed: Any) -> None:
    s = new()
    before = s.snapshot()
    with pytest.raises(EngineError):
        s.spin(seed=seed)
    assert s.snapshot() == before


def test_errors_are_value_errors() -> None:
    for cls in (BetError, ChoiceError, InsufficientFundsError, NoDecisionPendingError, RoundInProgressError):
        assert issubclass(cls, EngineError)
        assert issubclass(cls, ValueError)


# -- history ------------------------------------------------------------------------------------------
def test_history_keeps_the_last_ten() -> None:
    s = new(seed=5)
    for _ in range(HISTORY_SIZE + 5):
        play_round(s)
    h = s.history
    assert HISTORY_SIZE == 10
    assert len(h) == 10
    assert [r.index for r in h] == list(range(5, 15))
    for a, b in itertools.pairwise(h):
        assert b.balance_before == a.balance_after
    assert s.last_round == h[-1]
    assert h[-1].balance_after == s.balance
    restored = Session.restore(s.snapshot(), clock=clock)
    assert restored.history == h
    play_round(restored)
    assert [r.index for r in restored.history] == list(range(6, 16))


def test_history_of_a_fresh_session_is_empty() -> None:
    s = new()
    assert s.history == ()
    assert s.last_round is None
    assert s.round_events == ()
    assert s.round_win == 0


# -- snapshot / restore -------------------------------------------------------------------------------
def continue_and_log(s: Session, choices: list[str], more_rounds: int = 4) -> tuple[str, int, str]:
    events: list[Event] = []
    for c in choices:
        events += s.choose(c)
    assert not s.in_round
    for _ in range(more_rounds):
        events += play_round(s, Rng(99))
    return dumps(events), s.balance, json.dumps([r.to_json() for r in s.history], sort_keys=True)


def full_choices(seed: int, answers: list[str]) -> list[str]:
    """The whole choice list of a round: ``answers`` first, then the first choice each time."""
    s = new()
    s.spin(seed=seed)
    out = []
    queue = list(answers)
    while (d := s.pending) is not None:
        c = queue.pop(0) if queue else d.choices[0]
        out.append(c)
        s.choose(c)
    return out


def check_restore(seed: int, answers: list[str], cut: int, expected_kind: str) -> None:
    choices = full_choices(seed, answers)
    # Uninterrupted.
    a = new(seed=8)
    play_round(a)
    a.spin(seed=seed)
    for c in choices[:cut]:
        a.choose(c)
    assert a.pending is not None
    assert a.pending.kind == expected_kind
    expected_events = a.round_events
    expected = continue_and_log(a, choices[cut:])
    # Interrupted at the same point.
    b = new(seed=8)
    play_round(b)
    b.spin(seed=seed)
    for c in choices[:cut]:
        b.choose(c)
    text = b.snapshot()
    r = Session.restore(text, clock=clock)
    assert r.snapshot() == text
    assert r.pending == b.pending
    assert r.round_events == b.round_events == expected_events
    assert r.round_win == b.round_win
    assert r.balance == b.balance
    assert continue_and_log(r, choices[cut:]) == expected


def test_restore_at_idle() -> None:
    a, b = new(seed=4), new(seed=4)
    for s in (a, b):
        for _ in range(3):
            play_round(s, Rng(1))
    c = Session.restore(b.snapshot(), clock=clock)
    assert c.snapshot() == b.snapshot()
    assert not c.in_round
    assert continue_and_log(c, [], 6) == continue_and_log(a, [], 6)


def test_snapshot_keeps_the_seed_stream_as_if_drawn_one_by_one() -> None:
    # Round seeds are drawn ahead in blocks; the snapshot still holds the generator's state
    # after exactly the seeds used, for any number of rounds played.
    for rounds in (0, 1, 15, 16, 17, 40):
        s = new(seed=6)
        reference = Rng(6)
        for _ in range(rounds):
            s.spin()
            finish(s)
            assert s.last_round is not None
            assert s.last_round.seed == reference.next64()
        assert json.loads(s.snapshot())["state"]["rng"] == reference.state
        r = Session.restore(s.snapshot(), clock=clock)
        first = r.spin()[0]
        assert isinstance(first, RoundStart)
        assert first.seed == reference.next64()


def test_restore_at_collect_credits_the_win() -> None:
    # Rule: quitting while Collect is offered in the base game credits the win.
    s = new(seed=8)
    play_round(s)
    s.spin(seed=win_seed())
    assert s.pending is not None
    assert s.pending.kind == "collect_or_gamble"
    win, before = s.round_win, s.balance
    r = Session.restore(s.snapshot(), clock=clock)
    assert not r.in_round
    assert r.balance == before + win
    last = r.last_round
    assert last is not None
    assert (last.choices, last.win) == (("collect",), win)


@pytest.mark.parametrize("cut", [1, 2])
def test_restore_mid_gamble(cut: int) -> None:
    # cut 1: the colour choice is pending; cut 2: a red card won and the gamble is offered again.
    check_restore(gamble_win_seed(), ["gamble", "red", "red", "black"], cut, "gamble")


def test_restore_at_feature_start() -> None:
    # What the feature drew before the player starts it (the game's own test checks what that is).
    check_restore(feature_seed(), [], 0, "feature_start")


@pytest.mark.parametrize("cut", [1, 4, 10])
def test_restore_mid_free_spins(cut: int) -> None:
    check_restore(feature_seed(), [], cut, "free_spin")


def test_restore_settles_a_round_left_too_long() -> None:
    s = new()
    s.spin(seed=win_seed())
    s.choose("gamble")  # waiting in the gamble: a reload in time lets the player carry on
    win = s.round_win
    text = s.snapshot()
    late = NOW + PENDING_DAYS * 86_400 + 1
    settled = Session.restore(text, clock=lambda: late)
    assert not settled.in_round
    assert settled.balance == s.balance + win
    last = settled.last_round
    assert last is not None
    assert last.choices == ("gamble", "collect")
    early = Session.restore(text, clock=lambda: NOW + PENDING_DAYS * 86_400 - 1)
    assert early.pending == s.pending


# -- corrupt snapshots ------------------------------------------------------------------------------
def _mid_round_snapshot() -> str:
    s = new(seed=3)
    for _ in range(3):
        play_round(s)
    s.spin(seed=win_seed())
    s.choose("gamble")
    return s.snapshot()


SNAP = _mid_round_snapshot()


def resign(mutate: Callable[[dict[str, Any]], None], text: str = SNAP) -> str:
    """Edit the state and recompute its checksum, as a careful tamperer would."""
    obj = json.loads(text)
    mutate(obj["state"])
    obj["checksum"] = _checksum(obj["state"])
    return json.dumps(obj)


@pytest.mark.parametrize("text", ["", "{", "null", "[]", "42", '"snapshot"', "{}", SNAP[:-1], SNAP + "x", b"\xff\xfe"])
def test_corrupt_json(text: Any) -> None:
    with pytest.raises(SnapshotError):
        Session.restore(text)


def test_every_truncation_is_refused() -> None:
    for n in range(0, len(SNAP), 7):
        with pytest.raises(SnapshotError):
            Session.restore(SNAP[:n])


@given(pos=st.integers(0, len(SNAP) - 1), char=st.characters(codec="ascii"))
@settings(max_examples=150, deadline=None)
def test_any_single_character_change_is_refused(pos: int, char: str) -> None:
    if SNAP[pos] == char:
        return
    text = SNAP[:pos] + char + SNAP[pos + 1 :]
    with pytest.raises(SnapshotError):
        Session.restore(text)


def test_deeply_nested_json() -> None:
    with pytest.raises(SnapshotError):
        Session.restore("[" * 100_000)


def test_edited_balance_fails_the_checksum() -> None:
    obj = json.loads(SNAP)
    obj["state"]["balance"] += 1000
    with pytest.raises(SnapshotError, match="fails its checksum"):
        Session.restore(json.dumps(obj))


@pytest.mark.parametrize(
    ("mutate", "message"),
    [
        (lambda st: st.__setitem__("balance", st["balance"] + 1000), "does not match the round in play"),
        (lambda st: st["round"].__setitem__("choices", ["gamble", "purple"]), "do not replay"),
        (lambda st: st["round"].__setitem__("choices", ["collect"]), "already finished"),
        (lambda st: st.__setitem__("balance", -1), "non-negative integer"),
        (lambda st: st.__setitem__("rng", "x"), "non-negative integer"),
        (lambda st: st["history"][0].__setitem__("events", []), "does not match its replay"),
        (lambda st: st["history"][1].__setitem__("seed", st["history"][1]["seed"] ^ 1), "does not (match its )?replay"),
        (lambda st: st["history"][0]["events"][0].__setitem__("stake", str(DEFAULT.total)), "should be int"),
        (lambda st: st.__setitem__("settings", {SETTING: -1}), "inconsistent"),
        (lambda st: st.__setitem__("bet", {"lines": NO_LINES, "bet_per_line": DEFAULT.bet_per_line}), "inconsistent"),
        (lambda st: st.pop("history"), "inconsistent"),
        (lambda st: st.__setitem__("game", "no_such_game"), "inconsistent"),
        (lambda st: st.__setitem__("version", "9.9.9"), "version 9.9.9"),
    ],
)
def test_edited_and_resigned_state_is_refused(mutate: Callable[[dict[str, Any]], None], message: str) -> None:
    with pytest.raises(SnapshotError, match=message):
        Session.restore(resign(mutate))


def test_wrong_game() -> None:
    with pytest.raises(SnapshotError, match=f"belongs to {GAME_ID!r}, not 'lucky_sevens'"):
        Session.restore(SNAP, game="lucky_sevens")
    assert Session.restore(SNAP, game=GAME_ID, clock=clock).pending is not None


def test_unknown_format_version() -> None:
    obj = json.loads(SNAP)
    obj["format"] = "pyengine.session-x"
    with pytest.raises(SnapshotError, match=f"not a {SNAPSHOT_FORMAT} snapshot"):
        Session.restore(json.dumps(obj))


@pytest.mark.parametrize("old", ["pyengine.session/1", "pyengine.session/3"])
def test_another_format_version_is_refused_with_a_notice(old: str) -> None:
    """Format 2 renamed the hold-and-respin counts: a save of format 1 (or a later one) is
    refused with a notice that names both formats."""
    assert SNAPSHOT_FORMAT == "pyengine.session/2"
    obj = json.loads(SNAP)
    obj["format"] = old
    with pytest.raises(SnapshotError, match=f"another version of the game engine \\(format {old}; this version reads"):
        Session.restore(json.dumps(obj))


@pytest.mark.parametrize(
    ("field", "value"),
    [("win", 999_999), ("stake", 1), ("features", ["free_spins"]), ("balance_after", 10**9), ("choices", ["gamble"])],
)
def test_edited_history_record_is_refused(field: str, value: Any) -> None:
    def mutate(state: dict[str, Any]) -> None:
        state["history"][0][field] = value

    with pytest.raises(SnapshotError, match="history does not"):
        Session.restore(resign(mutate), clock=clock)


# -- events as JSON -------------------------------------------------------------------------------------
def _collect_events() -> list[Event]:
    """Real events of every type: a session's rounds, and the golden rounds of every
    registered game replayed (each game's kit, ``tests/games/<id>/__init__.py``, has golden rounds
    that reach every feature of the game)."""
    out: list[Event] = []
    s = new(seed=17)
    picker = Rng(5)
    for _ in range(30):
        out += play_round(s, picker)
    for game in game_ids():
        for case in kit(game).GOLDEN:
            text = golden_path(game, case.name).read_text()
            record = json.loads(text.partition("\n")[0])
            out += replay(**record)
    return out


@pytest.fixture(scope="module")
def real_events() -> list[Event]:
    return _collect_events()


def test_every_event_type_round_trips(real_events: list[Event]) -> None:
    assert {e.type for e in real_events} == set(EVENT_TYPES)
    for e in real_events:
        obj = e.to_json()
        assert event_from_json(obj) == e
        assert event_from_json(json.loads(json.dumps(obj))) == e
    assert events_from_json([e.to_json() for e in real_events]) == real_events


def _strategy(annotation: str) -> st.SearchStrategy[Any]:
    if annotation == "int":
        return st.integers()
    if annotation == "bool":
        return st.booleans()
    if annotation == "str":
        return st.text(max_size=8)
    if annotation in ("Position", "tuple[int, int]"):
        return st.tuples(st.integers(), st.integers())
    assert annotation.startswith("tuple["), annotation
    assert annotation.endswith(", ...]"), annotation
    inner = annotation[len("tuple[") : -len(", ...]")]
    return st.lists(_strategy(inner), max_size=4).map(tuple)


def _event_strategy(cls: type[Event]) -> st.SearchStrategy[Event]:
    return st.builds(cls, **{f.name: _strategy(str(f.type)) for f in fields(cls)})


@given(event=st.one_of([_event_strategy(cls) for cls in EVENT_TYPES.values()]))
@settings(max_examples=300, deadline=None)
def test_any_event_round_trips(event: Event) -> None:
    text = dumps([event])
    back = event_from_json(json.loads(text))
    assert back == event
    assert dumps([back]) == text


@pytest.mark.parametrize(
    "obj",
    [
        None,
        [],
        {"type": "nope"},
        {"type": "round_end", "win": 1},
        {"type": "round_end", "win": 1, "balance": 2, "extra": 3},
        {"type": "round_end", "win": "1", "balance": 2},
        {"type": "round_end", "win": True, "balance": 2},
        {"type": "free_spins_awarded", "count": 10, "total": 10, "retrigger": 0},
        {"type": "spin", "phase": "base", "stops": [1, "2"], "window": []},
        {"type": "line_win", "line": 1, "symbol": "A", "count": 3, "positions": [[0, 1, 2]], "multiplier": 5, "win": 5},
    ],
)
def test_bad_event_json(obj: Any) -> None:
    with pytest.raises(SnapshotError):
        event_from_json(obj)


def test_events_from_json_needs_a_list() -> None:
    with pytest.raises(SnapshotError, match="must be a list"):
        events_from_json({"type": "round_end"})
    assert events_from_json([]) == []


def test_decision_events_in_the_log(real_events: list[Event]) -> None:
    pending = [e for e in real_events if isinstance(e, DecisionPending)]
    made = [e for e in real_events if isinstance(e, ChoiceMade)]
    # Every kind of decision some registered game waits on (`describe()["decisions"]`).
    assert {e.kind for e in pending} == {d for g in game_ids() for d in get_game(g).describe()["decisions"]}
    assert len(made) == len(pending)
    assert all(isinstance(e, GambleCard) and e.card for e in real_events if e.type == "gamble_card")
