"""Lucky Halloween's screen in CPython: each of the Pumpkin Rider's six features plays its own
beat (the entrance, then the reels reshuffled without royals, the lantern tree, the thrown
wilds, the dragged Mega Wild, the dropped scatters), a cauldron pick starts free spins on
their own reels with the counter, the ladder climbs through a green shortcut to COLLECT,
and a reload mid-ladder and mid free spins brings the feature back; the pages state the
Rider's chances, the ladder's finals and the win bound.

Seeds are found with the engine by a bounded search over the first round of a session
(the Rider's features are rare, one in a few hundred to two thousand spins).
"""

from __future__ import annotations

from dataclasses import replace

import functools
import re
from collections.abc import Callable

import pytest

from pyengine import events as ev
from pyengine.games import get_game
from pyengine.games.lucky_halloween import LadderClimb, LadderStart, LadderWin, RiderAppears, RiderSymbols
from pyengine.math.rtp import rtp_report
from pyengine.session import Session
from slotui.games import lucky_halloween as lh
from slotui.controller import Controller
from slotui.pages import PageContext
from slotui.pick import board
from slotui.render import draw
from tests.client_support import play_round as shared_play_round
from tests.client_support import (
    GAME_EVENT_TYPES,
    Clock,
    Rig,
    idle,
    make_rig,
    play_through,
    record_events,
    restore_rig,
)

GAME = "lucky_halloween"
SEARCH = range(0, 6000)
SPRITES = (
    "WILD",
    "FREE",
    "BONUS",
    "LANTERN",
    "SCARECROW",
    "CAT",
    "BAT",
    "A",
    "K",
    "Q",
    "J",
    "TEN",
    "background",
    "frame",
    "logo",
    "rider",
    "tree",
    "mega_wild",
    "cauldron",
    "cauldron_open",
    "pumpkin",
    "pumpkin_open",
    "pumpkin_collect",
)


# -- the engine --------------------------------------------------------------------------------
def first_round(seed: int) -> list[ev.Event]:
    """The first round of a session at ``seed``, every decision answered with its first choice."""
    return play_through(Session(GAME, seed=seed))


def find(prop: Callable[[list[ev.Event]], bool], what: str) -> int:
    for seed in SEARCH:
        if prop(first_round(seed)):
            return seed
    raise AssertionError(f"no seed in {SEARCH} has {what}: the game's data changed")


def rider(events: list[ev.Event]) -> str:
    return next((e.feature for e in events if isinstance(e, RiderAppears)), "")


def wins(events: list[ev.Event]) -> bool:
    return any(isinstance(e, ev.LineWin | ev.ScatterWin) for e in events)


@functools.cache
def feature_seed(feature: str) -> int:
    """A first round where the Rider brings ``feature`` (and, for the spin features, it pays)."""

    def prop(events: list[ev.Event]) -> bool:
        if rider(events) != feature:
            return False
        return feature in ("free_spins", "full_moon_bonus") or wins(events)

    return find(prop, f"the Rider's {feature}")


def _shortcut_collect(events: list[ev.Event]) -> bool:
    climbs = [e for e in events if isinstance(e, LadderClimb)]
    return any(c.position != c.landed for c in climbs) and len(climbs) >= 2 and climbs[-1].collect


@functools.cache
def shortcut_seed() -> int:
    """A ladder of several steps, through a green shortcut, ending with COLLECT."""
    return find(_shortcut_collect, "a ladder through a shortcut")


@functools.cache
def free_spins_seed() -> int:
    """Free spins with bonus spins from the Rider (a second cauldron pick)."""
    return find(
        lambda e: (
            any(isinstance(x, RiderAppears) and x.feature == "bonus_spins" for x in e)
            and not any(isinstance(x, LadderStart) for x in e)
        ),
        "free spins with bonus spins",
    )


