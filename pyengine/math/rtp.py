"""RTP reports: the checks and the timing shared by every game; each game's plug-in
supplies its exact calculator (`pyengine.games.Plugin.report`).

A report is a JSON-ready dict with at least ``game``, ``mode``, ``rtp``, ``target_rtp``,
``method``, ``breakdown`` (component -> share of the stake) and ``max_win_x``; it may
add ``max_win_probability`` / ``max_win_every`` and ``summary``, lines of text the CLI
prints as they are, and any figures of its own.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from typing import Any

from ..errors import EngineError
from ..games import get_game, plugin

__all__ = ["rtp_report"]


def rtp_report(
    game_id: str, mode: str = "base", settings: Mapping[str, Any] | None = None, lines: int | None = None
) -> dict[str, Any]:
    """The exact RTP report of ``game_id`` in bet mode ``mode``, with its computing time.

    ``settings`` are operator settings that differ from the game's defaults (checked as a
    session checks them); ``lines`` the number of active lines (default: the most). Only a
    win limit makes the RTP depend on the lines (a limit that is a multiple of the total
    bet). The report gives the settings and lines it assumed.
    """
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
    report["settings"] = chosen
    report["lines"] = lines
    report["seconds"] = time.perf_counter() - start
    return report
