"""The shared pick overlay in CPython, on the tests' fixture game: the board from the
events, a pick by click/tap, by digit keys and by arrows + Enter, the reveals, the
unpicked cells shown at the end, a reload mid-pick, autoplay answering picks."""

from __future__ import annotations

import functools

import pytest

from pyengine import events as ev
from pyengine.autoplay import AutoplayLimits
from pyengine.session import Session
from slotui.controller import Controller
from slotui.keys import action_for_key
from slotui.pick import PickOverlay, board
from tests.client_support import Rig, idle, make_rig, restore_rig

FIXTURE = "pick_fixture"


@functools.cache
def bonus_seed() -> int:
    """The first session seed whose first round starts the pick bonus."""
    for seed in range(20_000):
        s = Session(FIXTURE, seed=seed)
        s.spin()
        if s.pending is not None:
            return seed
    raise AssertionError("no fixture seed starts the bonus")


def rig(**kw: object) -> Rig:
    return make_rig(bonus_seed(), game=FIXTURE, **kw)  # type: ignore[arg-type]


def to_pick(r: Rig) -> PickOverlay:
    """Spin, start the bonus, wait until the board takes a pick."""
    r.press("spin")
    r.until(lambda c: idle(c) and c.pending_kind == "feature_start")
    r.press("start_feature")
    r.until(lambda c: idle(c) and c.context() == "pick")
    overlay = board(r.controller)
    assert overlay is not None
    assert overlay.waiting
    return overlay


def center(r: Rig, overlay: PickOverlay, cell: int) -> tuple[float, float]:
    x0, y0, size, gap = overlay.geometry(r.layout)
    row, col = divmod(cell, overlay.columns)
    return x0 + col * (size + gap) + size / 2, y0 + row * (size + gap) + size / 2


def revealed(c: Controller) -> list[int]:
    """The cells opened in the round in play (or the last one, once it has ended)."""
    s = c.session
    events = s.round_events if s.in_round else (s.last_round.events if s.last_round else ())
    return [e.cell for e in events if isinstance(e, ev.PickReveal)]


def test_the_charm_board_shows_its_faces_and_a_tap_picks() -> None:
    r = rig()
    overlay = to_pick(r)
    assert overlay.name == "charm"
    assert [cell.face for cell in overlay.cells] == ["RED", "GREEN", "BLUE"]
    assert r.host.state == "feature"
    assert not r.host.controls.buttons["spin"].enabled
    r.run(50)
    assert "CHOOSE A CHARM" in r.canvas.texts()
    x, y = center(r, overlay, 2)
    r.controller.tap(x, y, r.layout)
    assert revealed(r.controller) == [2]
    # The charm turns, then the hidden board of 12 cells takes the next pick.
    r.until(lambda c: idle(c) and (b := board(c)) is not None and b.name == "board" and b.waiting)
    hidden = board(r.controller)
    assert hidden is not None
    assert len(hidden.cells) == 12
    assert all(cell.face == "" for cell in hidden.cells)
    r.run(50)
    assert r.canvas.texts().count("?") == 12
    assert "PICK UNTIL STOP" in r.canvas.texts()


def test_a_tap_outside_the_cells_picks_nothing() -> None:
    r = rig()
    overlay = to_pick(r)
    x0, y0, _, _ = overlay.geometry(r.layout)
    r.controller.tap(x0 - 5, y0 - 5, r.layout)
    assert revealed(r.controller) == []
    assert r.controller.context() == "pick"


def test_digit_keys_and_arrows_with_enter_pick_cells() -> None:
    assert action_for_key("Digit3", "pick") == "pick:2"
    assert action_for_key("Numpad1", "pick") == "pick:0"
    assert action_for_key("ArrowRight", "pick") == "pick_right"
    assert action_for_key("Enter", "pick") == "pick_enter"
    assert action_for_key("Digit3", "idle") != "pick:2"
    r = rig()
    to_pick(r)
    r.press(action_for_key("Digit1", "pick") or "")
    r.until(lambda c: idle(c) and (b := board(c)) is not None and b.name == "board" and b.waiting)
    overlay = board(r.controller)
    assert overlay is not None
    assert overlay.focus == 0
    r.press("pick_right")
    r.press("pick_down")
    assert overlay.focus == overlay.columns + 1
    r.press("pick_enter")
    assert revealed(r.controller)[-1] == overlay.columns + 1
    r.run(50)
    assert overlay.cells[overlay.columns + 1].prize is not None