# -- the screen -------------------------------------------------------------------------------------
def rig(seed: int, **kw: object) -> Rig:
    r = make_rig(seed, game=GAME, **kw)  # type: ignore[arg-type]
    r.canvas.sprites = set(SPRITES)
    return r


def play_round(r: Rig, watch: Callable[[Controller], None] | None = None) -> None:
    """Spin, press Start, open the first closed cell of every board, to the round's end."""
    shared_play_round(r, watch=watch, limit_ms=900_000.0)


class Seen:
    """What a round showed: overlays by type, banners, texts drawn, the band's multipliers."""

    def __init__(self) -> None:
        self.kinds: set[str] = set()
        self.banners: set[tuple[str, str]] = set()
        self.bands: set[int] = set()
        self.strips: set[str] = set()
        self.placed: dict[str, set[tuple[int, int]]] = {}
        self.lit: set[int] = set()
        self.markers: list[int] = []

    def __call__(self, c: Controller) -> None:
        v = c.view
        for o in (*v.on_reels, *v.overlays):
            self.kinds.add(type(o).__name__)
            if isinstance(o, lh.PlacedSymbols):
                self.placed.setdefault(o.symbol, set()).update(p for p, t in o.landed.items() if t <= c.now)
            if isinstance(o, lh.TreeOverlay):
                self.lit.add(o.values[o.lit(c.now)])
            if isinstance(o, lh.LadderOverlay) and (not self.markers or self.markers[-1] != o.position):
                self.markers.append(o.position)
        if isinstance(v.band, lh.MultiplierBand):
            self.bands.add(v.band.multiplier)
        if v.banner is not None:
            self.banners.add((v.banner.title, v.banner.subtitle))
        strips = [r.strip for r in v.reels.reels]
        for name, s in c.strips.items():
            if strips == s:
                self.strips.add(name)


def log_of(r: Rig) -> list[ev.Event]:
    s = r.session
    return list(s.round_events) if s.in_round else list(s.last_round.events if s.last_round else ())


# -- 0. every event type ----------------------------------------------------------------------------
def test_every_lucky_halloween_event_type_is_played(monkeypatch: pytest.MonkeyPatch) -> None:
    """The Rider's six features, free spins with bonus spins, a ladder through a shortcut and
    a jackpot drop: together every Lucky Halloween event type; the controller plays each
    round's whole log in order."""
    seen: set[str] = set()
    seeds = [feature_seed(f) for f in FEATURES] + [free_spins_seed(), shortcut_seed()]
    with record_events(monkeypatch) as played:
        for seed in seeds:
            played.events.clear()
            r = rig(seed, turbo=True)
            play_round(r)
            assert played.events == log_of(r), seed
            seen |= played.types
        # The time jackpot: a few spins feed the pot, then the clock passes its deadline.
        clock = Clock()
        r = rig(seeds[0], turbo=True, clock=clock)
        s = r.session
        for _ in range(3):
            play_through(s)
        assert s.jackpot is not None
        clock.t = s.jackpot.deadline_ms / 1000 + 5
        r.controller.resume()
        played.events.clear()
        play_round(r)
        assert any(isinstance(e, ev.JackpotWin) for e in log_of(r))
        assert played.events == log_of(r)
        seen |= played.types
    assert seen == GAME_EVENT_TYPES[GAME]


# -- 1. the Rider's six features ---------------------------------------------------------------------
FEATURES = ("special_reels", "pumpkin_tree", "random_wilds", "mega_wild", "free_spins", "full_moon_bonus")


