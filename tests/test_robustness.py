"""Bad input to the public API, and edited saves: every one is refused with a `pyengine.errors`
type and changes nothing, and whatever the engine accepts it can save and restore again.

The snapshot's checksum is an unkeyed hash, so a save can be edited and signed again; these
tests edit saves the way a player with the browser's developer tools could.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable
from functools import cache
from typing import Any

import pytest
from hypothesis import event, given, settings
from hypothesis import strategies as st

from pyengine.autoplay import Autoplay, AutoplayLimits
from pyengine.errors import BetError, EngineError, InsufficientFundsError, SnapshotError, UnknownGameError
from pyengine.events import JackpotWin, RoundEnd
from pyengine.games import GAME_IDS, game_ids, get_game
from pyengine.model import MAX_AMOUNT, MAX_BALANCE, MAX_SETTING, MAX_TIME_MS, Bet
from pyengine.replay import replay
from pyengine.session import HISTORY_SIZE, Session
from pyengine.snapshot import _checksum
from tests.games import a_game, all_of, decides, has_jackpot, has_mode, has_settings, lacks

NOW = 1_767_225_600.0  # 2026-01-01 00:00 UTC
HUGE = 10**5000

# The games these tests ask for (each the first registered game that has what it needs).
ANY = a_game()
"""A game for the checks every session makes whatever its game."""
SETTINGS_GAME = a_game(has_settings, "operator settings")
SETTINGS = get_game(SETTINGS_GAME).default_settings()
SETTING = next(iter(SETTINGS))
"""One of the operator settings' names."""
SETTING_NAMES = sorted({name for g in GAME_IDS for name in get_game(g).default_settings()})
"""Every shipped game's setting names (what a junk settings mapping may hold)."""
GAMBLE_GAME = a_game(decides("collect_or_gamble"), "a gamble")
NO_JACKPOT = a_game(lacks(has_jackpot), "no jackpot")
JACKPOT = a_game(has_jackpot, "a jackpot")
JACKPOT_AND_BUY = a_game(all_of(has_jackpot, has_mode("buy")), "a jackpot and a feature buy")
FEATURE_SAVE_GAME = a_game(
    all_of(decides("feature_start"), has_settings, lacks(has_jackpot), lacks(has_mode("buy"))),
    "a feature, operator settings, no jackpot and no feature buy",
)
"""The game of `pending_feature_save`: a save edited in every field a session of it has."""


def clock() -> float:
    return NOW


def session(game: str = ANY, **kw: Any) -> Session:
    return Session(game, seed=kw.pop("seed", 1), clock=clock, **kw)


def bet_words(game: str, bet: Bet) -> str:
    """What the game says of a bet it does not offer (up to the offered choices)."""
    with pytest.raises(BetError) as refused:
        get_game(game).bets.validate(bet)
    return str(refused.value).partition(";")[0]


def not_offered(offered: tuple[int, ...]) -> int:
    """The smallest positive value not in ``offered`` (one between the offered ones where there is a gap)."""
    return next(v for v in range(1, max(offered) + 2) if v not in offered)


def finish(s: Session) -> None:
    while (d := s.pending) is not None:
        s.choose(d.choices[0])


def resign(text: str, mutate: Callable[[dict[str, Any]], None]) -> str:
    """Edit a save's state and sign it again, as anyone can."""
    obj = json.loads(text)
    mutate(obj["state"])
    obj["checksum"] = _checksum(obj["state"])
    return json.dumps(obj)


def refused(s: Session, call: Callable[[], object], error: type[EngineError] = EngineError) -> EngineError:
    """``call`` raises ``error`` and leaves ``s`` exactly as it was."""
    before = s.snapshot()
    with pytest.raises(error) as info:
        call()
    assert s.snapshot() == before
    return info.value


def saves_again(s: Session) -> None:
    text = s.snapshot()
    assert Session.restore(text, clock=clock).snapshot() == text


def attempt(call: Callable[[], object]) -> tuple[object, Exception | None]:
    """Run ``call``: (its result, None), or (None, the exception it raised, of any kind)."""
    try:
        return call(), None
    except Exception as exc:  # the tests check which kind it is
        return None, exc


@cache
def waiting_seeds(game: str) -> tuple[int, ...]:
    """The first round seed that waits on each kind of decision the game's rounds wait on,
    asked of the game by playing the first round of seeds 0 to 2,999 (none for a game
    without decisions)."""
    found: dict[str, int] = {}
    for seed in range(3_000):
        s = Session(game, seed=0, clock=clock, balance=10**6)
        s.spin(seed=seed)
        if s.pending is not None:
            found.setdefault(s.pending.kind, seed)
    return tuple(sorted(found.values()))


