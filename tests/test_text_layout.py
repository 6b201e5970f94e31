"""Words on the canvas never sit on words, never leave the canvas and never cover the logo:
every screen of every game (the rounds of its tour, `tests.text_tour`), every frame, at the
canvas sizes of a small and a large phone, a tablet both ways and a desktop.

The boxes come from `slotui.textboxes` with the width of Georgia Bold, which is wider than
the fonts a browser falls back to (the browser test measures the real ones). The checker's
own rules are tested first, on frames made by hand, so that each rule can fail.
"""

from __future__ import annotations

from typing import Any

import pytest

from pyengine.games import game_ids
from pyengine.session import Session
from slotui import textboxes
from slotui.canvas import RecordingCanvas
from slotui.controller import Controller
from slotui.layout import Layout, compute_layout, text_width, wrap
from slotui.pick import board as pick_board
from slotui.render import draw
from tests.client_support import FRAME_MS, FakeHost, idle, wall_clock
from tests.text_tour import Round, answer, tour

SIZES = ((360, 327), (412, 602), (768, 694), (1024, 435), (1280, 595))
"""The game canvas (CSS px at a pixel ratio of 1) in Chromium at 360x640 and 412x915 phones,
768x1024 and 1024x768 tablets and a 1280x800 desktop (the page's bars take the rest)."""
ROUND_LIMIT_MS = 1_500_000.0


class Everything(RecordingCanvas):
    """A recording canvas that has every sprite (as the page has, once its pictures load)."""

    def has_sprite(self, key: str) -> bool:
        return True


def frame(calls: list[tuple[Any, ...]], size: tuple[int, int] = (400, 300)) -> list[str]:
    texts, pictures = textboxes.frame_boxes(calls, *size)
    return textboxes.problems(texts, pictures, *size)


# -- the checker ------------------------------------------------------------------------------------
def test_words_drawn_on_words_are_found_and_apart_they_are_not() -> None:
    a = ("text", "FREE SPIN 1 OF 8", 200, 100, 20, "#fff", "center", None)
    assert frame([a, ("text", "2×", 200, 105, 20, "#fff", "center", None)])
    assert frame([a, ("text", "2×", 200, 160, 20, "#fff", "center", None)]) == []
    # Squeezed to its room, a line no longer reaches its neighbour.
    wide = ("text", "A LONG LINE OF WORDS", 100, 100, 20, "#fff", "center", None)
    beside = ("text", "WIN", 260, 100, 20, "#fff", "center", None)
    assert frame([wide, beside])
    assert frame([(*wide[:7], 150), beside]) == []


def test_words_off_the_canvas_or_cut_by_their_clip_are_found() -> None:
    assert "leaves the canvas" in frame([("text", "CHOOSE A PET TO FEED", 200, 100, 40, "#fff", "center", None)])[0]
    clipped = [("push", 1.0, (0, 0, 400, 100)), ("text", "WIN", 200, 110, 20, "#fff", "center", None), ("pop",)]
    assert "cut off by its clip" in frame(clipped)[0]
    assert frame([("text", "WIN", 200, 90, 20, "#fff", "center", None)]) == []
    # Symbols pass through the reel window's edges; a text wholly outside its clip is not drawn.
    texts, pictures = textboxes.frame_boxes(clipped, 400, 300)
    assert textboxes.problems(texts, pictures, 400, 300, scrolling=(0, 0, 400, 100)) == []
    hidden = [("push", 1.0, (0, 0, 400, 100)), ("text", "WIN", 200, 400, 20, "#fff", "center", None), ("pop",)]
    assert frame(hidden) == []


def test_words_on_the_logo_are_found_even_when_a_card_dims_it() -> None:
    logo = ("sprite", "logo", 100, 0, 200, 60)
    title = ("text", "FEATURE", 200, 40, 24, "#fff", "center", None)
    assert "on the picture 'logo'" in frame([logo, title])[0]
    assert frame([logo, ("fill_rect", 0, 0, 400, 300, "rgba(6,2,18,0.84)"), title])
    assert frame([logo, ("fill_rect", 0, 0, 400, 300, "#000"), title]) == []
    assert frame([logo, ("text", "FEATURE", 200, 120, 24, "#fff", "center", None)]) == []


