"""Products of float64 polynomials cut after a degree: the one numeric kernel of the
feature compounding (`pyengine.math.compound`) and of the exact win distributions that
build on it.

A polynomial is a list of its coefficients (z^0 first). `product` multiplies two and keeps
the first ``size`` coefficients. It uses numpy's real FFT when numpy is installed (the
``cli`` extra; lengths chosen so that nothing wraps around), or a product a host hands in
with `use`: the browser's math page has no numpy and hands in an FFT written in
JavaScript. Both give the product to about 1e-15 of its largest coefficient; what the two
compute from the same input agrees to that precision, not to the last bit.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ..errors import EngineError

__all__ = ["Product", "fast_length", "product", "use"]

Product = Callable[[Sequence[float], Sequence[float], int], Sequence[float]]
"""``product(x, y, size)``: the first ``size`` coefficients of x * y."""

_HOST: list[Product] = []
"""The product a host handed in (`use`), used when numpy is not installed."""


def use(host: Product | None) -> None:
    """Multiply with ``host`` where numpy is not installed (None: forget it)."""
    _HOST[:] = [] if host is None else [host]


def fast_length(n: int) -> int:
    """The smallest 2^a 3^b 5^c >= n (a length numpy's FFT handles fast)."""
    best = 1 << max(n - 1, 0).bit_length()
    p5 = 1
    while p5 < best:
        p35 = p5
        while p35 < best:
            m = p35
            while m < n:
                m *= 2
            best = min(best, m)
            p35 *= 3
        p5 *= 5
    return best


def _numpy() -> Any:
    try:
        import numpy
    except ImportError:
        return None
    return numpy


def product(x: Sequence[float], y: Sequence[float], size: int) -> list[float]:
    """The first ``size`` coefficients of the product of ``x`` and ``y`` (lists of floats)."""
    if not x or not y or size <= 0:
        return [0.0] * max(size, 0)
    np = _numpy()
    if np is None:
        if not _HOST:
            raise EngineError("this computation needs numpy: pip install 'pyengine[cli]'")
        out = list(_HOST[0](x, y, size))
        return out + [0.0] * (size - len(out))
    n = min(len(x) + len(y) - 1, size)
    length = fast_length(len(x) + len(y) - 1)
    fx = np.fft.rfft(np.asarray(x, dtype=float), length)
    fy = fx if y is x else np.fft.rfft(np.asarray(y, dtype=float), length)
    got: list[float] = np.fft.irfft(fx * fy, length)[:n].tolist()
    return got + [0.0] * (size - n)
