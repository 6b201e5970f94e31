"""slotui on a real Full Moon Fever session: the Winfalls title card, the pet screen (a pet
chosen by tap, by digit key and by arrows + Enter, its own PAYTABLE button), the pet's
transformation, the alter-ego pictures, a cascade step by step (burst, fall, the step's
win counted up), the multiplier meter, the free-spin counter and the feature total,
recovery mid-cascade and mid-feature, the bets that fit the balance (Max Bet disabled
while short, the bet stepping down), the pages and the drawing budget.

Seeds are not pinned: each comes from the engine (the first session seed whose first round
has what the test needs).
"""

from __future__ import annotations

import functools
from typing import Any

import pytest

from pyengine import events as ev
from pyengine.games import get_game
from pyengine.model import Bet
from pyengine.session import Session
from slotui.beats import screen_for
from slotui.cascade import CascadeBeat, CascadeBoard, MultiplierMeter, StepBeat, fall_plan
from slotui.controller import Controller
from slotui.expanding import ExpandingSymbol
from slotui.games.full_moon_fever import EGO_SUFFIX, PETS, PetTransform, alter_ego_forms
from slotui.intro import FeatureCard
from slotui.keys import action_for_key
from slotui.pages import PageContext, page_html
from slotui.pick import PickOverlay, board
from slotui.render import draw
from tests.client_support import (
    GAME_EVENT_TYPES,
    Rig,
    idle,
    make_rig,
    play_round,
    play_through,
    record_events,
    restore_rig,
    round_log,
)

FMF = "full_moon_fever"
GAME = get_game(FMF)
DESC: dict[str, Any] = GAME.describe()
FMT = GAME.bets.format
WINFALLS = DESC["winfalls"]
EGOS: dict[str, str] = dict(WINFALLS["alter_egos"])
SYMBOLS = [s["id"] for s in DESC["symbols"]]
SPRITES = {*SYMBOLS, *PETS, *(s + EGO_SUFFIX for s in SYMBOLS if s not in {"PET", *EGOS.values()})}
ASSETS = "static/games/full_moon_fever"


# -- seeds, found with the engine -------------------------------------------------------------------
def first_round(seed: int) -> list[ev.Event]:
    return play_through(Session(FMF, seed=seed))


def _reaches(events: list[ev.Event], at_least: int) -> bool:
    return any(isinstance(e, ev.WinMultiplier) and e.multiplier >= at_least for e in events)


@functools.cache
def seed_of(kind: str) -> int:
    """``winfalls``: the first round starts Winfalls with a free spin reaching ×3 or more;
    ``loss``: a first round without a win."""
    for n in range(20_000):
        events = first_round(n)
        if kind == "winfalls" and _reaches(events, 3):
            return n
        if kind == "loss" and not any(e.category == "win" for e in events):
            return n
    raise AssertionError(f"no seed of kind {kind}")


def rig(seed: int, **kw: Any) -> Rig:
    r = make_rig(seed, game=FMF, **kw)
    r.canvas.sprites |= SPRITES
    return r


def to_pets(r: Rig) -> PickOverlay:
    """Spin into Winfalls, press Start on the title card, wait for the pet screen."""
    r.press("spin")
    r.until(lambda c: idle(c) and c.pending_kind == "feature_start")
    card = r.controller.view.overlay(FeatureCard)
    assert card is not None
    assert card.title == "WINFALLS"
    assert card.waiting
    r.press("start_feature")
    r.until(lambda c: idle(c) and c.context() == "pick")
    overlay = board(r.controller)
    assert overlay is not None
    return overlay


def chosen(c: Controller) -> str:
    events = c.session.round_events if c.session.in_round else c.session.last_round.events  # type: ignore[union-attr]
    return next(e.prize for e in events if isinstance(e, ev.PickReveal))


def center(r: Rig, overlay: PickOverlay, cell: int) -> tuple[float, float]:
    x0, y0, size, gap = overlay.geometry(r.layout)
    return x0 + cell * (size + gap) + size / 2, y0 + size / 2


def after_transform(r: Rig) -> None:
    """Play on until the transformation is over and the first free spin is asked for."""
    r.until(lambda c: c.view.overlay(PetTransform) is None and c.view.forms != {} and not c.presenting)


