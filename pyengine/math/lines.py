"""The ready-made exact report of a plain line game (`pyengine.games.plain.PlainLinesGame`):
every figure exact, from the distribution of a spin's whole win over every stop combination
(`pyengine.math.exact.spin_distribution`), so that such a game needs no math module.
"""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from ..games.plain import PlainLinesGame
from .exact import convolve, count_distribution, spin_distribution
from .rtp import report_header

__all__ = ["plain_distribution", "report"]


def plain_distribution(game: PlainLinesGame, lines: int) -> dict[int, int]:
    """A spin's whole win in multiples of the bet per line at ``lines`` lines -> the number
    of stop combinations that give it (they add up to the reels' radix)."""
    scatter = game.scatter
    pays = game.data.scatter_pays

    def counts(column: tuple[str, ...]) -> tuple[int, ...]:
        return (column.count(scatter),) if scatter is not None else (0,)

    def settle(c: tuple[int, ...]) -> tuple[int, bool]:
        return pays.get(c[0], 0) * lines, False  # a scatter pays on the total bet: lines x the bet per line

    dist = spin_distribution(
        game.base_reels, game.data.paylines[:lines], game.data.paytable, wild=game.data.wilds or None,
        wild_pays_as=game.wild_pays_as, counts=counts, settle=settle,
    )
    out: dict[int, int] = {}
    for (win, _), n in dist.items():
        out[win] = out.get(win, 0) + n
    return out


def report(game: PlainLinesGame, mode: str, settings: Mapping[str, int], lines: int) -> dict[str, Any]:
    """The exact RTP report (see `pyengine.math.rtp.rtp_report`) at ``lines`` lines: RTP,
    its line and scatter parts, hit rate, sigma and the max win with its exact odds."""
    dist = plain_distribution(game, lines)
    radix = game.base_reels.radix
    p = {w: Fraction(n, radix) for w, n in dist.items()}
    rtp = sum((Fraction(w, lines) * q for w, q in p.items()), Fraction(0))
    scatter = Fraction(0)
    if game.scatter is not None:
        count = convolve(
            count_distribution(game.base_reels, r, lambda col: col.count(game.scatter or ""))
            for r in range(len(game.base_reels.strips))
        )
        scatter = sum((q * game.data.scatter_pays.get(k, 0) for k, q in enumerate(count)), Fraction(0))
    variance = sum((Fraction(w, lines) ** 2 * q for w, q in p.items()), Fraction(0)) - rtp**2
    hit = sum((q for w, q in p.items() if w), Fraction(0))
    top = max(dist)
    return report_header(
        game, mode, rtp,
        method="exact (fractions): the distribution of a spin's whole win (lines and scatter) over every stop "
        "combination, by dynamic programming over the reels",
        components={"lines": rtp - scatter, "scatter": scatter},
        summary=[f"hit rate {float(hit) * 100:.2f}%, sigma {float(variance) ** 0.5:.2f}"],
    ) | {
        "hit_rate": float(hit),
        "hit_rate_exact": str(hit),
        "sigma": float(variance) ** 0.5,
        "max_win_x": float(Fraction(top, lines)),
        "max_win_bound": False,  # the largest win some spin pays
        "max_win_probability": float(p[top]) if top else None,
    }