@cache
def pending_seed(game: str, kind: str) -> int:
    """The first round seed whose round waits on a decision of ``kind``."""
    for seed in range(50_000):
        s = Session(game, seed=0, clock=clock, balance=10**6)
        s.spin(seed=seed)
        if s.pending is not None and s.pending.kind == kind:
            return seed
    raise AssertionError(f"no {kind} round found")


# -- the constructor -------------------------------------------------------------------------------------------
@pytest.mark.parametrize("game", [123, None, [ANY], ANY.encode(), object()])
def test_session_needs_a_game(game: Any) -> None:
    with pytest.raises(UnknownGameError, match="a game must be a game id"):
        Session(game)


@pytest.mark.parametrize("bet", [(9, 10), [9, 10], {"lines": 9, "bet_per_line": 10, "coins": 1}, "9x10", 90])
def test_session_bet_must_be_a_bet(bet: Any) -> None:
    with pytest.raises(BetError, match=r"a bet must be a Bet\(lines, bet_per_line\)"):
        Session(ANY, bet=bet)


@pytest.mark.parametrize(
    ("settings_", "message"),
    [
        ([(SETTING, 0)], "settings must be a mapping"),
        (f"{SETTING}=0", "settings must be a mapping"),
        (42, "settings must be a mapping"),
        ({1: 2}, "a setting's name must be a string"),
        *(({name: HUGE}, "must be at most") for name in SETTINGS),
        *(({name: MAX_SETTING + 1}, "must be at most") for name in SETTINGS),
    ],
)
def test_session_settings_are_checked(settings_: Any, message: str) -> None:
    with pytest.raises(EngineError, match=message):
        Session(SETTINGS_GAME, settings=settings_)


def _takes(name: str, value: int) -> bool:
    try:
        get_game(SETTINGS_GAME).validate_settings({name: value})
    except EngineError:
        return False
    return True


def test_the_largest_setting_saves() -> None:
    largest = {name: MAX_SETTING for name in SETTINGS if _takes(name, MAX_SETTING)}  # not the on/off ones
    assert largest
    s = session(SETTINGS_GAME, settings=largest)
    assert s.settings == SETTINGS | largest
    saves_again(s)


@pytest.mark.parametrize("balance", [MAX_BALANCE + 1, pytest.param(HUGE, id="10**5000"), -1, 1.0, True, None])
def test_session_balance_is_bounded(balance: Any) -> None:
    with pytest.raises(InsufficientFundsError, match="balance must be an integer of minor units from 0 to"):
        Session(ANY, balance=balance)


def test_the_largest_balance_saves() -> None:
    s = session(balance=MAX_BALANCE)
    s.spin()
    finish(s)
    saves_again(s)


@pytest.mark.parametrize("seed", [-1, 2**64, pytest.param(HUGE, id="10**5000"), "7", 7.0, True])
def test_session_seed_is_an_engine_error(seed: Any) -> None:
    with pytest.raises(EngineError, match="a session seed must be an integer from 0 to 2"):
        Session(ANY, seed=seed)


@pytest.mark.parametrize(("game", "clock_"), [(NO_JACKPOT, 123), (JACKPOT, 123), (JACKPOT, lambda: "now")])
def test_session_clock_is_checked(game: str, clock_: Any) -> None:
    with pytest.raises(EngineError, match="clock must"):
        Session(game, clock=clock_)


@pytest.mark.parametrize("reading", [float("inf"), float("nan"), -1.0, 1e300, MAX_TIME_MS / 1000 + 1])
def test_jackpot_clock_reading_is_bounded(reading: float) -> None:
    with pytest.raises(EngineError, match="clock must give seconds since the epoch"):
        Session(JACKPOT, clock=lambda: reading)


# -- between rounds and in a round -----------------------------------------------------------------------------
def test_top_up_is_bounded() -> None:
    s = session(balance=100_000)
    message = str(refused(s, lambda: s.add_funds(HUGE), InsufficientFundsError))
    assert f"top up at most {MAX_BALANCE - 100_000:_}" in message
    refused(s, lambda: s.add_funds(MAX_BALANCE - 100_000 + 1), InsufficientFundsError)
    assert s.add_funds(MAX_BALANCE - 100_000) == MAX_BALANCE
    refused(s, lambda: s.add_funds(1), InsufficientFundsError)
    saves_again(s)


BETS = get_game(ANY).bets
LINES, LEVEL = BETS.default.lines, BETS.default.bet_per_line
LEVELS_OFFERED = "choose one of " + ", ".join(BETS.format(v) for v in BETS.levels)
LINES_OFFERED = "choose one of " + ", ".join(map(str, BETS.lines))