# -- every event type -------------------------------------------------------------------------------
def test_every_full_moon_fever_event_type_is_played(monkeypatch: pytest.MonkeyPatch) -> None:
    with record_events(monkeypatch) as played:
        r = rig(seed_of("winfalls"), turbo=True)
        play_round(r, watch=lambda c: c.press("pick:0", c.now) if c.context() == "pick" and idle(c) else None)
        assert played.events == round_log(r.session)
    assert played.types == GAME_EVENT_TYPES[FMF]


# -- the pet screen ---------------------------------------------------------------------------------
def test_the_pet_screen_shows_four_pets_and_a_tap_chooses_one_that_transforms() -> None:
    r = rig(seed_of("winfalls"))
    overlay = to_pets(r)
    assert [cell.face for cell in overlay.cells] == list(PETS)
    assert overlay.waiting
    r.run(50)
    texts = r.canvas.texts()
    assert "CHOOSE A PET TO FEED" in texts
    assert "PAYTABLE" in texts
    assert {"DOG", "CAT", "PARROT", "HAMSTER"} <= set(r.canvas.sprites_drawn())
    x, y = center(r, overlay, 1)
    r.controller.tap(x, y, r.layout)
    assert chosen(r.controller) == "CAT"
    r.until(lambda c: c.view.overlay(PetTransform) is not None)
    transform = r.controller.view.overlay(PetTransform)
    assert transform is not None
    assert (transform.pet, transform.ego) == ("CAT", "PANTHER")
    assert transform.lines[0] == "THE CAT BECOMES THE PANTHER"
    after_transform(r)
    v = r.controller.view
    assert v.forms == alter_ego_forms(DESC, "CAT")
    assert v.forms["PET"] == "PANTHER"
    assert v.forms["GRANNY"] == "GRANNY_EGO"
    badge = v.overlay(ExpandingSymbol)
    assert badge is not None
    assert badge.symbol == "PANTHER"
    assert board(r.controller) is None
    assert any("becomes the Panther" in a for a in r.host.announcements)


@pytest.mark.parametrize("keys", [("Digit4",), ("ArrowRight", "ArrowRight", "Enter")])
def test_a_pet_is_chosen_by_keyboard(keys: tuple[str, ...]) -> None:
    r = rig(seed_of("winfalls"), turbo=True)
    to_pets(r)
    for key in keys:
        action = action_for_key(key, r.controller.context())
        assert action is not None
        r.press(action)
    assert chosen(r.controller) == ("HAMSTER" if keys == ("Digit4",) else "PARROT")
    after_transform(r)
    assert r.controller.view.forms["PET"] == EGOS[chosen(r.controller)]


def test_the_pet_screens_paytable_button_opens_the_winfalls_paytable() -> None:
    r = rig(seed_of("winfalls"))
    overlay = to_pets(r)
    rect = overlay.button_rect(r.layout)
    assert rect is not None
    x, y, w, h = rect
    r.controller.tap(x + w / 2, y + h / 2, r.layout)
    assert r.host.dialogs == ["paytable"]
    assert r.controller.context() == "pick"  # nothing was picked
    html = page("paytable", pending="pick")
    assert html.index('id="winfalls-paytable"') < html.index('id="base-paytable"')
    between = page("paytable")
    assert between.index('id="base-paytable"') < between.index('id="winfalls-paytable"')


# -- cascades ---------------------------------------------------------------------------------------
def test_fall_plan_moves_survivors_down_and_drops_new_symbols_from_above() -> None:
    plan = fall_plan(3, [(0, 1), (2, 0), (2, 2)], 4)
    assert plan[0] == [-1.0, 0.0, 2.0]  # the top symbol falls one row; one new one from above
    assert plan[1] == [0.0, 1.0, 2.0]  # untouched
    assert plan[2] == [-2.0, -1.0, 1.0]
    assert plan[3] == [0.0, 1.0, 2.0]


