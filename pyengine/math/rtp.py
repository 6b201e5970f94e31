"""RTP reports: the checks and the timing shared by every game; each game's plug-in
supplies its exact calculator (`pyengine.games.Plugin.report`).

A report is a JSON-ready dict with at least ``game``, ``mode``, ``rtp``, ``target_rtp``,
``method``, ``breakdown`` (component -> share of the stake) and the maximum win; it may
add ``summary``, lines of text the CLI prints as they are, and any figures of its own.

The maximum win means one thing in every game: ``max_win_x``, the largest win a round can
pay, in total bets, at the report's lines. ``max_win_bound`` says whether that figure is
only a proven bound (no round pays more, but the method does not show a round that pays
it) rather than a win some round pays. ``max_win_probability`` is the chance of a round
paying it (for a bound, at most this), or None where it is not computed; the report adds
``max_win_odds``, the same chance as text ("1 in 14,337,734", "1 in 1.43e143", or
"not computed").
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from fractions import Fraction
from typing import Any, Protocol

from ..errors import EngineError
from ..games import get_game, plugin

__all__ = ["MAX_WIN_KEYS", "odds_text", "report_header", "rtp_report"]

MAX_WIN_KEYS = ("max_win_x", "max_win_bound", "max_win_probability")
"""What every game's report says of its maximum win (see the module's docstring)."""


class _Named(Protocol):
    id: str
    target_rtp: Fraction


def report_header(
    game: _Named,
    mode: str,
    rtp: Fraction,
    *,
    method: str,
    components: Mapping[str, Fraction],
    target: Fraction | None = None,
    summary: list[str] | None = None,
) -> dict[str, Any]:
    """The fields every report starts with: the game and mode, the RTP (as a float and as
    the exact fraction), the target (the game's unless ``target``), how it was computed
    (``method``), its ``breakdown`` by component and, where given, the ``summary`` lines the
    CLI prints. A report adds its own figures and the maximum win (`MAX_WIN_KEYS`)."""
    head: dict[str, Any] = {"summary": summary} if summary is not None else {}
    return head | {
        "game": game.id,
        "mode": mode,
        "rtp": float(rtp),
        "target_rtp": float(game.target_rtp if target is None else target),
        "rtp_exact": str(rtp),
        "method": method,
        "breakdown": {k: float(v) for k, v in components.items()},
    }


def odds_text(probability: float | None) -> str:
    """A chance as "1 in N": whole below a billion, else in scientific notation."""
    if probability is None:
        return "not computed"
    if probability <= 0:
        return "never"
    every = 1 / probability
    return f"1 in {every:,.0f}" if every < 1e9 else f"1 in {every:.3g}".replace("e+", "e")


def rtp_report(
    game_id: str,
    mode: str = "base",
    settings: Mapping[str, Any] | None = None,
    lines: int | None = None,
    *,
    game: Any = None,
) -> dict[str, Any]:
    """The exact RTP report of ``game_id`` in bet mode ``mode``, with its computing time.

    ``settings`` are operator settings that differ from the game's defaults (checked as a
    session checks them); ``lines`` the number of active lines (default: the most). Only a
    win limit makes the RTP depend on the lines (a limit that is a multiple of the total
    bet). The report gives the settings and lines it assumed. ``game`` is the game to report
    on when not the one registered as ``game_id`` (an edited copy: `pyengine.math.whatif`).
    """
    if game is None:
        game = get_game(game_id)
    modes = game.modes
    if mode not in modes:
        raise EngineError(f"{game_id} has no mode {mode!r}; its modes are {', '.join(modes)}")
    chosen = game.validate_settings(settings or {})
    offered = game.bets.lines
    if lines is None:
        lines = max(offered)
    elif type(lines) is not int or lines not in offered:
        raise EngineError(f"{lines!r} lines is not offered; choose one of {', '.join(map(str, offered))}")
    calculator = plugin(game_id).report_function()
    start = time.perf_counter()
    report = calculator(game, mode, chosen, lines)
    missing = [k for k in MAX_WIN_KEYS if k not in report]
    if missing:
        raise EngineError(f"the report of {game_id} lacks {', '.join(missing)} (see pyengine.math.rtp)")
    report["max_win_odds"] = odds_text(report["max_win_probability"])
    report["settings"] = chosen
    report["lines"] = lines
    report["seconds"] = time.perf_counter() - start
    return report
