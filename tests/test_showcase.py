"""The showcase (`pyengine.showcase`) of every shipped game, as the build writes it into the
site: every feature its report lists has a round, every entry's token replays the round the
stream's seed plays (as ``play --seed S`` plays it), each entry shows what it says, and the
search is deterministic (no earlier seed shows the feature; the same search twice gives the
same entries).

The full search is the build's (`build.showcases`, cached per engine version), read here
rather than searched again.
"""

from __future__ import annotations

import json
import sys
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from pyengine import events as ev
from pyengine import showcase as sc
from pyengine.cli import main
from pyengine.games import GAME_IDS, get_game, plugin
from pyengine.link import decode, first_round, play_link
from pyengine.math.rtp import rtp_report
from pyengine.math.simulate import SIM_START
from tests.browser.helpers import build_module


@cache
def built() -> dict[str, Any]:
    """Every shipped game's showcase, as the build has it."""
    return dict(build_module().showcases(Path(sys.executable), list(GAME_IDS)))


def _log(events: list[ev.Event]) -> list[str]:
    return [ev.dumps([e]) for e in events]


def _features(game: str, mode: str) -> list[dict[str, Any]]:
    return list(rtp_report(game, mode).get("features", []))


@pytest.mark.parametrize("game", GAME_IDS)
def test_every_listed_feature_has_a_round(game: str) -> None:
    out = built()[game]
    assert out["version"] == get_game(game).version
    assert out["missing"] == []
    assert plugin(game).showcase_function() is not None
    listed = {(mode, f["id"]): f for mode in get_game(game).modes for f in _features(game, mode)}
    assert listed  # every game's report lists its features
    shown = {(e["mode"], e["id"]) for e in out["entries"] if e["kind"] == "feature"}
    assert shown <= set(listed)
    for (mode, ident), f in listed.items():
        if (mode, ident) in shown:
            continue
        # Too rare for this mode's search: another mode's round shows it.
        assert f["probability"] * out["limit"] < sc.RARE, (mode, ident)
        assert any(i == ident for _m, i in shown), (mode, ident)
    tiers = [e["id"] for e in out["entries"] if e["kind"] == "tier"]
    assert "win_10x" in tiers
    assert "win_best" in tiers
    assert any(e["kind"] == "jackpot" for e in out["entries"]) == (get_game(game).jackpot is not None)


@pytest.mark.parametrize("game", GAME_IDS)
def test_every_entry_replays_the_round_its_seed_plays(game: str) -> None:
    finder = plugin(game).showcase_function()
    assert finder is not None
    features = {(mode, f["id"]): f for mode in get_game(game).modes for f in _features(game, mode)}
    for e in built()[game]["entries"]:
        link = decode(e["token"])
        events = play_link(link)
        end = events[-1]
        assert isinstance(end, ev.RoundEnd)
        assert end.win == e["win"]
        if e["kind"] == "jackpot":
            assert any(isinstance(x, ev.JackpotWin) for x in events)
            continue
        record, played = first_round(game, e["seed"], mode=e["mode"], clock=lambda: SIM_START)
        assert _log(events) == _log(played)  # the token's round is the seed's first round
        assert record.stake == e["stake"]
        if e["kind"] == "feature":
            assert e["id"] in finder(events)
            f = features[(e["mode"], e["id"])]
            assert e["odds"]["probability"] == f["probability"]
            assert e["title"] == f["title"]
        elif e["id"] == "win_best":
            tiers = [t["win"] for t in built()[game]["entries"] if t["kind"] == "tier"]
            assert e["win"] == max(tiers)  # the largest win of the searched seeds
        else:
            assert e["win"] >= int(e["id"][4:-1]) * e["stake"]


@pytest.mark.parametrize("game", GAME_IDS)
def test_a_feature_entry_is_the_first_seed_that_shows_it(game: str) -> None:
    """Deterministic: no earlier seed of the stream shows the feature (checked below seed 3,000)."""
    finder = plugin(game).showcase_function()
    assert finder is not None
    early = [e for e in built()[game]["entries"] if e["kind"] == "feature" and e["seed"] <= 3000]
    assert early
    for mode in {e["mode"] for e in early}:
        wanted = {e["id"]: e["seed"] for e in early if e["mode"] == mode}
        first: dict[str, int] = {}
        for seed in range(1, max(wanted.values()) + 1):
            for ident in finder(first_round(game, seed, mode=mode, clock=lambda: SIM_START)[1]):
                first.setdefault(ident, seed)
        assert {k: first[k] for k in wanted} == wanted


def test_the_same_search_gives_the_same_showcase() -> None:
    game = GAME_IDS[0]
    a = sc.showcase(game, rounds=3000, limit=3000)
    b = sc.showcase(game, rounds=3000, limit=3000)
    assert a == b
    full = {e["id"]: e for e in built()[game]["entries"] if e["kind"] == "feature"}
    for e in a["entries"]:
        if e["kind"] == "feature":
            assert e == full[e["id"]]  # a shorter search finds the same first rounds


def test_the_cli_prints_the_showcase(capsys: pytest.CaptureFixture[str]) -> None:
    game = GAME_IDS[0]
    assert main(["showcase", game, "--json", "--rounds", "2000", "--limit", "2000"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out == sc.showcase(game, rounds=2000, limit=2000)
    assert main(["showcase", game, "--rounds", "2000", "--limit", "2000"]) == 0
    text = capsys.readouterr().out
    assert all(e["id"] in text for e in out["entries"])
    assert main(["showcase", game, "--rounds", "5", "--limit", "4"]) == 2
    assert "rounds <= limit" in capsys.readouterr().err


@pytest.mark.parametrize("game", GAME_IDS)
def test_every_entry_is_titled_in_every_language(game: str) -> None:
    """The Watch list, attract mode and the lobby title each entry from the catalogues
    (`slotui.watch.title_of`): every entry of the showcase has its words in every language,
    and the English ones are the engine's titles."""
    import importlib

    from slotui import words
    from slotui.beats import screen_for
    from slotui.watch import title_of

    importlib.import_module(plugin(game).screen)
    entries = built()[game]["entries"]
    try:
        for lang in words.LANGS:
            words.use(lang)
            titles = [title_of(e, screen_for(game).word) for e in entries]
            assert all(t.strip() for t in titles), game
            if lang == "en":
                assert titles == [str(e["title"]) for e in entries]
    finally:
        words.use("en")
