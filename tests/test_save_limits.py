"""What a hostile save or a doctored record costs, asked of every registered game.

A save comes from localStorage, a record from a link or a file: both can hold anything.
`Session.restore` reads at most `MAX_SNAPSHOT_CHARS` characters, in time linear in the text's
length (measured against restoring a real save in the same test, never as an absolute time);
every entry that takes a bet refuses one the game does not offer with the same words; a
replay with any field of a real record made invalid raises a `pyengine.errors` type.
"""

from __future__ import annotations

import contextlib
import json
import time
from collections.abc import Callable
from typing import Any

import pytest

import pyengine.session as session_module
import pyengine.snapshot as snapshot_module
from pyengine import Bet, Session
from pyengine.errors import BetError, EngineError, OldVersionError, SnapshotError
from pyengine.games import game_ids, get_game
from pyengine.replay import replay
from pyengine.session import HISTORY_SIZE, MAX_SNAPSHOT_CHARS
from pyengine.snapshot import _checksum

GAMES = game_ids()


def _played(game: str, rounds: int, seed: int = 3) -> Session:
    s = Session(game, seed=seed, balance=10**9)
    for _ in range(rounds):
        s.spin()
        while s.pending is not None:
            s.choose(s.pending.choices[0])
    return s


def _cost(text: str, runs: int = 3) -> float:
    """The least processor time of ``runs`` restores of ``text`` (whatever each raises): the
    time this process computed, not what other processes on a busy machine took from it."""
    best = float("inf")
    for _ in range(runs):
        t0 = time.process_time()
        with contextlib.suppress(SnapshotError):
            Session.restore(text)
        best = min(best, time.process_time() - t0)
    return best


