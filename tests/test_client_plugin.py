"""The client's plug-in surface: what a game's screen supplies and what the shared client
does with it (slotui.stage, slotui.pages, slotui.freespins, slotui.view's overlay layers).

A game without pages of its own gets generic ones from its description; the dialog's page
is chosen by `pages.page_html`; the shared free-spins presentation speaks any game's words;
the renderer draws each overlay where `View` puts it; beats see the controller as a `Stage`.
"""

from __future__ import annotations

import ast
import importlib
import re
from pathlib import Path
from typing import Any

import pytest

from pyengine import events as ev
from pyengine.games import GAME_IDS, game_ids, get_game, plugin
from pyengine.session import Session
from slotui import stage as stage_module
from slotui.beats import screen_for
from slotui.canvas import Canvas, RecordingCanvas
from slotui.controller import Controller
from slotui import words
from slotui.freespins import FreeSpins
from slotui.gamble import CARD_BACK, card_size
from slotui.layout import BACKGROUND, FRAME, LOGO, Layout, compute_layout
from slotui.pages import PageContext, buy_html, page_context, page_html
from slotui.reels import ReelBank
from slotui.render import draw
from slotui.stage import GameScreen, Stage
from slotui.view import View
from tests.client_support import (
    GAME,
    GAME_EVENT_TYPES,
    SPRITES,
    find_seed,
    idle,
    make_rig,
    restore_rig,
    round_log,
    wall_clock,
)

FMT = get_game(GAME).bets.format
CLIENT = Path(__file__).resolve().parent.parent / "web" / "slotui"

# A game the client has never heard of: its own symbols, pays and lines, no pages.
PLAIN: dict[str, Any] = {
    "id": "plain",
    "name": "Plain Fruits",
    "version": "0.1.0",
    "rows": 3,
    "symbols": [
        {"id": "STAR", "name": "Star", "kind": "wild"},
        {"id": "BELL", "name": "Bell", "kind": "scatter"},
        {"id": "PLUM", "name": "Plum", "kind": "regular"},
        {"id": "LIME", "name": "Lime", "kind": "regular"},
    ],
    "paytable": {"PLUM": {"3": 10, "4": 40, "5": 200}, "LIME": {"3": 5, "4": 0, "5": 50}},
    "scatter_pays": {"3": 2, "5": 20},
    "wild_pays_as": "PLUM",
    "paylines": [[1, 1, 1, 1, 1], [0, 0, 0, 0, 0], [2, 2, 2, 2, 2]],
    "bets": {"lines": [3], "bet_per_line": [1, 5]},
    "settings": {},
}
KIND_WORDS = frozenset({"wild", "scatter"})
"""What the generic pages call a symbol by its kind (a symbol of a game may be named so too)."""


def _games_words() -> re.Pattern[str]:
    """Words only a shipped game's own pages say: each word of a game's name and each of its
    symbols' names (not a symbol kind's word), and the names of the features."""
    words = {"free spins", "hold and respin"}
    for gid in GAME_IDS:
        desc = get_game(gid).describe()
        words |= {w.lower() for w in desc["name"].split() if len(w) > 2}
        words |= {s["name"].lower() for s in desc["symbols"] if s["name"].lower() not in KIND_WORDS}
    alternatives = "|".join(re.escape(w) for w in sorted(words, key=len, reverse=True))
    return re.compile(rf"(?<!\w)({alternatives})s?(?!\w)", re.IGNORECASE)


GAMES_WORDS = _games_words()


def ctx(desc: dict[str, Any] = PLAIN, bet_per_line: int = 5, lines: int = 3, **kw: Any) -> PageContext:
    fields: dict[str, Any] = {"desc": desc, "info": {}, "fmt": FMT, "assets": "static/games/plain"}
    fields.update(kw)
    return PageContext(bet_per_line=bet_per_line, lines=lines, stake=bet_per_line * lines, **fields)


def page(kind: str, screen: GameScreen, context: PageContext) -> str:
    html = page_html(kind, screen, context)
    assert html is not None
    return html


