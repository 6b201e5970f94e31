"""The PyScript game client end to end in headless Chromium (issue 4, "Tests").

Lobby → game → spins; a seeded line win; seeded free spins played to the end; gamble won
and lost; autoplay stopping on each of its conditions; a reload in the middle of free
spins and of a gamble; keyboard only; a phone viewport; the ``?debug=1`` overlay.

The site, its server, Playwright, Chromium and the `Visit` wrapper (a fresh browser
context per test, so localStorage starts empty) are those of ``tests/test_site.py``.

The game is `tests.browser.fixtures.GAME`, the first game with a gamble and free spins.
Seeds are not pinned: each test asks the engine in CPython for the first session seed with
the property it needs (``Session(GAME, seed=N)`` plays the same rounds as
``play.html?seed=N``, whose first round is the session's first ``spin()``), so a change of
reel strips picks another seed instead of silently testing nothing. Every expected amount
(win, balance, gamble colour, autoplay stop) is computed by the engine the same way.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator
from typing import Any

import pytest

pytest.importorskip("playwright", reason="the browser tests need the dev extra (playwright)")

from playwright.sync_api import Browser, Page

from pyengine import events as ev
from pyengine.autoplay import Autoplay, AutoplayLimits, StopReason
from pyengine.replay import replay
from pyengine.session import DEFAULT_BALANCE, Session
from slotui.controller import stop_reason
from tests.browser import helpers as h

# The session fixtures (site build, server, Playwright, Chromium) come from tests/conftest.py.
from tests.browser.fixtures import GAME, PHONE, PLAY, Visit
from tests.test_site import events, meter

pytestmark = pytest.mark.browser

KEY = "slotstudio:v1:" + GAME + ":seed:{seed}"
ROUND_MS = 60_000  # one round, free spins included, in turbo on a slow machine
SEARCH = range(1, 5_000)


# -- the engine in CPython: seeds and expected results ---------------------------------------


def fmt(minor: int) -> str:
    return Session(GAME).game.bets.format(minor)


def settle(s: Session, guesses: tuple[str, ...] = ()) -> list[ev.Event]:
    """Answer the round's decisions as the tests do: start and play free spins, gamble with
    ``guesses`` in turn, then collect."""
    out: list[ev.Event] = []
    left = list(guesses)
    while (d := s.pending) is not None:
        if d.kind == "collect_or_gamble":
            out += s.choose("gamble" if left else "collect")
        elif d.kind == "gamble":
            out += s.choose(left.pop(0) if left else "collect")
        else:
            out += s.choose(d.choices[0])
    return out


def first_round(seed: int) -> tuple[Session, list[ev.Event]]:
    s = Session(GAME, seed=seed)
    return s, s.spin()


def find_seed(prop: Callable[[int], bool], what: str) -> int:
    for n in SEARCH:
        if prop(n):
            return n
    raise AssertionError(f"no session seed in {SEARCH} has {what}: the reel strips or the engine changed")


def _line_win(n: int) -> bool:
    s, evs = first_round(n)
    wins = [e for e in evs if isinstance(e, ev.LineWin)]
    return (
        bool(wins)
        and s.pending is not None
        and s.pending.kind == "collect_or_gamble"
        and not any(isinstance(e, ev.FreeSpinsAwarded | ev.ScatterWin) for e in evs)
    )


@functools.cache
def line_win_seed() -> int:
    """First round: a plain line win (no scatter, no feature), offered collect or gamble."""
    return find_seed(_line_win, "a first round with a line win")


def _free_spins(n: int) -> bool:
    s, _ = first_round(n)
    return s.pending is not None and s.pending.kind == "feature_start"


@functools.cache
def free_spins_seed() -> int:
    """First round: free spins won (the round waits on START)."""
    return find_seed(_free_spins, "a first round that wins free spins")


def gamble_colour(seed: int) -> str:
    """The colour of the first gamble card after the first round of session ``seed``."""
    s, _ = first_round(seed)
    s.choose("gamble")
    card = next(e for e in s.choose("red") if isinstance(e, ev.GambleCard))
    return card.color


def other(colour: str) -> str:
    return "black" if colour == "red" else "red"


def autoplay_result(seed: int, limits: AutoplayLimits) -> Autoplay:
    s = Session(GAME, seed=seed)
    ap = Autoplay(s, limits)
    ap.run()
    return ap


def symbol_name(symbol: str) -> str:
    desc = Session(GAME).game.describe()
    return str(next(x["name"] for x in desc["symbols"] if x["id"] == symbol))


# -- the page ----------------------------------------------------------------------------------

COLLECT = "[data-action=collect]"
START = "[data-action=start_feature]"
SHOWN = ":not([hidden])"


def open_game(v: Visit, seed: int, *, turbo: bool = True, extra: str = "") -> Page:
    page = v.goto(f"{PLAY}&seed={seed}{extra}")
    h.wait_state(page, "ready")
    page.wait_for_selector("#loading", state="hidden", timeout=60_000)
    if turbo:
        set_turbo(page)
    return page


def set_turbo(page: Page) -> None:
    page.click("[data-action=turbo]")
    page.wait_for_selector("[data-action=turbo][aria-pressed=true]", timeout=60_000)


def round_ends(page: Page) -> int:
    return len(events(page, "roundEnd"))


def shown(page: Page, selector: str) -> bool:
    return bool(page.evaluate("s => { const b = document.querySelector(s); return !!b && !b.hidden; }", selector))


def wait_end_or_decision(page: Page, before: int, timeout: float = ROUND_MS) -> None:
    """Wait until a round ended after ``before`` ends, or COLLECT or START shows."""
    page.wait_for_function(
        """n => window.__events.filter(e => e.type === 'roundEnd').length > n
            || !document.querySelector('[data-action=collect]').hidden
            || !document.querySelector('[data-action=start_feature]').hidden""",
        arg=before,
        timeout=timeout,
        polling=50,
    )


def wait_round_end(page: Page, before: int, timeout: float = ROUND_MS) -> None:
    page.wait_for_function(
        "n => window.__events.filter(e => e.type === 'roundEnd').length > n", arg=before, timeout=timeout, polling=50
    )
    h.wait_state(page, "ready", timeout)


def press_and_wait_hidden(page: Page, selector: str, press: Callable[[], None]) -> None:
    """Press (a key or a click) what ``selector`` offers and wait until it is gone."""
    press()
    page.wait_for_selector(f"{selector}{SHOWN}", state="detached", timeout=ROUND_MS)


def finish_round(page: Page, before: int, press: Callable[[str], None]) -> None:
    """Play the round in progress to its end: START the feature, let it play, COLLECT."""
    while round_ends(page) <= before:
        wait_end_or_decision(page, before)
        if shown(page, COLLECT):
            press_and_wait_hidden(page, COLLECT, lambda: press(COLLECT))
        elif shown(page, START):
            press_and_wait_hidden(page, START, lambda: press(START))
    h.wait_state(page, "ready", ROUND_MS)


def saved_choices(page: Page, seed: int) -> int:
    """How many choices the saved round in play holds (-1: no round in play)."""
    return int(
        page.evaluate(
            """k => { const t = localStorage.getItem(k); if (!t) return -1;
                      const r = JSON.parse(t).state.round; return r ? r.choices.length : -1; }""",
            KEY.format(seed=seed),
        )
    )


def live(page: Page) -> str:
    return str(page.text_content("#live") or "").strip()


def wait_meter(page: Page, name: str, value: str, timeout: float = 60_000) -> None:
    page.wait_for_function(
        "([n, v]) => document.getElementById('meter-' + n).textContent.trim() === v",
        arg=[name, value],
        timeout=timeout,
        polling=50,
    )


@pytest.fixture
def clean_visit(visit: Visit) -> Iterator[Visit]:
    """`visit`, asserting afterwards that the page stayed clean (no errors, CSP, foreign hosts)."""
    yield visit
    visit.assert_clean()


# -- 1. lobby → game → spins ------------------------------------------------------------------


def test_lobby_to_game_and_three_spins_match_the_engine(clean_visit: Visit) -> None:
    page = clean_visit.goto("index.html")
    page.click(f".tile-link[data-game={GAME}]")
    page.wait_for_url(f"**/{PLAY}")
    h.wait_state(page, "ready")
    set_turbo(page)
    start = meter(page, "balance")
    assert start == fmt(DEFAULT_BALANCE)
    for n in range(3):
        page.keyboard.press("Space")
        finish_round(page, n, lambda _sel: page.keyboard.press("Space"))
    assert round_ends(page) == 3
    # The lobby's link has no seed: the session is a random one. The engine replays the three
    # rounds the page saved (Session.restore verifies each against its own replay) and gives
    # the balance the meter must show.
    snapshot = page.evaluate("k => localStorage.getItem(k)", f"slotstudio:v1:{GAME}")
    restored = Session.restore(str(snapshot), game=GAME)
    history = restored.history
    assert len(history) == 3
    balance = DEFAULT_BALANCE
    for r in history:
        log = replay(
            GAME, seed=r.seed, lines=r.bet.lines, bet_per_line=r.bet.bet_per_line, choices=r.choices, balance=balance
        )
        end = log[-1]
        assert isinstance(end, ev.RoundEnd)
        balance = end.balance
    assert restored.balance == balance
    assert meter(page, "balance") == fmt(balance)
    assert meter(page, "win") == fmt(history[-1].win)
    clean_visit.shot("client-after-three-spins")


# -- 2. a seeded line win -----------------------------------------------------------------------


def test_a_seeded_line_win_is_shown_and_announced(clean_visit: Visit) -> None:
    seed = line_win_seed()
    s, evs = first_round(seed)
    win = s.round_win
    lines = [e for e in evs if isinstance(e, ev.LineWin)]
    page = open_game(clean_visit, seed, turbo=False)  # normal speed: the lines stay on screen
    page.click("[data-action=spin]")
    # The total counts up on the win meter, then each line is drawn in turn.
    wait_meter(page, "win", fmt(win), timeout=ROUND_MS)
    assert fmt(win) in live(page), live(page)
    clean_visit.shot("client-line-win")
    page.wait_for_selector(f"{COLLECT}{SHOWN}", timeout=ROUND_MS)
    assert live(page) == f"Win {fmt(win)}: collect or gamble."
    assert meter(page, "win") == fmt(win)
    assert sum(e.win for e in lines) == win
    page.click(COLLECT)
    wait_round_end(page, 0)
    settle(s)
    assert meter(page, "balance") == fmt(s.balance)
    assert f"Win {fmt(win)}" in live(page)


# -- 3. free spins to the end -------------------------------------------------------------------


def test_seeded_free_spins_play_to_the_end(clean_visit: Visit) -> None:
    seed = free_spins_seed()
    s, evs = first_round(seed)
    chosen = next(e for e in evs if isinstance(e, ev.ExpandingSymbolChosen))
    awarded = next(e for e in evs if isinstance(e, ev.FreeSpinsAwarded))
    rest = settle(s)
    spins = next(e for e in rest if isinstance(e, ev.FreeSpinsEnd)).spins
    page = open_game(clean_visit, seed)
    page.click("[data-action=spin]")
    page.wait_for_selector(f"{START}{SHOWN}", timeout=ROUND_MS)
    assert h.state(page) == "feature"
    assert page.locator(START).is_enabled()
    name = symbol_name(chosen.symbol)
    h.wait_text(page, "#live", f"The expanding symbol is the {name}.")
    clean_visit.shot("client-free-spins-intro")
    assert events(page, "featureStart")[0]["spins"] == awarded.count
    page.click(START)
    page.wait_for_selector(START, state="hidden", timeout=60_000)
    # Mid-feature: a few free spins played (the saved round holds START and the spins).
    page.wait_for_function(
        "([k, n]) => { const r = JSON.parse(localStorage.getItem(k)).state.round;"
        " return !r || r.choices.length >= n; }",
        arg=[KEY.format(seed=seed), 4],
        timeout=ROUND_MS,
        polling=50,
    )
    assert h.state(page) == "feature"
    clean_visit.shot("client-free-spins-mid-feature")
    finish_round(page, 0, page.click)
    ended = events(page, "featureEnd")
    assert len(ended) == 1
    assert ended[0]["spins"] == spins
    assert meter(page, "balance") == fmt(s.balance)
    assert meter(page, "win") == fmt(s.last_round.win if s.last_round else -1)


# -- 4. gamble won and lost ---------------------------------------------------------------------


@pytest.mark.parametrize("outcome", ["win", "loss"])
def test_gamble_win_and_loss(clean_visit: Visit, outcome: str) -> None:
    seed = line_win_seed()
    colour = gamble_colour(seed)
    guess = colour if outcome == "win" else other(colour)
    s, _ = first_round(seed)
    win = s.round_win
    settle(s, (guess,))
    page = open_game(clean_visit, seed)
    page.click("[data-action=spin]")
    page.wait_for_selector(f"{COLLECT}{SHOWN}", timeout=ROUND_MS)
    page.click("[data-action=gamble]")
    page.wait_for_selector(f"[data-action={guess}]{SHOWN}", timeout=ROUND_MS)
    assert page.locator(f"[data-action={other(guess)}]").is_visible()
    assert h.state(page) == "feature"
    assert live(page) == "Gamble: red or black?"
    if outcome == "win":
        clean_visit.shot("client-gamble")
    page.click(f"[data-action={guess}]")
    if outcome == "win":
        wait_meter(page, "win", fmt(win * 2))
        h.wait_text(page, "#live", f"The card is {colour}. You win {fmt(win * 2)}")
        # Still gambling: the doubled win can be collected or gambled again.
        page.wait_for_selector(f"[data-action=red]{SHOWN}", timeout=ROUND_MS)
        clean_visit.shot("client-gamble-won")
        page.click(COLLECT)
        wait_round_end(page, 0)
        assert meter(page, "win") == fmt(win * 2)
    else:
        h.wait_text(page, "#live", f"The card is {colour}. You lose.")
        clean_visit.shot("client-gamble-lost")
        wait_round_end(page, 0)
        assert meter(page, "win") == fmt(0)
        assert live(page) == "No win."
    assert page.locator("[data-action=red]").is_hidden()
    assert meter(page, "balance") == fmt(s.balance)


# -- 5. autoplay stops on each condition --------------------------------------------------------


def _rounds_seed() -> int:
    return find_seed(
        lambda n: autoplay_result(n, AutoplayLimits(10)).reason == StopReason.ROUNDS,
        "ten autoplay rounds without free spins",
    )


def _loss_seed() -> int:
    return find_seed(
        lambda n: (ap := autoplay_result(n, AutoplayLimits(10, loss_limit=100))).reason == StopReason.LOSS_LIMIT
        and ap.played == 1,
        "a losing first autoplay round",
    )


def _single_seed() -> int:
    return find_seed(
        lambda n: (ap := autoplay_result(n, AutoplayLimits(10, single_win_limit=500))).reason == StopReason.SINGLE_WIN
        and 1 < ap.played <= 4,
        "a win of 5.00 or more in autoplay rounds 2 to 4",
    )


def _feature_seed() -> int:
    return find_seed(
        lambda n: (ap := autoplay_result(n, AutoplayLimits(10))).reason == StopReason.FEATURE and ap.played <= 2,
        "free spins in the first two autoplay rounds",
    )


AUTOPLAY_CASES: dict[str, tuple[Callable[[], int], AutoplayLimits, dict[str, str]]] = {
    # The dialog offers 10 rounds at the least (its <select> starts at 10).
    "rounds": (_rounds_seed, AutoplayLimits(10), {"rounds": "10"}),
    "loss_limit": (_loss_seed, AutoplayLimits(10, loss_limit=100), {"rounds": "10", "loss": "1.00"}),
    "single_win": (_single_seed, AutoplayLimits(10, single_win_limit=500), {"rounds": "10", "single": "5.00"}),
    "feature": (_feature_seed, AutoplayLimits(10), {"rounds": "10"}),
}


@pytest.mark.parametrize("case", list(AUTOPLAY_CASES))
def test_autoplay_stops_on_each_condition(clean_visit: Visit, case: str) -> None:
    find, limits, form = AUTOPLAY_CASES[case]
    seed = find()
    ap = autoplay_result(seed, limits)
    reason = stop_reason(ap.reason, GAME) if ap.reason else ""
    page = open_game(clean_visit, seed)
    if case in ("rounds", "feature"):
        page.keyboard.press("KeyA")
    else:
        page.click("[data-action=autoplay]")
    page.wait_for_selector("#dlg-autoplay[open]", timeout=60_000)
    page.select_option("#ap-rounds", form["rounds"])
    page.fill("#ap-loss", form.get("loss", ""))
    h.more_autoplay_settings(page)
    page.fill("#ap-single", form.get("single", ""))
    page.set_checked("#ap-feature", limits.stop_on_feature)
    if case == "rounds":
        clean_visit.shot("client-autoplay-dialog")
    page.click("#ap-start")
    page.wait_for_selector("#dlg-autoplay", state="hidden", timeout=60_000)
    page.wait_for_selector("[data-action=autoplay][aria-pressed=true]", timeout=60_000)
    page.wait_for_function(
        "t => [document.getElementById('live'), document.querySelector('#notice .notice-text')]"
        ".some(el => el && el.textContent.includes(t))",
        arg=reason,
        timeout=ROUND_MS * 2,
        polling=50,
    )
    page.wait_for_selector("[data-action=autoplay][aria-pressed=false]", timeout=60_000)
    if case == "feature":
        # Stopped at the feature: the round waits on the player's START.
        page.wait_for_selector(f"{START}{SHOWN}", timeout=ROUND_MS)
        assert round_ends(page) == ap.played - 1
        assert h.state(page) == "feature"
        clean_visit.shot("client-autoplay-stopped-on-free-spins")
    else:
        h.wait_state(page, "ready", ROUND_MS)
        assert round_ends(page) == ap.played
        assert shown(page, COLLECT) is False
    assert ap.played == {"rounds": 10, "loss_limit": 1}.get(case, ap.played)
    assert meter(page, "balance") == fmt(ap.session.balance)
    # Nothing more is played once stopped.
    page.wait_for_timeout(2 * 17)
    assert round_ends(page) == (ap.played - 1 if case == "feature" else ap.played)


# -- 6. reloads -----------------------------------------------------------------------------------


def test_reload_mid_free_spins_resumes_the_feature(clean_visit: Visit) -> None:
    seed = free_spins_seed()
    s, _ = first_round(seed)
    settle(s)
    page = open_game(clean_visit, seed)
    page.click("[data-action=spin]")
    page.wait_for_selector(f"{START}{SHOWN}", timeout=ROUND_MS)
    page.click(START)
    page.wait_for_function(
        "([k, n]) => JSON.parse(localStorage.getItem(k)).state.round.choices.length >= n",
        arg=[KEY.format(seed=seed), 4],  # START and three free spins
        timeout=ROUND_MS,
        polling=50,
    )
    played = saved_choices(page, seed)
    page.reload()
    h.wait_started(page)
    page.wait_for_selector("#loading", state="hidden", timeout=60_000)
    assert h.state(page) == "feature"
    assert page.locator(START).is_hidden()
    # Turbo was saved with the settings: it is still on after the reload.
    assert page.get_attribute("[data-action=turbo]", "aria-pressed") == "true"
    clean_visit.shot("client-free-spins-after-reload")
    # The free spins continue on their own from where they stood.
    page.wait_for_function(
        "([k, n]) => { const r = JSON.parse(localStorage.getItem(k)).state.round;"
        " return !r || r.choices.length > n; }",
        arg=[KEY.format(seed=seed), played],
        timeout=ROUND_MS,
        polling=50,
    )
    finish_round(page, 0, page.click)
    assert meter(page, "balance") == fmt(s.balance)
    assert events(page, "featureEnd"), "the resumed feature never ended"


def test_reload_mid_gamble_brings_the_gamble_back(clean_visit: Visit) -> None:
    seed = line_win_seed()
    colour = gamble_colour(seed)
    s, _ = first_round(seed)
    win = s.round_win
    settle(s, (colour,))  # won once, then collected
    page = open_game(clean_visit, seed)
    page.click("[data-action=spin]")
    page.wait_for_selector(f"{COLLECT}{SHOWN}", timeout=ROUND_MS)
    page.click("[data-action=gamble]")
    page.wait_for_selector(f"[data-action={colour}]{SHOWN}", timeout=ROUND_MS)
    page.click(f"[data-action={colour}]")
    wait_meter(page, "win", fmt(win * 2))
    page.wait_for_function(
        "k => JSON.parse(localStorage.getItem(k)).state.round.choices.length === 2",
        arg=KEY.format(seed=seed),
        timeout=60_000,
    )
    page.reload()
    h.wait_started(page)
    page.wait_for_selector("#loading", state="hidden", timeout=60_000)
    page.wait_for_selector(f"[data-action=red]{SHOWN}", timeout=ROUND_MS)
    assert page.locator("[data-action=black]").is_visible()
    assert page.locator(COLLECT).is_visible()
    assert h.state(page) == "feature"
    assert meter(page, "win") == fmt(win * 2)
    assert meter(page, "balance") == fmt(s.balance - win * 2)
    clean_visit.shot("client-gamble-after-reload")
    page.click(COLLECT)
    wait_round_end(page, 0)
    assert meter(page, "balance") == fmt(s.balance)


# -- 7. keyboard only -------------------------------------------------------------------------------


def test_keyboard_only(clean_visit: Visit) -> None:
    seed = line_win_seed()
    s = Session(GAME, seed=seed)
    page = clean_visit.goto(f"{PLAY}&seed={seed}")
    h.wait_state(page, "ready")
    page.wait_for_selector("#loading", state="hidden", timeout=60_000)
    kb = page.keyboard
    # Lines with the arrows (the bet follows), back to the default before spinning.
    lines = s.bet.lines
    kb.press("ArrowLeft")
    wait_meter(page, "lines", str(lines - 1), 5_000)
    assert meter(page, "bet") == fmt((lines - 1) * s.bet.bet_per_line)
    kb.press("ArrowRight")
    wait_meter(page, "lines", str(lines), 5_000)
    assert meter(page, "bet") == fmt(s.bet.total)
    # The paytable opens with P and closes with Escape.
    kb.press("KeyP")
    page.wait_for_selector("#dlg-paytable[open]", timeout=60_000)
    assert page.locator("#dlg-paytable .dlg-body").inner_text().strip() != ""
    clean_visit.shot("client-paytable")
    kb.press("Escape")
    page.wait_for_selector("#dlg-paytable", state="hidden", timeout=60_000)
    # Space spins; the first round wins.
    s.spin()
    win = s.round_win
    kb.press("Space")
    page.wait_for_selector(f"{COLLECT}{SHOWN}", timeout=ROUND_MS)
    assert meter(page, "win") == fmt(win)
    # 5 gambles, then 6 is black.
    kb.press("Digit5")
    page.wait_for_selector(f"[data-action=black]{SHOWN}", timeout=ROUND_MS)
    s.choose("gamble")
    card = next(e for e in s.choose("black") if isinstance(e, ev.GambleCard))
    kb.press("Digit6")
    if card.won:
        wait_meter(page, "win", fmt(win * 2))
        page.wait_for_selector(f"[data-action=black]{SHOWN}", timeout=ROUND_MS)
        kb.press("Enter")  # collect
        s.choose("collect")
    wait_round_end(page, 0)
    assert meter(page, "win") == fmt(card.win)
    assert meter(page, "balance") == fmt(s.balance)
    # Holding Space is TURBO SPIN: rounds follow each other until the key is released.
    ends = len(events(page, "roundEnd"))
    kb.down("Space")
    kb.down("Space")  # a second keydown while held is a repeat
    page.wait_for_function(
        "(n) => window.__events.filter(e => e.type === 'roundEnd').length >= n", arg=ends + 3, timeout=90_000
    )
    kb.up("Space")
    page.wait_for_timeout(3_000)  # the round in play (if any) finishes
    settled = len(events(page, "roundEnd"))
    page.wait_for_timeout(3_000)
    assert len(events(page, "roundEnd")) == settled  # nothing starts once the key is up
    # The same with the Spin button held down (its release is not a click that spins again).
    box = page.locator("[data-action=spin]").bounding_box()
    assert box is not None
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    page.wait_for_function(
        "(n) => window.__events.filter(e => e.type === 'roundEnd').length >= n", arg=settled + 2, timeout=90_000
    )
    page.mouse.up()
    page.wait_for_timeout(3_000)
    settled = len(events(page, "roundEnd"))
    page.wait_for_timeout(3_000)
    assert len(events(page, "roundEnd")) == settled
    # Focus is visible on the element the keyboard reaches. (Tab from past the last control
    # leaves the document for the browser's own UI first, then wraps to the first control.)
    for _ in range(3):
        kb.press("Tab")
        if page.evaluate("() => document.activeElement !== document.body"):
            break
    assert page.evaluate("() => document.activeElement !== document.body")
    assert page.evaluate("() => document.activeElement.matches(':focus-visible')")
    clean_visit.shot("client-keyboard-only")


# -- 8. a phone -------------------------------------------------------------------------------------


def test_phone_viewport_canvas_and_spin_do_not_overlap(browser: Browser, server: Any) -> None:
    v = Visit(browser, server.url, viewport=PHONE, is_mobile=True, has_touch=True, device_scale_factor=3)
    try:
        page = v.goto(f"{PLAY}&seed=7")
        h.wait_state(page, "ready")
        page.wait_for_selector("#loading", state="hidden", timeout=60_000)
        reels = page.locator("#reels")
        spin = page.locator("[data-action=spin]")
        assert reels.is_visible()
        assert spin.is_visible()
        r, b = reels.bounding_box(), spin.bounding_box()
        assert r is not None
        assert b is not None
        overlap_x = min(r["x"] + r["width"], b["x"] + b["width"]) - max(r["x"], b["x"])
        overlap_y = min(r["y"] + r["height"], b["y"] + b["height"]) - max(r["y"], b["y"])
        assert overlap_x <= 0 or overlap_y <= 0, f"the SPIN button {b} covers the reels {r}"
        assert r["width"] > 0.8 * PHONE["width"]
        assert b["y"] + b["height"] <= PHONE["height"]
        assert page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth")
        # The button is the topmost element at its own centre (nothing covers it).
        assert page.evaluate(
            "([x, y]) => !!document.elementFromPoint(x, y)?.closest('[data-action=spin]')",
            [b["x"] + b["width"] / 2, b["y"] + b["height"] / 2],
        )
        spin.tap()
        wait_end_or_decision(page, 0)
        v.shot("client-phone")
        v.assert_clean()
    finally:
        v.close()


# -- 9. ?debug=1 ------------------------------------------------------------------------------------


def test_debug_overlay_and_slot_stats(clean_visit: Visit) -> None:
    seed = 7
    page = open_game(clean_visit, seed, extra="&debug=1")
    for n in range(2):
        page.click("[data-action=spin]")
        finish_round(page, n, page.click)
    page.wait_for_function(
        "() => window.slotStats && window.slotStats.fps > 0 && typeof window.slotStats.frameMsP95 === 'number'",
        timeout=60_000,
        polling=50,
    )
    stats: dict[str, Any] = page.evaluate("() => JSON.parse(JSON.stringify(window.slotStats))")
    assert stats["fps"] > 0, stats
    assert stats["frameMsP95"] >= 0, stats
    assert stats["readyMs"] > 0, stats
    assert isinstance(stats.get("spinLatencyMs"), int | float), stats
    overlay = page.locator("#debug")
    assert overlay.is_visible()
    assert "fps" in overlay.inner_text()
    clean_visit.shot("client-debug-overlay")


def test_a_resting_game_sleeps_until_the_next_input(clean_visit: Visit) -> None:
    """With nothing to show and nothing due, the page draws no frames (a phone's battery): the
    loop looks at the game on a timer, and the next input wakes it at once."""
    clean_visit.page.add_init_script(
        """(() => {
          const raf = window.requestAnimationFrame.bind(window);
          window.__frames = 0;
          window.requestAnimationFrame = (f) => { window.__frames += 1; return raf(f); };
        })()"""
    )
    page = open_game(clean_visit, 7)
    page.wait_for_function("() => window.slotStats.resting === true", timeout=60_000, polling=50)
    woken = "() => Object.values(window.slotStats.wakes || {}).reduce((a, b) => a + b, 0)"
    frames0, t0, wakes0 = page.evaluate(f"() => [window.__frames, performance.now(), ({woken})()]")
    page.wait_for_timeout(2000)
    frames1, t1, wakes1 = page.evaluate(f"() => [window.__frames, performance.now(), ({woken})()]")
    # At most one frame per look (REST_TICK_MS = 250 ms apart), however fast the machine, and
    # the half-second of frames (REST_AFTER_FRAMES) each wake-up costs, if something (a late
    # layout change, a picture loaded) woke it; a loop that never sleeps asks for one frame
    # per screen refresh (120 in those 2 s at 60 Hz) without a single wake-up.
    woke = wakes1 - wakes0
    assert woke <= 2, page.evaluate("() => window.slotStats.wakes")
    assert frames1 - frames0 <= (t1 - t0) / 250 + 2 + woke * 32, (frames1 - frames0, t1 - t0, woke)
    assert page.evaluate("() => window.slotStats.resting") is True
    # A key wakes it: the round plays and is shown to its end.
    page.keyboard.press("Space")
    wait_end_or_decision(page, 0)
