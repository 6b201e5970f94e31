"""RTP reports: each game's exact calculator, as one JSON-ready report per bet mode."""

from __future__ import annotations

import math
import time
from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from ..errors import EngineError
from ..games import get_game
from ..games.book_of_spells import BookOfSpells
from ..games.moon_spell import POSITIONS, MoonSpell
from .book_of_spells import book_math, cap_term
from .exact import max_spin_win
from .moon_spell import base_math, buy_math, prize_moments

__all__ = ["rtp_report"]


def _f(x: Fraction) -> float:
    return float(x)


def _book_report(game: BookOfSpells, settings: dict[str, int], lines: int) -> dict[str, Any]:
    m = book_math(game)
    cap_x = settings["free_spin_cap_x"]
    cap = cap_term(game, cap_x, lines)
    d = game.data
    base_max = max_spin_win(
        game.base_reels,
        d.paylines[:lines],
        d.paytable,
        wild=game.book,
        wild_pays_as=game.wild_pays_as,
        scatter=game.book,
        scatter_pays=d.scatter_pays,
        min_scatter=game.free_spins.trigger,
    )
    max_win_x = Fraction(base_max, lines) + cap_x
    fs_lines = m.p_trigger * m.expected_spins * m.free_spin_lines
    fs_scatter = m.p_trigger * m.expected_spins * m.free_spin_scatter
    fs_expanding = m.free_spins - fs_lines - fs_scatter
    rtp = _f(m.rtp_uncapped) - cap.reduction
    return {
        "game": game.id,
        "mode": "base",
        "rtp": rtp,
        "target_rtp": _f(game.target_rtp),
        "rtp_uncapped_exact": str(m.rtp_uncapped),
        "method": (
            "exact: line wins from per-reel symbol counts, Book scatter by convolution, free spins "
            "per expanding symbol with the retrigger series N = 10/(1-10p) (fractions); the free-spin cap "
            "from the exact distribution of one free spin's win over all stop combinations, per expanding "
            "symbol, compounded over the feature with its retriggers (float64, to about 1e-11 of the total bet)"
        ),
        "breakdown": {
            "base_lines": _f(m.base_lines),
            "base_scatter": _f(m.base_scatter),
            "free_spins_lines": _f(fs_lines),
            "free_spins_scatter": _f(fs_scatter),
            "free_spins_expanding": _f(fs_expanding),
            "free_spin_cap": -cap.reduction,
            "gamble": 0.0,
        },
        "free_spin_cap": {
            "cap_x": cap_x,
            "lines": cap.lines,
            "reduction": cap.reduction,
            "feature_excess_x": cap.excess,
            "feature_capped_probability": cap.over,
            "feature_capped_every": 1 / cap.over if cap.over else None,
            "excess_by_symbol_x": cap.excess_by_symbol,
            "capped_probability_by_symbol": cap.over_by_symbol,
        },
        "feature_frequency": _f(m.p_trigger),
        "feature_every": _f(1 / m.p_trigger),
        "retrigger_probability": _f(m.p_retrigger),
        "expected_free_spins": _f(m.expected_spins),
        "feature_average_x": _f(m.feature),
        "feature_by_symbol_x": {s: _f(v) for s, v in m.feature_by_symbol.items()},
        "line_hit_probability": _f(m.line_hit),
        "max_win_x": _f(max_win_x),
        "max_base_spin_x": _f(Fraction(base_max, lines)),
    }


def _every(p: Fraction) -> float | None:
    return _f(1 / p) if p else None