# -- pages -------------------------------------------------------------------------------------------
def test_a_game_without_a_screen_gets_generic_pages_from_its_description() -> None:
    screen = screen_for("plain")  # nothing registered: a plain screen
    assert screen == GameScreen()
    info = {"rtp": "0.95", "max_win_x": 1000}
    paytable = page("paytable", screen, ctx(info=info))
    for s in PLAIN["symbols"]:
        assert f'src="static/games/plain/symbols/{s["id"]}.svg" alt="{s["name"]}"' in paytable
    assert "Pays at 0.05 per line on 3 lines." in paytable
    assert "<li><b>5×</b> 10.00</li>" in paytable  # 200 x 0.05 for five Plums
    assert "<b>4×</b>" not in paytable.split("LIME.svg", 1)[1]  # a count that pays nothing is left out
    assert "A line of wilds alone pays as the Plum." in paytable
    assert "3× 0.30, 5× 3.00 (× total bet)" in paytable  # scatter pays x the total bet of 0.15
    assert paytable.count('<figure class="payline">') == 3
    rules = page("help", screen, ctx(info=info))
    assert "<h3>Plain Fruits</h3>" in rules
    assert "3 fixed win lines" in rules
    assert "The Star substitutes for the paying symbols." in rules
    assert "The Bell pays anywhere on the reels." in rules
    assert 'Return to player: <b class="fig-rtp">95.00%</b>' in rules
    assert 'Maximum win: <b class="fig-max">1,000×</b> the total bet' in rules
    assert "Game version 0.1.0" in rules
    assert "Free play with demo money." in rules
    buy = page("buy", screen, ctx(price=300, balance=200))
    assert '<strong id="buy-price">3.00</strong>' in buy
    assert "20× your total bet of 0.15" in buy
    assert "Your balance of 2.00 is not enough" in buy
    for html in (paytable, rules, buy):
        assert not GAMES_WORDS.search(html), GAMES_WORDS.findall(html)
    assert page_html("settings", screen, ctx()) is None


def test_the_shared_paragraphs_say_only_what_applies_to_the_game() -> None:
    plain = page("help", GameScreen(), ctx())
    assert "Line count: ←, →, 1, 2, Numpad1, Numpad2." not in plain  # one line count: nothing to change
    assert "Collect:" not in plain  # no gamble
    assert "and collects wins" not in plain
    assert "never buys" not in plain
    several = dict(PLAIN, bets={"lines": [1, 2, 3], "bet_per_line": [1]}, feature_buy={"target_rtp": "0.96"})
    rules = page("help", GameScreen(), ctx(several, settings={"gamble": 1}))
    for text in (
        "Line count: ←, →, 1, 2, Numpad1, Numpad2.",
        "Collect: Space, Enter, Numpad Enter, 7, Numpad7. Gamble start: 5, Numpad5 (or B).",
        "Autoplay spins at the current bet and collects wins.",
        "Autoplay never buys the feature.",
        'Return to player in Feature Buy: <b class="fig-rtp-buy">96.00%</b>',
        "1 to 3 selectable win lines",
    ):
        assert text in rules, text


def own_screen(game: str) -> GameScreen:
    """The ``SCREEN`` of ``game``'s screen module (`Plugin.screen`), which registers it when imported."""
    screen: GameScreen = importlib.import_module(plugin(game).screen).SCREEN
    return screen


def context_of(game: str) -> PageContext:
    """The pages' context for a new session of ``game``: its default bet, a balance of 1,000.00."""
    session = Session(game, balance=100_000, clock=wall_clock)
    return page_context(session, session.game.describe(), {}, f"static/games/{game}")


def own_pages(game: str) -> tuple[str, str]:
    """``game``'s rules and Feature Buy pages, through its own screen, at its default bet."""
    return page("help", own_screen(game), context_of(game)), page("buy", own_screen(game), context_of(game))