@pytest.mark.parametrize(
    ("bet", "message"),
    [
        (Bet(LINES, HUGE), f"bet per line an integer of 16610 bits is not offered; {LEVELS_OFFERED}"),
        (Bet(HUGE, LEVEL), f"an integer of 16610 bits lines is not offered; {LINES_OFFERED}"),
        (Bet(LINES, 10**31), "bet per line an integer of 103 bits is not offered"),
        (Bet(LINES, 10**25), "bet per line 10000000000000000000000000 is not offered"),
        (Bet(LINES, 10**17), f"bet per line {BETS.format(10**17)} is not offered"),
        (Bet(HUGE, 10.0), "must be whole numbers, not an integer of 16610 bits, 10.0 and 1"),  # type: ignore[arg-type]
    ],
)
def test_set_bet_of_absurd_numbers(bet: Bet, message: str) -> None:
    s = session()
    err = refused(s, lambda: s.set_bet(bet), BetError)
    assert message in str(err)


@pytest.mark.parametrize("autoplay", [1, 0, "yes", None, 1.0])
def test_spin_autoplay_must_be_a_bool(autoplay: Any) -> None:
    s = session()
    refused(s, lambda: s.spin(autoplay=autoplay))
    s.spin(autoplay=True)
    finish(s)
    saves_again(s)
    last = s.last_round
    assert last is not None
    assert last.autoplay is True


@pytest.mark.parametrize(
    "call",
    [
        lambda s: s.spin(mode=HUGE),
        lambda s: s.spin(mode=["buy"]),
        lambda s: s.spin(seed=HUGE),
        lambda s: s.price(HUGE),
        lambda s: s.price(["buy"]),
        lambda s: s.choose(HUGE),
    ],
)
def test_absurd_values_give_engine_errors(call: Callable[[Session], object]) -> None:
    for game in game_ids():
        s = session(game)
        refused(s, lambda: call(s))  # noqa: B023


def test_absurd_choice_in_a_round() -> None:
    s = session(GAMBLE_GAME)
    s.spin(seed=pending_seed(GAMBLE_GAME, "collect_or_gamble"))
    err = refused(s, lambda: s.choose(HUGE))  # type: ignore[arg-type]
    assert "an integer of 16610 bits is not a choice for 'collect_or_gamble'" in str(err)


def test_autoplay_arguments_are_checked() -> None:
    with pytest.raises(EngineError, match="autoplay needs a Session"):
        Autoplay(ANY, AutoplayLimits(rounds=1))  # type: ignore[arg-type]
    with pytest.raises(EngineError, match="autoplay needs its AutoplayLimits"):
        Autoplay(session(), 5)  # type: ignore[arg-type]
    with pytest.raises(EngineError, match="stop_on_feature must be True or False"):
        AutoplayLimits(rounds=1, stop_on_feature=1)  # type: ignore[arg-type]


# -- replay ----------------------------------------------------------------------------------------------------
def replay_args(game: str) -> dict[str, Any]:
    """A replay's arguments at the game's default bet."""
    bet = get_game(game).bets.default
    return {"seed": 5, "lines": bet.lines, "bet_per_line": bet.bet_per_line}


@pytest.mark.parametrize(
    ("game", "kw", "message"),
    [
        (NO_JACKPOT, {"jackpot": -500}, "jackpot must be an integer from 0 to"),
        (NO_JACKPOT, {"jackpot": 500}, f"{get_game(NO_JACKPOT).name} has no jackpot"),
        (NO_JACKPOT, {"jackpot": True}, "jackpot must be an integer"),
        (JACKPOT, {"jackpot": -500}, "jackpot must be an integer from 0 to"),
        (JACKPOT, {"jackpot": MAX_AMOUNT + 1}, "jackpot must be an integer from 0 to"),
        (JACKPOT, {"jackpot": HUGE}, "jackpot must be an integer from 0 to"),
        (JACKPOT_AND_BUY, {"jackpot": 500, "mode": "buy"}, "mode 'buy' has none"),
        (ANY, {"choices": None}, "choices must be a list"),
        (ANY, {"choices": "collect"}, "choices must be a list"),
        (ANY, {"choices": 5}, "choices must be a list"),
        (ANY, {"choices": ["collect", 1]}, "every choice must be a string"),
        (ANY, {"autoplay": 1}, "autoplay must be True or False"),
        (ANY, {"seed": None}, "needs its seed"),
        (ANY, {"seed": 2**64}, "round seed must be an integer"),
        (ANY, {"bet_per_line": HUGE}, "is not offered"),
        (ANY, {"settings": [SETTING]}, "settings must be a mapping"),
        (ANY, {"balance": HUGE}, "balance must be an integer"),
        (123, {}, "a game must be a game id"),
    ],
)
def test_replay_arguments_are_checked(game: Any, kw: dict[str, Any], message: str) -> None:
    base = replay_args(game if isinstance(game, str) else ANY)
    with pytest.raises(EngineError, match=message):
        replay(game, **(base | kw))