def play_board_out(r: Rig) -> list[int]:
    """Pick the board's cells in order of the focus until the round ends; the cells picked."""

    def done(c: Controller) -> bool:
        if idle(c) and c.context() == "pick":
            c.press("pick_enter", c.now)
        return idle(c) and not c.session.in_round

    r.until(done, 300_000)
    return revealed(r.controller)


def test_the_pick_ends_with_the_unpicked_cells_revealed_and_the_win_paid() -> None:
    r = rig()
    to_pick(r)
    r.press("pick:0")
    seen_end: list[PickOverlay] = []

    def watch(c: Controller) -> bool:
        b = board(c)
        if b is not None and b.name == "board" and b.message and not seen_end:
            seen_end.append(b)
        if idle(c) and c.context() == "pick":
            c.press("pick_enter", c.now)
        return idle(c) and not c.session.in_round

    r.until(watch, 300_000)
    assert seen_end, "the end of the board was shown"
    end = seen_end[0]
    assert all(cell.prize is not None for cell in end.cells)
    assert sum(cell.picked for cell in end.cells) == len(revealed(r.controller)) - 1
    assert board(r.controller) is None  # the board left the screen
    last = r.session.last_round
    assert last is not None
    assert r.host.controls.win == r.controller.fmt(last.win)
    assert r.host.state == "ready"


def test_a_pick_while_a_reveal_still_turns_is_kept_for_the_next_one() -> None:
    r = rig()
    to_pick(r)
    r.press("pick:0")
    r.until(lambda c: idle(c) and (b := board(c)) is not None and b.name == "board" and b.waiting)
    r.press("pick:4")
    assert r.controller.presenting
    r.press("pick:7")  # while cell 5's reveal plays
    r.until(lambda c: idle(c) and (not c.session.in_round or c.context() == "pick"), 60_000)
    cells = revealed(r.controller)
    board_events = [e for e in r.session.round_events or (r.session.last_round.events if r.session.last_round else ())]
    stopped = any(isinstance(e, ev.PickReveal) and e.cell == 4 and e.prize == "stop" for e in board_events)
    assert cells[:2] == [0, 4]
    if not stopped:
        assert cells[2] == 7


def test_a_reload_mid_pick_brings_back_the_same_board() -> None:
    r = rig()
    to_pick(r)
    r.press("pick:1")
    r.until(lambda c: idle(c) and (b := board(c)) is not None and b.name == "board" and b.waiting)
    r.press("pick:3")
    r.until(lambda c: idle(c))
    if not r.session.in_round:
        pytest.skip("the first board cell stopped the pick")
    before = board(r.controller)
    assert before is not None
    back = restore_rig(r.host.snapshot, game=FIXTURE)
    again = board(back.controller)
    assert again is not None
    assert again.name == "board"
    assert [(c.prize, c.picked) for c in again.cells] == [(c.prize, c.picked) for c in before.cells]
    assert back.controller.context() == "pick"
    back.run(100)
    assert back.host.state == "feature"
    back.press("pick_enter")
    assert len(revealed(back.controller)) == len(revealed(r.controller)) + 1


def test_autoplay_answers_the_picks() -> None:
    r = rig()
    assert r.controller.start_autoplay(AutoplayLimits(rounds=1, stop_on_feature=False)) is None
    boards: set[str] = set()

    def watch(c: Controller) -> bool:
        b = board(c)
        if b is not None:
            boards.add(b.name)
        return c.autoplay is None and idle(c)

    r.until(watch, 300_000)
    last = r.session.last_round
    assert last is not None
    assert any(isinstance(e, ev.PickEnd) for e in last.events)
    assert boards == {"charm", "board"}
    assert not r.session.in_round
