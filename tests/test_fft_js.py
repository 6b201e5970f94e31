"""The math page's polynomial product (``web/fft.js``) in Node.js against numpy: every length
it chooses (short products directly, 2^a and 3 * 2^a transforms), truncation, squaring, and
the spectra it keeps of recent inputs, which must never answer for an input that changed.

The page's exact figures rest on it (its what-if is compared with the command line's in
``test_math_browser.py``); here each product is checked on its own, to about 1e-15 of the
largest coefficient of the full product, as numpy's own FFT.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

np = pytest.importorskip("numpy")

ROOT = Path(__file__).resolve().parents[1]
FFT = ROOT / "web" / "fft.js"
TOLERANCE = 1e-14
"""Largest error allowed, as a fraction of the largest coefficient of the full product."""

# Reads steps as JSON on stdin, answers one list of results per step.
RUNNER = """
import { product } from %s;
let data = "";
for await (const chunk of process.stdin) data += chunk;
const out = [];
for (const step of JSON.parse(data)) {
  const x = Float64Array.from(step.x);
  const y = step.y === null ? x : Float64Array.from(step.y);
  const got = [Array.from(product(x, y, step.size))];
  if (step.mutate) {
    // The same arrays, changed in place: the spectra kept for them no longer apply.
    x[step.mutate[0]] += step.mutate[1];
    got.push(Array.from(product(x, y, step.size)));
  }
  out.push(got);
}
process.stdout.write(JSON.stringify(out));
"""


def run_steps(steps: list[dict[str, Any]]) -> list[list[list[float]]]:
    node = shutil.which("node")
    if node is None:
        pytest.fail("Node.js (`node`) is not on PATH; this test needs it")
    script = RUNNER % json.dumps(FFT.as_uri())
    proc = subprocess.run(
        [node, "--input-type=module", "-e", script],
        input=json.dumps(steps),
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr
    result: list[list[list[float]]] = json.loads(proc.stdout)
    return result


def reference(x: Any, y: Any, size: int) -> Any:
    """x * y cut after ``size`` coefficients: numpy's direct convolution, or its FFT for long ones."""
    if len(x) * len(y) <= 4_000_000:
        full = np.convolve(x, y)
    else:
        n = len(x) + len(y) - 1
        full = np.fft.irfft(np.fft.rfft(x, 2 * n) * np.fft.rfft(y, 2 * n), 2 * n)[:n]
    return full[:size], np.abs(full).max()


def check(got: list[float], x: Any, y: Any, size: int) -> None:
    want, scale = reference(x, y, size)
    assert len(got) == len(want)
    if len(want):
        assert np.abs(np.asarray(got) - want).max() <= TOLERANCE * scale


def step(x: Any, y: Any | None, size: int, mutate: tuple[int, float] | None = None) -> dict[str, Any]:
    return {
        "x": x.tolist(),
        "y": None if y is None else y.tolist(),
        "size": size,
        "mutate": list(mutate) if mutate else None,
    }


LENGTHS = [
    (1, 1, 1),
    (3, 5, 100),  # short: direct
    (33, 32, 64),
    (40, 30, 5),
    (65, 1, 65),  # the first transformed length (2^7)
    (100, 37, 136),  # 3 * 2^6
    (700, 800, 1499),  # 3 * 2^9
    (1000, 999, 1500),
    (2048, 2049, 4096),  # 2^12
    (4097, 4096, 9000),
    (12_000, 11_000, 23_000),  # 3 * 2^13
    (45_001, 45_001, 45_001),  # a line game's feature distributions: 3 * 2^15
]


@pytest.mark.parametrize("squared", [False, True], ids=["x*y", "x*x"])
def test_products_of_every_length_match_numpy(*, squared: bool) -> None:
    rng = np.random.default_rng(26)
    steps, inputs = [], []
    for lx, ly, size in LENGTHS:
        x = rng.random(lx) * np.exp(-np.arange(lx) / max(lx / 8, 1))  # a distribution-like decay
        y = x if squared else rng.random(ly)
        steps.append(step(x, None if squared else y, size))
        inputs.append((x, y, size))
    for got, (x, y, size) in zip(run_steps(steps), inputs, strict=True):
        check(got[0], x, y, size)


def test_kept_spectra_answer_only_for_the_same_coefficients() -> None:
    rng = np.random.default_rng(7)
    n, size = 3000, 4000
    base = [rng.random(n) for _ in range(12)]  # more inputs than the spectra kept
    # (x, y or None for the same array as x, size, a change made in place after a product)
    plan: list[tuple[Any, Any | None, int, tuple[int, float] | None]] = [
        (base[0], base[1], size, None),
        (base[0], base[0].copy(), size, None),  # equal copies: one spectrum serves both
        (base[1], base[0], size, (0, 0.5)),  # changed in place after a product
        *((b, base[0], size, None) for b in base[2:]),  # push the first spectra out
        (base[1], None, size, (n - 1, 1e-9)),  # squared; the last coefficient by a hair
        (base[0], base[1], 2 * n - 1, None),  # back to the first pair, the whole product
        (base[0][:-1], base[1], size, None),  # one coefficient shorter: another input
    ]
    steps = [step(x, y, s, m) for x, y, s, m in plan]
    for got, (x, y, s, m) in zip(run_steps(steps), plan, strict=True):
        check(got[0], x, x if y is None else y, s)
        if m is not None:
            changed = x.copy()
            changed[m[0]] += m[1]
            check(got[1], changed, changed if y is None else y, s)
            assert got[1] != got[0]