# Long texts that look like JSON, each family the shape of one way a parser or a pre-check
# could be slow: runs of escaped quotes in an unclosed string (the pattern that once took
# 15 s for 48,000 characters), a long string, a long flat list, an object of many keys.
CRAFTED: dict[str, Callable[[int], str]] = {
    "escaped quotes": lambda n: ('"' + '\\"' * n)[:n],
    "backslash and quote": lambda n: ('"\\' * n)[:n],
    "long string": lambda n: '{"format":"' + "x" * (n - 13) + '"}',
    "flat list": lambda n: "[" * 20 + ("1," * n)[: n - 41] + "1" + "]" * 20,
    "many keys": lambda n: ("{" + ",".join(f'"k{i}":{i}' for i in range(n // 6)))[: n - 1] + "}",
}


@pytest.mark.parametrize("family", list(CRAFTED))
def test_restore_time_grows_linearly_up_to_the_limit(family: str) -> None:
    real = _played(GAMES[0], HISTORY_SIZE + 2).snapshot()
    per_char_real = _cost(real, runs=5) / len(real)
    small, large = MAX_SNAPSHOT_CHARS // 64, MAX_SNAPSHOT_CHARS
    texts = {n: CRAFTED[family](n) for n in (small, large)}
    assert all(abs(len(t) - n) <= 2 for n, t in texts.items())
    costs = {n: _cost(t, runs=5) for n, t in texts.items()}
    # Linear: 64 times the text costs about 64 times the time (a quadratic step: 4,096 times;
    # the wide margin is for a busy machine, where a large text also suffers more from the
    # caches and from page faults, which count as this process's time).
    assert costs[large] / costs[small] < 64 * 8, costs
    # And no character of it costs more than a character of a real save, which is replayed.
    assert costs[large] / large < 2 * per_char_real, (costs, per_char_real)


def test_a_save_over_the_limit_is_refused_unread(monkeypatch: pytest.MonkeyPatch) -> None:
    def unread(*_args: Any, **_kw: Any) -> Any:
        raise AssertionError("a save over the limit was read")

    monkeypatch.setattr(snapshot_module, "json_depth", unread)
    monkeypatch.setattr(json, "loads", unread)  # the module the session reads saves with
    text = "[" + " " * MAX_SNAPSHOT_CHARS  # one character over
    with pytest.raises(SnapshotError, match="more than a session ever saves"):
        Session.restore(text)
    with pytest.raises(SnapshotError, match="JSON text"):
        Session.restore(b"{}")  # type: ignore[arg-type]


@pytest.mark.parametrize("game", GAMES)
def test_the_longest_history_is_left_out_oldest_first(game: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """A save never exceeds what restore reads: with a limit that a full history exceeds,
    `snapshot` leaves out the oldest rounds, says so, and the save restores and saves again
    byte for byte."""
    s = _played(game, HISTORY_SIZE + 1)
    full = s.snapshot()
    longest = max(len(json.dumps(r.to_json())) for r in s.history)
    monkeypatch.setattr(snapshot_module, "MAX_SNAPSHOT_CHARS", len(full) - longest // 2)
    text = s.snapshot()
    assert len(text) <= snapshot_module.MAX_SNAPSHOT_CHARS
    state = json.loads(text)["state"]
    assert state["left_out"] >= 1
    assert len(state["history"]) + state["left_out"] == HISTORY_SIZE
    assert [r["index"] for r in state["history"]] == [r.index for r in s.history][state["left_out"] :]
    back = Session.restore(text, game=game)
    assert back.snapshot() == text
    assert back.balance == s.balance
    # Claiming more rounds left out than the history lacks is refused.
    state["left_out"] += 1
    with pytest.raises(SnapshotError, match="history must hold"):
        Session.restore(_signed(state))


def _signed(state: dict[str, Any]) -> str:
    """``state`` saved as `Session.snapshot` saves it, its checksum made anew."""
    whole = {"format": session_module.SNAPSHOT_FORMAT, "state": state, "checksum": _checksum(state)}
    return json.dumps(whole, sort_keys=True, separators=(",", ":"))


def _not_offered(offered: tuple[int, ...]) -> int:
    return next(v for v in range(1, max(offered) + 2) if v not in offered)


def _unoffered_bet(game: str) -> Bet:
    bets = get_game(game).bets
    return Bet(bets.default.lines, _not_offered(bets.levels), bets.default.coins)


@pytest.mark.parametrize("game", GAMES)
def test_every_entry_refuses_a_bet_not_offered_with_the_same_words(game: str) -> None:
    bad = _unoffered_bet(game)
    with pytest.raises(BetError) as refused:
        get_game(game).bets.validate(bad)
    words = str(refused.value)
    s = Session(game, seed=1)
    before = s.snapshot()
    with pytest.raises(BetError) as by_set_bet:
        s.set_bet(bad)
    assert str(by_set_bet.value) == words
    assert s.snapshot() == before  # nothing changed
    with pytest.raises(BetError) as by_session:
        Session(game, bet=bad)
    assert str(by_session.value) == words
    with pytest.raises(BetError) as by_replay:
        replay(game, seed=1, lines=bad.lines, bet_per_line=bad.bet_per_line, coins=bad.coins)
    assert str(by_replay.value) == words
    state = json.loads(before)["state"]
    state["bet"]["bet_per_line"] = bad.bet_per_line
    with pytest.raises(SnapshotError) as by_restore:
        Session.restore(_signed(state))
    assert words in str(by_restore.value)


def _record(game: str) -> dict[str, Any]:
    """A real record of ``game``: a round that asked for a decision where one turns up."""
    s = Session(game, seed=5, balance=10**9)
    for _ in range(400):
        s.spin()
        asked = s.pending is not None
        while s.pending is not None:
            s.choose(s.pending.choices[0])
        if asked:
            break
    last = s.last_round
    assert last is not None
    return {
        "seed": last.seed,
        "lines": last.bet.lines,
        "bet_per_line": last.bet.bet_per_line,
        "coins": last.bet.coins,
        "choices": list(last.choices),
        "mode": last.mode,
        "balance": last.balance_before,
    }


def _invalid_fields(game: str, rec: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    bets = get_game(game).bets
    cases: list[tuple[str, dict[str, Any]]] = [
        ("bet per line not offered", {"bet_per_line": _not_offered(bets.levels)}),
        ("bet per line not a number", {"bet_per_line": "10"}),
        ("lines not offered", {"lines": _not_offered(bets.lines)}),
        ("lines a float", {"lines": float(rec["lines"])}),
        ("coins not offered", {"coins": _not_offered(bets.coins)}),
        ("seed negative", {"seed": -1}),
        ("seed too large", {"seed": 2**64}),
        ("seed a string", {"seed": str(rec["seed"])}),
        ("mode unknown", {"mode": "free"}),
        ("mode not a string", {"mode": None}),
        ("choices a string", {"choices": "first"}),
        ("a choice not a string", {"choices": [1]}),
        ("a choice too many", {"choices": [*rec["choices"], "start"]}),
    ]
    if rec["choices"]:
        cases.append(("a choice not offered", {"choices": ["nowhere", *rec["choices"][1:]]}))
        cases.append(("a choice too few", {"choices": rec["choices"][:-1]}))
    return cases


@pytest.mark.parametrize("game", GAMES)
def test_a_replay_with_any_field_made_invalid_is_refused(game: str) -> None:
    rec = _record(game)
    assert replay(game, **rec)[-1].type == "round_end"  # the record itself replays
    accepted = []
    for what, change in _invalid_fields(game, rec):
        try:
            replay(game, **{**rec, **change})
        except EngineError:
            continue
        accepted.append(what)
    assert accepted == [], f"{game}: replays with these fields made invalid were accepted"


@pytest.mark.parametrize("game", GAMES)
def test_a_save_of_another_version_keeps_its_balance_and_gives_back_an_unfinished_stake(game: str) -> None:
    """Another version's rounds cannot be replayed under these rules: the save is refused, but
    the error says what it held: its balance, with the stake of a round it left in play."""
    s = _played(game, 3)
    idle = json.loads(s.snapshot())["state"]
    idle["version"] = "0.0.1-old"
    with pytest.raises(OldVersionError) as refused:
        Session.restore(_signed(idle))
    assert (refused.value.balance, refused.value.refund) == (s.balance, 0)
    # A round left in play: its stake is given back.
    for seed in range(500):
        s2 = Session(game, seed=seed, balance=10**6)
        s2.spin()
        if s2.in_round:
            break
    else:
        pytest.skip(f"{game}: no round waits on the player")
    state = json.loads(s2.snapshot())["state"]
    state["version"] = "0.0.1-old"
    with pytest.raises(OldVersionError) as refused:
        Session.restore(_signed(state))
    assert refused.value.refund == state["round"]["balance_before"] - state["balance"] > 0
    assert refused.value.balance == state["round"]["balance_before"]
    assert isinstance(refused.value, SnapshotError)  # still a refused save for a caller that only knows that
