"""The shared pick feature: the board is placed before any choice, so every picking
strategy sees the same distribution of prizes (proved exhaustively over every distinct
board of the fixture game), and the session plays, saves and restores a pick."""

from __future__ import annotations

import itertools
import json
from collections import Counter
from fractions import Fraction
from math import factorial

import pytest

from pyengine.autoplay import Autoplay, AutoplayLimits
from pyengine.errors import ChoiceError, GameDataError
from pyengine.events import PickEnd, PickReveal, PickStart
from pyengine.features.pick import PICK, PickRules, play_board, shuffled
from pyengine.games import game_ids, get_game
from pyengine.model import Bet
from pyengine.replay import replay
from pyengine.rng import Rng, ScriptedRng
from pyengine.round import RoundContext
from pyengine.session import Session
from tests.pick_support import Strategy, distinct_boards, first, last
from tests.fixture_game.pick_fixture import PickFixture, bonus_value, bonus_win

FIXTURE = "pick_fixture"

def _adaptive(closed: tuple[str, ...], revealed: tuple[tuple[int, str], ...]) -> str:
    """Looks at what it saw: after a "+2" it jumps to the far end, else to the middle."""
    if revealed and revealed[-1][1] == "+2":
        return closed[-1]
    return closed[len(closed) // 2]


STRATEGIES: dict[str, Strategy] = {"first": first, "last": last, "adaptive": _adaptive}


def _game() -> PickFixture:
    game = get_game(FIXTURE)
    assert isinstance(game, PickFixture)
    return game


def _ctx(seed: int = 0) -> RoundContext:
    return RoundContext(Rng(seed), Bet(3, 5), {})


def _play(rules: PickRules, board: tuple[str, ...], strategy: Strategy) -> tuple[str, ...]:
    gen = play_board(_ctx(), rules, board)
    decision = next(gen)
    try:
        while True:
            assert decision.kind == PICK
            decision = gen.send(strategy(decision.choices, decision.revealed))
    except StopIteration as stop:
        return tuple(stop.value.picked)


def test_every_strategy_gives_the_same_outcomes_over_every_board() -> None:
    """55,440 distinct boards (2 stop, 6 "+1", 3 "+2", 1 "x+1"), each as likely as the
    others: three strategies, one of them adaptive, pick the same multiset of prizes
    equally often, and the mean bonus is the closed form's 6x."""
    rules = _game().board
    counts = Counter(rules.prizes)
    expected = factorial(len(rules.prizes))
    for c in counts.values():
        expected //= factorial(c)
    outcomes: dict[str, Counter[tuple[str, ...]]] = {name: Counter() for name in STRATEGIES}
    boards = 0
    for board in distinct_boards(rules.prizes):
        boards += 1
        for name, strategy in STRATEGIES.items():
            outcomes[name][tuple(sorted(_play(rules, board, strategy)))] += 1
    assert boards == expected == 55_440
    assert outcomes["first"] == outcomes["last"] == outcomes["adaptive"]
    mean = Fraction(sum(bonus_win(k) * n for k, n in outcomes["first"].items()), boards)
    assert mean == bonus_value(_game()) == 6


def test_the_shuffle_is_uniform() -> None:
    """Every sequence of draws of a 4-cell shuffle gives a different order: all 24, once each."""
    orders: Counter[tuple[str, ...]] = Counter()
    for draws in itertools.product(range(4), range(3), range(2)):
        ctx = RoundContext(ScriptedRng([*draws]), Bet(3, 5), {})
        orders[shuffled(("a", "b", "c", "d"), ctx)] += 1
    assert len(orders) == 24
    assert set(orders.values()) == {1}


def test_a_pick_emits_its_board_reveals_and_the_unpicked_cells() -> None:
    rules = PickRules("t", ("stop", "+1", "+2", "stop"), 2, frozenset({"stop"}))
    ctx = _ctx()
    gen = play_board(ctx, rules, ("+1", "stop", "+2", "stop"))
    d = next(gen)
    assert (d.kind, d.choices, d.revealed) == (PICK, ("0", "1", "2", "3"), ())
    d = gen.send("2")
    assert (d.choices, d.revealed) == (("0", "1", "3"), ((2, "+2"),))
    with pytest.raises(StopIteration) as stop:
        gen.send("3")
    assert stop.value.value.picked == ("+2", "stop")
    assert ctx.events == [
        PickStart("t", 4, 2, ("", "", "", "")),
        PickReveal("t", 2, "+2"),
        PickReveal("t", 3, "stop"),
        PickEnd("t", (0, 1), ("+1", "stop")),
    ]


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"prizes": ()}, "prizes"),
        ({"columns": 0}, "columns"),
        ({"picks": 5}, "picks"),
        ({"stoppers": frozenset()}, "stoppers"),
        ({"faces": ("a",)}, "faces"),
    ],
)
def test_bad_pick_rules_name_the_field(kwargs: dict[str, object], field: str) -> None:
    base: dict[str, object] = {"name": "t", "prizes": ("stop", "+1"), "columns": 2, "stoppers": frozenset({"stop"})}
    with pytest.raises(GameDataError, match=f"field '{field}'"):
        PickRules(**(base | kwargs))  # type: ignore[arg-type]