def test_a_cascade_plays_step_by_step_with_the_meter_climbing() -> None:
    r = rig(seed_of("winfalls"))
    to_pets(r)
    r.press("pick:0")
    after_transform(r)
    seen: list[tuple[str, Any]] = []
    meters: list[int | None] = []
    frames_in_fall = 0

    def watch(c: Controller) -> bool:
        nonlocal frames_in_fall
        beat = c.beat
        band = c.view.band
        if isinstance(band, MultiplierMeter) and (not meters or meters[-1] != band.value):
            meters.append(band.value)
        if isinstance(beat, StepBeat):
            b = c.view.board
            assert isinstance(b, CascadeBoard)
            if not seen or seen[-1][0] != "step":
                seen.append(("step", beat.total))
            assert b.step_text.endswith(c.fmt(int(c.meters.win - beat.from_win))) or beat.hurried
        if isinstance(beat, CascadeBeat):
            b = c.view.board
            assert isinstance(b, CascadeBoard)
            if b.burst:
                if not seen or seen[-1] != ("burst", beat.e.number):
                    seen.append(("burst", beat.e.number))
                    assert b.burst == frozenset(beat.e.removed)
            elif b.falling(c.now):
                frames_in_fall += 1
            elif beat.falling:
                assert b.columns == [list(col) for col in beat.e.window]
        return c.meters.free_spin[0] == 1 and not c.presenting and c.pending_kind == "free_spin"

    r.until(watch, 200_000)
    spin = _free_spin_events(round_log(r.session), 1)
    steps = [e for e in spin if isinstance(e, ev.Cascade)]
    assert [s for s in seen if s[0] == "burst"] == [("burst", e.number) for e in steps]
    assert len([s for s in seen if s[0] == "step"]) == len(steps)
    assert frames_in_fall > 5  # the fall is animated, frame by frame
    # The meter: unset at the spin's start, then each rung in turn.
    values = [e.multiplier for e in spin if isinstance(e, ev.WinMultiplier)]
    assert meters[0] is None
    assert [m for m in meters if m is not None][: len(values)] == values
    # The win meter counted every step's win; the counter shows the feature's win so far.
    assert r.controller.meters.feature_win == sum(int(getattr(e, "win", 0)) for e in spin if e.category == "win")
    assert r.controller.view.status.startswith("WINFALLS · FREE SPIN 1 OF")


def _free_spin_events(events: list[ev.Event], number: int) -> list[ev.Event]:
    """The events of free spin ``number`` (from its start to the next decision)."""
    start = next(i for i, e in enumerate(events) if isinstance(e, ev.FreeSpinStart) and e.number == number)
    end = next(
        (i for i in range(start + 1, len(events)) if isinstance(events[i], ev.DecisionPending | ev.FreeSpinsEnd)),
        len(events),
    )
    return events[start:end]


def test_a_spin_reaching_x3_lights_the_third_rung_and_draws_alter_egos() -> None:
    r = rig(seed_of("winfalls"), turbo=True)
    to_pets(r)
    r.press("pick:0")
    after_transform(r)

    def reached(c: Controller) -> bool:
        band = c.view.band
        return isinstance(band, MultiplierMeter) and band.value is not None and band.value >= 3

    r.until(reached, 600_000)
    r.run(40)
    texts = r.canvas.texts()
    assert {"×1", "×2", "×3", "×4", "×5"} <= set(texts)
    drawn = set(r.canvas.sprites_drawn())
    assert drawn & {s + EGO_SUFFIX for s in SYMBOLS}, "the symbols are drawn in their alter-ego form"
    regular = {s for s in SYMBOLS if s not in {"PET", *EGOS.values(), "WILD", "HOUSE"}}
    assert not drawn & regular, "no symbol in its normal form during Winfalls"