def test_replay_of_a_jackpot_round() -> None:
    events = replay(JACKPOT, **replay_args(JACKPOT), jackpot=500)
    assert events[-2] == JackpotWin(500)
    assert isinstance(events[-1], RoundEnd)
    assert events[-1].win >= 500


# -- restore: the round in play as strictly as the history -----------------------------------------------------
SAVE_ROUNDS = 3
"""The rounds `pending_feature_save` plays before the round it leaves waiting."""


@cache
def pending_feature_save() -> str:
    """A game (with settings, no jackpot) waiting at the start of its feature (a decision
    restore leaves waiting), after `SAVE_ROUNDS` rounds."""
    s = session(FEATURE_SAVE_GAME, seed=3)
    for _ in range(SAVE_ROUNDS):
        s.spin()
        finish(s)
    s.spin(seed=pending_seed(FEATURE_SAVE_GAME, "feature_start"))
    return s.snapshot()


@cache
def jackpot_save() -> str:
    """A game with a jackpot after a jackpot drop and a few rounds."""
    now = [NOW]
    s = Session(JACKPOT, seed=2, clock=lambda: now[0])
    for i in range(4):
        now[0] = NOW + 3 * i
        s.spin()
        finish(s)
    assert s.jackpot is not None
    now[0] = s.jackpot.deadline_ms / 1000  # the deadline: this spin surely wins the pot
    s.spin()
    finish(s)
    last = s.last_round
    assert last is not None
    assert last.jackpot > 0
    s.spin()
    finish(s)
    return s.snapshot()


def test_the_saves_restore() -> None:
    for text in (pending_feature_save(), jackpot_save()):
        r = Session.restore(text, clock=clock)
        assert r.snapshot() == text


def _round_at_bet(st_: dict[str, Any], lines: int, level: int) -> None:
    # A round at a bet the game does not offer, its balances edited to add up.
    rd = st_["round"]
    stake = lines * level
    rd["bet"] = {"lines": lines, "bet_per_line": level, "coins": 1}
    rd["balance_before"] = st_["balance"] + stake


def _set(*path_and_value: Any) -> Callable[[dict[str, Any]], None]:
    """Set the value at a path (the last argument is the value)."""
    *path, value = path_and_value

    def mutate(st_: dict[str, Any]) -> None:
        obj = st_
        for key in path[:-1]:
            obj = obj[key]
        obj[path[-1]] = value

    return mutate


def _drop(*path: Any) -> Callable[[dict[str, Any]], None]:
    def mutate(st_: dict[str, Any]) -> None:
        obj = st_
        for key in path[:-1]:
            obj = obj[key]
        del obj[path[-1]]

    return mutate


# The feature save's game: its default bet, a bet per line it does not offer (between the
# offered ones), one above them all, a number of lines it does not offer; and its settings.
_BET = get_game(FEATURE_SAVE_GAME).bets.default
_LEVELS, _LINES = get_game(FEATURE_SAVE_GAME).bets.levels, get_game(FEATURE_SAVE_GAME).bets.lines
_LOW_LEVEL, _HIGH_LEVEL, _NO_LINES = not_offered(_LEVELS), max(_LEVELS) * 10, max(_LINES) + 1
_UNOFFERED_BET = {"lines": _BET.lines, "bet_per_line": _LOW_LEVEL, "coins": _BET.coins}
_SETTINGS = get_game(FEATURE_SAVE_GAME).default_settings()
_FIRST_SETTING, _LAST_SETTING = next(iter(_SETTINGS)), next(reversed(_SETTINGS))
_SOME_SETTINGS = {k: v for k, v in _SETTINGS.items() if k != _LAST_SETTING}
_MODES = ", ".join(get_game(FEATURE_SAVE_GAME).modes)


def _refused_bet(lines: int, level: int) -> str:
    return re.escape(bet_words(FEATURE_SAVE_GAME, Bet(lines, level, _BET.coins)))