# -- through the session -------------------------------------------------------------------------
def _feature_seed() -> int:
    for seed in range(5_000):
        s = Session(FIXTURE, seed=0)
        s.spin(seed=seed)
        if s.pending is not None:
            return seed
    raise AssertionError("no fixture seed triggers the bonus")


def _to_board(s: Session) -> None:
    s.choose("start")
    assert s.pending is not None
    assert s.pending.kind == PICK
    s.choose(s.pending.choices[1])  # the charm: an open choice of 3


def test_the_fixture_is_registered_but_not_shipped() -> None:
    assert FIXTURE in game_ids()
    from pyengine.games import GAME_IDS

    assert FIXTURE not in GAME_IDS


def test_a_picked_cell_cannot_be_picked_again_and_nothing_changes() -> None:
    s = Session(FIXTURE, seed=3)
    s.spin(seed=_feature_seed())
    _to_board(s)
    d = s.pending
    assert d is not None
    opened = d.choices[0]
    s.choose(opened)
    if s.pending is None:
        pytest.skip("the first cell stopped the pick")
    before = s.snapshot()
    for bad in (opened, "12", "-1", "x", ""):
        with pytest.raises(ChoiceError):
            s.choose(bad)
        assert s.snapshot() == before


def test_a_reload_mid_pick_brings_back_the_same_board() -> None:
    """Restored from its snapshot, the round waits on the same cells with the same reveals,
    and ends exactly as the unsaved one."""
    seed = _feature_seed()
    s = Session(FIXTURE, seed=3)
    s.spin(seed=seed)
    _to_board(s)
    while s.pending is not None and len(s.pending.revealed) < 2:
        s.choose(s.pending.choices[-1])
    if s.pending is None:
        pytest.skip("the pick ended before two reveals")
    saved = s.snapshot()
    back = Session.restore(saved)
    assert back.pending == s.pending
    assert back.pending is not None
    assert back.pending.revealed == s.pending.revealed
    assert back.round_events == s.round_events
    assert back.snapshot() == saved
    while s.pending is not None:
        choice = s.pending.choices[0]
        s.choose(choice)
        back.choose(choice)
    assert back.last_round == s.last_round
    end = [e for e in s.last_round.events if isinstance(e, PickEnd)] if s.last_round else []
    assert [e.name for e in end] == ["charm", "board"]
    board_end = end[1]
    revealed = [e for e in s.last_round.events if isinstance(e, PickReveal) and e.name == "board"]
    assert sorted([*board_end.cells, *(e.cell for e in revealed)]) == list(range(12))


def test_autoplay_answers_picks_and_can_stop_on_the_feature() -> None:
    seed = _feature_seed()
    s = Session(FIXTURE, balance=10**6, seed=0)
    ap = Autoplay(s, AutoplayLimits(rounds=1, stop_on_feature=False))
    s._seeds = [seed]  # the next round is the feature round
    events = ap.step()
    assert s.pending is None
    assert any(isinstance(e, PickEnd) for e in events)
    s2 = Session(FIXTURE, balance=10**6, seed=0)
    s2._seeds = [seed]
    ap2 = Autoplay(s2, AutoplayLimits(rounds=5, stop_on_feature=True))
    ap2.step()
    assert s2.pending is not None
    assert s2.pending.kind == "feature_start"


def test_a_pick_round_replays_from_its_record() -> None:
    seed = _feature_seed()
    s = Session(FIXTURE, seed=0)
    s.spin(seed=seed)
    while s.pending is not None:
        s.choose(s.pending.choices[-1])
    last = s.last_round
    assert last is not None
    again = replay(FIXTURE, seed=seed, lines=3, bet_per_line=5, choices=last.choices)
    assert tuple(again) == last.events
    assert json.dumps([e.to_json() for e in again]) == json.dumps([e.to_json() for e in last.events])


def test_pick_rules_read_themselves_from_the_data() -> None:
    """The fixture's two picks come from its data file, errors naming the field."""
    from pyengine.data import parse_data

    game = _game()
    assert game.board.prizes.count("stop") == 2
    assert game.board.stoppers == frozenset({"stop"})
    assert game.charm.faces == ("RED", "GREEN", "BLUE")
    assert game.charm.picks == 1
    bad = parse_data("x.json", json.dumps({"pick": {"columns": 4, "board": {"+1": 3}, "stoppers": ["stop"]}}))
    with pytest.raises(GameDataError, match=r"x.json: field 'pick.stoppers': \['stop'\] are not on the board"):
        PickRules.from_field("board", bad.get("pick"))
    bad = parse_data("x.json", json.dumps({"pick": {"columns": 9, "board": {"+1": 3}, "picks": 1}}))
    with pytest.raises(GameDataError, match=r"x\.json: field 'pick': must be 1 to 3, not 9"):
        PickRules.from_field("board", bad.get("pick"))
