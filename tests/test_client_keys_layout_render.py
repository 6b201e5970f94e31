"""slotui.keys, slotui.layout, slotui.render and slotui.pages.

The keyboard table below is the "Keyboard shortcuts" section of the rules document
(/work/shared/seeds/003_d5d8dce2a49e909c.txt) of the rig's game (`tests.client_support.GAME`,
the first game with a gamble and free spins), one row per key and screen. A game's own
pages and intro are tested in its folder (``tests/games/<id>/``).
"""

from __future__ import annotations

import functools
import re
from collections import Counter
from typing import Any

import pytest

from pyengine import events as ev
from pyengine.games import get_game
from pyengine.session import Session
from slotui.canvas import RecordingCanvas
from slotui.controller import Controller
from slotui.keys import action_for_key
from slotui.layout import compute_layout
from slotui.expanding import ExpandedReels, ExpandingSymbol
from slotui.gamble import GambleOverlay
from slotui.pages import history_html
from slotui.render import draw
from slotui.view import Banner
from tests import client_support
from tests.client_support import (
    FRAME_MS,
    GAME,
    SPRITES,
    draw_view,
    find_seed,
    idle,
    make_rig,
    wall_clock,
)

DESC: dict[str, Any] = get_game(GAME).describe()
FMT = get_game(GAME).bets.format
ASSETS = f"static/games/{GAME}"
STRIPS = [tuple(s) for s in DESC["reels"]["base"]]
view_with = functools.partial(client_support.view_with, STRIPS)

# -- keyboard ---------------------------------------------------------------------------------
SPIN_KEYS = ("Space", "Enter", "Numpad0", "Digit0", "KeyS")
COLLECT_KEYS = ("Space", "Enter", "Digit7", "Numpad7")

SHORTCUTS: list[tuple[str, str, str]] = [
    # Bet size -> Numpad+/Numpad-
    ("NumpadAdd", "idle", "bet_up"),
    ("NumpadSubtract", "idle", "bet_down"),
    # Bet max -> B
    ("KeyB", "idle", "bet_max"),
    # Collect -> Space, Enter, 7, Numpad7 (after a win, and in the gamble)
    *((k, "collect_or_gamble", "collect") for k in COLLECT_KEYS),
    *((k, "gamble", "collect") for k in COLLECT_KEYS),
    # Paytable -> P, 8, Numpad8; Help -> H, 9, Numpad9 (also while a win waits)
    *((k, ctx, "paytable") for k in ("KeyP", "Digit8", "Numpad8") for ctx in ("idle", "collect_or_gamble")),
    *((k, ctx, "help") for k in ("KeyH", "Digit9", "Numpad9") for ctx in ("idle", "collect_or_gamble")),
    # Exit -> Q
    ("KeyQ", "idle", "exit"),
    # Autoplay (+stop) -> A
    ("KeyA", "idle", "autoplay"),
    ("KeyA", "autoplay", "autoplay_stop"),
    # Spin (+stop) -> Space, Enter, Numpad0, 0, S
    *((k, "idle", "spin") for k in SPIN_KEYS),
    *((k, "spinning", "stop") for k in SPIN_KEYS),
    # Line count -> Left/Right, 1/2, Numpad1/Numpad2
    *((k, "idle", "lines_down") for k in ("ArrowLeft", "Digit1", "Numpad1")),
    *((k, "idle", "lines_up") for k in ("ArrowRight", "Digit2", "Numpad2")),
    # Gamble start -> 5, Numpad5 (and B: Bet Max becomes Gamble on desktop)
    *((k, "collect_or_gamble", "gamble") for k in ("Digit5", "Numpad5", "KeyB")),
    # Gamble actions -> 5 (red), 6 (black), +Numpads
    ("Digit5", "gamble", "red"),
    ("Numpad5", "gamble", "red"),
    ("Digit6", "gamble", "black"),
    ("Numpad6", "gamble", "black"),
    # Feature start -> Space, Enter, Numpad0, 0, S
    *((k, "feature_start", "start_feature") for k in SPIN_KEYS),
    # Feature play / hide -> Space, Enter, Numpad0, 0, S (hurry the spin or the banner)
    *((k, "free_spins", "stop") for k in SPIN_KEYS),
    # Space spins/stops everywhere: in autoplay it stops the reels (A stops autoplay).
    ("Space", "autoplay", "stop"),
    ("KeyS", "autoplay", "stop"),
]