def test_the_feature_total_shows_at_the_end_and_the_normal_game_returns() -> None:
    r = rig(seed_of("winfalls"), turbo=True)
    banners: set[tuple[str, str]] = set()

    def watch(c: Controller) -> None:
        if c.context() == "pick" and idle(c):
            c.press("pick:2", c.now)
        if c.view.banner is not None:
            banners.add((c.view.banner.title, c.view.banner.subtitle))

    play_round(r, watch=watch)
    end = next(e for e in round_log(r.session) if isinstance(e, ev.FreeSpinsEnd))
    assert ("WINFALLS WIN", f"{FMT(end.win)} in {end.spins} free spins") in banners
    v = r.controller.view
    assert v.forms == {}
    assert v.overlay(ExpandingSymbol) is None
    assert not isinstance(v.band, MultiplierMeter)
    assert r.host.controls.win == FMT(r.session.last_round.win)  # type: ignore[union-attr]
    # The base game's reels are back, where the spin that won Winfalls stopped: no pet slot
    # (a symbol of the free spins' strips only) is left on them.
    base = next(e for e in round_log(r.session) if isinstance(e, ev.Spin) and e.phase == "base")
    assert [reel.strip for reel in v.reels.reels] == r.controller.strips["base"]
    assert [reel.stop for reel in v.reels.reels] == list(base.stops)
    assert not any("PET" in reel.strip for reel in v.reels.reels)


# -- recovery ---------------------------------------------------------------------------------------
def test_reload_mid_cascade_shows_the_spins_final_window_and_multiplier() -> None:
    r = rig(seed_of("winfalls"))
    to_pets(r)
    r.press("pick:3")
    after_transform(r)
    r.until(lambda c: isinstance(c.beat, CascadeBeat) and c.meters.free_spin[0] >= 1, 200_000)
    spin_no = r.controller.meters.free_spin[0]
    back = restore_rig(r.host.snapshot, game=FMF)
    c = back.controller
    events = list(back.session.round_events)
    spin = _free_spin_events(events, spin_no)
    last = [e for e in spin if isinstance(e, ev.Cascade)][-1]
    top = [e.multiplier for e in spin if isinstance(e, ev.WinMultiplier)][-1]
    assert isinstance(c.view.board, CascadeBoard)
    assert c.view.board.columns == [list(col) for col in last.window]
    assert isinstance(c.view.band, MultiplierMeter)
    assert c.view.band.value == top
    assert c.meters.free_spin[0] == spin_no
    assert c.view.forms == alter_ego_forms(DESC, "HAMSTER")
    assert c.view.status.startswith(f"WINFALLS · FREE SPIN {spin_no} OF")
    # The reloaded page plays on to the same end.
    back.until(lambda c: idle(c) and not c.session.in_round, 900_000)
    assert back.session.last_round is not None


def test_reload_at_the_title_card_and_at_the_pet_screen() -> None:
    r = rig(seed_of("winfalls"))
    r.press("spin")
    r.until(lambda c: idle(c) and c.pending_kind == "feature_start")
    back = restore_rig(r.host.snapshot, game=FMF)
    card = back.controller.view.overlay(FeatureCard)
    assert card is not None
    assert card.waiting
    assert back.controller.context() == "feature_start"
    back.press("start_feature")
    back.until(lambda c: idle(c) and c.context() == "pick")
    again = restore_rig(back.host.snapshot, game=FMF)
    overlay = board(again.controller)
    assert overlay is not None
    assert overlay.waiting
    assert [cell.face for cell in overlay.cells] == list(PETS)
    assert overlay.look.button_text == "PAYTABLE"
    again.canvas.sprites |= SPRITES
    again.press("pick:1")
    assert chosen(again.controller) == "CAT"


def test_reload_between_free_spins_keeps_the_pet_and_the_counter() -> None:
    r = rig(seed_of("winfalls"), turbo=True)
    to_pets(r)
    r.press("pick:1")
    r.until(lambda c: c.meters.free_spin[0] >= 2 and not c.presenting and c.pending_kind == "free_spin", 600_000)
    back = restore_rig(r.host.snapshot, game=FMF)
    c = back.controller
    assert c.meters.in_feature
    assert c.meters.free_spin[0] == 2
    assert c.view.forms["PET"] == "PANTHER"
    badge = c.view.overlay(ExpandingSymbol)
    assert badge is not None
    assert badge.symbol == "PANTHER"
    assert c.meters.feature_win == r.controller.meters.feature_win