def others_words(game: str) -> set[str]:
    """The words of the other shipped games' names that are not words of ``game``'s own name
    or of its symbols' names: its pages never say them."""
    desc = get_game(game).describe()
    own = " ".join([desc["name"], *(s["name"] for s in desc["symbols"])]).lower()
    return {
        w
        for other in GAME_IDS
        if other != game
        for w in get_game(other).describe()["name"].split()
        if len(w) > 2 and w.lower() not in own
    }


@pytest.mark.parametrize("game", game_ids())
def test_each_game_supplies_its_own_pages_and_they_name_only_that_game(game: str) -> None:
    rules, buy = own_pages(game)
    assert others_words(game)
    for word in others_words(game):
        assert word not in rules, word
        assert word not in buy, word
    # The paragraphs every game shares are the same text in each.
    shared = "<h4>Spin and Turbo</h4>"
    first_rules, _ = own_pages(game_ids()[0])
    assert rules.split(shared)[1].split("</p>")[0] == first_rules.split(shared)[1].split("</p>")[0]
    # A game whose rounds never wait on a free spin says nothing of free spins.
    if "free_spin" not in get_game(game).describe()["decisions"]:
        assert "free spins" not in rules.lower()
    # A game that sells no feature has the generic buy page; one that sells it, its own.
    generic = buy_html(context_of(game))
    if "buy" in get_game(game).modes:
        assert own_screen(game).buy is not None
        assert buy != generic
    else:
        assert own_screen(game).buy is None
        assert buy == generic


def test_history_names_features_as_the_game_does() -> None:
    r = make_rig(find_seed("free_spins"), turbo=True)
    r.press("spin")
    while r.session.in_round or r.controller.presenting:
        r.until(lambda c: idle(c) or c.pending_kind == "feature_start", 600_000)
        if r.session.pending is not None:
            r.session.choose(r.session.pending.choices[0])
            r.controller.queue.clear()
    history = r.session.history
    assert history[-1].features == ("free_spins",)
    words.provide("tests.named_features", "en", {"feature_name.free_spins": "Magic Spins"})
    named = GameScreen(words=words.of("tests.named_features"))
    assert "· Magic Spins" in page("history", named, ctx(history=history))
    assert "· free spins" in page("history", GameScreen(), ctx(history=history))


# -- pictures ----------------------------------------------------------------------------------------
def test_screens_declare_the_pictures_they_need_and_their_sizes() -> None:
    L = compute_layout(1170, 2532)
    for game in game_ids():
        pictures = own_screen(game).pictures
        assert pictures[:3] == (BACKGROUND, FRAME, LOGO), game
        # The card back is the gamble's: a game with a gamble declares it, no other does.
        assert (CARD_BACK in pictures) == ("gamble" in get_game(game).describe()["decisions"]), game
    assert CARD_BACK.size(L) == card_size(L) == pytest.approx((L.reels_h * 0.8 * 0.714, L.reels_h * 0.8))
    assert BACKGROUND.size(L) == (L.width, L.height)
    assert FRAME.size(L) == (L.frame[2], L.frame[3])


# -- overlays, by where they are drawn ---------------------------------------------------------------
class Mark:
    """An overlay that draws one labelled call, to see where the renderer drew it."""

    def __init__(self, name: str, *, hides: bool = True, covered: int | None = None) -> None:
        self.name = name
        self.hides = hides
        self.covered = covered

    def draw(self, canvas: Canvas, layout: Layout, now: float) -> None:
        canvas.text(self.name, 0, 0, 10, "#fff")

    def hides_reels(self, now: float) -> bool:
        return self.hides

    def covers(self, reel: int) -> bool:
        return reel == self.covered


def frame_of(v: View) -> RecordingCanvas:
    canvas = RecordingCanvas(1000, 700, sprites=SPRITES)
    draw(canvas, compute_layout(1000, 700), v, 0.0)
    return canvas


