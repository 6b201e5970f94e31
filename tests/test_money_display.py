"""Demo money shown in another currency (``currency=EUR``: `Controller.money`, the page's
Intl.NumberFormat): every amount the game writes — meters, banners, the pages — goes
through it, the separate currency label goes, and coins stay coins."""

from __future__ import annotations

from slotui import pages
from slotui.embedapi import Commands
from tests.client_support import FakeHost, find_seed, make_rig


def euros(minor: int) -> str:
    """What Intl.NumberFormat("en-US", {style: "currency", currency: "EUR"}) writes."""
    sign = "-" if minor < 0 else ""
    whole, cents = divmod(abs(minor), 100)
    return f"{sign}€{whole:,}.{cents:02d}"


def test_every_amount_goes_through_the_pages_currency() -> None:
    r = make_rig(find_seed("loss"))
    c = r.controller
    own = c.controls()
    c.money, c.currency = euros, "EUR"
    c.dirty = True
    got = c.controls()
    assert got.balance == euros(r.session.balance)
    assert got.total_bet == euros(r.session.bet.total)
    assert own.currency == r.session.game.bets.currency  # the demo money's own label, FUN
    assert got.currency == ""  # the symbol is in the amounts
    assert c.fmt(123456) == "€1,234.56"
    ctx = pages.page_context(r.session, c.desc, {}, "", c.fmt)
    assert ctx.fmt(r.session.bet.total) == euros(r.session.bet.total)
    html = pages.page_html("paytable", c.screen, ctx)
    assert html is not None
    assert "€" in html
    commands = Commands(c, FakeHost(), lambda: c.now)
    assert commands.state()["currency"] == "EUR"


def test_the_games_own_format_without_a_currency() -> None:
    r = make_rig(find_seed("loss"))
    c = r.controller
    assert c.money is None
    assert c.fmt(123456) == r.session.game.bets.format(123456)
    ctx = pages.page_context(r.session, c.desc, {}, "")
    assert ctx.fmt(100) == r.session.game.bets.format(100)