# -- bets that fit the balance --------------------------------------------------------------------
def test_max_bet_is_disabled_while_the_balance_cannot_cover_it() -> None:
    top = GAME.bets.max_bet.total
    assert top == 25 * 5000
    short = rig(0, balance=top - 1)
    assert not short.host.controls.buttons["bet_max"].enabled
    before = short.session.bet
    short.press("bet_max")
    assert short.session.bet == before
    assert "Max Bet needs a balance of 1,250.00" in short.controller.message
    enough = rig(0, balance=top)
    assert enough.host.controls.buttons["bet_max"].enabled
    enough.press("bet_max")
    assert enough.session.bet == Bet(25, 5000)


def test_the_bet_steps_down_when_the_balance_falls_below_it_and_carries_over() -> None:
    seed = seed_of("loss")
    r = rig(seed, balance=3000)
    r.session.set_bet(Bet(25, 100))  # 25.00 a spin, 30.00 in the balance
    r.press("spin")
    r.until(lambda c: idle(c) and not c.session.in_round)
    assert r.session.balance == 500
    # The highest level the 5.00 left covers: 0.20 a line (5.00); 0.25 would need 6.25.
    assert r.session.bet == Bet(25, 20)
    assert r.host.controls.total_bet == "5.00"
    assert "Bet lowered to 5.00" in r.controller.message
    # The saved session keeps the lowered bet.
    assert restore_rig(r.host.snapshot, game=FMF).session.bet == Bet(25, 20)


def test_the_bet_carries_over_while_the_balance_covers_it() -> None:
    r = rig(seed_of("loss"), balance=100_000)
    r.session.set_bet(Bet(25, 10))
    r.press("spin")
    r.until(lambda c: idle(c) and not c.session.in_round)
    assert r.session.bet == Bet(25, 10)


def test_games_without_the_flag_keep_todays_bets() -> None:
    """Book of Spells and Moon Spell leave the flag off: Bet Max stays enabled on a short
    balance (it sets the highest bet covered) and a bet above the balance stays."""
    for game in ("book_of_spells", "moon_spell"):
        assert get_game(game).bets.fit_to_balance is False
        r = make_rig(0, game=game, balance=300)
        assert r.host.controls.buttons["bet_max"].enabled
        bet = get_game(game).bets.max_bet
        r.session.set_bet(bet)
        r.run(100)
        assert r.session.bet == bet


# -- drawing budget ---------------------------------------------------------------------------------
def test_every_frame_of_winfalls_stays_within_the_call_budget() -> None:
    r = rig(seed_of("winfalls"), turbo=True, size=(1920, 1080))
    worst = 0

    def watch(c: Controller) -> None:
        nonlocal worst
        if c.context() == "pick" and idle(c):
            c.press("pick:0", c.now)
        r.canvas.take()
        draw(r.canvas, r.layout, c.view, c.now)
        worst = max(worst, len(r.canvas.take()))

    play_round(r, watch=watch)
    # ~30 us a call: a bursting window with its meter, counter and lines stays near 3 ms.
    assert 0 < worst <= 120


# -- pages ------------------------------------------------------------------------------------------
def page(kind: str, bet_per_line: int = 2, **kw: Any) -> str:
    fields: dict[str, Any] = {"desc": DESC, "info": {"rtp": 0.953305, "max_win_x": 8752.6}, "fmt": FMT}
    fields.update(kw)
    ctx = PageContext(bet_per_line=bet_per_line, lines=25, stake=bet_per_line * 25, assets=ASSETS, **fields)
    html = page_html(kind, screen_for(FMF), ctx)
    assert html is not None
    return html


def test_the_paytable_shows_both_paytables_the_pets_and_the_spin_distribution() -> None:
    html = page("paytable", 10)
    assert f"{ASSETS}/symbols/GRANNY.svg" in html
    assert f"{ASSETS}/symbols/GRANNY_EGO.svg" in html
    assert f"{ASSETS}/symbols/WILD_EGO.svg" in html
    for pet, ego in EGOS.items():
        assert f"{ASSETS}/symbols/{pet}.svg" in html
        assert f"{ASSETS}/symbols/{ego}.svg" in html
    # Both the prize the rules tell the player to multiply by the bet per line, and its money.
    prize = '<span class="prize" title="the prize: × the bet per line">{}</span> {}'
    assert "<li><b>5×</b> " + prize.format("1,000", "100.00") + "</li>" in html  # Granny's base 5 × 0.10 a line
    assert "<li><b>5×</b> " + prize.format(500, "50.00") + "</li>" in html  # Granny's Winfalls 5
    assert "3× 5.00" in html  # three Houses × the total bet of 2.50
    weights = {int(k): int(v) for k, v in WINFALLS["spins"].items()}
    total = sum(weights.values())
    for n, w in weights.items():
        assert f'<tr><th scope="row">{n}</th><td>{w / total * 100:.2f}%</td></tr>' in html
    assert "12.907 free spins" in html
    assert "×1, ×2, ×3, ×4, ×5" in html
    assert html.count('class="payline"') == 25