def test_the_renderer_draws_each_overlay_in_its_place() -> None:
    strips = [tuple(s) for s in get_game(GAME).describe()["reels"]["base"]]
    v = View(ReelBank(strips, 3, [0] * 5))
    bare = frame_of(v)
    assert "logo" in bare.sprites_drawn()
    v.status = "STATUS"
    v.band = Mark("band")
    v.on_reels.append(Mark("on_reels", covered=1))
    v.on_frame.append(Mark("on_frame"))
    v.overlays.append(Mark("top"))
    v.line_label = "LABEL"
    v.highlights = [(0, 0), (1, 0)]
    calls = frame_of(v)
    texts = calls.texts()
    assert "STATUS" not in texts  # the band takes the place of the status line and the logo
    assert "logo" not in calls.sprites_drawn()
    assert [t for t in texts if t in ("band", "on_reels", "on_frame", "LABEL", "top")] == [
        "band",
        "on_reels",
        "on_frame",
        "LABEL",
        "top",
    ]
    frame_at = next(i for i, c in enumerate(calls.calls) if c[:2] == ("sprite", "frame"))
    assert frame_at < next(i for i, c in enumerate(calls.calls) if c[:2] == ("text", "on_frame"))
    # The winning symbol of the covered reel is not drawn again over the dimmed window.
    reel0, reel1 = (r.symbol_at(r.stop) for r in v.reels.reels[:2])
    assert calls.sprites_drawn().count(reel0) == bare.sprites_drawn().count(reel0) + 1
    assert calls.sprites_drawn().count(reel1) == bare.sprites_drawn().count(reel1) + (reel1 == reel0)
    # A board in place of the reels: no reel symbol is drawn under it once it has faded in.
    v.highlights = []
    v.board = Mark("board")
    assert not set(frame_of(v).sprites_drawn()) & {s for strip in strips for s in strip}
    v.board = Mark("board", hides=False)
    assert "board" in frame_of(v).texts()
    assert set(frame_of(v).sprites_drawn()) & {s for strip in strips for s in strip}
    # A spin clears what is on and beside the reels; overlays stay with their feature.
    v.clear_reels()
    assert v.band is None
    assert v.board is None
    assert not v.on_reels
    assert not v.on_frame
    assert v.overlay(Mark) is v.overlays[0]
    v.remove(Mark)
    assert v.overlays == []


# -- the shared free-spins presentation ----------------------------------------------------------------
WORDS = {
    "freespins.counter": "SPIN {n}/{total} · {win}",
    "freespins.retrigger": "{count} EXTRA SPINS",
    "freespins.retrigger_said": "{count} extra spins.",
    "freespins.end": "FEATURE OVER",
    "freespins.end_detail": "{win} / {spins}",
    "freespins.end_said": "Feature over: {win} in {spins}.",
    "start_label": "GO",
}
"""A game's own words for the shared free spins (its catalogue overrides the shared one)."""


def test_free_spins_speak_the_game_words(monkeypatch: pytest.MonkeyPatch) -> None:
    """Any game's screen can use the shared free spins with its own words and no intro."""
    words.provide("tests.own_words", "en", WORDS)
    shared = FreeSpins()
    screen = GameScreen(handlers=shared.handlers, status=shared.status, words=words.of("tests.own_words"))
    monkeypatch.setitem(stage_module._SCREENS, GAME, screen)
    r = make_rig(find_seed("retrigger"), turbo=True)
    c = r.controller
    statuses: list[str] = []
    banners: set[str] = set()

    def watch(c: Controller) -> bool:
        if c.view.status and (not statuses or statuses[-1] != c.view.status):
            statuses.append(c.view.status)
        if c.view.banner is not None:
            banners.add(f"{c.view.banner.title}|{c.view.banner.subtitle}")
        if idle(c) and c.pending_kind == "feature_start":
            c.press("start_feature", c.now)
        return idle(c) and c.pending_kind in ("collect_or_gamble", None) and not c.meters.in_feature

    r.press("spin")
    r.until(watch, 900_000)
    log = round_log(r.session)
    starts = [e for e in log if isinstance(e, ev.FreeSpinStart)]
    end = next(e for e in log if isinstance(e, ev.FreeSpinsEnd))
    awarded = [e for e in log if isinstance(e, ev.FreeSpinsAwarded)]
    for s in starts:
        assert any(t.startswith(f"SPIN {s.number}/{s.total} · ") for t in statuses), s
    assert statuses[-1] == f"SPIN {starts[-1].number}/{starts[-1].total} · {FMT(end.win)}"
    assert f"{awarded[1].count} EXTRA SPINS|" in banners
    assert f"{awarded[1].count} extra spins." in r.host.announcements
    assert f"FEATURE OVER|{FMT(end.win)} / {end.spins}" in banners
    assert f"Feature over: {FMT(end.win)} in {end.spins}." in r.host.announcements
    assert r.host.posted("featureStart") == [{"feature": "free_spins", "spins": awarded[0].count}]
    assert r.host.posted("featureEnd") == [{"feature": "free_spins", "win": end.win, "spins": end.spins}]
    assert c.view.status == ""
    assert not c.meters.in_feature
    assert not any(GAMES_WORDS.search(t) for t in (*statuses, *banners))