@pytest.mark.parametrize(("code", "context", "expected"), SHORTCUTS)
def test_rules_shortcuts(code: str, context: str, expected: str) -> None:
    assert action_for_key(code, context) == expected


@pytest.mark.parametrize(
    ("code", "context"),
    [
        ("KeyZ", "idle"),
        ("Digit7", "idle"),  # nothing to collect
        ("Digit6", "collect_or_gamble"),  # no colour before the gamble starts
        ("NumpadAdd", "spinning"),  # no bet change during a spin
        ("ArrowRight", "free_spins"),
        ("KeyB", "gamble"),
    ],
)
def test_keys_that_do_nothing(code: str, context: str) -> None:
    assert action_for_key(code, context) is None


def test_every_key_action_is_one_the_controller_or_page_handles() -> None:
    contexts = ["idle", "spinning", "presenting", "collect_or_gamble", "gamble", "feature_start", "free_spins"]
    contexts.append("autoplay")
    codes = {code for code, _, _ in SHORTCUTS} | {"Escape", "Equal", "Minus", "NumpadEnter"}
    dialogs = {"paytable", "help", "history", "settings", "exit"}
    for ctx in contexts:
        for code in codes:
            action = action_for_key(code, ctx)
            if action is not None:
                assert hasattr(Controller, f"_do_{action}") or action in dialogs, (code, ctx, action)
    assert action_for_key("Escape", "dialog") == "close"


def test_space_spins_when_idle_and_stops_while_spinning() -> None:
    r = make_rig(find_seed("loss"))
    c = r.controller
    assert c.context() == "idle"
    action = action_for_key("Space", c.context())
    assert action == "spin"
    r.press(action)
    r.run(200)
    assert c.context() == "spinning"
    assert c.view.reels.moving
    action = action_for_key("Space", c.context())
    assert action == "stop"
    t = r.now
    r.press(action)
    r.until(lambda c: not c.view.reels.moving)
    assert r.now - t <= 160 + 2 * FRAME_MS
    r.until(idle)
    assert r.session.rounds_played == 1


def test_a_free_spins_round_played_with_the_keyboard_only() -> None:
    r = make_rig(find_seed("free_spins"), turbo=True)
    c = r.controller

    def key(code: str) -> None:
        action = action_for_key(code, c.context())
        assert action is not None, (code, c.context())
        r.press(action)

    key("KeyS")
    r.until(lambda c: c.context() == "feature_start")
    key("Enter")
    r.until(lambda c: idle(c) and c.context() == "collect_or_gamble", 600_000)
    key("Numpad5")  # gamble
    r.run(FRAME_MS)
    assert c.context() == "gamble"
    key("Digit7")  # collect
    r.until(idle)
    assert not r.session.in_round
    assert r.host.controls.balance == FMT(r.session.balance)


# -- layout -------------------------------------------------------------------------------------
SCREENS = {
    "phone portrait 390x844 @3": (390, 844, 3),
    "phone landscape 844x390 @3": (844, 390, 3),
    "small phone 320x568 @2": (320, 568, 2),
    "tablet portrait 768x1024 @2": (768, 1024, 2),
    "tablet landscape 1024x768 @2": (1024, 768, 2),
    "laptop 1366x768": (1366, 768, 1),
    "desktop 1920x1080": (1920, 1080, 1),
    "desktop 2560x1440 @2": (2560, 1440, 2),
}


@pytest.mark.parametrize(("w", "h", "dpr"), list(SCREENS.values()), ids=list(SCREENS))
def test_layout_keeps_square_reels_and_frame_inside_the_canvas(w: int, h: int, dpr: int) -> None:
    width, height = w * dpr, h * dpr
    L = compute_layout(width, height)
    assert (L.width, L.height, L.columns, L.rows) == (width, height, 5, 3)
    assert L.reels_w == pytest.approx(5 * L.cell)
    assert L.reels_h == pytest.approx(3 * L.cell)
    for reel in range(5):
        for row in range(3):
            x, y, cw, ch = L.cell_rect(reel, row)
            assert cw == ch == L.cell  # square cells
            assert x >= 0
            assert x + cw <= width
            assert L.top_h <= y
            assert y + ch <= height
    fx, fy, fw, fh = L.frame
    assert fx >= 0
    assert fx + fw <= width
    assert L.top_h <= fy, "the frame stays below the status band"
    assert fy + fh <= height
    assert fx < L.reels_x
    assert L.reels_x + L.reels_w < fx + fw
    assert fy < L.reels_y
    assert L.reels_y + L.reels_h < fy + fh
    assert L.reels_x == pytest.approx(width - L.reels_x - L.reels_w)  # centred
    # The frame fills the space it is limited by (width on phones, height on desktops).
    assert fw >= 0.95 * width or fh >= 0.95 * (height - L.top_h)
    assert L.cell / dpr >= 44, "symbols stay at least a finger wide"


