"""A round as a link (`pyengine.link`): every game's rounds replay from their token exactly
as they were played (the CLI's ``link`` and ``replay`` against ``play``, and any round of a
session's history), and a token that is not one of this engine's rounds is refused with a
clear message."""

from __future__ import annotations

import base64
import hashlib
import io
import json
from contextlib import redirect_stdout
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pyengine.cli import main
from pyengine.errors import EngineError
from pyengine.games import GAME_IDS, get_game
from pyengine.link import MAX_TOKEN, LinkError, decode, encode, first_round, link_of, play_link
from pyengine.rng import Rng
from pyengine.session import Session
from tests.games import a_game, decides, has_mode, has_settings

SEEDS = (1, 7, 11, 42)


def cli(*argv: str) -> str:
    out = io.StringIO()
    with redirect_stdout(out):
        assert main(list(argv)) == 0
    return out.getvalue()


@pytest.mark.parametrize("game", GAME_IDS)
def test_the_cli_replays_a_link_as_play_printed_the_round(game: str) -> None:
    for seed in SEEDS:
        token = cli("link", game, "--seed", str(seed)).strip()
        assert token.isascii(), token
        assert all(c.isalnum() or c in "-_" for c in token), token
        played = json.loads(cli("play", game, "--seed", str(seed), "--jsonl"))
        replayed = json.loads(cli("replay", token, "--jsonl"))
        assert set(played) - set(replayed) == {"balance_before", "balance_after"}
        assert {k: played[k] for k in replayed} == replayed, (game, seed)


def test_a_bought_round_and_explicit_choices_link_too() -> None:
    game = a_game(has_mode("buy"), "a feature buy")
    token = cli("link", game, "--seed", "3", "--mode", "buy").strip()
    played = json.loads(cli("play", game, "--seed", "3", "--mode", "buy", "--jsonl"))
    replayed = json.loads(cli("replay", token, "--jsonl"))
    assert replayed["events"] == played["events"]
    assert replayed["mode"] == "buy"
    gamble = a_game(decides("collect_or_gamble"), "a gamble")
    answers = ["gamble", "red"]  # a gamble on red that loses: the round ends there

    def lost(seed: int) -> bool:
        try:
            return first_round(gamble, seed, choices=answers)[0].win == 0
        except EngineError:  # no win to gamble, or the card was red and the gamble goes on
            return False

    record, events = first_round(gamble, next(s for s in range(500) if lost(s)), choices=answers)
    assert record.choices == tuple(answers)
    assert play_link(decode(encode(link_of(gamble, record)))) == events


@pytest.mark.parametrize("game", GAME_IDS)
def test_every_round_of_a_history_replays_from_its_link(game: str) -> None:
    """A session played at several bets with random answers: each finished round's link
    replays its whole event log, the balance it started from included."""
    g = get_game(game)
    chosen = {k: v + 1 for k, v in g.default_settings().items() if k.endswith("_x")} if has_settings(g) else {}
    s = Session(game, seed=5, settings=chosen)
    pick = Rng(99)
    for i in range(12):
        if i % 4 == 3:
            s.bet_up()
        s.spin()
        while (d := s.pending) is not None:
            s.choose(d.choices[pick.below(len(d.choices))])
    assert len(s.history) >= 10
    for record in s.history:
        link = link_of(game, record, s.settings)
        token = encode(link)
        assert len(token) < MAX_TOKEN // 4
        back = decode(token)
        assert back == link
        assert tuple(play_link(back)) == record.events, record.index


def test_a_link_keeps_only_the_settings_that_differ_from_the_defaults() -> None:
    game = a_game(has_settings, "operator settings")
    g = get_game(game)
    s = Session(game, seed=1)
    s.spin()
    while (d := s.pending) is not None:
        s.choose(d.choices[0])
    assert s.last_round is not None
    assert link_of(game, s.last_round, g.default_settings()).settings == {}


# -- refusals -------------------------------------------------------------------------------------


def token_of(game: str = GAME_IDS[0]) -> str:
    return cli("link", game, "--seed", "7").strip()


