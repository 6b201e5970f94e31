"""Book of Spells' own screen (from the shared ``tests/test_client_keys_layout_render.py``): its
free-spins intro (the Book turns its pages and lands on the expanding symbol), its paytable
and its rules, as `pages.page_html` chooses them."""

from __future__ import annotations

import functools
from typing import Any

from pyengine.games import get_game
from slotui import words
from slotui.games.book_of_spells import SCREEN, BookIntro
from slotui.pages import PageContext, page_html
from tests import client_support
from tests.client_support import draw_view

GAME_ID = "book_of_spells"
DESC: dict[str, Any] = get_game(GAME_ID).describe()
FMT = get_game(GAME_ID).bets.format
ASSETS = f"static/games/{GAME_ID}"
STRIPS = [tuple(s) for s in DESC["reels"]["base"]]
view_with = functools.partial(client_support.view_with, STRIPS)


def test_the_intro_draws_while_choosing_and_waiting() -> None:
    candidates = tuple(DESC["free_spins"]["expanding"])
    turning = draw_view(view_with(overlays=[BookIntro(10, None, candidates, 4000.0, 2400.0)]))
    assert "10 FREE SPINS" in turning.texts()
    assert "EXPANDING SYMBOL" in turning.texts()
    assert "BOOK" in turning.sprites_drawn()
    assert any(s in candidates for s in turning.sprites_drawn())
    settling = draw_view(view_with(overlays=[BookIntro(10, "OWL", candidates, 4000.0, 2400.0)]), now=5000.0)
    assert "PRESS START" not in settling.texts()
    waiting = draw_view(view_with(overlays=[BookIntro(10, "OWL", candidates, 0.0, 2400.0, waiting=True)]))
    assert "OWL" in waiting.sprites_drawn()
    assert "PRESS START" in waiting.texts()
    bare = draw_view(view_with(overlays=[BookIntro(10, "OWL", ("OWL",), 0.0, 0.0, waiting=True)]), sprites=())
    assert "OWL" in bare.texts()  # without sprites a symbol is drawn as its id


# -- pages --------------------------------------------------------------------------------------
def page(kind: str, bet_per_line: int = 10, lines: int = 9, **kw: Any) -> str:
    """Dialog ``kind`` for the game at this bet, as `pages.page_html` chooses it."""
    fields: dict[str, Any] = {"desc": DESC, "info": {}, "fmt": FMT, "assets": ASSETS}
    fields.update(kw)
    ctx = PageContext(bet_per_line=bet_per_line, lines=lines, stake=bet_per_line * lines, **fields)
    html = page_html(kind, SCREEN, ctx)
    assert html is not None
    return html


def test_paytable_lists_every_symbol_with_its_pays_at_the_current_bet() -> None:
    html = page("paytable", 10, 9)
    for s in DESC["symbols"]:
        assert f'src="{ASSETS}/symbols/{s["id"]}.svg" alt="{s["name"]}"' in html
    assert "Pays at 0.10 per line on 9 lines." in html
    # Archmage: 5000 x the bet per line for five, 10 x for two.
    assert "<li><b>5×</b> 500.00</li>" in html
    assert "<li><b>2×</b> 1.00</li>" in html
    # The Book: 3 scatters pay 2 x the total bet (9 x 0.10).
    assert "3× 1.80" in html
    assert "pays as the Archmage" in html
    assert html.count('<figure class="payline">') == 9
    # At the highest bet the amounts follow.
    html = page("paytable", 100, 9)
    assert "<li><b>5×</b> 5,000.00</li>" in html
    assert "3× 18.00" in html


def test_paytable_omits_counts_that_do_not_pay() -> None:
    html = page("paytable", 10, 9)
    ace = html.split(f"{ASSETS}/symbols/A.svg", 1)[1].split("</ul>", 1)[0]
    assert "<b>3×</b> 0.50" in ace
    assert "<b>2×</b>" not in ace


def test_rules_give_rtp_max_win_and_version() -> None:
    html = page("help", info={"rtp": "0.9613", "max_win_x": 5000})
    assert 'Return to player: <b class="fig-rtp">96.13%</b>' in html
    assert 'Maximum win: <b class="fig-max">5,000×</b> the total bet' in html
    assert "Game version 1.0.0" in html
    assert "Pressing + past 9 lines starts again at 1" in html
    assert f"higher than {DESC['settings']['free_spin_cap_x']:,}× the total bet" in html
    before = words.use("de")
    try:
        german = page("help")
    finally:
        words.use(before)
    # German groups the thousands with a point, as Intl's de-DE does.
    assert f"das {DESC['settings']['free_spin_cap_x']:,}-Fache".replace(",", ".") in german
    odd = dict(DESC, name="Book <of> Spells & Co", version="1.0<b>")
    html = page("help", desc=odd)
    assert "Book &lt;of&gt; Spells &amp; Co" in html
    assert "1.0&lt;b&gt;" in html
    assert "Return to player" not in html