def test_the_rules_state_every_reading_and_the_version() -> None:
    html = page("help")
    assert "version 1.0.0" in html
    assert "Game version 1.0.0" in html
    assert "a line made of wilds alone pays nothing" in html
    assert "disabled while the balance cannot cover it" in html
    assert "steps down to the highest bet per line the balance covers" in html
    assert "the Dog becomes the Wolf" in html
    assert "cannot be retriggered" in html
    assert "starts without a multiplier" in html


def test_the_history_names_winfalls_and_the_pet() -> None:
    r = rig(seed_of("winfalls"), turbo=True)
    play_round(r, watch=lambda c: c.press("pick:0", c.now) if c.context() == "pick" and idle(c) else None)
    record = r.session.last_round
    assert record is not None
    html = page("history", history=(record,))
    end = next(e for e in record.events if isinstance(e, ev.FreeSpinsEnd))
    assert "Winfalls with the Dog" in html
    assert f"{end.spins} free spins, win {FMT(end.win)}" in html
    assert "· Winfalls" in html


def test_bet_config_fit_is_generic() -> None:
    """`BetConfig.fit`: the bet itself when covered, else the highest bet per line at the same
    lines and coins, else the highest bet of all the balance covers, else the smallest."""
    from pyengine.model import BetConfig

    bets = BetConfig(lines=(1, 5, 10), levels=(1, 2, 5), default=Bet(10, 1), fit_to_balance=True)
    assert bets.fit(Bet(10, 5), 50) == Bet(10, 5)
    assert bets.fit(Bet(10, 5), 49) == Bet(10, 2)
    assert bets.fit(Bet(10, 5), 9) == Bet(5, 1)  # no level at 10 lines: fewer lines
    assert bets.fit(Bet(10, 5), 0) == Bet(1, 1)
    assert BetConfig(lines=(1,), levels=(1,), default=Bet(1, 1)).fit_to_balance is False


def test_reduced_motion_shows_each_new_window_at_once_and_turbo_is_quicker() -> None:
    def feature_ms(**kw: Any) -> tuple[float, int]:
        r = rig(seed_of("winfalls"), **kw)
        moving = 0

        def watch(c: Controller) -> None:
            nonlocal moving
            if c.context() == "pick" and idle(c):
                c.press("pick:0", c.now)
            b = c.view.board
            if isinstance(b, CascadeBoard) and (b.burst or b.falling(c.now)):
                moving += 1

        t0 = r.now
        play_round(r, watch=watch)
        return r.now - t0, moving

    normal, normal_moving = feature_ms()
    turbo, _ = feature_ms(turbo=True)
    _, reduced_moving = feature_ms(reduced_motion=True)
    assert normal_moving > 0
    assert reduced_moving == 0  # no burst, no fall: each new window is shown at once
    assert turbo < normal * 0.7


def test_a_reload_after_winfalls_shows_the_base_game() -> None:
    """Restored after a round that played Winfalls, the reels are the base game's, where its
    base spin stopped (not the last free spin's, with the pet's slot on them)."""
    r = rig(seed_of("winfalls"), turbo=True)
    play_round(r, watch=lambda c: c.press("pick:0", c.now) if c.context() == "pick" and idle(c) else None)
    back = restore_rig(r.session.snapshot(), game=FMF)
    v = back.controller.view
    base = next(e for e in round_log(r.session) if isinstance(e, ev.Spin) and e.phase == "base")
    assert [reel.strip for reel in v.reels.reels] == back.controller.strips["base"]
    assert [reel.stop for reel in v.reels.reels] == list(base.stops)
