"""What every game's rules page says of its figures, asked of every registered game.

"Maximum win" means one thing in every game: the largest win a round can pay at the
report's lines (``max_win_x``), marked where it is only a proven bound (``max_win_bound``),
with the chance of a round paying it where it is known; the rules page and the lobby show
the report's figure as it is (not rounded, never recomputed by a screen). A game with a
jackpot says which of the usual jackpot rules cannot apply to a demo, and its starting values.
"""

from __future__ import annotations

import functools
import importlib
from typing import Any

import pytest

from pyengine.games import game_ids, get_game, plugin
from pyengine.math.rtp import MAX_WIN_KEYS, odds_text, rtp_report
from slotui.pages import PageContext, page_html, x_text
from slotui.stage import screen_for


@functools.cache
def report(game: str) -> dict[str, Any]:
    return rtp_report(game)


@pytest.mark.parametrize("game", game_ids())
def test_every_report_says_the_max_win_the_same_way(game: str) -> None:
    r = report(game)
    assert all(k in r for k in MAX_WIN_KEYS)
    assert r["max_win_x"] > 0
    assert isinstance(r["max_win_bound"], bool)
    p = r["max_win_probability"]
    assert p is None or 0 < p <= 1
    assert p is not None or r["max_win_bound"], "a win said to be paid comes with its odds"
    assert r["max_win_odds"] == odds_text(p)


@pytest.mark.parametrize("game", game_ids())
def test_the_rules_page_shows_the_reports_max_win(game: str) -> None:
    r = report(game)
    importlib.import_module(plugin(game).screen)
    g = get_game(game)
    bet = g.bets.default
    info = {k: r[k] for k in ("rtp", "max_win_x", "max_win_bound", "max_win_odds")}
    ctx = PageContext(desc=g.describe(), info=info, fmt=g.bets.format, assets=f"static/games/{game}",
                      bet_per_line=bet.bet_per_line, lines=bet.lines, stake=bet.total)
    html = page_html("help", screen_for(game), ctx)
    assert html is not None
    figure = next(line for line in html.split("<li>") if line.startswith("Maximum win"))
    assert f'<b class="fig-max">{x_text(r["max_win_x"])}</b>' in figure
    assert ("at most" in figure) == r["max_win_bound"]
    if r["max_win_probability"] is not None:
        assert r["max_win_odds"] in figure


def test_odds_text() -> None:
    assert odds_text(None) == "not computed"
    assert odds_text(1 / 14_337_734) == "1 in 14,337,734"
    assert odds_text(7.0e-144) == "1 in 1.43e143"


@pytest.mark.parametrize("game", game_ids())
def test_a_jackpot_games_rules_say_which_jackpot_rules_do_not_apply(game: str) -> None:
    importlib.import_module(plugin(game).screen)
    g = get_game(game)
    bet = g.bets.default
    ctx = PageContext(desc=g.describe(), info={}, fmt=g.bets.format, assets="a", bet_per_line=bet.bet_per_line,
                      lines=bet.lines, stake=bet.total)
    html = page_html("help", screen_for(game), ctx)
    assert html is not None
    has = bool(g.describe().get("jackpot"))
    assert ("Jackpot rules that do not apply here" in html) == has
    if has:
        for words in ("Other players", "Jackpot symbols and tiers", "Deactivation", "Connection delays"):
            assert words in html
        zero = g.bets.format(0)
        assert f"the current starting value is {zero}, and the next minimum starting value is {zero}" in html
