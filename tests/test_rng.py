"""pyengine.rng: SplitMix64 reference values, unbiased `below`, `weighted`, `ScriptedRng`."""

from __future__ import annotations

import signal
from collections import Counter
from types import FrameType
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pyengine.rng import MASK64, Rng, ScriptedRng, new_seed

# Published SplitMix64 outputs (Vigna's reference C code): seed 0, and seed 1234567 as used by
# the xoshiro/xorshift test vectors. They pin the generator across Python versions and Pyodide.
SEED0 = [0xE220A8397B1DCDAF, 0x6E789E6AA1B965F4, 0x06C45D188009454F]
SEED1234567 = [
    6457827717110365317,
    3203168211198807973,
    9817491932198370423,
    4593380528125082431,
    16408922859458223821,
]


def _reference_below(ref: Rng, n: int) -> int:
    """Rejection sampling written out: draw 64 bits, reject the incomplete last block."""
    limit = (1 << 64) - (1 << 64) % n
    while True:
        z = ref.next64()
        if z < limit:
            return z % n


def test_splitmix64_seed_0() -> None:
    r = Rng(0)
    assert [r.next64() for _ in range(3)] == SEED0


def test_splitmix64_seed_1234567() -> None:
    r = Rng(1234567)
    assert [r.next64() for _ in range(5)] == SEED1234567


def test_state_is_one_integer_and_resumes() -> None:
    a = Rng(99)
    for _ in range(7):
        a.next64()
    b = Rng(0)
    b.state = a.state
    assert [a.next64() for _ in range(5)] == [b.next64() for _ in range(5)]


@given(seed=st.integers(0, MASK64), count=st.integers(0, 40), drawn=st.integers(0, 5))
def test_next64s_gives_the_next64_outputs_in_order(seed: int, count: int, drawn: int) -> None:
    a, b = Rng(seed), Rng(seed)
    for _ in range(drawn):
        a.next64()
        b.next64()
    start = a.state
    assert a.next64s(count) == [b.next64() for _ in range(count)]
    assert a.state == b.state
    assert a.state_back(count) == start
    assert [a.next64() for _ in range(3)] == [b.next64() for _ in range(3)]


def test_state_back_is_the_state_before_the_last_draws() -> None:
    r = Rng(0)
    states = [r.state]
    for _ in range(5):
        r.next64()
        states.append(r.state)
    assert [r.state_back(k) for k in range(6)] == states[::-1]


def test_pinned_below_sequence() -> None:
    r = Rng(42)
    assert [r.below(10) for _ in range(10)] == [3, 1, 8, 4, 0, 2, 5, 8, 5, 4]


@given(seed=st.integers(0, MASK64), n=st.integers(1, 1 << 64))
@settings(max_examples=300, deadline=None)
def test_below_is_in_range_and_matches_reference(seed: int, n: int) -> None:
    r, ref = Rng(seed), Rng(seed)
    for _ in range(5):
        v = r.below(n)
        assert 0 <= v < n
        assert v == _reference_below(ref, n)
    assert r.state == ref.state


@pytest.mark.parametrize("n", [(1 << 63) + 1, 3 << 62, (1 << 64) - 1])
def test_below_rejects_the_incomplete_block(n: int) -> None:
    """For these n about half (or a quarter) of the 64-bit outputs are rejected: the loop runs."""
    r, ref = Rng(5), Rng(5)
    draws = [r.below(n) for _ in range(200)]
    assert draws == [_reference_below(ref, n) for _ in range(200)]
    assert all(0 <= v < n for v in draws)
    assert r.state == ref.state
    if n == (1 << 63) + 1:
        # 200 draws consumed clearly more than 200 raw outputs (P(no rejection) = 2**-200).
        probe = Rng(5)
        raw = 0
        while probe.state != r.state:
            probe.next64()
            raw += 1
        assert raw > 250