def _moon_report(game: MoonSpell, mode: str) -> dict[str, Any]:
    moon = game.moon
    if mode == "base":
        mm, spin, cash_probability = base_math(game)
        target = game.target_rtp
        method = (
            "exact (fractions): line wins from per-reel symbol counts; the Moon count by convolving the reels' "
            "column counts; Hold and Respin as an absorbing Markov chain over (Moons held, respins left); the "
            "max-win cap from the exact joint distribution of (Moons, line win) over every trigger window and "
            "the exact distribution of the prize sum; the time jackpot returns exactly its "
            f"{game.jackpot.contribution} contribution"
        )
    else:
        mm = buy_math(game)
        target = game.buy.target_rtp
        method = (
            "exact (fractions): the bought bonus starts with k Moons drawn from its weights (no line spin, no "
            "jackpot); Hold and Respin as an absorbing Markov chain over (Moons held, respins left); the "
            "max-win cap from the exact distribution of the prize sum"
        )
    report: dict[str, Any] = {
        "game": game.id,
        "mode": mode,
        "rtp": _f(mm.rtp),
        "target_rtp": _f(target),
        "rtp_exact": str(mm.rtp),
        "method": method,
        "breakdown": {k: _f(v) for k, v in mm.components.items()},
        "max_win_x": game.max_win_x,
        "max_win_probability": _f(mm.max_win),
        "max_win_every": _every(mm.max_win),
        "feature_frequency": _f(mm.feature),
        "feature_every": _f(1 / mm.feature),
        "feature_average_x": _f(mm.bonus_average_x),
        "start_count_distribution": {str(k): _f(p) for k, p in mm.starts.items()},
        "final_count_distribution": {str(n): _f(p) for n, p in mm.finals.items()},
        "ladder_probability": _f(mm.ladder_probability),
        "full_screen_probability": _f(mm.finals.get(len(POSITIONS), Fraction(0))),
        "moon_prize_mean_x": {
            "base": _f(prize_moments(moon.prizes_x, moon.base_weights)[0]),
            "respin": _f(prize_moments(moon.prizes_x, moon.respin_weights)[0]),
        },
    }
    if mode == "base":
        report["line_hit_probability"] = _f(spin.line_hit)
        report["hit_rate"] = _f(spin.hit)
        report["moon_cash_frequency"] = _f(cash_probability)
        report["moon_cash_every"] = _every(cash_probability)
        report["moon_count_distribution"] = {str(k): _f(p) for k, p in enumerate(spin.moons)}
    else:
        report["feature_buy_price_x"] = mm.price_x
        report["feature_buy_moons"] = {str(k): w for k, w in game.buy.moons}
        if mm.variance is not None:
            # of the return (win / price) of one bought round, and of its win in total stakes
            report["stdev"] = math.sqrt(_f(mm.variance))
            report["stdev_x"] = math.sqrt(_f(mm.variance)) * mm.price_x
    return report


def rtp_report(
    game_id: str, mode: str = "base", settings: Mapping[str, Any] | None = None, lines: int | None = None
) -> dict[str, Any]:
    """The exact RTP report of ``game_id`` in bet mode ``mode``, with its computing time.

    ``settings`` are operator settings that differ from the game's defaults (checked as a
    session checks them); ``lines`` the number of active lines (default: the most). Only a
    win limit makes the RTP depend on the lines (Book of Spells' free-spin limit is a
    multiple of the total bet). The report gives the settings and lines it assumed.
    """
    game = get_game(game_id)
    modes = getattr(game, "modes", ("base",))
    if mode not in modes:
        raise EngineError(f"{game_id} has no mode {mode!r}; its modes are {', '.join(modes)}")
    chosen = game.validate_settings(settings or {})
    offered = game.bets.lines
    if lines is None:
        lines = max(offered)
    elif type(lines) is not int or lines not in offered:
        raise EngineError(f"{lines!r} lines is not offered; choose one of {', '.join(map(str, offered))}")
    start = time.perf_counter()
    if isinstance(game, BookOfSpells):
        report = _book_report(game, chosen, lines)
    elif isinstance(game, MoonSpell):
        report = _moon_report(game, mode)
    else:  # pragma: no cover - every registered game has a calculator
        raise EngineError(f"no RTP calculator for {game_id}")
    report["settings"] = chosen
    report["lines"] = lines
    report["seconds"] = time.perf_counter() - start
    return report