@pytest.mark.parametrize("feature", FEATURES)
def test_each_rider_feature_plays_its_own_beat(feature: str) -> None:
    r = rig(feature_seed(feature), turbo=True)
    seen = Seen()
    play_round(r, seen)
    log = log_of(r)
    name = lh.FEATURE_NAMES[feature].upper()
    assert ("THE PUMPKIN RIDER", name) in seen.banners
    assert "EntranceRider" in seen.kinds
    assert any(f"The Pumpkin Rider appears: {lh.FEATURE_NAMES[feature]}!" == a for a in r.host.announcements)
    placed = next((e for e in log if isinstance(e, RiderSymbols)), None)
    if feature == "special_reels":
        assert "ShuffleOverlay" in seen.kinds
        assert "special" in seen.strips
        spin = next(e for e in log if isinstance(e, ev.Spin))
        assert spin.phase == "special"
        assert not {"TEN", "J", "Q", "K", "A"} & {s for col in spin.window for s in col}
    elif feature == "pumpkin_tree":
        mult = next(e for e in log if isinstance(e, ev.WinMultiplier)).multiplier
        assert "TreeOverlay" in seen.kinds
        assert len(seen.lit) > 1, "the light runs over the lanterns"
        assert seen.bands == {mult}
        assert isinstance(r.controller.view.band, lh.MultiplierBand)
    elif feature == "random_wilds":
        assert placed is not None
        assert "HeadFlight" in seen.kinds
        assert seen.placed["WILD"] == {(int(a), int(b)) for a, b in placed.positions}
    elif feature == "mega_wild":
        assert placed is not None
        assert {"MegaWild", "DraggingRider"} <= seen.kinds
        mega = r.controller.view.overlay(lh.MegaWild)
        assert mega is not None
        left = min(p[0] for p in placed.positions)
        assert mega.left == left
        assert [mega.covers(i) for i in range(5)] == [left <= i < left + 3 for i in range(5)]
    else:
        assert placed is not None
        symbol = "FREE" if feature == "free_spins" else "BONUS"
        assert placed.symbol == symbol
        assert seen.placed[symbol] == {(int(a), int(b)) for a, b in placed.positions}
    end = next(e for e in log if isinstance(e, ev.RoundEnd))
    assert r.controller.meters.win == end.win
    assert r.controller.meters.balance == r.session.balance


def test_the_rider_respects_reduced_motion() -> None:
    r = rig(feature_seed("mega_wild"), reduced_motion=True)
    r.press("spin")
    r.until(lambda c: c.view.overlay(lh.EntranceRider) is not None, 10_000)
    entrance = r.controller.view.overlay(lh.EntranceRider)
    assert entrance is not None
    assert entrance.still
    r.run(30)
    assert entrance.x0 == entrance.x1, "with reduced motion the Rider does not gallop"
    seen = Seen()
    xs: set[float] = set()

    def done(c: Controller) -> bool:
        seen(c)
        mega = c.view.overlay(lh.MegaWild)
        if mega is not None:
            xs.add(round(mega.x_at(r.layout, c.now), 3))
        return idle(c) and not c.session.in_round

    r.until(done, 60_000)
    assert "MegaWild" in seen.kinds
    assert "DraggingRider" not in seen.kinds, "nobody drags: the Mega Wild is placed"
    assert len(xs) == 1, "the Mega Wild does not slide"
    # The tree lights its multiplier at once, and the thrown wilds only appear.
    for feature, moving in (("pumpkin_tree", "TreeOverlay"), ("random_wilds", "HeadFlight")):
        t = rig(feature_seed(feature), reduced_motion=True)
        seen = Seen()
        play_round(t, seen)
        log = log_of(t)
        if feature == "pumpkin_tree":
            assert seen.lit == {next(e for e in log if isinstance(e, ev.WinMultiplier)).multiplier}
        else:
            assert moving not in seen.kinds
            assert seen.placed["WILD"]


