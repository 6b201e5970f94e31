"""Full Moon Fever's rules: the logo wild that pays only with other symbols and stays off
reel 5, the Haunted House, the pet chosen as an extra wild, and the Winfalls cascade ladder
in play through the game's own code and through `Session`."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest

from pyengine.data import load_lines_game, parse_data, read_data_file
from pyengine.errors import GameDataError
from pyengine.events import Cascade, Event, FreeSpinsAwarded, LineWin, PickStart, ScatterWin, Spin, WinMultiplier
from pyengine.games import get_game
from pyengine.games.full_moon_fever import FullMoonFever
from pyengine.model import Bet
from pyengine.rng import Rng
from pyengine.round import RoundContext
from pyengine.session import Session

GAME = get_game("full_moon_fever")
assert isinstance(GAME, FullMoonFever)
G: FullMoonFever = GAME
BET = Bet(25, 2)


def _data(edit: Callable[[dict[str, object]], None]) -> FullMoonFever:
    raw = json.loads(json.dumps(read_data_file("full_moon_fever.json").value))
    edit(raw)
    return FullMoonFever(load_lines_game(parse_data("full_moon_fever.json", json.dumps(raw))))


@pytest.mark.parametrize(
    ("symbols", "expected"),
    [
        (("WILD", "WILD", "WILD", "WILD", "HOUSE"), None),  # wilds alone pay nothing
        (("WILD", "WILD", "WILD", "HOUSE", "A"), None),
        (("WILD", "WILD", "A", "K", "Q"), ("A", 3, 15)),
        (("WILD", "WILD", "WILD", "WILD", "TEN"), ("TEN", 5, 75)),
        (("GRANNY", "WILD", "K", "K", "K"), ("GRANNY", 2, 10)),
        (("WILD", "HOUSE", "HOUSE", "HOUSE", "A"), None),  # the logo never stands in for the House
        (("WOLF", "A", "A", "A", "A"), None),  # the pet's alter ego is no wild in the base game
    ],
)
def test_base_lines(symbols: tuple[str, ...], expected: tuple[str, int, int] | None) -> None:
    assert G.lines.evaluate_symbols(symbols) == expected


def test_a_window_of_wilds_alone_pays_nothing_on_any_line() -> None:
    window = (("WILD",) * 3, ("WILD",) * 3, ("WILD",) * 3, ("WILD",) * 3, ("HOUSE", "HOUSE", "HOUSE"))
    assert G.lines.evaluate(window, 25) == []
    window = (("WILD",) * 3, ("WILD",) * 3, ("WILD",) * 3, ("WILD",) * 3, ("J", "J", "J"))
    wins = G.lines.evaluate(window, 25)
    assert len(wins) == 25
    assert {(w.symbol, w.count, w.multiplier) for w in wins} == {("J", 5, 100)}


@pytest.mark.parametrize("pet", ["DOG", "CAT", "PARROT", "HAMSTER"])
def test_the_chosen_pet_is_an_extra_wild_in_winfalls(pet: str) -> None:
    ego = G.winfalls.alter_egos[pet]
    lines = G.free_lines[pet]
    assert lines.evaluate_symbols((ego, "GRANNY", ego, "WILD", "K")) == ("GRANNY", 4, 100)
    assert lines.evaluate_symbols((ego, ego, "WILD", ego, ego)) is None  # wilds alone pay nothing
    assert lines.evaluate_symbols(("A", ego, "A", "K", "K")) == ("A", 3, 6)  # the Winfalls paytable
    others = [e for p, e in G.winfalls.alter_egos.items() if p != pet]
    assert lines.evaluate_symbols((others[0], "A", "A", "A", "Q")) is None


def test_every_pet_plays_the_same_strips_up_to_one_name() -> None:
    free = G.data.reels["free"].strips
    for pet, ego in G.winfalls.alter_egos.items():
        strips = G.free_reels[pet].strips
        assert strips == tuple(tuple(ego if s == "PET" else s for s in strip) for strip in free)
        assert sum(strip.count(ego) for strip in strips) == sum(strip.count("PET") for strip in free) > 0


def test_the_logo_is_on_reels_1_to_4_only() -> None:
    for reels in (G.base_reels, G.data.reels["free"]):
        assert all("WILD" in strip for strip in reels.strips[:4])
        assert "WILD" not in reels.strips[4]
    assert all("HOUSE" not in strip for strip in G.data.reels["free"].strips)

    def wild_on_reel_5(raw: dict[str, object]) -> None:
        raw["reels"]["base"][4][3] = "WILD"  # type: ignore[index]

    with pytest.raises(GameDataError, match=r"full_moon_fever.json: field 'reels.base\[4\]\[3\]'.*reel 5"):
        _data(wild_on_reel_5)


@pytest.mark.parametrize(
    ("edit", "field"),
    [
        (lambda r: r["winfalls"]["spins"].update({"51": 1}), r"winfalls.spins.51"),
        (lambda r: r["winfalls"]["alter_egos"].pop("CAT"), r"winfalls.alter_egos"),
        (lambda r: r["winfalls"]["paytable"].pop("TEN"), r"winfalls.paytable"),
        (lambda r: r["winfalls"]["pets"].update({"picks": 2}), r"winfalls.pets"),
        (lambda r: r.update({"wild_pays_as": "GRANNY"}), r"wild_pays_as"),
    ],
)
def test_bad_data_names_the_field(edit: Callable[[dict[str, object]], None], field: str) -> None:
    with pytest.raises(GameDataError, match=rf"full_moon_fever.json: field '{field}"):
        _data(edit)


def _play(seed: int, pet: str = "0") -> tuple[list[Event], int]:
    ctx = RoundContext(Rng(seed), BET, {})
    process = G.play(ctx)
    try:
        decision = next(process)
        while True:
            decision = process.send(pet if decision.kind == "pick" else decision.choices[0])
    except StopIteration:
        pass
    return ctx.events, ctx.win


def _feature_seed(check: Callable[[list[Event]], bool]) -> int:
    for seed in range(20_000):
        ctx = RoundContext(Rng(seed), BET, {})
        process = G.play(ctx)
        try:
            next(process)
        except StopIteration:
            continue
        events, _ = _play(seed)
        if check(events):
            return seed
    raise AssertionError("no such round")


def test_the_cascade_ladder_in_play() -> None:
    def deep(events: list[Event]) -> bool:
        return any(isinstance(e, Cascade) and e.number >= 6 for e in events)

    seed = _feature_seed(deep)
    events, win = _play(seed)
    assert any(isinstance(e, PickStart) and e.name == "pet" and e.faces == G.winfalls.pets.prizes for e in events)
    spins = [i for i, e in enumerate(events) if isinstance(e, Spin) and e.phase == "free"]
    awarded = next(e for e in events if isinstance(e, FreeSpinsAwarded))
    assert len(spins) == awarded.count <= 50
    total = sum(e.win for e in events if isinstance(e, (LineWin, ScatterWin)))
    assert total == win
    seen_five = False
    for start, end in zip(spins, [*spins[1:], len(events)], strict=True):
        multiplier = 0  # unset at the start of every free spin
        windows = 0
        for e in events[start:end]:
            if isinstance(e, WinMultiplier):
                assert e.multiplier == multiplier + 1 <= 5
                multiplier = e.multiplier
            elif isinstance(e, LineWin):
                assert multiplier >= 1
                assert e.win == e.multiplier * BET.bet_per_line * multiplier
            elif isinstance(e, Cascade):
                windows += 1
        # one winning window per cascade; the multiplier is the window number, at most x5
        assert multiplier == min(windows, 5)
        seen_five |= windows >= 6
    assert seen_five


def test_the_pet_choice_shows_in_the_free_spin_windows() -> None:
    seed = _feature_seed(lambda evs: any(isinstance(e, FreeSpinsAwarded) for e in evs))
    for cell, pet in enumerate(G.winfalls.pets.prizes):
        events, _ = _play(seed, str(cell))
        ego = G.winfalls.alter_egos[pet]
        shown = {s for e in events if isinstance(e, Spin) and e.phase == "free" for col in e.window for s in col}
        others = set(G.winfalls.alter_egos.values()) - {ego}
        assert not shown & others
        assert "PET" not in shown


def test_a_feature_through_the_session() -> None:
    s = Session("full_moon_fever", balance=10**7, seed=0)
    assert s.bet == BET
    seed = _feature_seed(lambda evs: any(isinstance(e, FreeSpinsAwarded) for e in evs))
    before = s.balance
    s.spin(seed=seed)
    kinds = []
    while (d := s.pending) is not None:
        kinds.append(d.kind)
        if d.kind == "feature_start":
            assert d.feature
        s.choose(d.choices[-1])
    assert kinds[:2] == ["feature_start", "pick"]
    assert set(kinds[2:]) == {"free_spin"}
    _, win = _play(seed, pet=str(len(G.winfalls.pets.prizes) - 1))
    assert s.balance == before - BET.total + win
    assert win > 0


def test_max_bet_and_bets() -> None:
    assert G.bets.lines == (25,)
    assert max(G.bets.levels) == 5000
    assert G.bets.default.total == 50
