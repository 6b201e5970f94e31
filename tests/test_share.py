"""Share this round: after a round (the bar's Share) and from every round of the history, the
link that replays that round exactly; nothing to share before a round has finished.

The page's side (the share sheet or the clipboard) is tested in Chromium
(`test_replay_browser.py`); here, for every game, the controller's link and the history's
links against the rounds they name.
"""

from __future__ import annotations

import re
from html import unescape
from typing import ClassVar
from urllib.parse import parse_qs, urlsplit

import pytest

from pyengine import events as ev
from pyengine.games import game_ids
from pyengine.link import decode, play_link
from pyengine.session import Session
from slotui.stage import GameScreen
from slotui.pages import page_context, page_html
from slotui.controller import Controller
from slotui.pick import board as pick_board
from tests.client_support import Rig, idle, make_rig

SHARE = re.compile(r'data-share="([^"]+)"')


def _token(url: str, game: str) -> str:
    """The token of a share address, checked to be the game's play page."""
    parts = urlsplit(url)
    assert parts.path == "play.html"
    assert not parts.netloc
    query = parse_qs(parts.query)
    assert query["game"] == [game]
    (token,) = query["replay"]
    return token


def play_round(r: Rig) -> None:
    """Spin and play the round to its end: Start at a feature's start, the first closed cell
    of a pick, Collect at a gamble's offer."""
    r.press("spin")

    def done(c: Controller) -> bool:
        if idle(c) and c.pending_kind in ("feature_start", "collect_or_gamble"):
            c.press("start_feature" if c.pending_kind == "feature_start" else "collect", c.now)
        if idle(c) and c.pending_kind == "pick" and (b := pick_board(c)) is not None:
            c.press(f"pick:{b.closed()[0]}", c.now)
        return idle(c) and not c.session.in_round

    r.until(done, 600_000.0)


def _log(events: list[ev.Event] | tuple[ev.Event, ...]) -> list[str]:
    return [ev.dumps([e]) for e in events]


@pytest.mark.parametrize("game", game_ids())
def test_share_gives_the_last_round_that_replays_it(game: str) -> None:
    r = make_rig(11, game=game)
    c = r.controller
    assert not c.controls().buttons["share"].enabled  # no round yet: nothing to share
    c.press("share", c.now)
    assert r.host.shared == []
    for _ in range(3):
        play_round(r)
        assert idle(c)
        assert not c.session.in_round
        assert c.controls().buttons["share"].enabled
        c.press("share", c.now)
        url, title = r.host.shared[-1]
        assert c.desc["name"] in title
        link = decode(_token(url, game))
        last = c.session.last_round
        assert last is not None
        assert (link.seed, link.bet, link.balance) == (last.seed, last.bet, last.balance_before)
        assert _log(play_link(link)) == _log(last.events)


@pytest.mark.parametrize("game", game_ids())
def test_share_is_off_while_a_round_plays(game: str) -> None:
    r = make_rig(5, game=game)
    c = r.controller
    play_round(r)
    r.press("spin")
    assert c.presenting
    assert not c.controls().buttons["share"].enabled
    shared = len(r.host.shared)
    c.press("share", c.now)
    assert len(r.host.shared) == shared  # a press while the round plays shares nothing


@pytest.mark.parametrize("game", game_ids())
def test_every_round_of_the_history_shares_its_own_link(game: str) -> None:
    s = Session(game, seed=99, balance=10**9, clock=lambda: 1.75e9)
    for _ in range(8):
        s.spin()
        while s.pending is not None:
            s.choose(s.pending.choices[0])
    ctx = page_context(s, s.game.describe(), {}, "a")
    html = page_html("history", _NoPages(), ctx)
    assert html is not None
    tokens = [unescape(t) for t in SHARE.findall(html)]
    records = list(reversed(s.history))  # the history shows the newest first
    assert len(tokens) == len(records) == len(s.history)
    assert html.count("Share this round") == len(records)
    for url, record in zip(tokens, records, strict=True):
        link = decode(_token(url, game))
        assert _log(play_link(link)) == _log(record.events)


def test_a_locked_page_still_shares_its_last_round() -> None:
    """A replay (and a tab another tab took over) locks play, not the share of its round."""
    r = make_rig(3)
    c = r.controller
    play_round(r)
    c.lock("Played in another tab")
    assert not c.controls().buttons["spin"].enabled
    assert c.controls().buttons["share"].enabled
    c.press("share", c.now)
    assert len(r.host.shared) == 1


class _NoPages:
    """A game's pages where it supplies none of its own (the shared ones are used)."""

    paytable = None
    rules = None
    buy = None
    word = staticmethod(GameScreen().word)
    symbol = staticmethod(GameScreen().symbol)
    feature_names: ClassVar[dict[str, str]] = {}
    history_board = None