# -- 2. a cauldron pick and free spins with bonus spins ----------------------------------------------
def test_a_cauldron_pick_starts_free_spins_on_their_own_reels_and_bonus_spins_come_from_a_second_pick() -> None:
    r = rig(free_spins_seed(), turbo=True)
    r.press("spin")
    r.until(lambda c: idle(c) and c.pending_kind == "feature_start")
    card = r.controller.view.intro
    assert card is not None
    assert card.waiting
    r.run(20)
    assert "FREE SPINS" in r.canvas.texts()
    r.press("start_feature")
    r.until(lambda c: idle(c) and c.context() == "pick")
    overlay = board(r.controller)
    assert overlay is not None
    assert overlay.name == "cauldron"
    assert len(overlay.cells) == 3
    r.run(20)
    assert r.canvas.sprites_drawn().count("cauldron") == 3
    assert "PICK A CAULDRON" in r.canvas.texts()
    # A tap on the middle cauldron opens it.
    x0, y0, size, gap = overlay.geometry(r.layout)
    r.controller.tap(x0 + size * 1.5 + gap, y0 + size / 2, r.layout)
    reveal = next(e for e in log_of(r) if isinstance(e, ev.PickReveal))
    assert reveal.cell == 1
    awarded = next(e for e in log_of(r) if isinstance(e, ev.FreeSpinsAwarded))
    r.until(lambda c: c.view.banner is not None and c.view.banner.title == f"{awarded.count} FREE SPINS", 20_000)
    r.until(lambda c: c.meters.free_spin[0] >= 1 and not c.view.reels.moving, 60_000)
    assert r.controller.view.phase == "free"
    assert [x.strip for x in r.controller.view.reels.reels] == r.controller.strips["free"]
    assert r.controller.view.status.startswith(f"FREE SPIN {r.controller.meters.free_spin[0]} OF {awarded.total}")
    seen = Seen()

    def go(c: Controller) -> bool:
        seen(c)
        b = board(c)
        if idle(c) and c.pending_kind == "pick" and b is not None:
            assert b.name == "bonus_cauldron"
            c.press(f"pick:{b.closed()[0]}", c.now)
        return idle(c) and not c.session.in_round

    r.until(go, 900_000)
    log = log_of(r)
    extra = next(e for e in log if isinstance(e, ev.FreeSpinsAwarded) and e.retrigger)
    assert (f"+{extra.count} BONUS SPINS", "") in seen.banners
    assert ("THE PUMPKIN RIDER", "BONUS SPINS") in seen.banners
    end = next(e for e in log if isinstance(e, ev.FreeSpinsEnd))
    assert any(b[0] == "FREE SPINS WIN" for b in seen.banners)
    assert r.controller.meters.win == next(e for e in log if isinstance(e, ev.RoundEnd)).win
    assert end.spins == extra.total


# -- 3. the ladder: a climb through a shortcut to COLLECT ---------------------------------------------
def test_the_ladder_climbs_through_a_green_shortcut_to_collect() -> None:
    r = rig(shortcut_seed(), turbo=True)
    seen = Seen()
    messages: set[str] = set()
    boards: list[tuple[float, bool]] = []

    def watch(c: Controller) -> None:
        seen(c)
        ladder = c.view.overlay(lh.LadderOverlay)
        if ladder is not None and ladder.message:
            messages.add(ladder.message)
        b = board(c)
        if b is not None and b.waiting and (not boards or boards[-1][0] != b.started):
            boards.append((b.started, c.view.overlays.index(b) > c.view.overlays.index(ladder) if ladder else False))

    play_round(r, watch)
    log = log_of(r)
    climbs = [e for e in log if isinstance(e, LadderClimb)]
    win = next(e for e in log if isinstance(e, LadderWin))
    start = next(e for e in log if isinstance(e, LadderStart))
    cut = next(c for c in climbs if c.position != c.landed)
    assert len(boards) == len(climbs), "a new set of pumpkins for every step"
    assert all(above for _, above in boards), "the pumpkins lie over the ladder"
    # The marker stood on every rung a climb ended on, the shortcut's far end included.
    assert [0, *(c.position for c in climbs)] == seen.markers[: len(climbs) + 1]
    assert cut.position in seen.markers
    assert cut.landed not in seen.markers
    assert any(m.startswith("GREEN SHORTCUT!") for m in messages)
    assert f"COLLECT {win.multiplier:,}×" in messages
    assert ("FULL MOON BONUS", f"{win.multiplier:,}× THE BET: {r.controller.fmt(win.win)}") in seen.banners
    assert r.host.posted("featureStart")[0] == {
        "feature": "full_moon_bonus",
        "count": start.count,
        "minimum_x": start.minimum_x,
    }
    assert r.host.posted("featureEnd")[-1]["win"] == win.win
    assert r.controller.view.overlay(lh.LadderOverlay) is None
    assert r.controller.meters.win == next(e for e in log if isinstance(e, ev.RoundEnd)).win


