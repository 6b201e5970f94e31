"""What-if (`pyengine.math.whatif`): every game rebuilt from its edited data file, its exact
RTP recomputed; bad edits refused with what is wrong, the published game unchanged."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from typing import Any

import pytest

from pyengine.data import read_data_file
from pyengine.errors import EngineError
from pyengine.games import GAME_IDS, get_game
from pyengine.math.rtp import rtp_report
from pyengine.math.whatif import Edit, edited_game, parse_edit, what_if


def _data(game_id: str) -> dict[str, Any]:
    data: dict[str, Any] = read_data_file(f"{game_id}.json").value
    return data


def _paying(game_id: str) -> str:
    """A symbol the game's paytable pays (its first)."""
    return str(next(iter(_data(game_id)["paytable"])))


def _first_set(game_id: str) -> str:
    return str(next(iter(_data(game_id)["reels"])))


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_an_edit_undone_gives_the_published_rtp_and_one_kept_changes_it(game_id: str) -> None:
    symbol, strips = _paying(game_id), _first_set(game_id)
    published = rtp_report(game_id)
    add = parse_edit(f"strip:{strips}:1:{symbol}:+1")
    undone = what_if(game_id, [add, parse_edit(f"strip:{strips}:1:{symbol}:-1")])
    assert undone["rtp"] == published["rtp"]
    assert undone["edits"] == [f"strip:{strips}:1:{symbol}:+1", f"strip:{strips}:1:{symbol}:-1"]
    changed = what_if(game_id, [add])
    assert changed["rtp"] != published["rtp"]
    shipped = get_game(game_id)
    edited_game(game_id, [add])
    # The published game and its data are untouched.
    assert get_game(game_id) is shipped
    assert rtp_report(game_id)["rtp"] == published["rtp"]


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_a_higher_pay_raises_the_rtp(game_id: str) -> None:
    symbol = _paying(game_id)
    pays = _data(game_id)["paytable"][symbol]
    count = max(pays, key=int)
    higher = what_if(game_id, [Edit("pay", symbol, count=int(count), value=int(pays[count]) * 2)])
    assert higher["rtp"] > rtp_report(game_id)["rtp"]


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("strip:base:1:X", "is not strip:SET:REEL:SYMBOL:+N"),
        ("strip:base:one:X:+1", "reel 'one' is not a whole number"),
        ("strip:base:1:X:1", "must be +N or -N"),
        ("strip:base:1:X:+0", "must add or remove at least one symbol"),
        ("pay:X:five:10", "count 'five' is not a whole number"),
        ("reel:1", "is not strip:SET"),
    ],
)
def test_malformed_edits_are_refused(text: str, problem: str) -> None:
    with pytest.raises(EngineError, match=re.escape(problem)):
        parse_edit(text)


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_edits_the_data_cannot_take_are_refused(game_id: str) -> None:
    symbol, strips = _paying(game_id), _first_set(game_id)
    reels = len(_data(game_id)["reels"][strips])
    have = _data(game_id)["reels"][strips][0].count(symbol)
    bad = [
        (f"strip:nosuchset:1:{symbol}:+1", "has no strip set 'nosuchset'; its sets are "),
        (f"strip:{strips}:{reels + 1}:{symbol}:+1", f"strips have reels 1 to {reels}, not {reels + 1}"),
        (f"strip:{strips}:1:{symbol}:-{have + 1}", f"has {have} {symbol}, so {have + 1} cannot be removed"),
        (f"strip:{strips}:1:NOSUCHSYMBOL:+1", "unknown symbol 'NOSUCHSYMBOL'"),
        ("pay:NOSUCHSYMBOL:3:10", "paytable has no symbol 'NOSUCHSYMBOL'"),
        (f"pay:{symbol}:3:-1", "a pay must not be negative"),
    ]
    before = rtp_report(game_id)["rtp"]
    for text, problem in bad:
        with pytest.raises(EngineError, match=re.escape(problem)):
            what_if(game_id, [parse_edit(text)])
    assert rtp_report(game_id)["rtp"] == before


def test_the_command_line_gives_the_same_rtp() -> None:
    game_id = GAME_IDS[0]
    symbol, strips = _paying(game_id), _first_set(game_id)
    edits = [f"strip:{strips}:3:{symbol}:+1", f"pay:{symbol}:3:7"]
    out = subprocess.run(
        [sys.executable, "-m", "pyengine", "rtp", game_id, "--json", *(f"--edit={e}" for e in edits)],
        capture_output=True, text=True, check=True,
    ).stdout
    got = json.loads(out)
    want = what_if(game_id, [parse_edit(e) for e in edits])
    assert got["rtp"] == want["rtp"]
    assert got["edits"] == edits
    bad = subprocess.run(
        [sys.executable, "-m", "pyengine", "rtp", game_id, "--edit", "strip:x"], capture_output=True, text=True
    )
    assert bad.returncode == 2
    assert bad.stderr.startswith("pyengine: edit 'strip:x' is not ")
