"""slotui.reels: reels spin along the game's real strips and land exactly on the engine's stops."""

from __future__ import annotations

import itertools
import math
import random

import pytest

from pyengine.games import get_game
from pyengine.model import ReelSet
from slotui.reels import Reel, ReelBank
from slotui.timing import NORMAL, REDUCED, TURBO, Timing
from tests.client_support import FRAME_MS
from tests.games import a_game

ROWS = 3
GAME = a_game(lambda g: g.describe()["rows"] == ROWS and len(g.describe()["reels"]["base"]) == 5, "5 reels of 3 rows")
"""The first registered game whose base reels are five strips shown on three rows."""
STRIPS: list[tuple[str, ...]] = [tuple(s) for s in get_game(GAME).describe()["reels"]["base"]]
ENGINE_REELS = ReelSet(tuple(STRIPS), ROWS)
TIMINGS = pytest.mark.parametrize("timing", [NORMAL, TURBO, REDUCED], ids=["normal", "turbo", "reduced"])


def planned_end(t0: float, timing: Timing, reel: int) -> float:
    """When reel ``reel`` of a spin started at ``t0`` should settle: a fixed stagger."""
    return t0 + timing.windup + timing.spin_min + reel * timing.stagger + timing.stop


def settle_times(bank: ReelBank, t0: float, limit_ms: float = 10_000.0) -> list[float]:
    """Tick frames from ``t0`` until every reel has settled; the first settled frame of each."""
    settled: list[float | None] = [None] * len(bank.reels)
    now = t0
    while bank.moving:
        now += FRAME_MS
        assert now - t0 < limit_ms, "the reels never settled"
        bank.update(now)
        for i, reel in enumerate(bank.reels):
            assert 0.0 <= reel.pos < reel.length, f"reel {i} left its strip: pos {reel.pos}"
            if settled[i] is None and not reel.moving:
                settled[i] = now
    return [t if t is not None else t0 for t in settled]


def random_stops(rng: random.Random) -> list[int]:
    return [rng.randrange(len(s)) for s in STRIPS]


@TIMINGS
def test_spin_lands_exactly_on_the_stops(timing: Timing) -> None:
    rng = random.Random(20240501)
    pairs = [(random_stops(rng), random_stops(rng)) for _ in range(150)]
    # The awkward cases: no distance at all, one symbol, and one short of a whole turn.
    start = random_stops(rng)
    pairs += [(start, start), (start, [(s - 1) % len(STRIPS[i]) for i, s in enumerate(start)])]
    pairs += [(start, [(s + 1) % len(STRIPS[i]) for i, s in enumerate(start)])]
    for starts, targets in pairs:
        bank = ReelBank(STRIPS, ROWS, starts)
        t0 = rng.uniform(0.0, 1e7)
        bank.spin(t0, targets, timing)
        assert bank.moving
        settle_times(bank, t0)
        assert [r.stop for r in bank.reels] == targets
        assert [r.pos for r in bank.reels] == [float(t) for t in targets], "a settled reel rests on a whole index"
        assert bank.window() == [list(col) for col in ENGINE_REELS.window(tuple(targets))]


@TIMINGS
def test_reels_settle_left_to_right_at_regular_times(timing: Timing) -> None:
    rng = random.Random(7)
    for _ in range(40):
        bank = ReelBank(STRIPS, ROWS, random_stops(rng))
        t0 = rng.uniform(0.0, 1e6)
        end = bank.spin(t0, random_stops(rng), timing)
        times = settle_times(bank, t0)
        assert times == sorted(times), f"reels settled out of order: {times}"
        for i, t in enumerate(times):
            # Observed on the first frame at or after the planned end.
            assert planned_end(t0, timing, i) <= t < planned_end(t0, timing, i) + FRAME_MS + 1e-6
        assert end == pytest.approx(planned_end(t0, timing, len(STRIPS) - 1))
        gaps = [b - a for a, b in itertools.pairwise(times)]
        for gap in gaps:
            assert gap == pytest.approx(timing.stagger, abs=FRAME_MS + 1e-6)


@TIMINGS
def test_spin_has_wind_up_and_bounce_only_when_the_timing_has_them(timing: Timing) -> None:
    """Normal and turbo: the reel first moves up a little (wind-up), and passes its stop
    before settling back (bounce). Reduced motion: neither."""
    rng = random.Random(99)
    went_up = passed = False
    for _ in range(20):
        reel = Reel(STRIPS[0], rng.randrange(len(STRIPS[0])))
        target = rng.randrange(reel.length)
        t0 = 1000.0
        end = reel.plan(t0, target, timing.spin_min, timing, t0)
        start = reel.pos
        reel.update(t0 + max(timing.windup, 1.0) * 0.9)
        went_up |= (reel.pos - start) % reel.length < reel.length / 2 and reel.pos != start
        # In the last part of the stop the reel is just past its target (below it) and returns.
        now = end - timing.stop * 0.25
        reel.update(now)
        passed |= 0 < (target - reel.pos) % reel.length < 0.5
        reel.update(end + 1)
        assert reel.stop == target
    if timing is REDUCED:
        assert not went_up
        assert not passed
    else:
        assert went_up
        assert passed