def test_the_ladder_draws_its_rungs_shortcuts_and_the_pumpkins() -> None:
    r = rig(shortcut_seed())
    r.press("spin")
    r.until(lambda c: idle(c) and c.pending_kind == "feature_start")
    r.press("start_feature")
    r.until(lambda c: idle(c) and c.context() == "pick")
    overlay = board(r.controller)
    assert overlay is not None
    assert overlay.name == "pumpkins"
    assert len(overlay.cells) == 6
    r.canvas.take()
    draw(r.canvas, r.layout, r.controller.view, r.now + 400)
    calls = r.canvas.take()
    texts = [str(c[1]) for c in calls if c[0] == "text"]
    for x in (3, 19, 20, 60, 100, 800):
        assert f"{x:,}×" in texts
    assert "START" in texts
    assert "MIN" in texts
    assert "PICK A PUMPKIN" in texts
    greens = [c for c in calls if c[0] == "polyline" and c[2] == lh.GREEN]
    assert len(greens) == 4, "the two green shortcuts, each with its arrowhead"
    assert [c[1] for c in calls if c[0] == "sprite"].count("pumpkin") == 6
    # The pumpkins sit below the ladder, inside the reel window, and do not dim the ladder.
    ladder_rect, _pumpkins_rect = lh.ladder_rects(r.layout)
    _x0, y0, size, _ = overlay.geometry(r.layout)
    assert y0 >= ladder_rect[1] + ladder_rect[3] - 1
    assert y0 + size <= r.layout.reels_y + r.layout.reels_h + 1
    whole = [c for c in calls if c[0] == "fill_rect" and c[1:5] == (0, 0, r.layout.width, r.layout.height)]
    assert len(whole) == 1, "only the ladder's own shade: the pumpkins' board does not dim it"
    # The keyboard picks too: digit 3 opens the third pumpkin.
    r.press("pick:2")
    assert next(e for e in log_of(r) if isinstance(e, ev.PickReveal)).cell == 2


# -- 4. recovery ------------------------------------------------------------------------------------------
def test_a_reload_mid_ladder_brings_back_the_ladder_the_marker_and_the_pumpkins() -> None:
    r = rig(shortcut_seed(), turbo=True)
    r.press("spin")
    r.until(lambda c: idle(c) and c.pending_kind == "feature_start")
    r.press("start_feature")
    r.until(lambda c: idle(c) and c.context() == "pick")
    r.press("pick:0")
    r.until(lambda c: idle(c) and c.context() == "pick")
    climbs = [e for e in log_of(r) if isinstance(e, LadderClimb)]
    assert len(climbs) == 1
    assert not climbs[0].collect
    back = restore_rig(r.host.snapshot, game=GAME)
    back.canvas.sprites = set(SPRITES)
    ladder = back.controller.view.overlay(lh.LadderOverlay)
    overlay = board(back.controller)
    assert ladder is not None
    assert ladder.position == climbs[0].position
    assert overlay is not None
    assert overlay.name == "pumpkins"
    assert overlay.waiting
    assert back.controller.view.overlays.index(overlay) > back.controller.view.overlays.index(ladder)
    assert back.host.state == "feature"
    back.run(40)
    assert "PICK A PUMPKIN" in back.canvas.texts()
    play_on(back)
    assert back.session.last_round is not None
    assert (
        back.session.last_round.win == next(e for e in first_round(shortcut_seed()) if isinstance(e, ev.RoundEnd)).win
    )