FEATURE_SAVE_EDITS: list[tuple[Callable[[dict[str, Any]], None], str]] = [
    (lambda st_: _round_at_bet(st_, _BET.lines, _LOW_LEVEL), _refused_bet(_BET.lines, _LOW_LEVEL)),
    (lambda st_: _round_at_bet(st_, _BET.lines, _HIGH_LEVEL), _refused_bet(_BET.lines, _HIGH_LEVEL)),
    (lambda st_: _round_at_bet(st_, _NO_LINES, _BET.bet_per_line), _refused_bet(_NO_LINES, _BET.bet_per_line)),
    (_set("round", "seed", 2**64), "round seed must be a non-negative integer of at most"),
    (_set("round", "seed", 2**64 + 5), "round seed must be"),
    (_set("round", "time_ms", 10**400), "time must be a non-negative integer of at most"),
    (_set("round", "time_ms", MAX_TIME_MS + 1), "time must be"),
    (_set("round", "time_ms", 1e300), "time must be"),
    (_set("round", "autoplay", "yes"), "autoplay must be true or false"),
    (_set("round", "autoplay", 1), "autoplay must be true or false"),
    (_set("round", "index", 0), f"the round in play is round 0, but {SAVE_ROUNDS} were played"),
    (_set("round", "jackpot", 500), "won a jackpot that the saved jackpot did not pay"),
    (_set("round", "jackpot", -1), "jackpot must be a non-negative integer"),
    (_set("round", "mode", "buy"), f"the saved mode 'buy' is not one of {_MODES}"),
    (_set("round", "choices", "start"), "choices must be a list of strings"),
    (_set("round", "extra", 1), "unknown fields \\['extra'\\]"),
    (_drop("round", "seed"), "lacks \\['seed'\\]"),
    (_set("round", "bet", _BET.to_json() | {"total": _BET.total}), "unknown fields \\['total'\\]"),
    (_set("rng", 2**64), "seed stream must be"),
    (_set("balance", MAX_AMOUNT + 1), "balance must be"),
    (_set("rounds_played", 10**30), "count of rounds must be"),
    (_set("rounds_played", 2), "the saved history must hold the last 2 rounds"),
    (_set("settings", _SOME_SETTINGS), "the saved settings are not complete"),
    (_set("settings", _SETTINGS | {_LAST_SETTING: True}), "not whole numbers"),
    (_set("settings", _SETTINGS | {_FIRST_SETTING: HUGE // 10**4000}), "at most"),
    (_set("bet", _UNOFFERED_BET), "is not offered"),
    (_set("jackpot", {}), "the saved jackpot does not fit the game"),
    (_set("history", []), f"the saved history must hold the last {SAVE_ROUNDS} rounds"),
    (_set("extra", 1), "unknown fields \\['extra'\\]"),
    (_set("history", 0, "autoplay", 1), "autoplay must be true or false"),
    (_set("history", 0, "seed", 2**64), "round seed must be"),
    (_set("history", 0, "time_ms", 10**400), "time must be"),
    (_set("history", 0, "win", 10**400), "win must be"),
    (_set("history", 0, "index", 7), "out of order"),
    (_set("history", 0, "choices", [1]), "choices must be a list of strings"),
    (_set("history", 0, "features", "free_spins"), "features must be a list of strings"),
    (_set("history", 0, "bet", _UNOFFERED_BET), "is not offered"),
]


@pytest.mark.parametrize(("mutate", "message"), FEATURE_SAVE_EDITS)
def test_edited_feature_save_is_refused(mutate: Callable[[dict[str, Any]], None], message: str) -> None:
    text = resign(pending_feature_save(), mutate)
    t0 = time.process_time()  # this process's time: other processes on a busy machine do not count
    with pytest.raises(SnapshotError, match=message):
        Session.restore(text, clock=clock)
    assert time.process_time() - t0 < 1.0


def test_history_longer_than_kept_is_refused() -> None:
    s = session(seed=4)
    for _ in range(HISTORY_SIZE + 1):
        s.spin()
        finish(s)
    text = s.snapshot()
    extra = json.loads(text)["state"]["history"][0]
    extra["index"] = 0

    def mutate(st_: dict[str, Any]) -> None:
        st_["history"].insert(0, extra)

    with pytest.raises(SnapshotError, match=f"must hold the last {HISTORY_SIZE} rounds"):
        Session.restore(resign(text, mutate), clock=clock)


def test_a_jackpot_edited_into_the_history_of_a_game_without_one_is_refused() -> None:
    # A history record that replays consistently with a jackpot the game does not have.
    s = session(NO_JACKPOT, seed=6)
    s.spin()
    finish(s)
    probe = session(NO_JACKPOT, seed=0)
    probe.jackpot = session(JACKPOT).jackpot  # a pot, only to make the forged round
    record = s.history[0]
    events = probe._start_recorded(autoplay=False, seed=record.seed, mode="base", jackpot=500)
    assert s.pending is None
    forged = probe.history[0].to_json() | {"index": 0}

    def mutate(st_: dict[str, Any]) -> None:
        st_["history"][0] = forged

    assert any(isinstance(e, JackpotWin) for e in events)
    with pytest.raises(SnapshotError, match=f"{get_game(NO_JACKPOT).name} has no jackpot"):
        Session.restore(resign(s.snapshot(), mutate), clock=clock)


JACKPOT_EDITS: list[tuple[Callable[[dict[str, Any]], None], str]] = [
    (_set("jackpot", "pot", "1e5000"), "pot is not an amount"),
    (_set("jackpot", "pot", "1e1000000000"), "pot is not an amount"),
    (_set("jackpot", "pot", "9" * 5000), "pot is not an amount"),
    (_set("jackpot", "pot", "1/3"), "does not add up"),
    (_set("jackpot", "pot", "2/4"), "lowest terms"),
    (_set("jackpot", "pot", "-1"), "pot is not an amount"),
    (_set("jackpot", "pot", " 1"), "pot is not an amount"),
    (_set("jackpot", "pot", 1), "pot is not an amount"),
    (_set("jackpot", "contributed", "1e5000"), "contributed is not an amount"),
    (_set("jackpot", "contributed", "9999999999999999999"), "from 0 to"),
    (_set("jackpot", "paid", 10**400), "paid must be an integer from 0 to"),
    (_set("jackpot", "drops", 10**6), "dropped more often than rounds were played"),
    (_set("jackpot", "started_ms", 10**400), "started_ms must be an integer from 0 to"),
    (_set("jackpot", "deadline_ms", MAX_TIME_MS + 1), "deadline_ms must be an integer from 0 to"),
    (_set("jackpot", "deadline_ms", 0), "deadline is not the one its start gives"),
    (_set("jackpot", "started_ms", 0), "deadline is not the one its start gives"),
    (_set("jackpot", None), "does not fit the game"),
    (_set("history", 0, "jackpot", 10**400), "jackpot must be"),
]


@pytest.mark.parametrize(("mutate", "message"), JACKPOT_EDITS)
def test_edited_jackpot_save_is_refused(mutate: Callable[[dict[str, Any]], None], message: str) -> None:
    text = resign(jackpot_save(), mutate)
    t0 = time.process_time()  # this process's time: other processes on a busy machine do not count
    with pytest.raises(SnapshotError, match=message):
        Session.restore(text, clock=clock)
    assert time.process_time() - t0 < 1.0


def test_deeply_nested_value_in_a_signed_save() -> None:
    deep: Any = 0
    for _ in range(800):
        deep = [deep]
    with pytest.raises(SnapshotError):
        Session.restore(resign(pending_feature_save(), _set("settings", _FIRST_SETTING, deep)), clock=clock)


# -- the property: random calls and edited saves through the public API ----------------------------------------
_SMALL_JUNK = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-3, 3),
    st.sampled_from([2**64, 10**18, MAX_BALANCE + 1, -(10**30), 1.5, float("nan"), float("inf"), 0.0]),
    st.text(max_size=4),
    st.sampled_from(["1e5000", "1e1000000000", "5/0", "buy", "base", "collect", "red", "spin", "start"]),
    st.lists(st.integers(0, 3), max_size=2),
    st.dictionaries(st.sampled_from(["lines", "bet_per_line", *SETTING_NAMES, "x"]), st.integers(0, 12), max_size=2),
)
JUNK = st.one_of(_SMALL_JUNK, st.builds(pow, st.just(10), st.just(5000)))  # 10**5000, built when drawn
# Values an edited save may hold: JSON only (an integer past 4,300 digits cannot be written).
EDIT_VALUES = st.one_of(
    _SMALL_JUNK,
    st.sampled_from([10**400, 2**64 - 1, 2**63, MAX_AMOUNT, MAX_AMOUNT + 1, MAX_TIME_MS + 1, 1e300]),
    st.integers(0, 2**70),
)


class Clock:
    """A session clock the test moves on."""

    def __init__(self) -> None:
        self.now = NOW

    def __call__(self) -> float:
        return self.now


def _bet_value(data: st.DataObject, s: Session) -> Any:
    bets = s.game.bets
    lines = data.draw(st.one_of(st.sampled_from(bets.lines), st.integers(-1, 30), JUNK), label="lines")
    level = data.draw(st.one_of(st.sampled_from(bets.levels), st.integers(-1, 300), JUNK), label="level")
    return data.draw(st.one_of(st.just(Bet(lines, level)), JUNK), label="bet")


def _call(data: st.DataObject, s: Session, clk: Clock) -> Callable[[], object] | None:
    """One random call, valid or not; None for a clock move (not a call)."""
    op = data.draw(
        st.sampled_from(
            [*("spin", "choose") * 3, "buy", "set_bet", "step", "add_funds", "settle", "wait", "price", "autoplay"]
        ),
        label="op",
    )
    gid = s.game.id
    waiting = [st.sampled_from(waiting_seeds(gid))] if waiting_seeds(gid) else []
    seeds = st.one_of(st.none(), *waiting, st.integers(0, 2**64 - 1), JUNK)
    if op == "spin":
        autoplay = data.draw(st.one_of(st.sampled_from([False]), st.booleans(), JUNK), label="autoplay")
        seed = data.draw(seeds, label="seed")
        mode = data.draw(st.one_of(st.just("base"), st.sampled_from(["base", "buy"]), JUNK), label="mode")
        return lambda: s.spin(autoplay=autoplay, seed=seed, mode=mode)
    if op == "buy":
        seed = data.draw(seeds, label="seed")
        return lambda: s.buy(seed=seed)
    if op == "choose":
        offered = list(s.pending.choices) if s.pending is not None else ["collect"]
        choice = data.draw(st.one_of(st.sampled_from(offered), st.sampled_from(offered), JUNK), label="choice")
        return lambda: s.choose(choice)
    if op == "set_bet":
        bet = _bet_value(data, s)
        return lambda: s.set_bet(bet)
    if op == "step":
        name = data.draw(st.sampled_from(["lines_up", "lines_down", "bet_up", "bet_down", "bet_max"]), label="step")
        return getattr(s, name)  # type: ignore[no-any-return]
    if op == "add_funds":
        amount = data.draw(st.one_of(st.integers(1, 10**6), st.integers(MAX_BALANCE - 10**6, MAX_BALANCE), JUNK))
        return lambda: s.add_funds(amount)
    if op == "price":
        mode = data.draw(st.one_of(st.sampled_from(["base", "buy"]), JUNK), label="mode")
        return lambda: s.price(mode)
    if op == "autoplay":
        rounds = data.draw(st.one_of(st.integers(1, 3), JUNK), label="rounds")
        limit = data.draw(st.one_of(st.none(), st.integers(1, 500), JUNK), label="single_win_limit")
        return lambda: Autoplay(s, AutoplayLimits(rounds=rounds, single_win_limit=limit)).run()
    if op == "settle":
        return s.settle
    # A clock move: seconds, or past a jackpot's deadline.
    clk.now += data.draw(st.sampled_from([3, 60, 3_600, 2 * 86_400]), label="wait")
    return None


def _paths(obj: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every path to a value inside a JSON value."""
    out = [path] if path else []
    if isinstance(obj, dict):
        for k, v in obj.items():
            out += _paths(v, (*path, k))
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            out += _paths(v, (*path, i))
    return out


def _canonical(state: Any) -> str:
    return json.dumps(state, sort_keys=True, separators=(",", ":"))


def _with_defaults(state: dict[str, Any]) -> dict[str, Any]:
    """What a restored session saves for fields an older save may lack."""
    state.setdefault("jackpot", None)
    records = ([state["round"]] if isinstance(state.get("round"), dict) else []) + [
        r for r in state.get("history", []) if isinstance(r, dict)
    ]
    for r in records:
        r.setdefault("mode", "base")
        r.setdefault("jackpot", 0)
    return state


def _edit(data: st.DataObject, text: str) -> tuple[str, dict[str, Any]]:
    """An edited, signed-again copy of the save, and the state it holds."""
    state = json.loads(text)["state"]
    paths = _paths(state)
    # Mostly the session's own fields and the round in play; sometimes anywhere (an event).
    near = [p for p in paths if len(p) <= 2 or p[0] in ("round", "jackpot") or (p[0] == "history" and len(p) <= 3)]
    path = data.draw(st.one_of(st.sampled_from(near), st.sampled_from(paths)), label="path")
    parent = state
    for key in path[:-1]:
        parent = parent[key]
    kind = data.draw(st.sampled_from(["set", "set", "set", "nudge", "delete", "add"]), label="edit")
    old = parent[path[-1]]
    if kind == "nudge" and type(old) is int:
        parent[path[-1]] = old + data.draw(st.sampled_from([-1, 1, 90, 2**64, -(2**64)]), label="by")
    elif kind == "delete" and isinstance(parent, dict):
        del parent[path[-1]]
    elif kind == "add" and isinstance(old, dict):
        old[data.draw(st.sampled_from(["extra", "mode", "jackpot", "total"]), label="key")] = data.draw(EDIT_VALUES)
    elif kind == "add" and isinstance(old, list):
        old.append(data.draw(EDIT_VALUES, label="item"))
    else:
        parent[path[-1]] = data.draw(EDIT_VALUES, label="value")
    return json.dumps({"format": "pyengine.session/1", "state": state, "checksum": _checksum(state)}), state


def _restores_and_saves_again(text: str, state: dict[str, Any] | None, clk: Clock) -> str:
    """An accepted save restores; the restored session saves again as it was saved (unless
    restoring collected or settled the round in play), and that save is a fixed point.
    Returns what happened, for hypothesis' statistics."""
    r, exc = attempt(lambda: Session.restore(text, clock=clk))
    if exc is not None:
        assert isinstance(exc, SnapshotError), repr(exc)
        assert state is not None, f"the engine's own save is refused: {exc}"
        return "refused"
    assert isinstance(r, Session)
    again = r.snapshot()
    saved = _with_defaults(state if state is not None else json.loads(text)["state"])
    outcome = "accepted, round collected on restore"
    if saved["round"] is None or r.in_round:
        assert _canonical(json.loads(again)["state"]) == _canonical(saved)
        outcome = "accepted, saves again identically" + (" (in a round)" if r.in_round else "")
    assert Session.restore(again, clock=clk).snapshot() == again
    return outcome


@given(game=st.sampled_from(GAME_IDS), seed=st.integers(0, 2**64 - 1), data=st.data())
@settings(max_examples=250, deadline=None)
def test_random_calls_and_edited_saves(game: str, seed: int, data: st.DataObject) -> None:
    clk = Clock()
    balance = data.draw(st.sampled_from([0, 150, 100_000, 100_000, 100_000, MAX_BALANCE]), label="balance")
    s = Session(game, seed=seed, clock=clk, balance=balance)
    waiting = waiting_seeds(game)
    if waiting and balance >= 100_000 and data.draw(st.booleans(), label="start in a round?"):
        s.spin(seed=data.draw(st.sampled_from(waiting), label="a round that waits"))
    for _ in range(data.draw(st.integers(4, 14), label="steps")):
        if data.draw(st.integers(0, 4), label="edit?") == 0:
            text, state = _edit(data, s.snapshot())
            event("edited save: " + _restores_and_saves_again(text, state, clk))
            continue
        call = _call(data, s, clk)
        if call is None:
            continue
        before = s.snapshot()
        _, exc = attempt(call)
        if exc is not None:
            assert isinstance(exc, EngineError), repr(exc)
            assert s.snapshot() == before, f"{exc} changed the session"
            event("call refused")
        else:
            event("call accepted" + (", in a round" if s.in_round else ""))
            _restores_and_saves_again(s.snapshot(), None, clk)


@given(
    game=st.one_of(st.sampled_from(GAME_IDS), JUNK),
    balance=st.one_of(st.integers(0, MAX_BALANCE), JUNK),
    seed=st.one_of(st.none(), st.integers(0, 2**64 - 1), JUNK),
    settings_=st.one_of(
        st.none(),
        st.fixed_dictionaries({}, optional={name: st.one_of(st.integers(0, 10**13), JUNK) for name in SETTING_NAMES}),
        JUNK,
    ),
    bet=st.one_of(st.none(), st.builds(Bet, st.integers(0, 25), st.sampled_from([1, 5, 10, 3, 250])), JUNK),
)
@settings(max_examples=150, deadline=None)
def test_random_sessions(game: Any, balance: Any, seed: Any, settings_: Any, bet: Any) -> None:
    s, exc = attempt(lambda: Session(game, balance=balance, seed=seed, settings=settings_, bet=bet, clock=clock))
    if exc is not None:
        assert isinstance(exc, EngineError), repr(exc)
        return
    assert isinstance(s, Session)
    if s.balance >= s.bet.total:
        s.spin()
    finish(s)
    saves_again(s)


@given(
    game=st.sampled_from(GAME_IDS),
    seed=st.one_of(st.integers(0, 2**64 - 1), JUNK),
    bet_per_line=st.one_of(st.sampled_from([5, 10]), JUNK),
    choices=st.one_of(st.lists(st.sampled_from(["collect", "start", "spin", "gamble", "red"]), max_size=3), JUNK),
    mode=st.one_of(st.sampled_from(["base", "buy"]), JUNK),
    jackpot=st.one_of(st.integers(0, 10**6), JUNK),
    autoplay=st.one_of(st.booleans(), JUNK),
)
@settings(max_examples=150, deadline=None)
def test_random_replays(
    game: str, seed: Any, bet_per_line: Any, choices: Any, mode: Any, jackpot: Any, autoplay: Any
) -> None:
    lines = max(get_game(game).bets.lines)
    events, exc = attempt(
        lambda: replay(
            game,
            seed=seed,
            lines=lines,
            bet_per_line=bet_per_line,
            choices=choices,
            mode=mode,
            jackpot=jackpot,
            autoplay=autoplay,
        )
    )
    if exc is not None:
        assert isinstance(exc, EngineError), repr(exc)
        return
    assert isinstance(events, list)
    end = events[-1]
    assert isinstance(end, RoundEnd)
    assert end.win >= 0


def test_a_save_nested_thousands_deep_is_refused_unread() -> None:
    """In the browser a parser recursing 5,000 levels exhausts the stack before Python can
    raise: the depth is read first, and such a save is refused as corrupt."""
    from pyengine.values import json_depth

    deep = "[" * 5000 + "]" * 5000
    assert json_depth(deep) == 5000
    assert json_depth('{"a": "[[[[", "b": [1, {"c": "\\"]]"}]}') == 3
    with pytest.raises(SnapshotError, match="nests deeper than 32 levels"):
        Session.restore(deep)
    nested_state = '{"format": "pyengine.session/2", "state": ' + "[" * 40 + "]" * 40 + ', "checksum": ""}'
    with pytest.raises(SnapshotError, match="nests deeper"):
        Session.restore(nested_state)