def test_free_spins_come_back_after_a_reload_in_the_game_words(monkeypatch: pytest.MonkeyPatch) -> None:
    words.provide("tests.own_words", "en", WORDS)
    shared = FreeSpins()
    screen = GameScreen(handlers=shared.handlers, status=shared.status, rebuild=shared.rebuild,
                        words=words.of("tests.own_words"))
    monkeypatch.setitem(stage_module._SCREENS, GAME, screen)
    r = make_rig(find_seed("retrigger"), turbo=True)
    r.press("spin")
    r.until(lambda c: idle(c) and c.pending_kind == "feature_start", 120_000)
    r.press("start_feature")
    r.until(lambda c: c.meters.free_spin[0] == 3 and c.meters.in_feature, 300_000)
    b = restore_rig(r.host.snapshot, turbo=True)
    assert b.controller.meters.in_feature
    assert b.controller.meters.free_spin == r.controller.meters.free_spin
    assert b.controller.view.status == r.controller.view.status
    assert b.controller.view.status.startswith("SPIN 3/")


# -- the stage ---------------------------------------------------------------------------------------
def as_stage(c: Controller) -> Stage:
    """mypy --strict checks here that a Controller is a Stage (structurally)."""
    return c


def test_beats_see_the_controller_as_a_stage() -> None:
    r = make_rig(0)
    s = as_stage(r.controller)
    assert s.session.bet == r.session.bet
    assert s.screen is own_screen(GAME)
    assert s.desc["id"] == GAME


def test_client_modules_import_each_other_without_cycles() -> None:
    """Every relative import in web/slotui, TYPE_CHECKING ones included, goes one way."""
    deps: dict[str, set[str]] = {}
    for path in CLIENT.glob("*.py"):
        found: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.level == 1:
                found |= {node.module.split(".")[0]} if node.module else {a.name for a in node.names}
        deps[path.stem] = found & {p.stem for p in CLIENT.glob("*.py")}
    done: set[str] = set()

    def visit(name: str, path: tuple[str, ...]) -> None:
        assert name not in path, " -> ".join((*path, name))
        if name in done:
            return
        for d in sorted(deps[name]):
            visit(d, (*path, name))
        done.add(name)

    for name in sorted(deps):
        visit(name, ())
    assert "controller" not in deps["beats"] | deps["stage"]


def test_the_games_together_cover_every_event_type() -> None:
    """The shipped games and the fixture game play every event type (each game's client tests
    play its own: its kit's ``EVENT_TYPES``), and every registered game has a kit that says."""
    for gid in game_ids():
        get_game(gid)  # registers the game's own events, whatever ran before
    kits = {gid: GAME_EVENT_TYPES[gid] for gid in game_ids()}
    assert all(types >= {"round_start", "spin", "round_end"} for types in kits.values()), kits
    assert set().union(*kits.values()) == set(ev.EVENT_TYPES)