@TIMINGS
def test_quick_stop_settles_fast_on_the_stops(timing: Timing) -> None:
    rng = random.Random(3)
    for _ in range(60):
        bank = ReelBank(STRIPS, ROWS, random_stops(rng))
        targets = random_stops(rng)
        t0 = rng.uniform(0.0, 1e6)
        normal_end = bank.spin(t0, targets, timing)
        # Slam anywhere from the first frame to just before the first reel's stop begins.
        first_stop = planned_end(t0, timing, 0) - timing.stop
        now = t0
        while now + FRAME_MS < first_stop and rng.random() < 0.8:
            now += FRAME_MS
            bank.update(now)
        end = bank.slam(now, timing)
        assert now <= end <= now + min(160.0, timing.stop) + 1e-6
        assert end < normal_end
        times = settle_times(bank, now)
        assert max(times) <= end + FRAME_MS + 1e-6
        assert [r.stop for r in bank.reels] == targets
        assert bank.window() == [list(col) for col in ENGINE_REELS.window(tuple(targets))]


def test_quick_stop_leaves_reels_already_stopping_alone() -> None:
    """A slam during the staggered stops does not restart the reels already settling."""
    bank = ReelBank(STRIPS, ROWS, [0, 0, 0, 0, 0])
    t0 = 0.0
    targets = [5, 6, 7, 8, 9]
    normal_end = bank.spin(t0, targets, NORMAL)
    now = planned_end(t0, NORMAL, 1) - NORMAL.stop * 0.5  # reels 0 and 1 are stopping
    bank.update(now)
    end = bank.slam(now, NORMAL)
    assert end <= now + NORMAL.stop
    assert end < normal_end
    settle_times(bank, now)
    assert [r.stop for r in bank.reels] == targets


def test_quick_stop_at_rest_changes_nothing() -> None:
    bank = ReelBank(STRIPS, ROWS, [1, 2, 3, 4, 5])
    assert bank.slam(500.0, NORMAL) == 500.0
    assert not bank.moving
    assert [r.stop for r in bank.reels] == [1, 2, 3, 4, 5]


@TIMINGS
def test_visible_shows_rows_plus_one_symbols_with_offsets(timing: Timing) -> None:
    rng = random.Random(11)
    bank = ReelBank(STRIPS, ROWS, random_stops(rng))
    # At rest: the window rows at offsets 0..rows-1 and the next symbol just below.
    for reel in bank.reels:
        vis = reel.visible(ROWS)
        assert [off for _, off in vis] == [0.0, 1.0, 2.0, 3.0]
        assert [sym for sym, _ in vis] == [reel.strip[(reel.stop + k) % reel.length] for k in range(ROWS + 1)]
    t0 = 100.0
    bank.spin(t0, random_stops(rng), timing)
    now = t0
    while bank.moving:
        now += FRAME_MS
        bank.update(now)
        for reel in bank.reels:
            vis = reel.visible(ROWS)
            assert len(vis) == ROWS + 1
            first = vis[0][1]
            assert -1.0 < first <= 0.0
            assert [off for _, off in vis] == pytest.approx([first + k for k in range(ROWS + 1)])
            base = math.floor(reel.pos)
            assert [sym for sym, _ in vis] == [reel.strip[(base + k) % reel.length] for k in range(ROWS + 1)]


def test_window_after_settling_is_the_strip_rows_and_wraps() -> None:
    # The last index of each strip: the window wraps round to the strip's start.
    stops = [len(s) - 1 for s in STRIPS]
    bank = ReelBank(STRIPS, ROWS, [0] * len(STRIPS))
    bank.spin(0.0, stops, TURBO)
    settle_times(bank, 0.0)
    assert bank.window() == [[s[-1], s[0], s[1]] for s in STRIPS]
    bank.show([3, 4, 5, 6, 7])
    assert bank.window() == [[s[i], s[i + 1], s[i + 2]] for s, i in zip(STRIPS, [3, 4, 5, 6, 7], strict=True)]


def test_speed_is_reported_only_while_spinning() -> None:
    reel = Reel(STRIPS[2], 4)
    assert reel.speed_at(0.0) == 0.0
    end = reel.plan(0.0, 20, NORMAL.spin_min, NORMAL, 0.0)
    assert reel.speed_at(NORMAL.windup / 2) == 0.0  # winding up
    assert reel.speed_at(NORMAL.windup + 10) > 0.0
    assert reel.speed_at(end - 1) == 0.0  # stopping