@pytest.mark.parametrize("bits", range(1, 11))
def test_rejection_limit_is_exact_for_small_widths(bits: int) -> None:
    """The limit 2**k - 2**k % n keeps a whole number of blocks: every residue equally often."""
    size = 1 << bits
    for n in range(1, size + 1):
        limit = size - size % n
        assert limit % n == 0
        assert size - n < limit <= size
        counts = Counter(z % n for z in range(limit))
        assert len(counts) == n
        assert set(counts.values()) == {limit // n}


def test_below_statistical_sanity() -> None:
    r = Rng(2024)
    draws = 60_000
    counts = Counter(r.below(6) for _ in range(draws))
    # Each count is Binomial(60000, 1/6): sd ~ 91. Allow 6 sd, it cannot fail by chance.
    assert set(counts) == set(range(6))
    for c in counts.values():
        assert abs(c - draws / 6) < 6 * 91.3


def test_below_large_bound_mean() -> None:
    r = Rng(77)
    n = (1 << 63) + 1
    xs = [r.below(n) / n for _ in range(20_000)]
    # Uniform on [0, 1): mean 1/2, sd of the mean ~ 0.002.
    assert abs(sum(xs) / len(xs) - 0.5) < 0.015


def _alarm(signum: int, frame: FrameType | None) -> None:
    raise TimeoutError("below() did not return")


@pytest.mark.parametrize("n", [(1 << 64) + 1, 1 << 65])
def test_below_above_64_bits_returns_or_raises(n: int) -> None:
    old = signal.signal(signal.SIGALRM, _alarm)
    signal.setitimer(signal.ITIMER_REAL, 0.3)
    try:
        try:
            v = Rng(1).below(n)
        except ValueError:
            return
        assert 0 <= v < n
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


def test_below_exactly_two_to_the_64_is_the_raw_output() -> None:
    assert Rng(0).below(1 << 64) == SEED0[0]


@pytest.mark.parametrize("n", [0, -1, -(1 << 70)])
def test_below_needs_a_positive_bound(n: int) -> None:
    r = Rng(1)
    before = r.state
    with pytest.raises(ValueError, match="positive bound"):
        r.below(n)
    assert r.state == before


def test_weighted_never_draws_zero_weights_and_follows_weights() -> None:
    r = Rng(3)
    counts = Counter(r.weighted([1, 0, 3, 0]) for _ in range(40_000))
    assert set(counts) == {0, 2}
    # P(0) = 1/4: sd of the count ~ 87.
    assert abs(counts[0] - 10_000) < 6 * 87


def test_weighted_matches_below() -> None:
    weights = [5, 2, 0, 9]
    a, b = Rng(11), Rng(11)
    for _ in range(200):
        x = b.below(sum(weights))
        expected = 0 if x < 5 else 1 if x < 7 else 3
        assert a.weighted(weights) == expected


@pytest.mark.parametrize("weights", [[], [0], [0, 0]])
def test_weighted_needs_a_positive_total(weights: list[int]) -> None:
    with pytest.raises(ValueError, match="positive bound"):
        Rng(1).weighted(weights)


def test_scripted_values_in_order_then_fallback() -> None:
    s = ScriptedRng([3, 0, 51], seed=42)
    assert s.below(10) == 3
    assert s.below(1) == 0
    assert s.below(52) == 51
    assert s.script == []
    plain = Rng(42)
    assert [s.below(1000) for _ in range(5)] == [plain.below(1000) for _ in range(5)]


def test_scripted_weighted() -> None:
    s = ScriptedRng([2, 0])
    assert s.weighted([1, 1, 7]) == 2
    assert s.weighted([4]) == 0
    # Script used up: SplitMix64 from seed 0.
    assert s.weighted([1, 1]) == Rng(0).weighted([1, 1])


@pytest.mark.parametrize(("value", "n"), [(10, 10), (-1, 5), (1, 1)])
def test_scripted_below_out_of_range(value: int, n: int) -> None:
    with pytest.raises(ValueError, match=rf"scripted value {value} is outside range\({n}\)"):
        ScriptedRng([value]).below(n)


@pytest.mark.parametrize(("value", "weights"), [(3, [1, 1, 1]), (-1, [1]), (1, [1, 0, 2])])
def test_scripted_weighted_out_of_range_or_zero_weight(value: int, weights: list[int]) -> None:
    with pytest.raises(ValueError, match=f"scripted index {value} cannot be drawn"):
        ScriptedRng([value]).weighted(weights)


@pytest.mark.parametrize("seed", [-1, 1.5, "1", None, True, False, 2.0])
def test_bad_seeds_rejected(seed: Any) -> None:
    with pytest.raises(ValueError, match="seed must be an integer from 0 to 2"):
        Rng(seed)
    with pytest.raises(ValueError, match="seed must be an integer from 0 to 2"):
        ScriptedRng([], seed=seed)


def test_seed_past_64_bits_is_rejected() -> None:
    # Two recorded seeds must never replay the same round: 2**64 + 5 is not a seed.
    with pytest.raises(ValueError, match="seed must be an integer from 0 to 2"):
        Rng((1 << 64) + 5)


def test_new_seed_is_64_bits() -> None:
    seeds = {new_seed() for _ in range(20)}
    assert all(0 <= s <= MASK64 for s in seeds)
    assert len(seeds) > 1