def play_on(r: Rig) -> None:
    def done(c: Controller) -> bool:
        if idle(c) and c.pending_kind == "pick" and (b := board(c)) is not None:
            c.press(f"pick:{b.closed()[0]}", c.now)
        return idle(c) and not c.session.in_round

    r.until(done, 900_000)


def test_a_reload_mid_free_spins_brings_back_the_counter_on_the_free_reels() -> None:
    r = rig(free_spins_seed(), turbo=True)
    r.press("spin")
    r.until(lambda c: idle(c) and c.pending_kind == "feature_start")
    r.press("start_feature")
    r.until(lambda c: idle(c) and c.context() == "pick")
    r.press("pick:0")
    r.until(lambda c: c.meters.free_spin[0] >= 1 and c.pending_kind == "free_spin" and not c.presenting, 60_000)
    starts = [e for e in log_of(r) if isinstance(e, ev.FreeSpinStart)]
    back = restore_rig(r.host.snapshot, game=GAME)
    c = back.controller
    assert c.meters.in_feature
    assert c.view.phase == "free"
    assert c.meters.free_spin == (starts[-1].number, starts[-1].total)
    assert c.view.status.startswith(f"FREE SPIN {starts[-1].number} OF {starts[-1].total}")
    assert [x.strip for x in c.view.reels.reels] == c.strips["free"]
    play_on(back)
    assert back.session.last_round is not None
    assert (
        back.session.last_round.win == next(e for e in first_round(free_spins_seed()) if isinstance(e, ev.RoundEnd)).win
    )


def test_a_reload_at_start_shows_the_card_and_after_the_round_the_riders_symbols() -> None:
    r = rig(feature_seed("full_moon_bonus"), turbo=True)
    r.press("spin")
    r.until(lambda c: idle(c) and c.pending_kind == "feature_start")
    back = restore_rig(r.host.snapshot, game=GAME)
    card = back.controller.view.intro
    assert card is not None
    assert card.waiting
    assert getattr(card, "title", "") == "FULL MOON BONUS"
    placed = back.controller.view.overlay(lh.PlacedSymbols)
    assert placed is not None
    assert placed.symbol == "BONUS"
    # A finished Mega Wild round shows the Mega Wild after a reload.
    m = rig(feature_seed("mega_wild"), turbo=True)
    play_round(m)
    again = restore_rig(m.host.snapshot, game=GAME)
    assert again.controller.view.overlay(lh.MegaWild) is not None


# -- 5. pages -----------------------------------------------------------------------------------------------
@functools.cache
def figures() -> dict[str, object]:
    """The lobby's figures, as the build writes them from the math report."""
    report = rtp_report(GAME)
    return {k: report[k] for k in ("rtp", "max_win_x", "max_win_bound", "max_win_odds", "page")}


def page_context() -> PageContext:
    s = Session(GAME, seed=1)
    desc = s.game.describe()
    return PageContext(
        desc=desc,
        info=figures(),
        fmt=s.game.bets.format,
        assets="static/games/lucky_halloween",
        bet_per_line=5,
        lines=20,
        stake=100,
    )


def test_the_ladders_finals_are_the_rule_documents_lists() -> None:
    """The rules page lists the prizes a climb can end on from the math report's exact
    finals (the screen does not search the ladder itself): the rule document's lists."""
    report = rtp_report(GAME)
    ends = {n: sorted(int(x) for x, p in d.items() if p) for n, d in report["page"]["ladder_finals"].items()}
    assert ends["3"] == [12, 15, 16, 17, 18, 30, 40, 60, 80, 100, 300, 400, 500, 800]
    assert ends["4"] == [17, 18, 30, 40, 60, 80, 100, 300, 400, 500, 800]
    assert ends["5"] == [40, 60, 80, 100, 300, 400, 500, 800]
    html = lh.rules_html(page_context())
    for n, xs in ends.items():
        item = next(li for li in html.split("<li>") if li.startswith(f"{n} "))
        assert re.findall(r"([\d,]+)× \(", item) == [f"{x:,}" for x in xs], item
        assert len(re.findall(r"\(([\d.e-]+)%\)", item)) == len(xs)
    # Without the report's figures (a page built before the proof), no list is made up.
    bare = lh.rules_html(replace(page_context(), info={}))
    assert "So the prizes you can win are" not in bare
    assert "The pumpkins are filled before you pick" in bare


