"""Book of Spells through `Session` (from the shared ``tests/test_session.py``): a reload at the
start of the free spins keeps the expanding symbol drawn for them."""

from __future__ import annotations

from functools import cache

from pyengine.session import Session

GAME_ID = "book_of_spells"
NOW = 1_750_000_000.0


def clock() -> float:
    return NOW


def new(seed: int = 1) -> Session:
    return Session(GAME_ID, balance=100_000, seed=seed, clock=clock)


@cache
def feature_seed() -> int:
    """The first round seed (from 0) that triggers free spins."""
    for seed in range(100_000):
        s = new()
        s.spin(seed=seed)
        if s.pending is not None and s.pending.kind == "feature_start":
            return seed
    raise AssertionError("no seed found")


def test_restore_at_feature_start_keeps_the_expanding_symbol() -> None:
    s = new()
    s.spin(seed=feature_seed())
    assert s.pending is not None
    assert s.pending.kind == "feature_start"
    chosen = [e for e in s.round_events if e.type == "expanding_symbol_chosen"]
    assert len(chosen) == 1
    restored = Session.restore(s.snapshot(), clock=clock)
    assert [e for e in restored.round_events if e.type == "expanding_symbol_chosen"] == chosen
    assert restored.pending == s.pending
