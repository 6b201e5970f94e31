"""Attract mode's loop (`slotui.attract`) on a real controller: the showcase's rounds in their
order, each the engine's own round, the hold between two rounds, and Pause, which stops the
controller's clock (the motion stays where it is) and the loop until Resume.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pyengine.games import GAME_IDS
from pyengine.link import decode, encode, first_round, link_of, play_link
from pyengine.session import Session
from slotui.attract import HOLD_MS, Attract, links_of
from slotui.controller import Controller
from tests.client_support import idle, make_rig

GAME = GAME_IDS[0]
OTHER = GAME_IDS[1]


def token(game: str, seed: int) -> str:
    record, _ = first_round(game, seed, clock=lambda: 1.75e9)
    return encode(link_of(game, record))


def entries(game: str) -> list[dict[str, Any]]:
    """Showcase-like entries: a tier, a feature, a broken token, another game's, a jackpot."""
    return [
        {"kind": "tier", "title": "tier", "token": token(game, 3)},
        {"kind": "feature", "title": "feature", "token": token(game, 1)},
        {"kind": "feature", "title": "broken", "token": token(game, 2)[:-3] + "AAA"},
        {"kind": "feature", "title": "other game", "token": token(OTHER, 1)},
        {"kind": "jackpot", "title": "jackpot", "token": token(game, 2)},
    ]


def test_the_loop_plays_features_first_and_skips_what_does_not_decode() -> None:
    given = entries(GAME)
    links = links_of(given, GAME)
    assert [title for _, title in links] == ["feature", "jackpot", "tier"]
    assert [encode(link) for link, _ in links] == [given[i]["token"] for i in (1, 4, 0)]


@dataclass
class App:
    controller: Controller
    session: Session


class Clock:
    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


def rig_loop() -> tuple[Attract, App, Clock]:
    links = links_of(entries(GAME), GAME)
    first = links[0][0]
    from pyengine.link import link_session, replay_round

    session = link_session(first, clock=lambda: 1.75e9)
    rig = make_rig(0, session=session, game=GAME)
    rig.controller.queue.extend(replay_round(session, first))
    app = App(rig.controller, session)
    clock = Clock()
    loop = Attract(app, links, clock)
    loop.first()
    return loop, app, clock


def advance(loop: Attract, clock: Clock, ms: float, step: float = 16.0) -> None:
    """The page's frames and polls for ``ms`` of the page's time."""
    end = clock.t + ms
    while clock.t < end:
        clock.t += step
        loop.app.controller.tick(clock.t)
        loop.poll()


def until_idle(loop: Attract, clock: Clock, limit: float = 600_000.0) -> None:
    start = clock.t
    c = loop.app.controller
    while not (idle(c) and not c.queue):
        assert clock.t - start < limit, "the round did not end"
        advance(loop, clock, 16.0)


def test_each_round_is_the_engines_and_the_next_waits_for_the_hold() -> None:
    loop, app, clock = rig_loop()
    until_idle(loop, clock)
    assert (loop.played, loop.index) == (1, 0)
    # The round on screen stays for HOLD_MS, then the next plays: the engine's own round.
    advance(loop, clock, HOLD_MS - 200)
    assert loop.played == 1
    advance(loop, clock, 400)
    assert (loop.played, loop.index) == (2, 1)
    expected = play_link(loop.links[1][0])
    last = app.session.last_round
    assert last is not None
    assert (last.seed, last.win) == (loop.links[1][0].seed, expected[-1].to_json()["win"])
    assert [type(e) for e in last.events] == [type(e) for e in expected]
    until_idle(loop, clock)
    assert loop.stats() == {"played": 2, "index": 1, "title": "jackpot", "paused": False, "rounds": 3}


def test_pause_stops_the_motion_and_the_loop_and_resume_goes_on_from_there() -> None:
    loop, app, clock = rig_loop()
    c = app.controller
    advance(loop, clock, 300)  # the reels are spinning
    assert c.view.reels.moving or c.presenting
    loop.pause()
    frozen = c.now
    advance(loop, clock, 60_000)
    assert c.now == frozen  # the controller's clock stood still: nothing moved
    assert loop.played == 1
    assert loop.stats()["paused"] is True
    loop.resume()
    advance(loop, clock, 16)
    assert frozen < c.now <= frozen + 16 + 1e-9  # on from where it stopped, not 60 s later
    until_idle(loop, clock)
    # Paused during the hold: no next round however long it waits.
    loop.pause()
    advance(loop, clock, HOLD_MS * 4)
    assert loop.played == 1
    loop.resume()
    advance(loop, clock, HOLD_MS + 400)
    assert loop.played == 2


def test_the_loop_wraps_round_to_the_first() -> None:
    loop, _app, clock = rig_loop()
    for _ in range(len(loop.links)):
        until_idle(loop, clock)
        advance(loop, clock, HOLD_MS + 400)
    assert loop.played == len(loop.links) + 1
    assert loop.index == 0


def test_the_pages_replay_log_is_the_engines_and_a_bad_token_is_refused() -> None:
    from slotui.replaymode import canonical_log, replay_log

    t = token(GAME, 1)
    assert replay_log(t) == canonical_log(play_link(decode(t)))
    refused = replay_log(t[:-4])
    assert isinstance(refused, str)
    assert refused.startswith("refused: ")