@pytest.mark.parametrize(
    ("token", "words"),
    [
        ("", "non-empty string"),
        (None, "non-empty string"),
        (12345, "non-empty string"),
        ("2" + "A" * 40, "unknown format"),
        ("1" + "A" * (MAX_TOKEN + 1), "too long"),
        ("1!!!", "damaged"),
        ("1", "damaged"),
        ("1AAAA", "damaged"),
    ],
)
def test_malformed_tokens_are_refused(token: object, words: str) -> None:
    with pytest.raises(LinkError, match=words):
        decode(token)


def test_a_truncated_or_edited_token_is_refused() -> None:
    token = token_of()
    for cut in range(1, len(token) - 1, 3):
        with pytest.raises(LinkError, match="damaged"):
            decode(token[:cut])
    for i in range(1, len(token)):
        edited = token[:i] + ("B" if token[i] != "B" else "C") + token[i + 1 :]
        with pytest.raises(LinkError):
            decode(edited)


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_random_edits_never_replay_another_round(data: st.DataObject) -> None:
    token = token_of()
    i = data.draw(st.integers(0, len(token) - 1))
    ch = data.draw(st.sampled_from("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_=+/ "))
    edited = token[:i] + ch + token[i + 1 :]
    if edited == token:
        return
    try:
        link = decode(edited)
    except LinkError:
        return
    # Base64's last character may carry bits the decoder drops: then it is the same round.
    assert link == decode(token)


def test_another_data_version_is_refused_by_name() -> None:
    game = GAME_IDS[0]
    link = decode(token_of(game))
    old = encode(replace(link, version="0.0.1-old"))
    with pytest.raises(LinkError, match=r"version '0\.0\.1-old'.*plays differently"):
        decode(old)


def test_a_game_this_site_lacks_is_refused() -> None:
    link = decode(token_of())
    with pytest.raises(LinkError, match="does not have"):
        decode(encode(replace(link, game="no_such_game")))


def test_a_record_that_does_not_replay_is_refused() -> None:
    game = a_game(decides("collect_or_gamble"), "a gamble")
    seed = next(s for s in range(500) if first_round(game, s)[0].win > 0)
    record, _ = first_round(game, seed)
    link = link_of(game, record)
    with pytest.raises(LinkError, match="does not replay"):
        play_link(replace(link, choices=()))
    with pytest.raises(LinkError, match="does not replay"):
        play_link(replace(link, mode="no_such_mode"))
    with pytest.raises(LinkError, match="does not replay"):
        play_link(replace(link, bet=replace(link.bet, lines=999)))
    # A forged record whose fields are not numbers is damaged, not replayed.
    for forged_record in (
        [game, link.version, "seven", [1, 1, 1], "base", [], 0, {}, 0, 100_000],
        [game, link.version, 7, [1, 1, 1], "base", [["spin", 10**6]], 0, {}, 0, 100_000],
        [game, link.version, 7, [1, 1, 1], "base", [3], 0, {}, 0, 100_000],
        [game, link.version, 7, [1, 1, 1], "base", [], 0, {}, 0],
    ):
        body = json.dumps(forged_record).encode()
        forged = "1" + base64.urlsafe_b64encode(body + hashlib.sha256(body).digest()[:4]).decode().rstrip("=")
        with pytest.raises(LinkError, match="cannot be read"):
            decode(forged)


def test_a_long_feature_keeps_a_short_token() -> None:
    """A feature's many answers alike (free spin after free spin) travel as one run."""
    game = a_game(decides("free_spin"), "free spins answered one by one")
    seed = next(s for s in range(3000) if len(first_round(game, s)[0].choices) >= 8)
    record, events = first_round(game, seed)
    token = encode(link_of(game, record))
    assert len(token) < 200, (len(record.choices), token)
    assert play_link(decode(token)) == events


def test_the_cli_refuses_a_bad_token_in_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["replay", token_of()[:-3], "--jsonl"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("pyengine: this round link is damaged")
    assert err.count("\n") == 1


def test_link_refuses_a_bet_or_choices_that_do_not_fit(capsys: pytest.CaptureFixture[str]) -> None:
    game = GAME_IDS[0]
    assert main(["link", game, "--seed", "1", "--bet", "999:1"]) == 2
    assert "not offered" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["link", game, "--seed", "1", "--bet", "ten"])
    with pytest.raises(EngineError, match="ended before the choices"):
        first_round(game, next(s for s in range(200) if first_round(game, s)[0].win == 0), choices=["collect"])