def test_a_dimming_fill_hides_the_words_under_it_and_a_faint_one_does_not() -> None:
    under = ("text", "BIG WIN", 200, 100, 24, "#fff", "center", None)
    over = ("text", "BONUS", 200, 100, 24, "#fff", "center", None)
    assert frame([under, ("fill_rect", 0, 0, 400, 300, "rgba(6,2,18,0.84)"), over]) == []
    assert frame([under, ("fill_rect", 0, 0, 400, 300, "rgba(6,2,18,0.3)"), over])
    # Words faded almost out (a card's first frames) are not read.
    assert frame([("push", 0.2, None), under, ("pop",), over]) == []


def test_a_measured_box_is_taken_as_the_browser_gave_it() -> None:
    a = ("text", "WIN", 100, 100, 20, "#fff", "center", None, (90, 85, 110, 101))
    b = ("text", "WIN", 130, 100, 20, "#fff", "center", None, (120, 85, 140, 101))
    assert frame([a, b]) == []
    assert frame([a, ("text", "WIN", 130, 100, 20, "#fff", "center", None, (105, 85, 140, 101))])


def test_long_lines_wrap_between_words_into_their_room() -> None:
    line = "CHOOSE A PET TO FEED: IT BECOMES AN EXTRA WILD"
    parts = wrap(line, 14, 330)
    assert len(parts) == 2
    assert " ".join(parts) == line
    assert all(text_width(p, 14) <= 330 for p in parts)
    assert wrap("WINFALLS", 14, 330) == ["WINFALLS"]


# -- every game ---------------------------------------------------------------------------------------
def press_for(c: Controller, way: str) -> str | None:
    """What the player presses now to answer the round ``way`` (`tests.text_tour.answer`)."""
    kind = c.pending_kind
    if not idle(c) or kind is None:
        return None
    if kind == "feature_start":
        return "start_feature"
    if kind == "pick":
        b = pick_board(c)
        return None if b is None or not b.closed() else f"pick:{b.closed()[0]}"
    if kind in ("collect_or_gamble", "gamble"):
        assert c.session.pending is not None
        return answer(way, kind, c.session.pending.choices)
    return None


def walk(game: str, r: Round) -> dict[str, str]:
    """Play round ``r`` on a controller, drawing every frame at every size; what is wrong,
    by size and problem (the first time each was seen)."""
    session = Session(game, seed=r.seed, clock=wall_clock)
    c = Controller(session, FakeHost())
    screens: list[tuple[Everything, Layout]] = [(Everything(w, h), compute_layout(w, h)) for w, h in SIZES]
    now = c.now = 1000.0
    if r.way == "buy":
        c.press("buy", now)
        assert c.confirm_buy() is None
    else:
        c.press("spin", now)
    found: dict[str, str] = {}
    while True:
        now += FRAME_MS
        if c.tick(now):
            clear = textboxes.kept_clear(c.view)
            for canvas, layout in screens:
                draw(canvas, layout, c.view, now)
                texts, pictures = textboxes.frame_boxes(canvas.take(), canvas.width, canvas.height, keep_clear=clear)
                window = textboxes.window(layout)
                for p in textboxes.problems(texts, pictures, canvas.width, canvas.height, scrolling=window):
                    key = f"{canvas.width}x{canvas.height} {p}"
                    found.setdefault(key, f"{key} ({c.context()}, {now - 1000:.0f} ms into the round)")
        action = press_for(c, r.way)
        if action is not None:
            c.press(action, now)
        elif idle(c) and not session.in_round:
            return found
        assert now < 1000.0 + ROUND_LIMIT_MS, f"the round did not end: {c.context()}"


@pytest.mark.parametrize("game", game_ids())
def test_every_screen_of_the_game_reads_clear_at_every_size(game: str) -> None:
    rounds = tour(game)
    assert rounds, f"{game}: the tour found no round"
    found: dict[str, str] = {}
    for r in rounds:
        for key, text in walk(game, r).items():
            found.setdefault(key, f"seed {r.seed} ({r.way}): {text}")
    assert not found, f"{game}: {len(found)} problems:\n" + "\n".join(list(found.values())[:40])


def test_the_tour_brings_every_decision_the_game_declares() -> None:
    """Each game's tour meets every kind of decision the game says its rounds wait on
    (``describe()["decisions"]``, which its rules' keys follow) and no other."""
    for game in game_ids():
        rounds = tour(game)
        kinds = set().union(*(r.kinds for r in rounds))
        assert ("round_end",) in kinds
        assert ("spin",) in kinds
        met = {k[1] for k in kinds if k[0] == "decision_pending"}
        assert met == set(Session(game).game.describe()["decisions"]), game
        assert len({(r.seed, r.way) for r in rounds}) == len(rounds)