def test_the_rules_state_the_riders_fixed_chances_and_the_win_bound() -> None:
    ctx = page_context()
    html = lh.rules_html(ctx)
    assert "His chances are fixed" in html
    for text in ("1 in 200 (500 in 100,000)", "1 in 2,000 (50 in 100,000)", "1 in 80"):
        assert text in html
    assert not re.search(r"1 in ([\d,.]+) \(1 in \1\)", html)  # a chance is never said twice over
    report = rtp_report(GAME)
    assert report["max_win_bound"] is True
    assert f"<b>{report['max_win_x']:,}×</b> the total bet (a proven bound" in html  # the report's figure
    assert "no win cap" in html.lower()
    assert "at most 3 times" in html
    assert "19× → 60×" in html
    assert "20× → 100×" in html


def test_the_paytable_shows_multipliers_of_the_total_bet() -> None:
    html = lh.paytable_html(page_context())
    assert "multipliers of the total bet, not credits" in html
    # The Jack-o'-Lantern's 5 pays 1000 bets per line: 50x the total bet, 50.00 at a 1.00 bet.
    assert '<span class="mult">50×</span> 50.00' in html
    assert "800×" in html
    assert "FREE.svg" in html
    assert "BONUS.svg" in html
    assert html.count('<tr class="shortcut">') == 4


def test_the_history_names_what_the_rider_and_the_features_did() -> None:
    """Each Rider feature by name with what it placed or multiplied, the cauldron picked and
    what the others held, the free spins' win and the ladder's rung and win, as in the events."""
    g = get_game("lucky_halloween")
    names = {s["id"]: s["name"] for s in g.describe()["symbols"]}
    s = Session("lucky_halloween", seed=1, balance=10**10, clock=lambda: 1.7e9)
    riders: set[str] = set()
    ladders = cauldrons = 0
    for _ in range(3000):
        s.spin()
        while s.pending is not None:
            s.choose(s.pending.choices[0])
        r = s.last_round
        assert r is not None
        said = lh.history_board(r, g.bets.format, "a", names)
        for i, e in enumerate(r.events):
            if isinstance(e, RiderAppears):
                riders.add(e.feature)
                assert f"Pumpkin Rider: {lh.FEATURE_NAMES[e.feature]}" in said
                nxt = r.events[i + 1] if i + 1 < len(r.events) else None
                if isinstance(nxt, ev.WinMultiplier):
                    assert f"{lh.FEATURE_NAMES[e.feature]} ×{nxt.multiplier}" in said
            elif isinstance(e, RiderSymbols):
                assert f"{len(e.positions)} × {names[e.symbol]} placed" in said
            elif isinstance(e, LadderWin):
                ladders += 1
                assert f"rung {e.rung}, {e.multiplier}× the total bet, win {g.bets.format(e.win)}" in said
            elif isinstance(e, ev.PickEnd) and e.name != lh.PUMPKINS:
                cauldrons += 1
                picked = next(x for x in reversed(r.events[:i]) if isinstance(x, ev.PickReveal))
                assert f"Cauldron: {picked.prize} spins (the others held {', '.join(e.prizes)})" in said
            elif isinstance(e, ev.FreeSpinsEnd):
                assert f"{e.spins} free spins, win {g.bets.format(e.win)}" in said
    assert riders >= {"special_reels", "pumpkin_tree", "random_wilds", "mega_wild", "free_spins", "full_moon_bonus"}
    assert ladders
    assert cauldrons