def test_layout_rejects_an_empty_canvas() -> None:
    with pytest.raises(ValueError, match="positive"):
        compute_layout(0, 600)


def test_layout_hit() -> None:
    L = compute_layout(1920, 1080)
    for reel in range(5):
        for row in range(3):
            assert L.hit(*L.cell_center(reel, row)) == (reel, row)
            x, y, _, _ = L.cell_rect(reel, row)
            # Just inside the top-left corner (exactly on it, float rounding of
            # reels_x + k * cell may give the cell to the left).
            assert L.hit(x + 0.01, y + 0.01) == (reel, row)
    right, bottom = L.reels_x + L.reels_w, L.reels_y + L.reels_h
    assert L.hit(right, L.reels_y + 1) is None  # the far edges are outside
    assert L.hit(L.reels_x + 1, bottom) is None
    assert L.hit(L.reels_x - 0.5, L.reels_y + 1) is None
    assert L.hit(L.reels_x + 1, L.reels_y - 0.5) is None
    assert L.hit(right - 0.01, bottom - 0.01) == (4, 2)
    assert L.hit(0, 0) is None


# -- rendering ----------------------------------------------------------------------------------
# Budget: each Python->JS call costs ~30 us and a frame has ~4 ms of Python time, so at most
# ~130 JS calls. A spinning frame needs 1 background + 1 logo (or the status text) + 1 reel
# panel + 1 clip push/pop pair + 5 reels x 4 visible symbols + 1 frame = 26 calls (measured:
# 26; during free spins the expanding symbol above the reels adds 3). 32 leaves that headroom
# and is ~1 ms of calls. The busiest frames (an expanded win over several reels with a tier
# banner) measured 63 canvas calls; 80 bounds every frame.
SPIN_FRAME_MAX_CALLS = 32
ANY_FRAME_MAX_CALLS = 80


def one_frame(canvas: RecordingCanvas, c: Controller) -> list[tuple[object, ...]]:
    canvas.take()
    draw(canvas, compute_layout(canvas.width, canvas.height), c.view, c.now)
    return canvas.take()


def test_a_spinning_frame_makes_few_canvas_calls() -> None:
    r = make_rig(find_seed("loss"), size=(1920, 1080))
    r.press("spin")
    r.run(300)
    assert r.controller.view.reels.moving
    calls = one_frame(r.canvas, r.controller)
    kinds = Counter(str(c[0]) for c in calls)
    assert len(calls) <= SPIN_FRAME_MAX_CALLS, kinds
    assert kinds["sprite"] >= 5 * 4, "every visible symbol is one sprite blit"
    assert "text" not in kinds, "no text while the base game spins"
    assert any(str(c[1]).endswith(":blur") for c in calls if c[0] == "sprite"), "full speed uses blur sprites"


def test_every_frame_of_a_feature_round_stays_within_the_budget() -> None:
    r = make_rig(find_seed("retrigger"), turbo=True)
    worst = 0
    spinning_free = 0

    def watch(c: Controller) -> bool:
        nonlocal worst, spinning_free
        calls = one_frame(r.canvas, c)
        worst = max(worst, len(calls))
        if c.meters.in_feature and c.view.reels.moving:
            spinning_free = max(spinning_free, len(calls))
        if idle(c) and c.pending_kind == "feature_start":
            c.press("start_feature", c.now)
        return idle(c) and c.pending_kind == "collect_or_gamble"

    r.press("spin")
    r.until(watch, 600_000)
    assert 0 < spinning_free <= SPIN_FRAME_MAX_CALLS
    assert worst <= ANY_FRAME_MAX_CALLS






def test_the_gamble_view_draws_face_down_and_face_up() -> None:
    down = draw_view(view_with(overlays=[GambleOverlay("4.00", "8.00", history=["9D", "KS"])]))
    assert "GAMBLE WIN 4.00" in down.texts()
    assert "GAMBLE TO WIN 8.00" in down.texts()
    assert "card_back" in down.sprites_drawn()
    assert down.texts().count("♦") == 1  # the history
    assert down.texts().count("♠") == 1
    face_up = GambleOverlay("8.00", "16.00", card="10H", flipped_at=4900.0, result="YOU WIN")
    up = draw_view(view_with(overlays=[face_up]))
    assert "10" in up.texts()
    assert "♥" in up.texts()
    assert "YOU WIN" in up.texts()
    assert "card_back" not in up.sprites_drawn()
    bare = draw_view(view_with(overlays=[GambleOverlay("4.00", "8.00")]), sprites=())
    assert "GAMBLE WIN 4.00" in bare.texts()


def test_the_ticker_sits_under_the_frame_where_there_is_room() -> None:
    """On a phone held upright the message under the reels goes in the space under the frame
    (not over its edge); where there is no such space it stays on the frame's lower edge."""
    for w, h, under in ((1170, 2532, True), (780, 1300, True), (1000, 700, False), (1280, 560, False)):
        L = compute_layout(w, h)
        bottom = L.frame[1] + L.frame[3]
        top_of_text = L.ticker_y - L.ticker_size  # the type's ascent, at most its size
        if under:
            assert bottom <= top_of_text, (w, h)
            assert L.ticker_y + L.ticker_size * 0.3 <= h, (w, h)
        else:
            assert L.ticker_y < bottom, (w, h)
        canvas = RecordingCanvas(w, h, sprites=SPRITES)
        draw(canvas, L, view_with(line_label="LINE 1 · TOTAL WIN 0.50"), 5000.0)
        drawn = [c for c in canvas.calls if c[0] == "text" and c[1] == "LINE 1 · TOTAL WIN 0.50"]
        assert [(c[3], c[4]) for c in drawn] == [(L.ticker_y, L.ticker_size)], (w, h, drawn)


def test_feature_screen_draws_symbol_status_expansion_and_banner() -> None:
    symbol = next(s["id"] for s in DESC["symbols"] if s["kind"] == "regular")
    v = view_with(
        overlays=[ExpandingSymbol(symbol)],
        on_reels=[ExpandedReels(symbol, {1: 0.5, 3: 1.0})],
        status="FREE SPIN 3 OF 10",
        banner=Banner("MEGA WIN", "90.00", 4000.0, tier=2),
        highlights=[(1, 0), (1, 1), (1, 2)],
        line_rows=(1, 1, 1, 1, 1),
        line_label="LINE 1: 0.50",
    )
    canvas = draw_view(v)
    texts = canvas.texts()
    for t in ("FREE SPIN 3 OF 10", "MEGA WIN", "90.00", "LINE 1: 0.50"):
        assert t in texts
    # Above the reels, and once on each expanded reel.
    assert canvas.sprites_drawn().count(symbol) >= 3
    assert any(c[0] == "polyline" for c in canvas.calls)


# -- pages --------------------------------------------------------------------------------------
def history_session() -> Session:
    """Three finished rounds: a loss, free spins, a win."""
    s = Session(GAME, seed=0, clock=wall_clock)
    for seed_kind in ("loss", "free_spins", "win"):
        s.spin(seed=_round_seed(seed_kind))
        while s.pending is not None:
            s.choose(s.pending.choices[0])
    return s


def _round_seed(kind: str) -> int:
    start = Session(GAME, seed=find_seed(kind)).spin()[0]
    assert isinstance(start, ev.RoundStart)
    return start.seed


def test_history_lists_rounds_newest_first_with_their_final_reels() -> None:
    s = history_session()
    names = {x["id"]: x["name"] for x in DESC["symbols"]}
    html = history_html(s.history, FMT, ASSETS, names)
    items = re.findall(r"<li>(.*?)</li>", html)
    assert len(items) == len(s.history) == 3
    for item, record in zip(items, reversed(s.history), strict=True):
        assert f"Win {FMT(record.win)}" in item
        assert f"Bet {FMT(record.stake)}" in item
        assert ("free spins" in item) == ("free_spins" in record.features)
        spins = [e for e in record.events if isinstance(e, ev.Spin)]
        base = [e for e in spins if e.phase == "base"][-1]
        # The base game's board, and the last free spin's after it where there were free spins.
        boards = [base] if spins[-1] is base else [base, spins[-1]]
        shown = re.findall(r'symbols/(\w+)\.svg" alt="([^"]*)"', item)
        expected = [b.window[reel][row] for b in boards for row in range(3) for reel in range(5)]
        assert [sym for sym, _ in shown] == expected
        assert [alt for _, alt in shown] == [names[x] for x in expected]
    assert "Nov 14, 2023, 10:13:20 PM UTC" in html  # Intl en-US in Chromium, dateStyle and timeStyle medium


def test_history_escapes_text_and_says_when_empty() -> None:
    s = history_session()
    names = {x["id"]: f'<{x["name"]} & "co">' for x in DESC["symbols"]}
    html = history_html(s.history, FMT, 'x"><script>', names)
    assert "<script>" not in html
    assert not [raw for raw in names.values() if raw in html]
    # A symbol on the newest round's board: its name is escaped in its picture's alt text.
    shown = next(e for e in s.history[-1].events if isinstance(e, ev.Spin)).window[0][0]
    name = next(x["name"] for x in DESC["symbols"] if x["id"] == shown)
    assert f'<{name} & "co">' not in html
    assert f'alt="&lt;{name} &amp; &quot;co&quot;&gt;"' in html
    assert 'src="x&quot;&gt;&lt;script&gt;/symbols/' in html
    assert history_html((), FMT, ASSETS, names) == '<p class="note">No rounds played yet.</p>'


@pytest.mark.parametrize("code", ["Escape", "Space", "Enter", "KeyP", "Digit8", "Numpad8", "KeyH", "Digit9", "KeyA"])
def test_a_key_that_opens_a_dialog_also_closes_it(code: str) -> None:
    assert action_for_key(code, "dialog") == "close"
    assert action_for_key("KeyS", "dialog") is None


def test_the_rules_list_every_keyboard_shortcut() -> None:
    """The in-game help gives every shortcut of the rules, from the key tables themselves."""
    from slotui.keys import shortcuts

    text = " ".join(shortcuts(lines=True, gamble=True, start="free spins"))
    for words in (
        "Bet size: Numpad+, Numpad−",
        "Bet Max: B.",
        "Collect: Space, Enter, Numpad Enter, 7, Numpad7.",
        "Paytable: 8, Numpad8, P.",
        "Help: 9, Numpad9, H.",
        "Exit: Q.",
        "Autoplay (+stop): A.",
        "Spin (+stop): Space, Enter, Numpad Enter, 0, Numpad0, S.",
        "Line count: ←, →, 1, 2, Numpad1, Numpad2.",
        "Gamble start: 5, Numpad5",
        "5 red, 6 black",
        "Feature start, and the next free spin: Space, Enter, Numpad Enter, 0, Numpad0, S",
    ):
        assert words in text, words
    fewer = " ".join(shortcuts(lines=False, gamble=False, start="the bonus"))
    assert "Line count" not in fewer
    assert "Collect" not in fewer
    assert "A pick: 1 to 9" in fewer
    # A game whose rounds never wait on the player lists no feature or pick keys.
    plain = " ".join(shortcuts(lines=True, gamble=False, start="x", feature=False, picks=False))
    assert "Feature start" not in plain
    assert "A pick" not in plain
    assert "Spin (+stop)" in plain


def test_the_rules_list_the_keys_of_the_decisions_the_game_declares() -> None:
    """Each game's rules give the Start and pick keys only where its rounds wait on them
    (``describe()["decisions"]``)."""
    from pyengine.games import game_ids

    from slotui import pages

    for game in game_ids():
        c = make_rig(1, game=game).controller
        decisions = set(c.desc["decisions"])
        html = pages.page_html("help", c.screen, pages.page_context(c.session, c.desc, {}, "assets"))
        assert html is not None
        assert ("A pick: 1 to 9" in html) == ("pick" in decisions), game
        assert ("Feature start, and the next free spin" in html) == bool(decisions & {"feature_start", "free_spin"})
